"""Playing many deals from Python: a variant and the seats' strategies compiled for the hand
kernel (:class:`Setup`), summaries streamed in chunks (:func:`iter_play`, :func:`play`) and into
a parquet file with its provenance (:func:`simulate`).
"""
from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd

from .. import __version__
from ..engine.auction import compile_bidding
from ..engine.cards import COPIES, N_KINDS, SUITS
from ..engine.deal import check_deals
from ..engine.hand import (C, COLUMNS, TRUMP, Loop, columns, max_calls, play_rows, play_rows_dd, policy_codes,
                           samples)
from ..engine.variants import Variant, band_width, meld_unit, variant
from ..engine.tricks import DEFAULT_POLICY, in_full
from ..files import atomic_write, sidecar
from ..runs import HERE, Chunk, Run, Where, chunks_of
from .strategies import Strategy, default_bidding, strategies_arrays, strategy


class Setup:
    """A variant and the seats' strategies and play, compiled for the kernels: ``loop``
    (``hand.Loop``) is what every loop over deals reads, built here and nowhere else."""

    def __init__(self, v: Variant | str = "thousand", policy: str | list[str] = DEFAULT_POLICY,
                 bidding=None, forced_bidder: int = -1):
        self.variant = variant(v) if isinstance(v, str) else v
        seats = self.variant.players
        self.policy_names = policy_codes(self.variant, policy)[0]  # checked before a bidding is built
        bids = [bidding] * seats if bidding is None or isinstance(bidding, (str, Strategy)) else list(bidding)
        if len(bids) != seats:
            raise ValueError(f"give one bidding strategy, or one for each of the {seats} seats")
        # a declarer simulation has no auction: its seats need no (costly) default strategy
        default = "formula" if forced_bidder >= 0 else default_bidding(self.variant)
        self.bidding = [strategy(default if b is None else b) for b in bids]
        self.bid = compile_bidding(*strategies_arrays(self.bidding, self.variant), band_width(self.variant))
        self.loop = Loop.build(self.variant, self.bid, self.policy_names, forced_bidder)

    def provenance(self, seed: int, deals: int, start: int = 0) -> dict:
        return {"variant": self.variant.spec, "options": self.variant.options(),
                "play_policy": self.policy_names,
                "play_policy_in_full": [in_full(n, self.variant.name) for n in self.policy_names],
                "bidding": [b.spec for b in self.bidding],
                "seed": seed, "deals": deals, "start": start, "version": __version__}


def _frame(rows: np.ndarray, start: int, v: Variant) -> pd.DataFrame:
    names = columns(v)
    df = pd.DataFrame(rows[:, [C[c] for c in names]] if len(names) < len(COLUMNS) else rows,
                      columns=names)
    df.insert(0, "deal", np.arange(start, start + len(rows), dtype=np.int64))
    df["thrown_in"] = df["thrown_in"].astype(bool)
    df["trump"] = pd.Categorical.from_codes(rows[:, TRUMP].astype(np.int64).clip(-1), list(SUITS))
    return df


#: Columns whose values are small by the rules (seats, tricks, counters, card counts, flags),
#: a column per seat or side by its stem (``tricks_`` for ``tricks_0``...).
_INT8 = ("dealer", "bidder", "made", "bid_aces", "bid_tens", "bid_kings", "bid_trumps", "bid_situation",
         "playing_1000", "tricks_", "counters_")


def _bounds(v: Variant) -> dict[str, int]:
    """More than the values of each column of points can reach under ``v``: the meld of the whole
    deck (a hand's meld), every seat melding it plus every trick point (a side's total), the
    highest bid the auction can call or seed 004's 1000 (bids and scores)."""
    from ..engine.meld import meld_table
    deck = int(meld_table(np.full(N_KINDS, COPIES, np.int8), v).max())
    total = v.players * deck + v.trick_total
    bid = max(v.opening_bid + v.raise_min * max_calls(v), 1000, total)
    return {"meld_": deck, "bid_meld": deck, "points_": v.trick_total, "discard_points": v.trick_total,
            "dd_points": v.trick_total, "side_total": total, "bid": bid, "score_": bid, "calls": max_calls(v)}


def narrow(df: pd.DataFrame, v: Variant) -> pd.DataFrame:
    """``df`` with the narrowest integer types its columns need under ``v`` (int8 for counts and
    seats, int16 where the variant's largest value fits, int32 else), as the parquet files store
    it. Every value is checked to fit: one that does not raises ValueError."""
    bounds = _bounds(v)
    out = {}
    for name in df.columns:
        if name == "deal" or not pd.api.types.is_integer_dtype(df[name].dtype):
            continue
        key = re.sub(r"_\d$", "_", name)  # a seat's or side's column by its stem
        if key in _INT8:
            small = np.int8
        elif bounds.get(key, np.inf) < np.iinfo(np.int16).max:
            small = np.int16
        else:
            continue
        col, info = df[name], np.iinfo(small)
        if len(col) and (col.min() < info.min or col.max() > info.max):
            raise ValueError(f"column {name} does not fit {np.dtype(small).name}: {col.min()}..{col.max()}")
        out[name] = col.astype(small)
    return df.assign(**out)


def check_dd_from(v: Variant, dd_from: int | None) -> None:
    if dd_from is not None and not 0 <= dd_from < v.hand_size:
        raise ValueError(f"dd_from is a trick number from 0 to {v.hand_size - 1}")


def chunk_rows(setup: Setup, dd_from: int | None, chunk: Chunk) -> tuple[np.ndarray, np.ndarray | None]:
    """The summary rows of one chunk of deals (and their ``dd_points`` with ``dd_from``)."""
    if dd_from is None:
        return play_rows(setup.loop, chunk.seed, chunk.start, chunk.count), None
    return play_rows_dd(setup.loop, chunk.seed, chunk.start, chunk.count, dd_from)


def _frames(setup: Setup, run: Run, chunks: list[Chunk], dd_from: int | None,
            on_chunk=None) -> Iterator[pd.DataFrame]:
    for c, (rows, dd) in run.map(partial(chunk_rows, setup, dd_from), chunks, on_chunk):
        df = _frame(rows, c.start, setup.variant)
        if dd is not None:
            df["dd_points"] = dd
        yield df


def _desc(dd_from: int | None) -> str:
    return "playing" if dd_from is None else "solving double dummy"


def _chunks(setup: Setup, deals: int, seed: int, start: int, chunk: int, dd_from: int | None) -> list[Chunk]:
    check_deals(deals, seed, start)
    check_dd_from(setup.variant, dd_from)
    return chunks_of(seed, start, deals, chunk, sampling=samples(setup.loop.policy), dd=dd_from is not None)


def iter_play(v: Variant | str = "thousand", deals: int = 10_000, seed: int = 0, start: int = 0,
              policy: str | list[str] = DEFAULT_POLICY, bidding=None, chunk: int = 1 << 18,
              progress: bool = False, forced_bidder: int = -1,
              dd_from: int | None = None) -> Iterator[pd.DataFrame]:
    """Play deals in chunks, yielding one DataFrame per chunk (memory stays one chunk).

    ``dd_from``: add the column ``dd_points``, the bid winner's side's trick points when the play
    policy plays the first ``dd_from`` tricks and every seat plays double dummy (perfectly, all
    cards visible) from there (-1 on a thrown-in deal). A solve takes milliseconds from 8 tricks
    left and seconds to minutes from a full hand (see docs/double-dummy.md), so chunks are small."""
    setup = v if isinstance(v, Setup) else Setup(v, policy, bidding, forced_bidder)
    chunks = _chunks(setup, deals, seed, start, chunk, dd_from)
    with Run(HERE, {}, _desc(dd_from), progress) as run:
        yield from _frames(setup, run, chunks, dd_from)


def play(v: Variant | str = "thousand", deals: int = 10_000, seed: int = 0, start: int = 0,
         policy: str | list[str] = DEFAULT_POLICY, bidding=None, progress: bool = False,
         forced_bidder: int = -1, dd_from: int | None = None, where: Where | None = None) -> pd.DataFrame:
    """Play ``deals`` deals; one row per deal (see :func:`columns`; in four-hand team 0 is seats
    0 and 2, in three-hand each seat is its own side). ``dd_from``: add ``dd_points`` (see
    :func:`iter_play`). ``where``: a Dask cluster for the chunks of deals and whether the run can
    be resumed (:mod:`pinochle_sim.runs`).

    >>> df = play("classic", deals=8, seed=1)
    >>> len(df), bool((df.points_0 + df.points_1)[~df.thrown_in].eq(250).all())
    (8, True)
    """
    setup = v if isinstance(v, Setup) else Setup(v, policy, bidding, forced_bidder)
    chunks = _chunks(setup, deals, seed, start, 1 << 18, dd_from)
    identity = {"command": "play", **setup.provenance(seed, deals, start), "dd_from": dd_from}
    with Run(where, identity, _desc(dd_from), progress) as run:
        parts = list(_frames(setup, run, chunks, dd_from))
    return (pd.concat(parts, ignore_index=True) if parts
            else _frame(np.empty((0, len(COLUMNS)), np.int32), start, setup.variant))


def simulate(v: Variant | str, deals: int, seed: int, out: str | Path,
             policy: str | list[str] = DEFAULT_POLICY, bidding=None, progress: bool = True,
             chunk: int = 1 << 18, dd_from: int | None = None, where: Where | None = None,
             on_chunk=None) -> dict:
    """Play ``deals`` deals, streaming rows into the parquet file ``out`` (written whole or not
    at all), with its provenance beside it in ``out`` + ``.json`` (not beside a pipe or a
    device: see :mod:`pinochle_sim.files`); return that metadata.
    ``dd_from``: add the double-dummy column ``dd_points`` (see :func:`iter_play`). ``where``: a
    Dask cluster for the chunks, and whether the run can be resumed (:mod:`pinochle_sim.runs`);
    the file is the same wherever the chunks ran. ``on_chunk(chunk)``: called as each finishes."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    setup = Setup(v, policy, bidding)
    out = Path(out)
    chunks = _chunks(setup, deals, seed, 0, chunk, dd_from)
    meta = setup.provenance(seed, deals)
    if dd_from is not None:
        meta["dd_from"] = dd_from
    t0 = time.perf_counter()
    summary = {"hands": 0, "thrown_in": 0, "made": 0, "bid_sum": 0}
    identity = {"command": "simulate", **meta, "chunk": chunks[0].count if chunks else 0}
    with (Run(where, identity, _desc(dd_from), progress) as run,
          atomic_write(out, "wb") as fh):
        writer = None
        try:
            for df in _frames(setup, run, chunks, dd_from, on_chunk):
                table = pa.Table.from_pandas(narrow(df, setup.variant), preserve_index=False)
                if writer is None:
                    writer = pq.ParquetWriter(fh, table.schema, metadata_collector=None)
                writer.write_table(table)
                played = df[~df.thrown_in]
                summary["hands"] += len(df)
                summary["thrown_in"] += int(df.thrown_in.sum())
                summary["made"] += int((played.made == 1).sum())
                summary["bid_sum"] += int(played.bid.sum())
            if writer is None:  # no deals: an empty table with the same columns
                empty = _frame(np.empty((0, len(COLUMNS)), np.int32), 0, setup.variant)
                if dd_from is not None:
                    empty["dd_points"] = np.empty(0, np.int32)
                writer = pq.ParquetWriter(fh, pa.Table.from_pandas(narrow(empty, setup.variant),
                                                                   preserve_index=False).schema)
        finally:  # also when interrupted, before the file it writes to goes
            if writer is not None:
                writer.close()
    meta["seconds"] = round(time.perf_counter() - t0, 3)
    meta["summary"] = summary
    meta["meld_unit"] = meld_unit(setup.variant)
    if sidecar(out) is not None:  # nothing is written beside a pipe or a device
        with atomic_write(sidecar(out)) as fh:
            json.dump(meta, fh, indent=2)
    return meta
