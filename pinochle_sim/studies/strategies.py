"""Bidding strategies: named, parameterised objects that tell the kernels how high a seat bids.

A strategy turns into data the kernels read (:meth:`Strategy.lookup`): the most a seat will
bid with a hand is ``weight * meld + table[meld band, aces, tens, trump length]`` for the trump
it names (NaN in the table: it will not bid), and it outbids its partner only with ``margin``
to spare. Named strategies, as text like the variants (``table:conf=0.8``):

* ``value`` (the default of every command in four-hand): meld, plus 250-scale points per ace, ten and trump
  beyond a floor, plus an allowance per auction situation, with the weights of each variant
  chosen by duplicate play (``tuning``: each weight moved while the side's score margin over the
  unmoved strategy grows; ``value_bidding.json`` holds them and how they were found);
* ``auction``: the highest bid a winner of the auction makes ``conf`` (0.67) of the time, by
  the auction situation it bids in and its hand, read from auctions in which every seat bids
  so, some exploring past their limits (``auction_model.auction_model``; the default until
  duplicate tournaments showed ``value`` beating it);
* ``formula``: meld, plus the side's trick points estimated from aces, tens and trumps, plus a
  partner allowance (the default before the auction-aware model);
* ``table``: the bid the variant's own bid table recommends at confidence ``conf`` (0.67);
  ``cautious`` is ``table:conf=0.8`` and ``aggressive`` ``table:conf=0.5``;
* ``meld+20``: the best-suit meld plus 20 (on the 250 scale), the usual public rule of thumb;
* ``tricks``: 25 per expected trick (an ace, half a ten, a trump beyond three) + meld + 30 for
  the partner, as a commercial bot counts.

Your own strategy is a few lines of Python, with no kernel change: subclass :class:`Strategy`
and define ``limit(meld, aces, tens, trumps, variant)``, evaluated on every cell of the table
(``meld`` is the low edge of the meld band), or ``lookup`` for full control; then
``register("mine", Mine)``.

>>> class MeldOnly(Strategy):
...     def limit(self, meld, aces, tens, trumps, v):
...         return meld + 0 * aces
>>> register("meld-only", MeldOnly)
>>> strategy("meld-only").name
'meld-only'
"""
from __future__ import annotations

import dataclasses
import difflib
import json
import os
import typing
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np

from ..engine.auction import MAX_CARDS, MAX_TRUMPS, N_BANDS, N_SITUATIONS
from ..engine.variants import Variant, band_width
from ..specs import split_spec


class StrategyError(ValueError):
    """Unknown strategy or parameter: the message names it."""


#: Deals per iteration of the fit behind a model-based strategy (``auction``) unless its spec
#: says otherwise (``auction:deals=50000``).
MODEL_DEALS = 200_000
#: Deals of the declarer simulation behind the ``table`` strategy unless its spec says otherwise.
TABLE_DEALS = 100_000


def _deals_from(variable: str, default: int) -> int:
    """``default``, or the whole number of deals in the environment's ``variable``."""
    text = os.environ.get(variable, "").strip()
    if not text:
        return default
    if not text.isdigit() or int(text) < 1000:
        raise StrategyError(f"{variable}={text!r}: give a whole number of deals, at least 1000")
    return int(text)


def model_deals() -> int:
    """:data:`MODEL_DEALS`, or the environment's ``PINOCHLE_MODEL_DEALS`` (the test suite and quick
    looks fit small models this way). A strategy made so says its size in its spec, and so in
    the provenance of every result it bids in."""
    return _deals_from("PINOCHLE_MODEL_DEALS", MODEL_DEALS)


def table_deals() -> int:
    """:data:`TABLE_DEALS`, or the environment's ``PINOCHLE_TABLE_DEALS``, as :func:`model_deals`."""
    return _deals_from("PINOCHLE_TABLE_DEALS", TABLE_DEALS)


#: A size a spec leaves out: the default of the field whose default comes from the environment.
_SIZES = {model_deals: MODEL_DEALS, table_deals: TABLE_DEALS}


def _canonical(f: dataclasses.Field):
    """A field's default as a spec leaves it out (a size from the environment is not one)."""
    if f.default is not dataclasses.MISSING:
        return f.default
    return _SIZES.get(f.default_factory)


@dataclass(frozen=True)
class Strategy:
    """Base class. ``partner_margin`` is on the 250-point scale."""

    name: str = "strategy"
    partner_margin: float = 30.0
    #: Its limits come from a simulation of the variant (a table or a model fitted to it).
    fitted: typing.ClassVar[bool] = False

    def limit(self, meld, aces, tens, trumps, v: Variant):  # pragma: no cover - abstract
        """The most this strategy bids, for arrays of meld (band low edges), aces, tens, trumps."""
        raise NotImplementedError

    def lookup(self, v: Variant) -> tuple[float, np.ndarray]:
        """(weight, table): the kernel's form of the strategy for variant ``v``."""
        b = band_width(v)
        meld, aces, tens, trumps = np.meshgrid(np.arange(N_BANDS) * b, np.arange(MAX_CARDS),
                                               np.arange(MAX_CARDS), np.arange(MAX_TRUMPS),
                                               indexing="ij")
        table = np.asarray(self.limit(meld, aces, tens, trumps, v), np.float64)
        return 0.0, np.ascontiguousarray(np.broadcast_to(table, meld.shape))

    def margin(self, v: Variant) -> float:
        return self.partner_margin * v.trick_total / 250

    def held(self, v: Variant) -> Strategy:
        """This strategy as it bids in ``v``, as fixed limits: fitted once, on ``v``, and so bidding
        alike in a variant that differs from ``v`` in an option (a comparison holds the bidding
        of a game's options so; each preset is fitted on its own)."""
        weight, limits = self.lookup(v)
        return Fixed(name=f"{self.spec} (fitted on {v.spec})", weight=weight, limits=limits,
                     partner=self.margin(v))

    @property
    def spec(self) -> str:
        known = self.name in REGISTRY
        diff = [f"{f.name}={getattr(self, f.name):g}" for f in dataclasses.fields(self)
                if f.name != "name" and not f.name.startswith("_") and known
                and getattr(self, f.name) != _canonical(f)]
        return self.name + (":" + ",".join(diff) if diff else "")


@dataclass(frozen=True)
class Formula(Strategy):
    """Meld plus estimated trick points (250 scale): ``base + per_ace * aces + per_ten * tens +
    per_trump * (trumps beyond trump_floor)``, capped at the hand's trick points, plus
    ``partner``; all times ``aggression``. The meld counts exactly, not by band."""

    name: str = "formula"
    base: float = 60.0
    per_ace: float = 20.0
    per_ten: float = 10.0
    per_trump: float = 10.0
    trump_floor: float = 2.0
    partner: float = 40.0
    aggression: float = 1.0

    def lookup(self, v: Variant) -> tuple[float, np.ndarray]:
        scale = v.trick_total / 250
        _, aces, tens, trumps = np.meshgrid(np.arange(N_BANDS), np.arange(MAX_CARDS),
                                            np.arange(MAX_CARDS), np.arange(MAX_TRUMPS),
                                            indexing="ij")
        tricks = (self.base + self.per_ace * aces + self.per_ten * tens
                  + self.per_trump * np.maximum(0, trumps - self.trump_floor))
        partner = self.partner if v.players == 4 else 0.0  # bidding alone: no partner to count on
        table = np.minimum(tricks * scale, v.trick_total) + partner * scale
        return self.aggression, np.ascontiguousarray(table * self.aggression, np.float64)


@dataclass(frozen=True)
class MeldPlus(Formula):
    """Best-suit meld plus 20 on the 250 scale."""

    name: str = "meld+20"
    base: float = 20.0
    per_ace: float = 0.0
    per_ten: float = 0.0
    per_trump: float = 0.0
    partner: float = 0.0


@dataclass(frozen=True)
class TrickCount(Formula):
    """25 per expected trick (an ace, half a ten, each trump beyond three) + meld + 30."""

    name: str = "tricks"
    base: float = 0.0
    per_ace: float = 25.0
    per_ten: float = 12.5
    per_trump: float = 25.0
    trump_floor: float = 3.0
    partner: float = 30.0


@dataclass(frozen=True)
class Table(Strategy):
    """The highest bid the variant's bid table says the side makes ``conf`` of the time, by meld,
    aces, tens and trump length, from a declarer simulation of ``deals`` deals (cached on disk)
    with seed ``seed``."""

    name: str = "table"
    fitted: typing.ClassVar[bool] = True
    conf: float = 0.67
    deals: int = field(default_factory=table_deals)
    seed: int = 7919
    _tables: dict = field(default_factory=dict, compare=False, repr=False)

    def lookup(self, v: Variant) -> tuple[float, np.ndarray]:
        key = v.spec
        if key not in self._tables:
            from .declarer import cached_stats
            from .tables import recommended_grid_trumps
            stats = cached_stats(v, int(self.deals), int(self.seed))
            self._tables[key] = np.ascontiguousarray(recommended_grid_trumps(stats, self.conf))
        return 0.0, self._tables[key]

    def predict(self, contracts, v: Variant) -> np.ndarray:
        """The made-to-declare table's chance of making each contract (rows of
        ``simulate.play``), moved by trump length as the strategy's bids are."""
        from .declarer import cached_stats
        from .tables import p_make_each, trump_shift
        stats = cached_stats(v, int(self.deals), int(self.seed))
        band = np.minimum(contracts.bid_meld.to_numpy() // stats.band, N_BANDS - 1)
        aces = np.minimum(contracts.bid_aces.to_numpy(), MAX_CARDS - 1)
        tens = np.minimum(contracts.bid_tens.to_numpy(), MAX_CARDS - 1)
        shift = trump_shift(stats)[band, aces, tens, np.minimum(contracts.bid_trumps.to_numpy(), MAX_TRUMPS - 1)]
        bids = contracts.bid.to_numpy() - np.round(shift / stats.unit).astype(int) * stats.unit
        return p_make_each(stats.cube[band, aces, tens], bids, stats.unit)


@dataclass(frozen=True)
class Fixed(Strategy):
    """Limits given as an array ``limits[situation, band, aces, tens, trumps]`` or ``[band,
    aces, tens, trumps]`` (NaN: pass); ``partner``: the margin over a partner's bid, in the
    variant's points (0: the partner's bid is a situation of the limits)."""

    name: str = "fixed"
    weight: float = 0.0
    limits: np.ndarray = field(default=None, compare=False, repr=False)  # type: ignore[assignment]
    partner: float = 0.0

    def lookup(self, v: Variant) -> tuple[float, np.ndarray]:
        return self.weight, self.limits

    def margin(self, v: Variant) -> float:
        return self.partner


@dataclass(frozen=True)
class Auction(Strategy):
    """The highest bid the side makes ``conf`` of the time *when it wins the auction*: the
    hand's made-to-declare estimate (the bid table's bid at ``conf``) plus how far above it
    contracts won in the same auction situation, by hands of the same kind (trick-heavy or with
    meld, long trumps or not), are still made ``conf`` of the time. An
    :class:`~pinochle_sim.studies.auction_model.AuctionModel` built from auctions in which every seat bids
    so, some seats exploring past their limits, rebuilt until it stops changing (``deals`` per
    iteration, seeds from ``seed``; cached on disk). Its estimate of a contract is
    :meth:`predict`."""

    name: str = "auction"
    fitted: typing.ClassVar[bool] = True
    conf: float = 0.67
    deals: int = field(default_factory=model_deals)
    seed: int = 7919
    rule: int = 0  # 1: anchor on the rule of thumb (exact meld) instead of the bid table's median
    _models: dict = field(default_factory=dict, compare=False, repr=False)

    def model(self, v: Variant, where=None, progress: bool = False):
        """The fitted model for ``v`` (``where``, ``progress``: of the fit, when it is not on disk)."""
        if v.spec not in self._models:
            from .auction_model import cached_auction_model
            self._models[v.spec] = cached_auction_model(v, self.conf, int(self.deals), int(self.seed),
                                                        "rule" if self.rule else "table", where=where,
                                                        progress=progress)
        return self._models[v.spec]

    def lookup(self, v: Variant) -> tuple[float, np.ndarray]:
        return self.model(v).limits()

    def margin(self, v: Variant) -> float:
        return 0.0  # the partner's bid is a situation of the model

    def predict(self, contracts, v: Variant) -> np.ndarray:
        """The model's chance of making each contract (rows of ``simulate.play``) that was bid in
        an auction situation (NaN for a forced opening or a stuck dealer)."""
        sit = contracts.bid_situation.to_numpy()
        p = self.model(v).p_make(np.maximum(sit, 0), contracts.bid.to_numpy(), contracts.bid_meld.to_numpy(),
                                 contracts.bid_aces.to_numpy(), contracts.bid_tens.to_numpy(),
                                 contracts.bid_trumps.to_numpy())
        return np.where(sit >= 0, p, np.nan)


#: Where the weights of ``value`` per variant are kept, with how they were found
#: (``scripts/tune_bidding.py`` writes it).
VALUE_FILE = Path(__file__).with_name("value_bidding.json")
#: ``value``'s weights: an allowance per auction situation (``SITUATIONS``), then the hand's.
VALUE_PARAMS = ("open", "partner_high", "partner_out", "opponent_high", "ace", "ten", "trump", "floor", "meld")


@cache
def tuned_values() -> dict:
    """The contents of :data:`VALUE_FILE`: ``{"variants": {preset: {weight: value}}, ...}``."""
    return json.loads(VALUE_FILE.read_text())


@dataclass(frozen=True)
class Value(Strategy):
    """How far a seat bids, by weights chosen for what they win: ``meld * meld-in-trump +
    (allowance[situation] + ace * aces + ten * tens + trump * max(0, trump length - floor))``,
    the bracket on the 250-point scale. The allowance per auction situation
    (:data:`~pinochle_sim.engine.auction.SITUATIONS`) holds the partner's help, how far to
    outbid a partner (``partner_high``) and how far to push when the partner is out
    (``partner_out``). Each weight left unset is the variant's (:func:`tuned_values`, found by
    :func:`~pinochle_sim.studies.tuning.coordinate_search`; a variant with options other than
    its preset's reads its preset's); a weight set in the spec (``value:partner_out=40``)
    replaces it."""

    name: str = "value"
    open: float | None = None
    partner_high: float | None = None
    partner_out: float | None = None
    opponent_high: float | None = None
    ace: float | None = None
    ten: float | None = None
    trump: float | None = None
    floor: float | None = None
    meld: float | None = None

    def params(self, v: Variant) -> dict[str, float]:
        """Every weight for variant ``v``: the spec's, else the variant's tuned one."""
        given = {k: getattr(self, k) for k in VALUE_PARAMS if getattr(self, k) is not None}
        if len(given) < len(VALUE_PARAMS):
            tuned = tuned_values()["variants"]
            if v.name not in tuned:
                raise StrategyError(f"value has no weights for {v.name}; give all of {', '.join(VALUE_PARAMS)}")
            given = tuned[v.name] | given
        return {k: float(given[k]) for k in VALUE_PARAMS}

    def lookup(self, v: Variant) -> tuple[float, np.ndarray]:
        p = self.params(v)
        aces, tens, trumps = np.meshgrid(np.arange(MAX_CARDS), np.arange(MAX_CARDS), np.arange(MAX_TRUMPS),
                                         indexing="ij")
        hand = p["ace"] * aces + p["ten"] * tens + p["trump"] * np.maximum(0, trumps - p["floor"])
        table = np.stack([(p[k] + hand) * (v.trick_total / 250) for k in VALUE_PARAMS[:N_SITUATIONS]])
        return p["meld"], np.ascontiguousarray(
            np.broadcast_to(table[:, None], (N_SITUATIONS, N_BANDS, MAX_CARDS, MAX_CARDS, MAX_TRUMPS)))

    def margin(self, v: Variant) -> float:
        return 0.0  # the partner's bid is a situation (partner_high)

    def text(self, v: Variant) -> str:
        """The limit in words, on the 250-point scale.

        >>> from pinochle_sim.engine.variants import variant
        >>> Value(**{k: 1.0 for k in VALUE_PARAMS}).text(variant("classic"))[:44]
        '1 x meld + 1 an ace + 1 a ten + 1 a trump be'
        """
        p = self.params(v)
        return (f"{p['meld']:g} x meld + {p['ace']:g} an ace + {p['ten']:g} a ten + {p['trump']:g} a trump "
                f"beyond {p['floor']:g}, + " + ", ".join(
                    f"{p[k]:g} {w}" for k, w in zip(VALUE_PARAMS, (
                        "to open", "over the partner", "after the partner passed", "over an opponent"))
                    if v.players == 4 or k in ("open", "opponent_high")) + " (250-point scale)")


@dataclass(frozen=True)
class Cautious(Table):
    name: str = "cautious"
    conf: float = 0.8


@dataclass(frozen=True)
class Aggressive(Table):
    name: str = "aggressive"
    conf: float = 0.5


REGISTRY: dict[str, type[Strategy]] = {}


def register(name: str, cls: type[Strategy]) -> None:
    """Make ``cls`` available by ``name`` (on the command line too, from a script that imports it)."""
    if not (isinstance(cls, type) and issubclass(cls, Strategy)):
        raise StrategyError(f"{cls!r} is not a Strategy subclass")
    REGISTRY[name] = dataclasses.make_dataclass(
        cls.__name__, [("name", str, field(default=name))], bases=(cls,), frozen=True)


for _name, _cls in (("formula", Formula), ("table", Table), ("cautious", Cautious),
                    ("aggressive", Aggressive), ("meld+20", MeldPlus), ("tricks", TrickCount),
                    ("auction", Auction), ("value", Value)):
    REGISTRY[_name] = _cls


#: The bidding of every seat unless told otherwise (its weights are the variant's): the
#: strongest strategy of the duplicate tournaments in results/tournament_*.txt.
DEFAULT_BIDDING = "value"
#: Three-hand's default: the auction model at 50%, which wins the most matches at tables of
#: three (results/tournament_three-hand.txt; ``value`` wins more points a deal against two of
#: itself, the objective its weights were chosen by, but fewer matches to 150).
DEFAULT_BIDDING_ALONE = "auction:conf=0.5"


def default_bidding(v: Variant) -> str:
    """The bidding strategy a variant's seats use unless told otherwise."""
    return DEFAULT_BIDDING if v.players == 4 else DEFAULT_BIDDING_ALONE


def describe(s: Strategy, v: Variant) -> str:
    """One line on how ``s`` bids in ``v``, for the captions of charts that assume it."""
    if isinstance(s, Value):
        return (f"The default bidding, {s.spec} (weights chosen by score margin in duplicate play), bids up to "
                f"{s.text(v)}; this chart is the made-to-declare chance, not that limit.")
    return f"The bidding assumed: {s.spec}."


def strategy(spec: str | Strategy) -> Strategy:
    """A strategy from its text spec (``table:conf=0.8``) or as given.

    >>> strategy("table:conf=0.8").conf
    0.8
    """
    if isinstance(spec, Strategy):
        return spec
    name, items = split_spec(spec, StrategyError)
    if name not in REGISTRY:
        close = difflib.get_close_matches(name, list(REGISTRY), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise StrategyError(f"unknown strategy {name!r}{hint}; valid: {', '.join(REGISTRY)}")
    cls = REGISTRY[name]
    kinds = {f.name: f.type for f in dataclasses.fields(cls) if not f.name.startswith("_")}
    values: dict[str, typing.Any] = {}
    for key, text, item in items:
        if text is None or key not in kinds or key == "name":
            valid = ", ".join(k for k in kinds if k != "name")
            raise StrategyError(f"strategy {name}: bad parameter {item!r}; valid: {valid}")
        try:
            values[key] = int(text) if kinds[key] in (int, "int") else float(text)
        except ValueError:
            raise StrategyError(f"strategy {name}: {key}={text!r} is not a number") from None
    if "conf" in values and not 0 < values["conf"] < 1:
        raise StrategyError(f"strategy {name}: conf must be between 0 and 1")
    return cls(**values)


def strategies_arrays(strats: list[Strategy], v: Variant) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(weights[4], tables[4, situations, bands, aces, tens, trumps], margins[4]) for the four
    seats; a strategy that does not read the auction has the same table in every situation."""
    looks = [s.lookup(v) for s in strats]
    tables = [t if t.ndim == 5 else np.broadcast_to(t, (N_SITUATIONS, *t.shape)) for _, t in looks]
    return (np.array([w for w, _ in looks], np.float64), np.ascontiguousarray(np.stack(tables)),
            np.array([s.margin(v) for s in strats], np.float64))
