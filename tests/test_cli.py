"""The command line as a user runs it: outputs, JSON, and one-line errors with exit code 2."""
import json
import subprocess
import sys

import pytest

from pinochle_sim.cli import main


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
    (("odds", "--deals", "-5"), "--deals must be >= 0"),
])
def test_errors_are_one_line(capsys, args, message):
    code, out, err = run(capsys, *args)
    assert code == 2 and message in err and err.count("\n") == 1 and "Traceback" not in err


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
    res = subprocess.run([sys.executable, str(script), "--deals", "20000", "--repeat", "1", "--out",
                          str(out)], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    figures = json.loads(out.read_text())
    for key in ("deal_per_s", "deal_meld_per_s", "deal_per_s_1thread", "deal_meld_per_s_1thread",
                "full_hand_per_s", "full_hand_per_s_1thread"):
        assert figures[key] > 0
