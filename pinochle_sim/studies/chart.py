"""A bid chart as one result (:class:`BidChart`): the declarer statistics and everything a chart
shows from them (the bid tables, the rule of thumb, what the partner adds), what auction winners
bring under the default bidding and, when asked, the auction model; computed here once, for
:mod:`pinochle_sim.present.report` to draw and write.
"""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ..engine.tricks import DEFAULT_POLICY
from ..runs import Where
from .auction_model import AuctionModel, auction_summary
from .declarer import DeclarerStats
from .simulate import Setup
from .strategies import default_bidding, describe, strategy
from .tables import CONFIDENCES, bid_table, partner_adds, rule_of_thumb, rule_text

#: The groupings of the bid tables a chart holds.
GROUPINGS = ("aces_tens", "aces,tens", "trumps")


@dataclass
class BidChart:
    """``tables``: the bid table by each of ``GROUPINGS`` at ``CONFIDENCES`` and the chart's own
    ``confidence``; ``rule``: the rule of thumb's fit and ``rule_text`` its words; ``partner``:
    :func:`~.tables.partner_adds`; ``default``: the default bidding's spec and ``note`` how it
    bids; ``winners``: :func:`~.auction_model.auction_summary` under it; ``auction``: the
    auction model of the strategy ``auction_strategy``, or None."""

    stats: DeclarerStats
    confidence: float
    tables: dict[str, pd.DataFrame]
    rule: pd.DataFrame
    rule_text: str
    partner: pd.DataFrame
    default: str
    note: str
    winners: pd.DataFrame
    auction: AuctionModel | None = None
    auction_strategy: str | None = None

    def table(self, by: str) -> pd.DataFrame:
        """The bid table by ``by`` at ``CONFIDENCES`` (as :func:`~.tables.bid_table` gives it)."""
        col = f"bid_{round(self.confidence * 100)}"
        extra = [] if self.confidence in CONFIDENCES else [col, col + "_low", col + "_high"]
        return self.tables[by].drop(columns=extra)


def bid_chart(stats: DeclarerStats, confidence: float = 0.67, auction: AuctionModel | None = None,
              auction_strategy: str = "auction", where: Where | None = None,
              progress: bool = False) -> BidChart:
    """The bid chart of ``stats``: every table once, and the auctions of the default bidding
    (``where``: where they run). ``auction``: a fitted model whose files go with the chart; only
    with the default play and the chart's own variant."""
    v = stats.variant
    if auction is not None and (stats.policy != DEFAULT_POLICY or auction.variant.spec != v.spec):
        raise ValueError("the auction model's files go beside a bid chart of its variant under the default play")
    default = strategy(default_bidding(v))
    levels = CONFIDENCES if confidence in CONFIDENCES else (*CONFIDENCES, confidence)
    rule = rule_of_thumb(stats)
    winners = auction_summary(Setup(v, bidding=default).bid, stats, seed=stats.seed, where=where,
                              progress=progress, rule=rule)
    return BidChart(stats, confidence, {by: bid_table(stats, by, confidences=levels) for by in GROUPINGS},
                    rule, rule_text(stats, rule), partner_adds(stats), default.spec, describe(default, v),
                    winners, auction, auction_strategy if auction is not None else None)
