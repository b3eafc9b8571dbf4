"""Caches keyed by the code (issue 28): compiled kernels and cached tables live in a folder named
by the source of every module, so an edit anywhere (a module without ``njit`` in its text
included) is never answered by stale machine code; two checkouts side by side keep each other's
kernels, and resumable runs keep their checkpoints apart from both."""
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pinochle_sim
from pinochle_sim import _numba
from pinochle_sim._numba import MAX_AGE_DAYS, OWN_AGE_SECONDS, kernel_dir, source_key

PACKAGE = Path(pinochle_sim.__file__).parent


def _checkout(folder: Path) -> Path:
    """A copy of the package's source at ``folder/pinochle_sim``."""
    shutil.copytree(PACKAGE, folder / "pinochle_sim", ignore=shutil.ignore_patterns("__pycache__"))
    return folder / "pinochle_sim"


def _plant(root: Path) -> None:
    """Seed-free planted change: a set contract costs twice the bid (engine/scoring.py, which has
    no ``njit`` in its text: its kernels are inlined into the hand kernels of other modules)."""
    path = root / "engine" / "scoring.py"
    text = path.read_text()
    assert "njit" not in text.replace("ijit", "")
    assert text.count("out[team] = -bid") == 1
    path.write_text(text.replace("out[team] = -bid", "out[team] = -2 * bid"))


def test_the_key_covers_every_module_and_a_module_without_njit(tmp_path):
    root = _checkout(tmp_path)
    before = source_key(root)
    assert source_key(root) == before  # the same source, the same key
    _plant(root)
    assert source_key(root) != before
    (root / "notes.py").write_text("# any module\n")
    assert len({before, source_key(root)}) == 2
    planted = source_key(root)
    weights = root / "studies" / "value_bidding.json"
    weights.write_text(weights.read_text().replace('"meld": 1', '"meld": 2', 1))
    assert source_key(root) != planted  # the default bidding's weights: a resumed run must not mix them


# A kernel in another module that inlines the scoring, as the hand kernels do.
PROBE = textwrap.dedent("""
    import numpy as np
    from pinochle_sim._numba import njit
    from pinochle_sim.engine.scoring import score_hand
    from pinochle_sim.engine.variants import compile_variant, variant

    @njit
    def set_contract(rules):
        out = np.zeros(2, np.int64)
        z = np.zeros(2, np.int64)
        score_hand(0, 300, z, z, np.array([100, 150]), np.array([6, 6]), z + 3, rules, out)
        return out[0]

    print(set_contract(compile_variant(variant("classic")).rules))
""")


def _set_contract_score(parent: Path, cache: Path, numba_cache: Path | None = None) -> int:
    env = {**os.environ, "PYTHONPATH": str(parent), "XDG_CACHE_HOME": str(cache)}
    env.pop("NUMBA_CACHE_DIR", None)
    if numba_cache is not None:
        env["NUMBA_CACHE_DIR"] = str(numba_cache)
    (parent / "probe.py").write_text(PROBE)
    out = subprocess.run([sys.executable, "probe.py"], cwd=parent, env=env, capture_output=True, text=True,
                         check=True)
    return int(out.stdout.split()[-1])


def test_an_edit_to_a_module_without_njit_reaches_the_cached_kernels(tmp_path):
    # the planted change of issue 28, end to end through numba's on-disk cache
    cache = tmp_path / "cache"
    root = _checkout(tmp_path / "a")
    assert _set_contract_score(root.parent, cache) == -300   # compiled and cached
    assert _set_contract_score(root.parent, cache) == -300   # from the cache
    _plant(root)
    assert _set_contract_score(root.parent, cache) == -600   # the edit, not the stale kernel
    assert len(list((cache / "pinochle-sim" / "kernels").iterdir())) == 2  # the old one, for an hour


def test_a_numba_cache_dir_of_ones_own_is_keyed_too(tmp_path):
    # numba's own cache, keyed by each function's file, would answer the planted edit with the
    # kernel compiled before it: the package keys the folder it is given as it keys its own
    cache, chosen = tmp_path / "cache", tmp_path / "numba"
    root = _checkout(tmp_path / "a")
    assert _set_contract_score(root.parent, cache, chosen) == -300
    _plant(root)
    assert _set_contract_score(root.parent, cache, chosen) == -600
    folders = list((chosen / "pinochle-sim" / "kernels").iterdir())
    assert len(folders) == 2 and all(any(f.rglob("*.nbi")) for f in folders)


def test_two_checkouts_keep_each_others_kernels_and_checkpoints(tmp_path):
    base = tmp_path / "cache"
    a, b = _checkout(tmp_path / "a"), _checkout(tmp_path / "b")
    (a / "extra.py").write_text("X = 1\n")  # the two checkouts differ
    ka, kb = kernel_dir(a, base), kernel_dir(b, base)
    assert ka != kb and ka.exists() and kb.exists()
    checkpoint = base / "runs" / "some-run" / "1-0-10.pkl"
    checkpoint.parent.mkdir(parents=True)
    checkpoint.write_bytes(b"kept")
    _plant(a)  # a moves on: its old kernels stay while a run may still use them (an hour)...
    later = ka.stat().st_mtime + OWN_AGE_SECONDS + 1
    ka2 = kernel_dir(a, base, now=later - 2)
    assert ka2 != ka and ka2.exists() and ka.exists()
    shutil.rmtree(ka2)
    ka2 = kernel_dir(a, base, now=later)  # ...then go; b's and the checkpoints stay
    assert ka2.exists() and not ka.exists()
    assert kb.exists() and checkpoint.read_bytes() == b"kept"
    assert kernel_dir(b, base) == kb  # b finds its own again


def test_only_long_unused_folders_of_other_checkouts_are_pruned(tmp_path):
    base = tmp_path / "cache"
    a, b = _checkout(tmp_path / "a"), _checkout(tmp_path / "b")
    (b / "extra.py").write_text("X = 1\n")
    kb = kernel_dir(b, base)
    old = kb.stat().st_mtime - (MAX_AGE_DAYS + 1) * 86400
    for p in (kb, kb / "used"):
        os.utime(p, (old, old))
    kernel_dir(a, base, now=old + MAX_AGE_DAYS * 86400 - 1)  # not yet too old
    assert kb.exists()
    _plant(a)
    kernel_dir(a, base)  # now: unused for longer than MAX_AGE_DAYS
    assert not kb.exists()


def test_checkpoints_and_tables_live_where_the_key_says():
    from pinochle_sim.runs import Run
    from pinochle_sim.studies.declarer import cache_path
    assert Run(None, {"command": "x"}, "x").folder.parent == _numba.state_dir() / "runs"
    assert Run(None, {"command": "x"}, "x").identity["code"] == _numba.code_key()
    assert cache_path("k").parent == kernel_dir() / "tables"


def test_two_processes_making_one_cached_table_at_once_both_finish(tmp_path):
    """Two runs (or test workers) that build the same table at the same time each store it whole:
    the second to start writing must not lose its file to the first one's rename."""
    import threading
    import time

    import numpy as np

    from pinochle_sim.studies.declarer import store
    path = tmp_path / "tables" / "t.npz"
    errors = []

    def save(target):
        np.savez_compressed(target, x=np.arange(3))
        time.sleep(0.2)  # the other store starts (and finishes writing) meanwhile

    def run():
        try:
            store(path, save)
        except OSError as e:
            errors.append(e)

    first = threading.Thread(target=run)
    first.start()
    time.sleep(0.1)
    run()
    first.join()
    assert not errors
    assert list(np.load(path)["x"]) == [0, 1, 2]
    assert [p.name for p in path.parent.iterdir()] == ["t.npz"]  # no temporary file left
