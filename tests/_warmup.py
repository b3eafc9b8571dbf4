"""Compile the kernels once, before the tests, split between the two test workers.

Without it both workers meet the same kernels at about the same time and compile them twice (the
default hand's tree, the records, the matches: a minute of one core in a cold run), and the
notebooks and command lines started in other processes compile what no worker had compiled yet.
Each job is a tiny run through the public API; a job that fails only leaves its kernels to the
tests (which then say what is wrong). Worker 0 compiles the default play's tree and what is
built on it (records, matches, advice, the double-dummy loops), the meld odds and the bench
script's kernels; worker 1 the sampling player's tree (its card first, see
:func:`_sampling_card`), the longest job. Then each waits for the other, so that every test runs
with every kernel on disk. Once done for a version of the source in a checkout, it is not run
again there.
"""
from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
import time
from pathlib import Path

HAND = "AS TS KS QS JS KS 9S QS JD AH AD AC"
TIMEOUT = 900  # seconds a worker waits for the other


def _default_tree():
    from pinochle_sim.studies.simulate import play
    play("thousand", 8, seed=1)


def _records():
    from pinochle_sim.studies.records import records
    list(records("thousand", deals=2, seed=1))


def _matches():
    from pinochle_sim.studies.match import play_matches
    play_matches("classic", "value", "tricks", matches=1, seed=1)


def _advice():
    from pinochle_sim.studies.advise import advise
    advise(HAND, "thousand", deals=40, seed=1)
    advise(HAND, "classic", deals=20, seed=1, auction="p 260")


def _sampling_card():
    """The sampling player's card alone (its worlds, the search, the rollouts): most of its tree,
    compiled while worker 0 compiles the hand's kernels that the sampling player's loops share
    with the default play, which :func:`_sampling_player` then finds on disk."""
    import numpy as np
    from pinochle_sim.engine.deal import deal
    from pinochle_sim.engine.knowledge import new_seen
    from pinochle_sim.engine.pimc import new_scratch, pimc_card
    from pinochle_sim.engine.play import to_masks
    from pinochle_sim.engine.search import Position
    from pinochle_sim.engine.tricks import Hands, policy_row
    from pinochle_sim.engine.variants import PRESETS, compile_variant
    from pinochle_sim.studies.simulate import Setup
    v = PRESETS["thousand"]
    tb = compile_variant(v)
    masks = np.array([to_masks(h) for h in deal(1, seed=1)[0]], np.int64)
    hs = Hands(masks[:, 0].copy(), masks[:, 1].copy(), new_seen(4), np.zeros(4, np.int64), np.zeros(24, np.int64))
    lead = int(masks[0, 0] & -masks[0, 0]).bit_length() - 1
    pimc_card(hs, Position(0, 0, 0, -1, -1, 0, 0, 48, 250), 0, 0, int(masks[0, 0]), lead, 0, 0, 4, tb,
              *policy_row("pimc:worlds=2")[1][1:], np.zeros((3, 2), np.int64), np.uint64(1),
              new_scratch(4, 2, 12, Setup(v, "contract").bid))


def _sampling_player():
    from pinochle_sim.studies.records import records
    from pinochle_sim.studies.simulate import play
    play("thousand", 2, seed=1, policy="pimc:worlds=2")
    list(records("thousand", deals=1, seed=1, policy="pimc:worlds=2"))


def _odds():
    from pinochle_sim.engine.deal import deal
    from pinochle_sim.engine.meld import meld_table
    from pinochle_sim.studies.odds import exact_odds, simulate_meld
    meld_table(deal(2, seed=1)[:, 0])
    simulate_meld("classic", deals=100, seed=1)
    exact_odds("classic")


def _double_dummy():
    from pinochle_sim.studies.dd import double_dummy
    from pinochle_sim.studies.simulate import play
    play("thousand", 2, seed=1, dd_from=10)
    double_dummy(["AS TS", "KS QS", "JS 9S", "AH TH"], "S", 0, "thousand")


def _bench():
    """The bench script's own kernels (its reference kernels), for its smoke test: run as a script,
    as the test runs it (numba's cache of a script's kernels names the module they were compiled
    in)."""
    import subprocess
    import sys
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, str(Path(__file__).parents[1] / "scripts" / "bench.py"), "--deals", "2000",
                        "--repeat", "1", "--out", f"{tmp}/bench.json", "--dd-deals", "1", "--dd-full"],
                       capture_output=True, check=True)


PLAN = {0: [_default_tree, _records, _matches, _advice, _double_dummy, _odds, _bench],
        1: [_sampling_card, _sampling_player]}


def _wait(folder: Path, names: list[str]) -> None:
    end = time.monotonic() + TIMEOUT
    while not all((folder / n).exists() for n in names) and time.monotonic() < end:
        time.sleep(0.5)


def _folder(run_id: str) -> Path:
    return Path(tempfile.gettempdir()) / f"pinochle-sim-warm-up-{run_id}"


def _warmed_mark() -> Path:
    """The mark that this checkout's kernels are compiled for the source as it is now. The kernel
    folder is keyed by the source alone and shared by checkouts of the same source, but numba
    caches each kernel by its file's path: another checkout (a fresh clone in CI beside this one)
    finds the folder and its mark and still has everything to compile, so the mark names the
    checkout."""
    from pinochle_sim import _numba
    checkout = hashlib.sha1(str(_numba._ROOT).encode()).hexdigest()[:12]
    return _numba.kernel_dir() / f"tests-warmed-up-{checkout}"


def warm_up(worker: str, count: int, run_id: str) -> None:
    """Run worker ``worker``'s (``gwN``) share of :data:`PLAN`, then wait for the others; nothing
    when a warm-up has run before on this source in this checkout (:func:`_warmed_mark`)."""
    done = _warmed_mark()
    if done.exists():
        return
    index = int(worker.removeprefix("gw"))
    folder = _folder(run_id)
    folder.mkdir(exist_ok=True)
    seconds = {}
    start = time.perf_counter()
    for step in PLAN.get(index, []) if count == 2 else []:
        t = time.perf_counter()
        try:
            step()
        except Exception:  # noqa: BLE001 - the tests that need these kernels will say what is wrong
            pass
        seconds[step.__name__.strip("_")] = round(time.perf_counter() - t, 1)
    (folder / f"done-{worker}").touch()
    _wait(folder, [f"done-gw{i}" for i in range(count)])
    seconds["in all"] = round(time.perf_counter() - start, 1)
    (done.parent / f"tests-warm-up-{worker}.json").write_text(json.dumps(seconds))
    if count == 2:
        done.touch()


def report(since: float) -> list[str]:
    """One line per worker that warmed up after ``since`` (a time.time()): its seconds by job."""
    from pinochle_sim._numba import kernel_dir
    lines = []
    for f in sorted(kernel_dir().glob("tests-warm-up-gw*.json")):
        if f.stat().st_mtime >= since:
            times = ", ".join(f"{k} {v:.0f} s" for k, v in json.loads(f.read_text()).items())
            lines.append(f"{f.stem.removeprefix('tests-warm-up-')}: {times}")
    return lines


def finished(worker: str, count: int, run_id: str) -> None:
    """Worker ``worker`` is done; the last one removes the folder of marks."""
    folder = _folder(run_id)
    (folder / f"finished-{worker}").touch()
    if all((folder / f"finished-gw{i}").exists() for i in range(count)):
        shutil.rmtree(folder, ignore_errors=True)
