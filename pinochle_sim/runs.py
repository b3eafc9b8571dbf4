"""Long runs cut into chunks of deals, run here or on a Dask cluster, and resumable.

A chunk is named by ``(seed, first deal, count)``; every kernel plays deal ``i`` of a seed the
same way wherever and in whatever order it runs, so a run's result does not depend on where its
chunks ran or how the deals were cut. :class:`Run` hands the chunks to this process (the kernels
use every core), to an existing cluster (``scheduler``: its address) or to a local cluster of
``workers`` processes made for the run, and gives the results back in chunk order with one
progress bar. With ``resume`` every finished chunk's result is kept on disk, under a name made
from everything that decides the result (the command, its parameters, the version and the
source of the code), and a run of the same command started again skips the chunks already done;
a run that ends cleanly removes them. Checkpoints live in ``~/.cache/pinochle-sim/runs``, apart
from the compiled kernels, so no other checkout's change of code removes them. Without
``resume`` an interrupted run leaves nothing behind.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import pickle
import shutil
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import __version__
from .files import atomic_write


class ClusterError(RuntimeError):
    """The Dask scheduler cannot be reached, or the local cluster cannot start."""


@dataclass(frozen=True)
class Chunk:
    seed: int
    start: int
    count: int

    @property
    def name(self) -> str:
        return f"{self.seed}-{self.start}-{self.count}"


#: Deals a chunk holds at most where a seat's play samples (``pimc``: hundredths of a second to
#: seconds a hand, where the other policies take microseconds): a chunk of the thousands of deals
#: that suit fast play would run for most of an hour, the progress bar still and ``resume``
#: keeping nothing until its end; this many run in minutes at most.
SAMPLING_CHUNK = 256
#: Deals a chunk holds at most where every hand is also solved double dummy (``dd_from``): the
#: solve takes milliseconds to minutes a hand, by the trick it starts from.
DD_CHUNK = 64


def chunks_of(seed: int, start: int, deals: int, size: int, sampling: bool = False,
              dd: bool = False) -> list[Chunk]:
    """Deals ``start .. start+deals-1`` of ``seed`` in chunks of ``size`` (the last may be short),
    at most :data:`SAMPLING_CHUNK` where a seat's play samples (``sampling``) and at most
    :data:`DD_CHUNK` where the hands are solved double dummy too (``dd``)."""
    size = int(size)
    if sampling:
        size = min(size, SAMPLING_CHUNK)
    if dd:
        size = min(size, DD_CHUNK)
    size = max(1, size)
    return [Chunk(seed, s, min(size, start + deals - s)) for s in range(start, start + deals, size)]


@dataclass(frozen=True)
class Where:
    """Where a run's chunks go: ``scheduler`` (the address of a running Dask scheduler),
    ``workers`` (a local Dask cluster of that many processes for the run), or neither (this
    process); ``resume``: keep finished chunks on disk and reuse those of an earlier run."""
    scheduler: str | None = None
    workers: int | None = None
    resume: bool = False

    def __post_init__(self) -> None:
        if self.scheduler and self.workers:
            raise ValueError("give --scheduler or --workers, not both")
        if self.workers is not None and self.workers < 1:
            raise ValueError("--workers must be at least 1")

    @property
    def distributed(self) -> bool:
        return bool(self.scheduler or self.workers)


HERE = Where()


def _task(fn: Callable[[Chunk], Any], chunk: Chunk, threads: int | None) -> Any:
    """A chunk on a worker: at most ``threads`` numba threads (a local cluster shares the cores)."""
    from ._numba import set_threads
    if threads:
        set_threads(threads)
    return fn(chunk)


def _runs_dir() -> Path:
    """Checkpoints: apart from the compiled kernels, which a change of code replaces."""
    from ._numba import state_dir
    return state_dir() / "runs"


class Run:
    """One long run (a context manager): ``map`` its chunks, then write the result inside the
    ``with``; a clean exit removes the run's checkpoints, an interrupted one keeps them only
    with ``resume``.

    ``identity``: everything that decides the result (checkpoints are reused only by a run with
    the same identity).
    """

    def __init__(self, where: Where | None, identity: dict, desc: str, progress: bool = False):
        self.where = where or HERE
        from ._numba import code_key
        self.identity = {**identity, "version": __version__, "code": code_key()}
        digest = hashlib.sha1(json.dumps(self.identity, sort_keys=True, default=str).encode()).hexdigest()
        self.folder = _runs_dir() / digest[:20]
        self.desc = desc
        self.progress = progress
        self.client = None
        self.cluster = None

    def __enter__(self) -> Run:
        if self.where.resume:
            self.folder.mkdir(parents=True, exist_ok=True)
            (self.folder / "run.json").write_text(json.dumps(self.identity, indent=2, default=str))
        if self.where.distributed:
            from distributed import Client, LocalCluster
            try:
                if self.where.scheduler:
                    self.client = Client(self.where.scheduler)
                else:
                    self.cluster = LocalCluster(n_workers=self.where.workers, threads_per_worker=1,
                                                processes=True, dashboard_address=None,
                                                silence_logs=logging.ERROR)
                    self.client = Client(self.cluster)
            except (OSError, TimeoutError, ValueError) as e:
                where = f"the Dask scheduler at {self.where.scheduler}" if self.where.scheduler else "a local cluster"
                raise ClusterError(f"cannot reach {where}: {e}") from None
        return self

    def __exit__(self, kind, value, tb) -> None:
        if self.client is not None:
            self.client.close()
        if self.cluster is not None:
            self.cluster.close()
        if kind is None:
            shutil.rmtree(self.folder, ignore_errors=True)
        elif self.where.resume and self.folder.exists():
            kept = len(list(self.folder.glob("*.pkl")))
            sys.stderr.write(f"kept {kept} finished chunks: the same command with --resume goes on from there\n")

    # -- checkpoints ------------------------------------------------------------------------
    def _path(self, chunk: Chunk, tag: str) -> Path:
        prefix = hashlib.sha1(tag.encode()).hexdigest()[:8] + "-" if tag else ""
        return self.folder / f"{prefix}{chunk.name}.pkl"

    def _load(self, chunk: Chunk, tag: str) -> tuple[bool, Any]:
        path = self._path(chunk, tag)
        if not (self.where.resume and path.exists()):
            return False, None
        with open(path, "rb") as fh:
            return True, pickle.load(fh)

    def _keep(self, chunk: Chunk, tag: str, result: Any) -> None:
        if not self.where.resume:
            return
        with atomic_write(self._path(chunk, tag), "wb") as fh:  # a temporary file of its own, renamed
            pickle.dump(result, fh, protocol=pickle.HIGHEST_PROTOCOL)

    # -- running ----------------------------------------------------------------------------
    def map(self, fn: Callable[[Chunk], Any], chunks: list[Chunk],
            on_result: Callable[[Chunk], None] | None = None, tag: str = "") -> Iterator[tuple[Chunk, Any]]:
        """``(chunk, fn(chunk))`` for every chunk, in chunk order (they may run in any order).
        ``fn`` must pickle (a module-level function, or a ``functools.partial`` of one) to run
        on a cluster. ``on_result(chunk)`` is called as each chunk finishes (tests use it);
        ``tag`` tells apart the checkpoints of several maps in one run."""
        from .progress import bar
        total = sum(c.count for c in chunks)
        with bar(total, self.desc, self.progress) as pb:
            results: dict[int, Any] = {}
            todo = []
            for i, c in enumerate(chunks):
                found, r = self._load(c, tag)
                if found:
                    results[i] = r
                    pb.update(c.count)
                else:
                    todo.append(i)
            nxt = 0

            def ready() -> Iterator[tuple[Chunk, Any]]:
                nonlocal nxt
                while nxt in results:
                    yield chunks[nxt], results.pop(nxt)
                    nxt += 1

            yield from ready()
            if self.client is None:
                for i in todo:
                    results[i] = fn(chunks[i])
                    self._finished(chunks[i], tag, results[i], pb, on_result)
                    yield from ready()
                return
            from distributed import as_completed
            threads = max(1, (os.cpu_count() or 1) // self.where.workers) if self.where.workers else None
            shared = self.client.scatter(fn, broadcast=True, hash=False) if todo else None  # sent once
            futures = {self.client.submit(_task, shared, chunks[i], threads, retries=2, pure=False): i
                       for i in todo}
            try:
                for fut in as_completed(futures):
                    i = futures[fut]
                    results[i] = fut.result()
                    fut.release()
                    self._finished(chunks[i], tag, results[i], pb, on_result)
                    yield from ready()
            except BaseException:
                self.client.cancel(list(futures))
                raise

    def _finished(self, chunk: Chunk, tag: str, result: Any, pb, on_result) -> None:
        self._keep(chunk, tag, result)
        pb.update(chunk.count)
        if on_result is not None:
            on_result(chunk)
