"""Playing many deals from Python: a variant and the seats' strategies compiled for the hand
kernel (:class:`Setup`), summaries streamed in chunks (:func:`iter_play`, :func:`play`) and into
a parquet file with its provenance (:func:`simulate`).
"""
from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd

from .. import __version__
from ..engine.auction import Bidding
from ..engine.cards import SUITS
from ..engine.hand import C, COLUMNS, TRUMP, _play_many, columns, max_calls, policy_codes
from ..engine.variants import Variant, band_width, compile_variant, meld_unit, variant
from ..files import atomic_write
from .strategies import Strategy, default_bidding, strategies_arrays, strategy


class Setup:
    """A variant and the seats' policies, compiled for the kernels."""

    def __init__(self, v: Variant | str = "thousand", policy: str | list[str] = "heuristic",
                 bidding=None, forced_bidder: int = -1):
        self.variant = variant(v) if isinstance(v, str) else v
        seats = self.variant.players
        self.policy_names, self.policy = policy_codes(self.variant, policy)
        bids = [bidding] * seats if bidding is None or isinstance(bidding, (str, Strategy)) else list(bidding)
        if len(bids) != seats:
            raise ValueError(f"give one bidding strategy, or one for each of the {seats} seats")
        # a declarer simulation has no auction: its seats need no (costly) default strategy
        default = "formula" if forced_bidder >= 0 else default_bidding(self.variant)
        self.bidding = [strategy(default if b is None else b) for b in bids]
        self.tables = compile_variant(self.variant)
        self.bid = Bidding(*strategies_arrays(self.bidding, self.variant), band_width(self.variant))
        self.forced_bidder = int(forced_bidder)
        self.max_calls = max_calls(self.variant)

    def args(self) -> tuple:
        """What :func:`_play_many` and its siblings read: the forced bidder, the variant's
        tables, the seats' bidding and their play policies."""
        return self.forced_bidder, self.tables, self.bid, self.policy

    def provenance(self, seed: int, deals: int, start: int = 0) -> dict:
        return {"variant": self.variant.spec, "options": self.variant.options(),
                "play_policy": self.policy_names,
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


def iter_play(v: Variant | str = "thousand", deals: int = 10_000, seed: int = 0, start: int = 0,
              policy: str | list[str] = "heuristic", bidding=None, chunk: int = 1 << 18,
              progress: bool = False, forced_bidder: int = -1) -> Iterator[pd.DataFrame]:
    """Play deals in chunks, yielding one DataFrame per chunk (memory stays one chunk)."""
    from ..progress import bar
    setup = v if isinstance(v, Setup) else Setup(v, policy, bidding, forced_bidder)
    if deals < 0 or seed < 0 or start < 0:
        raise ValueError("deals, seed and start must be >= 0")
    with bar(deals, "playing", progress) as pb:
        for s in range(start, start + deals, chunk):
            n = min(chunk, start + deals - s)
            rows = np.empty((n, len(COLUMNS)), np.int32)
            _play_many(np.uint64(seed), np.int64(s), n, *setup.args(), setup.max_calls, rows)
            pb.update(n)
            yield _frame(rows, s, setup.variant)


def play(v: Variant | str = "thousand", deals: int = 10_000, seed: int = 0, start: int = 0,
         policy: str | list[str] = "heuristic", bidding=None, progress: bool = False,
         forced_bidder: int = -1) -> pd.DataFrame:
    """Play ``deals`` deals; one row per deal (see :func:`columns`; in four-hand team 0 is seats
    0 and 2, in three-hand each seat is its own side).

    >>> df = play("classic", deals=8, seed=1)
    >>> len(df), bool((df.points_0 + df.points_1)[~df.thrown_in].eq(250).all())
    (8, True)
    """
    setup = v if isinstance(v, Setup) else Setup(v, policy, bidding, forced_bidder)
    parts = list(iter_play(setup, deals, seed, start, progress=progress))
    return (pd.concat(parts, ignore_index=True) if parts
            else _frame(np.empty((0, len(COLUMNS)), np.int32), start, setup.variant))


def simulate(v: Variant | str, deals: int, seed: int, out: str | Path,
             policy: str | list[str] = "heuristic", bidding=None, progress: bool = True,
             chunk: int = 1 << 18) -> dict:
    """Play ``deals`` deals, streaming rows into the parquet file ``out`` (written whole or not
    at all), with its provenance beside it in ``out`` + ``.json``; return that metadata."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    setup = Setup(v, policy, bidding)
    out = Path(out)
    meta = setup.provenance(seed, deals)
    t0 = time.perf_counter()
    summary = {"hands": 0, "thrown_in": 0, "made": 0, "bid_sum": 0}
    with atomic_write(out, "wb") as fh:
        writer = None
        for df in iter_play(setup, deals, seed, chunk=chunk, progress=progress):
            table = pa.Table.from_pandas(df, preserve_index=False)
            if writer is None:
                writer = pq.ParquetWriter(fh, table.schema, metadata_collector=None)
            writer.write_table(table)
            played = df[~df.thrown_in]
            summary["hands"] += len(df)
            summary["thrown_in"] += int(df.thrown_in.sum())
            summary["made"] += int((played.made == 1).sum())
            summary["bid_sum"] += int(played.bid.sum())
        if writer is None:  # no deals: an empty table with the same columns
            writer = pq.ParquetWriter(fh, pa.Table.from_pandas(
                _frame(np.empty((0, len(COLUMNS)), np.int32), 0, setup.variant),
                preserve_index=False).schema)
        writer.close()
    meta["seconds"] = round(time.perf_counter() - t0, 3)
    meta["summary"] = summary
    meta["meld_unit"] = meld_unit(setup.variant)
    with atomic_write(str(out) + ".json") as fh:
        json.dump(meta, fh, indent=2)
    return meta
