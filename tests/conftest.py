import os
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent))
# The auction model fitted on 20,000 deals an iteration, not 200,000, and the made-to-declare
# table of the `table` strategy from 20,000 deals, not 100,000: every test, CLI run and notebook
# started from here (tests that need the full size say so).
os.environ.setdefault("PINOCHLE_MODEL_DEALS", "20000")
os.environ.setdefault("PINOCHLE_TABLE_DEALS", "20000")
settings.register_profile("ci", max_examples=60, deadline=None)
settings.load_profile("ci")


@pytest.fixture(scope="session")
def random_hands():
    """2,000 random 12-card hands (count vectors) from the package's own dealer."""
    from pinochle_sim.engine.deal import deal
    return deal(500, seed=12345).reshape(-1, 24)


@pytest.fixture
def rng():
    return np.random.default_rng(2026)


#: Tests that start another Python process running the package (a notebook kernel, a script, the
#: command line): they run last, when the kernels they need are compiled and cached, instead of
#: compiling them a second time beside the test workers.
_IN_ANOTHER_PROCESS = ("test_notebooks.py::test_a_fresh_kernel",
                       "test_cli.py::test_bench_script_smoke", "test_cli.py::test_module_entry_point")


_STARTED = time.time()


def pytest_sessionstart(session):
    """Under two test workers (``make test``), compile the kernels first, once, split between
    them (``_warmup``)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        from _warmup import warm_up
        warm_up(*_worker())


def pytest_terminal_summary(terminalreporter):
    """The warm-up's compiling is no test's: say how long it took, beside the slowest tests."""
    from _warmup import report
    lines = report(_STARTED)
    if lines:
        terminalreporter.write_sep("=", "compiling before the tests (tests/_warmup.py)")
        for line in lines:
            terminalreporter.write_line(line)


def pytest_sessionfinish(session):
    if os.environ.get("PYTEST_XDIST_WORKER"):
        from _warmup import finished
        finished(*_worker())


def _worker() -> tuple[str, int, str]:
    env = os.environ
    return env["PYTEST_XDIST_WORKER"], int(env["PYTEST_XDIST_WORKER_COUNT"]), env["PYTEST_XDIST_TESTRUNUID"]


def pytest_collection_modifyitems(config, items):
    items.sort(key=lambda item: any(k in item.nodeid for k in _IN_ANOTHER_PROCESS))  # stable: the rest keep order
