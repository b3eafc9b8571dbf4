"""The command line as a user runs it: outputs, JSON, and one-line errors with exit code 2."""
import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from pinochle_sim.present.cli import count, main
from pinochle_sim.studies.strategies import strategy


def run(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_variants_list_and_detail(capsys):
    code, out, _ = run(capsys, "variants")
    assert code == 0 and "thousand (default)" in out and "classic-pass4" in out
    code, out, _ = run(capsys, "variants", "thousand")
    assert "must_trump" in out and "you must trump in" in out
    code, out, _ = run(capsys, "variants", "thousand:must_trump=false", "--json")
    assert json.loads(out)["options"]["must_trump"] is False


def test_meld_command(capsys):
    code, out, _ = run(capsys, "meld", "AS TS KS QS JS KS 9S QS JD AH AD AC", "--trump", "S",
                       "--variant", "thousand")
    assert code == 0 and "trump S: 370" in out and "royal_marriage" in out
    code, out, _ = run(capsys, "meld", "AS TS KS QS JS KS 9S QS JD AH AD AC", "--variant", "classic",
                       "--json")
    melds = json.loads(out)["melds"]
    assert [m["trump"] for m in melds][0] == "S" and melds[0]["total"] == 340
    code, out, _ = run(capsys, "meld", "AS TS KS QS JS KS 9S QS JD AH AD AC", "-t", "S",
                       "--declare", "AS TS KS QS JS 9S")
    assert "refused (make no meld): 9S" in out


@pytest.mark.parametrize("args,message", [
    (("meld", "AS XS"), "unknown card 'XS'"),
    (("meld", "AS TS"), "a hand has 12 cards, got 2"),
    (("meld", "AS AS AS", "--any-size"), "a third copy of AS"),
    (("meld", "AS", "--any-size", "--variant", "clasic"), "unknown variant 'clasic'"),
    (("meld", "AS", "--any-size", "--variant", "classic:pass=3"), "unknown option 'pass'"),
    (("meld", "AS", "--any-size", "-t", "X"), "unknown suit 'X'"),
    (("odds", "--deals", "-5"), "--deals -5: a count from 0 to"),
    (("meld", "AS AS AS AS AS", "--any-size", "--variant", "double-deck"), "a fifth copy of AS"),
    (("meld", "9S", "--any-size", "--variant", "double-deck"), "9S is not in this deck"),
    (("meld", "AS TS", "--variant", "double-deck"), "a hand has 20 cards, got 2"),
    (("meld", "AS", "--any-size", "--variant", "double-deck:run=15/150"), "run=15/150: expected "
     "single/double/triple/quadruple"),
    (("simulate", "--variant", "double-deck", "--deals", "10", "--dd", "20"), "--dd is a trick number from 0 to 19"),
    (("compare", "classic", "double-deck", "--deals", "100"), "double-deck deals 4x20"),
    (("play", "--variant", "classic:deck=2/2/2/2/2/1,hand_size=11"), "deck=2/2/2/2/2/1: hands are played from a "
     "deck of two or four copies"),
])
def test_errors_are_one_line(capsys, args, message):
    code, out, err = run(capsys, *args)
    assert code == 2 and message in err and err.count("\n") == 1 and "Traceback" not in err


def test_double_deck_meld_and_odds(capsys):
    """Seed 003's double-deck: a 20-card hand's meld up to quadruples, and its exact odds."""
    hand = "AS AS AS AS AH AH AH AH AD AD AD AD AC AC AC AC QS QS JD JD"
    code, out, _ = run(capsys, "meld", hand, "--variant", "double-deck", "-t", "S")
    assert code == 0 and "trump S: 230" in out and "quadruple_aces" in out and "double_pinochle" in out
    code, out, _ = run(capsys, "odds", "--variant", "double-deck", "--json")
    report = json.loads(out)
    assert code == 0 and report["variant"] == "double-deck" and report["cards"] == 20
    assert "quadruple_pinochle" in report["events"] and "nine_of_trump_given_suit" not in report["events"]


def test_double_deck_solves_three_copies_in_a_hand(capsys):
    """Double-deck's positions go to the solver: three aces of spades in one hand, another in the
    next; the first ace led wins every trick (a card must rank strictly higher to beat), so seat
    0's side takes all twelve points and the last trick's 2 (exhaustive minimax agrees)."""
    code, out, _ = run(capsys, "dd", "AS AS AS", "AS TS TS", "TS TS KS", "KS KS KS", "-t", "H",
                       "--variant", "double-deck")
    assert code == 0 and "best AS, 14 points" in out


def test_dd_answers_in_json_for_a_position_and_for_a_record(capsys, tmp_path):
    code, out, _ = run(capsys, "dd", "9H", "TS KH", "QS JH", "KS QH", "-t", "H", "--trick", "AS", "--json")
    r = json.loads(out)
    assert code == 0 and r["trick"] == ["AS"] and r["seat"] == 1 and r["values"][r["best"][0]] == r["points"]
    records = tmp_path / "r.jsonl"
    assert run(capsys, "play", "--variant", "classic", "--deals", "3", "--out", str(records))[0] == 0
    code, out, _ = run(capsys, "dd", "--record", str(records), "--from-trick", "10", "--json")
    r = json.loads(out)
    assert code == 0 and [t["trick"] for t in r["tricks"]] == [10, 11]
    assert all(t["swing"] == t["after"] - t["before"] for t in r["tricks"])


def test_odds_on_one_deal_leaves_its_z_blank(capsys):
    code, out, err = run(capsys, "odds", "--variant", "classic", "--deals", "1", "-q")
    assert code == 0 and "Traceback" not in err
    row = next(line for line in out.splitlines() if line.startswith("mean meld, trump named first"))
    assert row.split()[-1] == "0.000"  # the s.e. of one deal, and no z after it


def test_odds_exact_and_simulated(capsys, tmp_path):
    target = tmp_path / "odds.json"
    code, out, _ = run(capsys, "odds", "--variant", "classic", "--deals", "20000", "--seed", "1",
                       "--quiet", "--out", str(target))
    assert code == 0 and "aces around" in out and "simulated" in out
    report = json.loads(target.read_text())
    assert report["variant"] == "classic" and report["simulated"]["deals"] == 20000
    code, out, _ = run(capsys, "odds", "--variant", "modern", "--json")
    r = json.loads(out)
    for key in ("marriage_any_suit", "run_any_suit", "run_given_suit", "aces_around", "double_aces",
                "pinochle", "double_pinochle", "roundhouse", "no_aces"):
        assert 0 < r["events"][key] < 1
    assert r["mean_meld_best_trump"] > r["mean_meld_fixed_trump"]


def test_module_entry_point():
    res = subprocess.run([sys.executable, "-m", "pinochle_sim", "meld", "AS TS KS QS JS", "--any-size",
                          "-t", "S"], capture_output=True, text=True)
    assert res.returncode == 0 and "trump S: 190" in res.stdout


def test_bench_script_smoke(tmp_path):
    from pathlib import Path
    script = Path(__file__).parents[1] / "scripts" / "bench.py"
    out = tmp_path / "bench.json"
    log = tmp_path / "full.jsonl"
    res = subprocess.run([sys.executable, str(script), "--deals", "20000", "--repeat", "1", "--out",
                          str(out), "--dd-deals", "3", "--dd-full", "classic=1", "--dd-log", str(log)],
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    figures = json.loads(out.read_text())
    assert figures["double_dummy_8_tricks_left"]["thousand"]["positions"] == 3
    solved = json.loads(log.read_text())
    assert figures["double_dummy_full_deal"]["classic"]["median_ms"] == solved["ms"] > 0
    # timed again: the whole hand the log holds (same code, same machine) is not solved again
    res = subprocess.run([sys.executable, str(script), "--only-dd", "--out", str(out), "--dd-deals", "0",
                          "--dd-full", "classic=1", "--dd-log", str(log)], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    assert json.loads(log.read_text()) == solved
    assert json.loads(out.read_text())["full_hand_per_s"] == figures["full_hand_per_s"]  # --only-dd keeps it
    kept = json.loads(out.read_text())
    res = subprocess.run([sys.executable, str(script), "--no-dd", "--deals", "20000", "--repeat", "1", "--out",
                          str(out)], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    again = json.loads(out.read_text())  # --no-dd times the rest and keeps the solver's figures and their run
    for key in ("double_dummy_8_tricks_left", "double_dummy_full_deal", "double_dummy_run"):
        assert again[key] == kept[key]
    for key in ("deal_per_s", "deal_meld_per_s", "deal_per_s_1thread", "deal_meld_per_s_1thread",
                "full_hand_per_s", "full_hand_per_s_1thread", "ref_deal_per_s", "ref_deal_meld_per_s",
                "ref_full_hand_per_s", "full_hand_contract_per_s"):
        assert figures[key] > 0
    ref = {"full_hand_contract_per_s": "ref_full_hand_per_s"}
    for key in ("deal_per_s", "deal_meld_per_s", "full_hand_per_s", "full_hand_contract_per_s"):  # the ratios
        assert figures[key + "_vs_ref"] == round(figures[key] / figures[ref.get(key, "ref_" + key)], 3)
        assert 0 < figures["rounds"][key + "_vs_ref"]["min"] <= figures["rounds"][key + "_vs_ref"]["median"]
    assert figures["rounds"]["deal_per_s"]["median"] <= figures["deal_per_s"]  # the figure is the best round


# --------------------------------------------------------------------------------------------
# First contact (issue 9): help, bad input and tiny runs never show a traceback.

from pinochle_sim.present.cli import COMMANDS  # noqa: E402

HAND = "AS TS KS QS JS KS 9S QS JD AH AD AC"


def test_help_of_the_tool_and_every_command(capsys):
    code, out, err = run(capsys, "--help")
    assert code == 0 and "usage: pinochle-sim" in out and not err
    for command in COMMANDS:
        code, out, err = run(capsys, command, "--help")
        assert code == 0 and f"usage: pinochle-sim {command}" in out and not err, command


def _files(folder):
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


BAD_INPUT = [
    (("dd", "AS 9H", "TS KH", "-t", "H"), "thousand has 4 seats: give 4 hands"),
    (("strength", "--policy", "random", "--against", "random"), "name the same policy"),
    (("strength", "--dd", "12"), "--dd is a trick number from 0 to 11"),
    (("strength", "--policy", "pimc:depth=3"), "unknown option 'depth' of play policy 'pimc'"),
    (("play", "--policy", "smart"), "unknown play policy 'smart'"),
    (("bid-table", "--policy", "pimc:worlds=0"), "worlds needs a whole number from 1 to 10000"),
    (("dd", "--record", "no-such-file.jsonl"), "no such file"),
    (("dd", "--record", "object.jsonl"), "line 1 is not a hand record (it lacks variant"),
    (("dd", "AS 9H", "TS KH", "QS JH", "KS QH", "-t", "H", "--from-trick", "2"), "--from-trick reads a record"),
    (("match", "--variant", "classic", "--team2", "formula"), "--team2: classic has two sides"),
    (("bid-chart", "--format", ","), "--format names no format"),
    (("dd", "AS 9H", "TS KH", "QS JH", "KS"), "--trump is needed"),
    (("variants", "clasic"), "unknown variant 'clasic'"),
    (("variants", "classic:must_trump=maybe"), "must_trump='maybe'"),
    (("variants", "classic:must_trump=false,must_trump=true"), "option 'must_trump' is given twice"),
    (("variants", "classic:raise_step=0"), "raise_step=0: a bid must rise"),
    (("play", "--variant", "thousand:raise_min=0"), "raise_min=0: a bid must rise"),
    (("play", "--policy", "pimc:worlds=5,worlds=6"), "option 'worlds' is given twice"),
    (("play", "--bidding", "table:conf=0.8,conf=0.5"), "option 'conf' is given twice"),
    (("meld", "AS TS KS QS JS KS 9S QS JD AH AD 1C"), "unknown card '1C'"),
    (("meld", "AS TS"), "a hand has 12 cards, got 2"),
    (("odds", "--deals", "-5"), "--deals -5: a count from 0 to"),
    (("odds", "--out", "afile/odds.json"), "cannot write afile/odds.json"),
    (("play", "--variant", "thousand:pass_cards=13"), "pass_cards=13"),
    (("play", "--bidding", "bluff"), "unknown strategy 'bluff'"),
    (("play", "--out", "afile/p.jsonl"), "cannot write afile/p.jsonl"),
    (("play", "--out", "afolder"), "cannot write afolder: it is a folder"),
    (("play", "--deals", "2.5"), "'2.5' is not a whole number"),
    (("play", "--deals", "lots"), "'lots' is not a count"),
    (("simulate", "--deals", "10", "--out", "afile/x.parquet"), "cannot write afile/x.parquet"),
    (("simulate", "--deals", "10", "--out", "afolder"), "cannot write afolder: it is a folder"),
    (("simulate", "--deals", "10", "--variant", "modern:stuck=1"), "unknown option 'stuck'"),
    (("simulate", "--deals", "10", "--dd", "-1", "--out", "x.parquet"), "--dd is a trick number from 0 to 11"),
    (("bid-table", "--confidence", "2"), "--confidence must be between 0 and 1"),
    (("bid-table", "--csv", "afile/t.csv"), "cannot write afile/t.csv"),
    (("bid-chart", "--format", "gif"), "unknown format 'gif'"),
    (("bid-chart", "--out", "afile/chart"), "cannot write afile/chart"),
    (("bid-chart", "--out", "afile"), "cannot write into afile: it is a file, not a folder"),
    (("bid-chart", "--confidence", "0"), "--confidence must be between 0 and 1"),
    (("bid-chart", "--policy", "random", "--auction-model"), "the auction model is played with contract"),
    (("advise", "AS TS KS"), "a hand has 12 cards, got 3"),
    (("advise", HAND.replace("AC", "ZC")), "unknown card 'ZC'"),
    (("advise", HAND, "--variant", "pinochle"), "unknown variant 'pinochle'"),
    (("compare", "classic"), "compare needs at least two variants"),
    (("compare", "classic", "classic:last_trick=x"), "last_trick='x'"),
    (("compare", "classic", "modern", "--plot", "afile/c.png"), "cannot write afile/c.png"),
    (("tournament", "--strategies", "table", "bluff"), "unknown strategy 'bluff'"),
    (("tournament", "--strategies", "table", "formula", "--matches", "-1"), "--matches -1: a count from 0"),
    (("match", "--team0", "bluff"), "unknown strategy 'bluff'"),
    (("calibrate", "--strategy", "formula"), "calibrate needs a strategy with its own estimate"),
    (("calibrate", "--against", "nonsense"), "nonsense"),
    (("calibrate", "--plot", "afile/c.png"), "cannot write afile/c.png"),
]


@pytest.mark.parametrize("args,message", BAD_INPUT, ids=lambda a: " ".join(a) if isinstance(a, tuple) else "")
def test_bad_input_is_one_line_exit_2_and_writes_nothing(capsys, tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_text("a file, not a folder")
    (tmp_path / "afolder").mkdir()
    (tmp_path / "object.jsonl").write_text('{"deal": 0}\n')  # JSON, but not a hand record
    before = _files(tmp_path)
    code, out, err = run(capsys, *args)
    assert code == 2, (code, err)
    assert message in err and err.count("\n") == 1 and "Traceback" not in err, err
    assert _files(tmp_path) == before


@pytest.mark.parametrize("text,value", [("200000", 200_000), ("200_000", 200_000), ("200,000", 200_000),
                                        ("2e5", 200_000), ("200k", 200_000), ("2M", 2_000_000), ("1.5k", 1500)])
def test_counts_are_read_as_people_write_them(text, value):
    assert count(text) == value


def test_every_command_is_covered_by_bad_input():
    assert {a[0] for a, _ in BAD_INPUT} == set(COMMANDS)


TINY = {
    "variants": ["variants", "modern"], "meld": ["meld", HAND],
    "odds": ["odds", "--deals", "10", "-q"], "play": ["play", "--deals", "10", "--show"],
    "simulate": ["simulate", "--deals", "10", "-q", "--out", "s.parquet"],
    "bid-table": ["bid-table", "--deals", "10", "-q", "--no-cache"],
    "bid-chart": ["bid-chart", "--deals", "10", "-q", "--no-cache", "--out", "chart"],
    "advise": ["advise", HAND, "--deals", "10", "-q"],
    "compare": ["compare", "thousand", "classic", "--deals", "10", "-q"],
    "tournament": ["tournament", "--strategies", "table", "formula", "--matches", "10", "-q"],
    "match": ["match"], "calibrate": ["calibrate", "--deals", "10"],
    "dd": ["dd", "AS 9H", "TS KH", "QS JH", "KS QH", "-t", "H"],
    "strength": ["strength", "--deals", "10", "-q"],
}


@pytest.mark.parametrize("command", list(TINY))
def test_tiny_runs_answer_or_say_too_few(capsys, tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *TINY[command])
    assert "Traceback" not in out + err
    if code == 2:
        assert err.startswith("pinochle-sim: error: too few deals for ") and err.count("\n") == 1
        assert _files(tmp_path) == []
    else:
        assert code == 0 and out.strip(), err


def test_simulate_says_when_no_contract_was_played(capsys, tmp_path):
    """Deal 0 of classic's seed 3 is thrown in: no average bid or made rate of no contracts."""
    code, out, err = run(capsys, "simulate", "--variant", "classic", "--deals", "1", "--seed", "3", "-q",
                         "--out", str(tmp_path / "s.parquet"))
    assert code == 0 and "1 deal in " in out and "thrown in 100.0%; no contract played" in out, out + err


def test_tiny_runs_cover_every_command():
    assert set(TINY) == set(COMMANDS)


HAND15 = "AS TS KS QS JS 9S AH TH KH QH AD KD QD AC KC"
TINY_THREE = {**TINY, "meld": ["meld", HAND15], "advise": ["advise", HAND15, "--deals", "10", "-q"],
              "compare": ["compare", "three-hand", "three-hand:discard_counts=false", "--deals", "10", "-q"],
              "tournament": ["tournament", "--strategies", "formula", "meld+20", "tricks", "--matches", "4",
                             "-q"],
              "calibrate": ["calibrate", "--deals", "10", "--strategy", "table"],
              "dd": ["dd", "AS 9H", "TS KH", "QS JH", "-t", "H"]}


@pytest.mark.parametrize("command", list(TINY_THREE))
def test_every_command_takes_three_hand(capsys, tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    args = TINY_THREE[command]
    args = args if command in ("compare", "variants") else [*args, "--variant", "three-hand"]
    code, out, err = run(capsys, *args)
    assert "Traceback" not in out + err
    assert code == 0 or err.startswith("pinochle-sim: error: too few deals for "), err


@pytest.mark.parametrize("args,message", [
    (("advise", HAND, "--variant", "three-hand"), "a hand has 15 cards, got 12"),
    (("advise", HAND15, "--variant", "three-hand", "--seat", "3"), "three-hand has seats 0-2"),
    (("tournament", "--variant", "three-hand", "--strategies", "formula", "tricks"), "at least three"),
    (("compare", "three-hand", "modern", "--deals", "100"), "dealt alike"),
    (("variants", "three-hand:pass_cards=3"), "only partners pass cards"),
    (("odds", "--variant", "modern", "--with-kitty"), "modern has no kitty"),
])
def test_three_hand_bad_input_is_one_line(capsys, args, message):
    code, out, err = run(capsys, *args)
    assert code == 2 and message in err and err.count("\n") == 1 and "Traceback" not in err, err


def test_five_nines_throw_in_says_why(capsys):
    code, out, _ = run(capsys, "play", "--variant", "classic-pass4:five_nines=true", "--deals", "1",
                       "--start", "1", "--seed", "2", "--show")
    assert code == 0 and "holds five nines and no meld" in out and "nobody bid" in out


def test_output_files_are_readable_by_others(capsys, tmp_path):
    import os
    import stat
    target = tmp_path / "records.jsonl"
    old = os.umask(0o022)
    try:
        assert run(capsys, "play", "--deals", "1", "--out", str(target))[0] == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE(target.stat().st_mode) == 0o644


def test_calibrate_reports_the_margin_the_situations_and_the_brier_score(tmp_path, capsys):
    # issue 31: bins, situations and the margin side by side, against another strategy's bidding
    out = tmp_path / "cal.csv"
    assert main(["calibrate", "--variant", "classic", "--strategy", "cautious", "--against", "tricks",
                 "--deals", "3000", "--seed", "2", "--csv", str(out)]) == 0
    text = capsys.readouterr().out
    assert "the other side with tricks" in text and "at the margin" in text and "Brier score" in text
    t = pd.read_csv(out)
    assert set(t.group) == {"bin", "situation", "margin"}
    meta = json.loads(Path(str(out) + ".json").read_text())
    assert meta["against"] == "tricks" and meta["strategy"] == strategy("cautious").spec and 0 < meta["brier"] < 1
    # --json: the same tables and scores (the run is the same, so the numbers are)
    assert main(["calibrate", "--variant", "classic", "--strategy", "cautious", "--against", "tricks",
                 "--deals", "3000", "--seed", "2", "--json"]) == 0
    j = json.loads(capsys.readouterr().out)
    assert j["brier"] == meta["brier"] and j["against"] == "tricks"
    assert [r["contracts"] for r in j["bins"]] == t[t.group == "bin"].contracts.tolist()


def test_match_answers_in_json(capsys):
    assert main(["match", "--variant", "classic", "--seed", "3", "--json"]) == 0
    j = json.loads(capsys.readouterr().out)
    assert j["hands"][-1]["totals"] == j["totals"] and j["winner"] in (0, 1) and len(j["bidding"]) == 2
