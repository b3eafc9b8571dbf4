"""Long runs on a Dask cluster and resumed after an interruption (issue 17): the same results as
one uninterrupted run here, and nothing left behind."""
import json
import time
import warnings

import numpy as np
import pandas as pd
import pytest

from pinochle_sim import runs
from pinochle_sim.present.cli import main
from pinochle_sim.runs import Run, Where, chunks_of
from pinochle_sim.studies.simulate import simulate


def test_chunks_cover_the_deals_once():
    cs = chunks_of(7, 10, 25, 10)
    assert [(c.seed, c.start, c.count) for c in cs] == [(7, 10, 10), (7, 20, 10), (7, 30, 5)]
    assert chunks_of(7, 0, 0, 10) == []


def test_a_sampling_players_run_comes_in_small_chunks(tmp_path, monkeypatch):
    """``pimc``'s hands take up to seconds where the other policies' take microseconds: its runs come in
    chunks of at most ``SAMPLING_CHUNK`` deals (so that the progress bar moves and ``--resume``
    keeps its work as it goes), with the same result as one chunk."""
    assert [c.count for c in chunks_of(7, 0, 600, 1 << 18, sampling=True)] == [256, 256, 88]
    assert [c.count for c in chunks_of(7, 0, 600, 100, sampling=True)] == [100] * 6
    assert [c.count for c in chunks_of(7, 0, 200, 1 << 18, sampling=True, dd=True)] == [64, 64, 64, 8]
    policy = ["contract", "pimc:worlds=2,dd=3,close=0", "contract", "contract"]
    done = []
    monkeypatch.setattr(runs, "SAMPLING_CHUNK", 4)
    simulate("thousand", 10, 3, tmp_path / "small.parquet", policy, progress=False, on_chunk=done.append)
    assert [c.count for c in done] == [4, 4, 2]
    done.clear()
    simulate("thousand", 10, 3, tmp_path / "fast.parquet", "contract", progress=False, on_chunk=done.append)
    assert [c.count for c in done] == [10]
    monkeypatch.undo()
    done.clear()
    simulate("thousand", 10, 3, tmp_path / "whole.parquet", policy, progress=False, on_chunk=done.append)
    assert [c.count for c in done] == [10]
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "small.parquet"),
                                  pd.read_parquet(tmp_path / "whole.parquet"))


def test_an_interrupted_run_resumes_to_the_uninterrupted_result(tmp_path):
    whole = tmp_path / "whole.parquet"
    simulate("classic", 5000, 3, whole, progress=False, chunk=1000)
    out = tmp_path / "resumed.parquet"
    done = []

    def stop_after_two(chunk):
        done.append(chunk.start)
        if len(done) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simulate("classic", 5000, 3, out, progress=False, chunk=1000, where=Where(resume=True),
                 on_chunk=stop_after_two)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["whole.parquet", "whole.parquet.json"]
    done.clear()
    simulate("classic", 5000, 3, out, progress=False, chunk=1000, where=Where(resume=True),
             on_chunk=done.append)
    assert len(done) == 3  # two chunks came from the first attempt
    pd.testing.assert_frame_equal(pd.read_parquet(out), pd.read_parquet(whole))
    assert json.loads((tmp_path / "resumed.parquet.json").read_text())["deals"] == 5000
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "resumed.parquet", "resumed.parquet.json", "whole.parquet", "whole.parquet.json"]


def test_a_clean_run_keeps_no_checkpoints(tmp_path):
    run = Run(Where(resume=True), {"command": "test", "at": str(tmp_path)}, "test")
    with run:
        assert [r for _, r in run.map(lambda c: c.count, chunks_of(1, 0, 5, 2))] == [2, 2, 1]
        assert run.folder.exists()
    assert not run.folder.exists()


def test_an_interrupted_run_without_resume_leaves_nothing(tmp_path):
    def stop(chunk):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simulate("classic", 3000, 3, tmp_path / "x.parquet", progress=False, chunk=1000, on_chunk=stop)
    assert list(tmp_path.iterdir()) == []


def _local_cluster(distributed):
    """Two worker processes, as a user's ``--workers 2`` runs. Starting a process can fail for the
    machine's reasons (CI once printed "Nanny failed to start" from inside ``fork``): try again,
    then fall back to one worker thread in this process, which still takes every task from the
    scheduler, and say so."""
    for attempt in range(3):
        try:
            return distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                            dashboard_address=None)
        except (OSError, RuntimeError, TimeoutError) as exc:
            failure = exc
            time.sleep(2 * (attempt + 1))
    warnings.warn(f"worker processes would not start ({failure!r}); one worker thread in this process instead",
                  stacklevel=2)
    return distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None)


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with _local_cluster(distributed) as c:
        yield c.scheduler_address


def test_simulate_bid_table_and_compare_on_a_cluster_equal_the_run_here(cluster, tmp_path, capsys):
    here, there = tmp_path / "here.parquet", tmp_path / "there.parquet"
    args = ["simulate", "-v", "classic", "--deals", "30000", "--seed", "9", "-q"]
    assert main(args + ["--out", str(here)]) == 0
    assert main(args + ["--out", str(there), "--scheduler", cluster]) == 0
    pd.testing.assert_frame_equal(pd.read_parquet(here), pd.read_parquet(there))
    for extra in ([], ["--scheduler", cluster]):
        assert main(["bid-table", "-v", "classic", "--deals", "20000", "--seed", "2", "--no-cache", "-q",
                     "--csv", str(tmp_path / f"bt{len(extra)}.csv")] + extra) == 0
        assert main(["compare", "classic", "classic:must_trump=false", "--deals", "4000", "--seed", "2",
                     "--table-deals", "20000", "-q", "--csv", str(tmp_path / f"c{len(extra)}.csv")] + extra) == 0
    capsys.readouterr()
    assert (tmp_path / "bt0.csv").read_text() == (tmp_path / "bt2.csv").read_text()
    assert (tmp_path / "c0.csv").read_text() == (tmp_path / "c2.csv").read_text()


def test_matches_advice_charts_and_fits_on_a_cluster_equal_the_run_here(cluster, tmp_path, capsys):
    runs = {
        "tournament": ["tournament", "-v", "modern", "--strategies", "auction", "formula", "--matches", "300",
                       "--seed", "1", "-q"],
        "calibrate": ["calibrate", "-v", "classic", "--deals", "20000", "--seed", "11"],
        "advise": ["advise", "9S AH TH JH 9H JH 9H AD TD AC TC JC", "-v", "thousand", "--deals", "2000",
                   "--auction", "", "--json"],
    }
    for name, args in runs.items():
        outs = []
        for extra in ([], ["--scheduler", cluster]):
            csv = [] if name == "advise" else ["--csv", str(tmp_path / f"{name}{len(extra)}.csv")]
            assert main(args + csv + extra) == 0, name
            printed = capsys.readouterr().out
            outs.append(printed if name == "advise" else (tmp_path / f"{name}{len(extra)}.csv").read_text())
        assert outs[0] == outs[1], name

    # issue 29: a bid chart's auctions and the auction model's fit ran outside runs.Run before
    from pinochle_sim.studies.auction_model import auction_model
    from pinochle_sim.studies.chart import bid_chart
    from pinochle_sim.studies.declarer import declarer_stats
    there = Where(scheduler=cluster)
    stats = declarer_stats("classic", deals=3000, seed=2)
    pd.testing.assert_frame_equal(bid_chart(stats).winners, bid_chart(stats, where=there).winners)
    a = auction_model("modern", deals=6000, seed=3, max_iterations=2)
    b = auction_model("modern", deals=6000, seed=3, max_iterations=2, where=there)
    assert np.array_equal(a.made, b.made) and np.array_equal(a.contracts, b.contracts)
    assert json.dumps(a.history) == json.dumps(b.history) and json.dumps(a.kinds) == json.dumps(b.kinds)


def test_cluster_options_are_checked():
    assert main(["simulate", "--deals", "10", "--workers", "2", "--scheduler", "tcp://x:1"]) == 2
    assert main(["simulate", "--deals", "10", "--workers", "0"]) == 2


def test_declarer_stats_merge_in_any_order_is_exact():
    from pinochle_sim.studies.declarer import declarer_stats
    a = declarer_stats("classic", 3000, 4, chunk=1000)
    b = declarer_stats("classic", 3000, 4, chunk=700)
    for name in ("cube", "trump_cube", "moments", "xtx", "xty", "extra"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name


def test_an_unreachable_scheduler_is_one_line(tmp_path, capsys):
    dask = pytest.importorskip("dask")
    with dask.config.set({"distributed.comm.timeouts.connect": "2s"}):
        assert main(["simulate", "--deals", "10", "-q", "--scheduler", "tcp://127.0.0.1:1",
                     "--out", str(tmp_path / "x.parquet")]) == 2
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:1" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []

