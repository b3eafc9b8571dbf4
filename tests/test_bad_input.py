"""Bad input, round two (issue 37): every argument checked before work starts, one line and exit 2
for what is wrong, and outputs that respect what is at their path: a pipe or a device is written
to as it is, a symbolic link is followed, never replaced."""
import atexit
import contextlib
import io
import os
import shutil
import stat
import tempfile
import threading
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pinochle_sim.engine.deal import MAX_SEED
from pinochle_sim.present.cli import main
from pinochle_sim.studies.match import tournament
from pinochle_sim.studies.records import match_hands


def run(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(args)
    return code, out.getvalue(), err.getvalue()


def one_line_error(code: int, err: str) -> bool:
    return code == 2 and err.startswith("pinochle-sim: error: ") and err.count("\n") == 1


@pytest.mark.parametrize("args,message", [
    (["dd", "AS 9H", "TS", "QS JH", "KS QH", "--trump", "H", "--variant", "classic"], "cannot finish the trick"),
    (["tournament", "--variant", "classic", "--strategies", "auction", "--matches", "100"], "at least two"),
    (["tournament", "--variant", "classic", "--strategies", "tricks", "tricks"], "named twice"),
    (["tournament", "--strategies", "table:conf=0.67", "table"], "named twice"),
    (["tournament", "--strategies", "tricks", "formula", "--matches", "0"], "two duplicate pairs a pairing"),
    (["tournament", "--strategies", "tricks", "formula", "--matches", "1"], "two duplicate pairs a pairing"),
    (["simulate", "--deals", "2000", "--seed", "18446744073709551616", "--out", "y.parquet"],
     f"--seed 18446744073709551616: a seed from 0 to {MAX_SEED:,}"),
    (["simulate", "--seed", "-1"], "a seed from 0"),
    (["--threads", "-2", "play"], "--threads -2: a count from 1"),
    (["--threads", "0", "play"], "--threads 0"),
    (["strength", "--policy", "pimc:worlds=100000000"], "worlds needs a whole number from 1 to 10000"),
    (["strength", "--policy", "pimc:dd=99"], "dd needs a whole number from 0 to 20"),
    (["simulate", "--deals", "1000000000000"], "--deals 1000000000000: a count from 0 to"),
    (["bid-table", "--min-hands", "-1"], "--min-hands -1"),
    (["dd", "AS", "TS", "QS", "KS", "--trump", "S", "--leader", "7"], "--leader 7"),
])
def test_the_probes_answer_in_one_line(tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    code, _, err = run(args)
    assert one_line_error(code, err) and message in err, err
    assert list(tmp_path.iterdir()) == []


HAND = "AS AS TS TS KS KS QS QS JS JS 9S 9S"


@pytest.mark.parametrize("call,message", [
    (lambda ps: ps.play("classic", deals=5, forced_bidder=7), "forced_bidder=7: a seat from 0 to 3"),
    (lambda ps: ps.advise(HAND, "classic", deals=100, dealer=9), "dealer 9: classic has seats 0-3"),
    (lambda ps: ps.meld(HAND, 7, "classic"), "unknown suit 7"),
    (lambda ps: ps.meld_distribution("classic", trump=9), "unknown suit 9"),
    (lambda ps: ps.simulate_meld("classic", deals=0), "deals=0, chunk="),
    (lambda ps: ps.double_dummy(["AS 9H", "TS KH", "QS JH", "KS QH"], "H", 9, "classic"), "leader 9"),
    (lambda ps: ps.compare(["classic", "modern"], deals=0), "at least one deal"),
    (lambda ps: ps.legal_plays("AS 9S", "KS QS JS 9H TH", "H", "classic"), "at most 3 cards before yours"),
    (lambda ps: ps.meld_table(np.full((1, 24), 5, np.int8), "classic"), "0 to 2 copies"),
    (lambda ps: ps.deal(1, seed=2 ** 64), "at most 2\\*\\*63 - 1"),
    (lambda ps: ps.records("classic", deals=1, start=2 ** 63), "at most 2\\*\\*63 - 1"),
    (lambda ps: tournament("classic", ["formula", "tricks"], 1), "two duplicate pairs"),
    (lambda ps: match_hands("classic", 1, "formula", "tricks", m=-1), "a first match"),
])
def test_the_library_refuses_what_the_command_line_does(call, message):
    """Round three: the library's own arguments, which its kernels would read out of bounds (a
    seat 7 crashed the process) or which gave answers for no such seat, suit or deal."""
    import pinochle_sim as ps
    with pytest.raises(ValueError, match=message):
        call(ps)


def test_a_table_written_to_a_fifo_reaches_its_reader(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()), daemon=True)
    reader.start()
    code, _, err = run(["play", "--deals", "2", "--seed", "3", "--out", str(fifo)])
    reader.join(timeout=60)
    assert code == 0, err
    assert len(got) == 1 and len(got[0].splitlines()) == 2 and got[0].startswith("{")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


def test_writing_through_a_symbolic_link_keeps_the_link(tmp_path):
    target = tmp_path / "real" / "hands.jsonl"
    target.parent.mkdir()
    target.write_text("old\n")
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    assert run(["play", "--deals", "2", "--seed", "3", "--out", str(link)])[0] == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert len(target.read_text().splitlines()) == 2 and target.read_text().startswith("{")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.jsonl", "real"]
    assert sorted(p.name for p in target.parent.iterdir()) == ["hands.jsonl"]


def test_a_csv_to_stdout_and_a_full_device(tmp_path, capsys):
    assert main(["tournament", "--strategies", "tricks", "formula", "--matches", "2", "-q",
                 "--csv", "/dev/stdout"]) == 0
    out = capsys.readouterr().out
    assert "a,b,win_rate_a" in out.replace(" ", "") or out.splitlines()[0].startswith("a,")
    assert not Path("/dev/stdout.json").exists()
    if not os.access("/dev/full", os.W_OK):
        pytest.skip("no writable /dev/full here")
    code = main(["play", "--deals", "2", "--out", "/dev/full"])
    err = capsys.readouterr().err
    assert code == 2 and "No space left on device" in err and err.count("\n") == 1
    assert stat.S_ISCHR(os.lstat("/dev/full").st_mode) and not Path("/dev/full.json").exists()


# -- the command line fuzzed: each run works, or says what is wrong in one line --------------

EDGES = ["-1", "0", "1", "3", str(MAX_SEED), str(MAX_SEED + 1), str(2 ** 64), "1e3", "x", ""]
CARDS = ["AS TS KS QS JS 9S AH TH KH QH JH 9H", "AS AS AS", "ZZ 9H", "", "AS TS KS QS JS 9S AH TH KH QH JH XX",
         "AS TS KS QS JS 9S AH TH KH QH JH 9H 9D 9D 9C", "♠A"]
VARIANTS = ["thousand", "classic", "three-hand", "nope", "classic:pass_cards=9", "modern:stuck=1", "thousand:",
            "classic:must_trump=maybe"]
POLICIES = ["heuristic", "random", "contract", "pimc:worlds=0", "pimc:dd=-1", "pimc:x=1", "greedy", "pimc:worlds="]
AUCTIONS = ["p 260 p", "", "p p", "abc", "300 p 200", "260 260", "p p p p p"]
STRATEGIES = ["tricks", "formula", "meld+20", "nope", "table:conf=2", "formula:base=x", "tricks:nope=1"]


def _paths(folder: Path):
    return st.sampled_from([str(folder / "out.x"), str(folder / "no" / "such" / "x.csv"), str(folder),
                            "/dev/null", str(folder / "f.csv"), "/proc/version"])


def _command(folder: Path):
    n = st.sampled_from(EDGES)
    v = st.sampled_from(VARIANTS)
    small = st.sampled_from(["-1", "0", "1", "2", "3", "x", str(2 ** 64)])
    return st.one_of(
        st.tuples(st.just("variants"), st.sampled_from(VARIANTS)).map(list),
        st.tuples(st.just("meld"), st.sampled_from(CARDS), st.just("-v"), v,
                  st.sampled_from(["--trump", "-t"]), st.sampled_from(["S", "x", "H", ""])).map(list),
        st.tuples(st.just("play"), st.just("--deals"), small, st.just("--seed"), n, st.just("-v"), v,
                  st.just("--policy"), st.sampled_from(POLICIES), st.just("--bidding"), st.sampled_from(STRATEGIES),
                  st.just("--out"), _paths(folder)).map(list),
        st.tuples(st.just("simulate"), st.just("--deals"), small, st.just("--seed"), n, st.just("-q"),
                  st.just("--bidding"), st.sampled_from(STRATEGIES), st.just("--out"), _paths(folder)).map(list),
        st.tuples(st.just("bid-table"), st.just("--deals"), n, st.just("-q"), st.just("--confidence"),
                  st.sampled_from(["0.67", "2", "x", "-0.1"]), st.just("--csv"), _paths(folder)).map(list),
        st.tuples(st.just("advise"), st.sampled_from(CARDS), st.just("-v"), v, st.just("--deals"), n,
                  st.just("--auction"), st.sampled_from(AUCTIONS)).map(list),
        st.tuples(st.just("compare"), v, v, st.just("--deals"), n, st.just("-q")).map(list),
        st.tuples(st.just("tournament"), st.just("--strategies"), st.sampled_from(STRATEGIES),
                  st.sampled_from(STRATEGIES), st.just("--matches"), small, st.just("-q"),
                  st.just("--csv"), _paths(folder)).map(list),
        st.tuples(st.just("match"), st.just("-v"), v, st.just("--seed"), n, st.just("--team0"),
                  st.sampled_from(STRATEGIES), st.just("--team1"), st.just("tricks"), st.just("--team2"),
                  st.just("formula")).map(list),
        st.tuples(st.just("dd"), st.sampled_from(["AS 9H", "AS", "ZZ", ""]), st.sampled_from(["TS KH", "TS"]),
                  st.sampled_from(["QS JH", "QS"]), st.sampled_from(["KS QH", "KS"]), st.just("--trump"),
                  st.sampled_from(["H", "x"]), st.just("--leader"), small).map(list),
        st.tuples(st.just("strength"), st.just("--deals"), small, st.just("--policy"), st.sampled_from(POLICIES),
                  st.just("--against"), st.sampled_from(POLICIES), st.just("--bidding"), st.just("tricks"),
                  st.just("--no-dd"), st.just("-q")).map(list),
        st.tuples(st.sampled_from(["--threads", "--version"]), small, st.just("variants")).map(list),
    )


FOLDER = Path(tempfile.mkdtemp(prefix="pinochle-fuzz-"))
atexit.register(shutil.rmtree, FOLDER, True)


@settings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck))
@given(args=_command(FOLDER))
def test_the_command_line_never_shows_a_traceback(args):
    for p in FOLDER.iterdir():  # each run starts with an empty folder
        if p.is_dir():
            for q in sorted(p.rglob("*"), reverse=True):
                q.unlink() if not q.is_dir() else q.rmdir()
            p.rmdir()
        else:
            p.unlink()
    code, _, err = run(args)
    assert "Traceback" not in err and "internal error" not in err, (args, err)
    assert code in (0, 2), (args, code, err)
    left = sorted(p.name for p in FOLDER.rglob("*"))
    if code == 2:
        assert one_line_error(code, err), (args, err)
        assert left == [], (args, left)
    else:
        named = {part for a in args for part in Path(a).parts} | {Path(a).name + ".json" for a in args}
        assert set(left) <= named, (args, left)
