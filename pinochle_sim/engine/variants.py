"""Rule variants as data: one frozen ``Variant`` per table of rules, presets in one registry.

Every option of RULES.md's table is a field; any field can be overridden by name, in Python
(``variant("thousand", must_trump=False)``) or as text (``"thousand:must_trump=false,last_trick=0"``).
Kernels never read a ``Variant``: they read the flat arrays of :func:`compile_variant`.
"""
from __future__ import annotations

import dataclasses
import difflib
import enum
import functools
import math
import typing
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from ..specs import split_spec
from .cards import DECK48, MAX_COPIES, deck_cards, deck_copies, kind_counts
from .melds import COMBOS, RUN_MARRIAGE, SUIT_ROWS, cross_tables, instance_table, suit_configs, suit_tables

#: A meld's values for one, two (three, four) copies.
Pair = tuple[int, ...]

#: The most trick points a hand may hold (the double-dummy search packs its bounds in 21 bits).
MAX_TRICK_TOTAL = 1_000_000


ALL_PASS = ("throw_in", "dealer_stuck")
FIRST_LEAD = ("bidder", "dealer_left")
NO_TRICK = ("none", "side_scores_nothing", "bidder_meld_void", "no_counter_meld_void")
BOTH_PAST = ("higher_wins", "bidder_wins")
#: The codes the kernels test (``rules[R.x] == CODE``), each the index of its choice.
DEALER_STUCK, BIDDER_LEADS = ALL_PASS.index("dealer_stuck"), FIRST_LEAD.index("bidder")
SIDE_NOTHING, BIDDER_VOID, NO_COUNTER = (NO_TRICK.index(c) for c in NO_TRICK[1:])

CHOICES: dict[str, tuple[str, ...]] = {
    "run_marriage": RUN_MARRIAGE, "all_pass": ALL_PASS, "first_lead": FIRST_LEAD,
    "no_trick": NO_TRICK, "both_past": BOTH_PAST,
}


class VariantError(ValueError):
    """Unknown variant or option, or an impossible value: the message names it."""


def _opt(doc: str, default: typing.Any = dataclasses.MISSING) -> typing.Any:
    return field(default=default, metadata={"doc": doc})


@dataclass(frozen=True, kw_only=True)
class Variant:
    """One table's rules. Fields are the options of RULES.md; see ``pinochle-sim variants NAME``."""

    name: str = _opt("preset the options start from")
    # Table shape: four seats in two partnerships, or three seats each on its own.
    players: int = _opt("players at the table: 4 (partners across) or 3 (no partners)", 4)
    hand_size: int = _opt("cards dealt to each player (and tricks in a hand)", 12)
    deck: tuple[int, ...] = _opt("copies of A/T/K/Q/J/9 in each suit (2/2/2/2/2/2: 48 cards)", DECK48)
    kitty: int = _opt("cards dealt face down to the kitty, taken by the bid winner, who then "
                      "discards as many", 0)
    discard_counts: bool = _opt("the bid winner's discarded cards count their trick points for it", False)
    # Tricks.
    card_points: tuple[int, ...] = _opt("trick points of A/T/K/Q/J/9")
    last_trick: int = _opt("bonus for winning the last trick")
    # Auction.
    opening_bid: int = _opt("lowest first bid")
    raise_min: int = _opt("smallest raise over the standing bid")
    raise_step: int = _opt("bids move in multiples of this")
    jump_bids: bool = _opt("raises larger than raise_min allowed")
    forced_open: bool = _opt("dealer+1 is in at the opening bid without choosing", False)
    all_pass: str = _opt("when nobody bids: throw_in (next dealer deals) or dealer_stuck")
    stuck_bid: int = _opt("the contract a stuck dealer takes (all_pass=dealer_stuck)", 0)
    # Passing and play.
    pass_cards: int = _opt("cards the partner passes to the bidder and the bidder passes back")
    first_lead: str = _opt("who leads the first trick: bidder or dealer_left")
    must_head: bool = _opt("must beat the winning card of the suit led when following")
    must_trump: bool = _opt("must trump when void in the suit led")
    must_overtrump: bool = _opt("must beat a winning trump when trumping")
    # Meld, single / double (/ triple / quadruple in a deck of four copies).
    run: Pair = _opt("A-T-K-Q-J of trump, single/double")
    royal_marriage: Pair = _opt("K+Q of trump, single/double")
    marriage: Pair = _opt("K+Q of another suit, single/double")
    pinochle: Pair = _opt("Q of spades + J of diamonds, single/double")
    aces_around: Pair = _opt("an ace of every suit, single/double")
    kings_around: Pair = _opt("a king of every suit, single/double")
    queens_around: Pair = _opt("a queen of every suit, single/double")
    jacks_around: Pair = _opt("a jack of every suit, single/double")
    nine_of_trump: Pair = _opt("nine of trump: one / both")
    run_marriage: str = _opt("how a run and its K-Q count: separate (also a royal marriage), "
                             "included (an extra K+Q is a royal marriage), extra_card "
                             "(each trump K or Q beyond the run's adds extra_king_queen)")
    extra_king_queen: int = _opt("value of each trump K or Q beyond a run (run_marriage=extra_card)", 0)
    # Scoring and game end.
    min_tricks: int = _opt("tricks the bidding side must also take")
    short_voids_others: bool = _opt("a bid winner short of its required tricks leaves the other "
                                    "seats nothing for the hand", False)
    no_trick: str = _opt("rule for a side that takes no trick / no counter: none, "
                         "side_scores_nothing, bidder_meld_void, no_counter_meld_void")
    target: int = _opt("game to")
    both_past: str = _opt("both sides past the target: higher_wins (tie plays on) or bidder_wins")
    set_out: int | None = _opt("a side at or below this ends the match after the hand (none: no rule)", None)
    # Optional rules, off by default.
    five_nines: bool = _opt("five nines and no meld throw the hand in before bidding (004)", False)
    playing_1000: bool = _opt("the bidder may play for every counter for 1000, its partner sitting "
                              "out (004)", False)

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            _check_value(f.name, getattr(self, f.name))
        if self.players not in (3, 4):
            raise VariantError(f"players={self.players}: the toolkit plays 4 (two partnerships) "
                               "or 3 (each on its own)")
        if self.pass_cards and self.players != 4:
            raise VariantError(f"pass_cards={self.pass_cards}: only partners pass cards "
                               f"({self.players} players have none)")
        if not 0 < self.copies <= MAX_COPIES:
            raise VariantError(f"deck={format_value(self.deck)}: from 1 to {MAX_COPIES} copies of a card")
        if self.players * self.hand_size + self.kitty != self.deck_size:
            raise VariantError(f"hand_size={self.hand_size}: {self.players} hands of "
                               f"{self.hand_size} plus a kitty of {self.kitty} is not {self.deck_size}")
        for name in COMBOS:
            if len(getattr(self, name)) != self.copies:
                raise VariantError(f"{name}={format_value(getattr(self, name))}: expected {_LEVELS[self.copies]} "
                                   f"(one value per copies held: the deck has {self.copies} of each card)")
        if self.playing_1000 and self.deck != DECK48:
            raise VariantError("playing_1000=true: seed 004's sure sweep is read for the 48-card deck")
        if self.pass_cards > self.hand_size:
            raise VariantError(f"pass_cards={self.pass_cards}: more than a hand")
        for name in ("raise_min", "raise_step"):
            if getattr(self, name) <= 0:
                raise VariantError(f"{name}={getattr(self, name)}: a bid must rise, by at least 1")
        if self.raise_min % self.raise_step:
            raise VariantError(f"raise_min={self.raise_min} is not a multiple of "
                               f"raise_step={self.raise_step}")
        if self.all_pass == "dealer_stuck" and self.stuck_bid <= 0:
            raise VariantError("stuck_bid must be positive when all_pass=dealer_stuck")
        if self.target <= 0:
            raise VariantError(f"target={self.target}: must be positive")
        if self.trick_total > MAX_TRICK_TOTAL:
            raise VariantError(f"card_points={format_value(self.card_points)}, last_trick={self.last_trick}: "
                               f"{self.trick_total} trick points in a hand, more than {MAX_TRICK_TOTAL:,}")

    # Derived figures.
    @property
    def copies(self) -> int:
        """The most copies of any card in the deck (2, or 4 in double-deck)."""
        return deck_copies(self.deck)

    @property
    def deck_size(self) -> int:
        """Cards in the deck: 48, or 80 in double-deck."""
        return deck_cards(self.deck)

    @property
    def deck_counts(self) -> tuple[int, ...]:
        """The deck as a count vector over the 24 kinds (``cards.hand_counts``' ``deck``)."""
        return kind_counts(self.deck)

    @property
    def absent_kinds(self) -> int:
        """The kinds the deck lacks, as a mask (double-deck's nines; none in the 48 cards)."""
        return sum(1 << k for k, n in enumerate(self.deck_counts) if n == 0)

    @property
    def playable(self) -> bool:
        """Whether the hand kernels play this deck: two or four copies of every card it holds (the
        48 cards, double-deck's 80, or such a deck without some ranks); the hand state reads
        those two depths, and the dealer reads the deck from ``copies`` and ``absent_kinds``."""
        return self.copies in (2, 4) and all(n in (0, self.copies) for n in self.deck)

    def require_play(self) -> None:
        """Refuse, in one line, to play a deck the hand kernels cannot (meld and odds take any)."""
        if not self.playable:
            raise VariantError(f"deck={format_value(self.deck)}: hands are played from a deck of two or four "
                               "copies of every card it holds (meld and odds take any deck)")

    @property
    def dd_trick(self) -> int:
        """The trick from which the double-dummy yardsticks (``simulate --dd``, ``strength``) solve
        by default: trick 4 in the 48-card deck; in another, the last eight tricks, as trick 4
        leaves in the four-hand games (double-deck: trick 12 of 20)."""
        return 4 if self.deck == DECK48 else max(self.hand_size - 8, 0)

    @property
    def trick_total(self) -> int:
        """Trick points in a hand: every card's points plus the last-trick bonus (a counting
        discard included)."""
        return 4 * sum(p * n for p, n in zip(self.card_points, self.deck)) + self.last_trick

    @property
    def teams(self) -> int:
        """Sides that keep a score: two partnerships, or every seat on its own."""
        return 2 if self.players == 4 else self.players

    def team(self, seat: int) -> int:
        """The side ``seat`` plays for (partners across in four-hand)."""
        return seat % 2 if self.players == 4 else seat

    def partner(self, seat: int) -> int | None:
        """The seat across from ``seat``, or None without partners."""
        return (seat + 2) % 4 if self.players == 4 else None

    def check_seat(self, seat: int, name: str) -> None:
        """Refuse (:class:`VariantError`, named ``name``) a seat the table does not have."""
        if not 0 <= seat < self.players:
            raise VariantError(f"{name} {seat}: {self.name} has seats 0-{self.players - 1}")

    @property
    def spec(self) -> str:
        """The variant as text: preset name plus the options that differ from it."""
        base = PRESETS[self.name]
        diff = [f"{f.name}={format_value(getattr(self, f.name))}" for f in dataclasses.fields(self)
                if getattr(self, f.name) != getattr(base, f.name)]
        return self.name + (":" + ",".join(diff) if diff else "")

    def options(self) -> dict[str, typing.Any]:
        """Every option with its value (JSON-ready)."""
        return {f.name: (list(v) if isinstance(v := getattr(self, f.name), tuple) else v)
                for f in dataclasses.fields(self)}

    def source(self, option: str) -> str:
        """Where an option's value comes from: the seed text, the decision of RULES.md, or the
        override that changed it from the preset."""
        preset = getattr(PRESETS[self.name], option)
        if getattr(self, option) != preset:
            return f"overridden (preset {self.name}: {format_value(preset)})"
        return SOURCES[self.name].get(option) or _DEFAULT_SOURCE[option]

    def with_options(self, **overrides: typing.Any) -> Variant:
        """A copy with options replaced (values may be text, as on the command line). The seeds'
        own names for options are accepted too (``required_tricks`` is ``min_tricks``)."""
        names = option_names()
        overrides = {ALIASES.get(k, k): v for k, v in overrides.items()}
        for key in overrides:
            if key not in names or key == "name":
                raise VariantError(_unknown("option", key, sorted(names - {"name"})))
        parsed = {k: parse_value(k, v) if isinstance(v, str) else _coerce(k, v)
                  for k, v in overrides.items()}
        return dataclasses.replace(self, **_follow_starting_bid(self, parsed))


#: The seeds' names for options (002: "Required tricks").
ALIASES = {"required_tricks": "min_tricks"}


def _follow_starting_bid(base: Variant, parsed: dict[str, typing.Any]) -> dict[str, typing.Any]:
    """The seeds call the opening bid and a stuck dealer's contract one setting, the "starting
    bid" (001, 002): set one of them alone and the other follows at the base's distance
    (``modern``: the stuck dealer takes 25, the first bid is 26). Setting both sets both."""
    if parsed.get("all_pass", base.all_pass) != "dealer_stuck":
        return parsed
    has_open, has_stuck = "opening_bid" in parsed, "stuck_bid" in parsed
    gap = base.opening_bid - base.stuck_bid if base.stuck_bid else 0
    if has_open and not has_stuck:
        return {**parsed, "stuck_bid": max(parsed["opening_bid"] - gap, 0)}
    if has_stuck and not has_open:
        return {**parsed, "opening_bid": parsed["stuck_bid"] + gap}
    if not has_stuck and not base.stuck_bid:  # dealer_stuck switched on: stuck at the opening bid
        return {**parsed, "stuck_bid": parsed.get("opening_bid", base.opening_bid)}
    return parsed


def option_names() -> set[str]:
    return {f.name for f in dataclasses.fields(Variant)}


def _unknown(what: str, given: str, valid: list[str]) -> str:
    close = difflib.get_close_matches(given, valid, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return f"unknown {what} {given!r}{hint}; valid: {', '.join(valid)}"


_TYPES = typing.get_type_hints(Variant)


def _kind(name: str) -> str:
    t = _TYPES[name]
    if name in CHOICES or name == "name":
        return "choice"
    if t is bool:
        return "bool"
    if t is int:
        return "int"
    if t == int | None:
        return "int_or_none"
    return "ints"


def _check_value(name: str, value: typing.Any) -> None:
    kind = _kind(name)
    bad = None
    if name == "name":
        if value not in PRESETS_DATA:
            raise VariantError(_unknown("variant", value, list(PRESETS_DATA)))
    elif kind == "choice":
        if value not in CHOICES[name]:
            raise VariantError(f"{name}={value!r}: valid values are {', '.join(CHOICES[name])}")
    elif kind == "bool":
        bad = not isinstance(value, bool)
    elif kind == "int":
        bad = not isinstance(value, int) or isinstance(value, bool) or (value < 0 and name != "set_out")
    elif kind == "int_or_none":
        bad = value is not None and (not isinstance(value, int) or isinstance(value, bool))
    else:
        sizes = (6,) if name in ("card_points", "deck") else range(1, MAX_COPIES + 1)
        bad = (not isinstance(value, tuple) or len(value) not in sizes
               or not all(isinstance(v, int) and v >= 0 for v in value))
    if bad:
        raise VariantError(f"{name}={format_value(value)}: expected {_EXPECT[kind](name)}")


_EXPECT = {
    "bool": lambda n: "true or false",
    "int": lambda n: "a whole number >= 0",
    "int_or_none": lambda n: "a whole number or none",
    "ints": lambda n: ({"card_points": "six numbers A/T/K/Q/J/9, e.g. 11/10/4/3/2/0",
                        "deck": "six numbers A/T/K/Q/J/9, e.g. 4/4/4/4/4/0"}.get(n)
                       or "single/double, e.g. 150/300 (four values with four copies)"),
    "choice": lambda n: ", ".join(CHOICES.get(n, ())),
}


#: How a meld option's values are read, by the copies in the deck.
_LEVELS = {1: "single", 2: "single/double", 3: "single/double/triple",
           4: "single/double/triple/quadruple"}


def _coerce(name: str, value: typing.Any) -> typing.Any:
    if isinstance(value, list):
        return tuple(value)
    return value


def parse_value(name: str, text: str) -> typing.Any:
    """Value of option ``name`` from its text form (``true``, ``150/300``, ``none``, ``10``)."""
    kind = _kind(name)
    t = text.strip()
    try:
        if kind == "bool":
            low = t.lower()
            if low in ("true", "yes", "on", "1"):
                return True
            if low in ("false", "no", "off", "0"):
                return False
            raise ValueError
        if kind == "int":
            return int(t)
        if kind == "int_or_none":
            return None if t.lower() in ("none", "off", "") else int(t)
        if kind == "ints":
            return tuple(int(x) for x in t.replace(",", "/").split("/"))
    except ValueError:
        raise VariantError(f"{name}={text!r}: expected {_EXPECT[kind](name)}") from None
    return t


def format_value(value: typing.Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "/".join(str(v) for v in value)
    if value is None:
        return "none"
    return str(value)


# --------------------------------------------------------------------------------------------
# Presets. Values follow RULES.md's table; where a text is silent RULES.md decides (see SOURCES).

_MELD_250 = dict(royal_marriage=(40, 80), marriage=(20, 40), pinochle=(40, 300))
_MELD_25 = dict(run=(15, 150), royal_marriage=(4, 8), marriage=(2, 4), pinochle=(4, 30),
                aces_around=(10, 100), kings_around=(8, 80), queens_around=(6, 60),
                jacks_around=(4, 40), nine_of_trump=(1, 2), run_marriage="included")
_CLASSIC_MELD = dict(_MELD_250, run=(150, 1500), aces_around=(100, 1000), kings_around=(80, 800),
                     queens_around=(60, 600), jacks_around=(40, 400), nine_of_trump=(10, 20))
_TRICKS_25 = dict(card_points=(1, 1, 1, 0, 0, 0), last_trick=1)
_STRICT_PLAY = dict(first_lead="bidder", must_head=True, must_trump=True, must_overtrump=True)

PRESETS_DATA: dict[str, dict[str, typing.Any]] = {
    "thousand": dict(
        card_points=(11, 10, 4, 3, 2, 0), last_trick=10,
        opening_bid=40, raise_min=5, raise_step=1, jump_bids=True, all_pass="throw_in",
        pass_cards=0, first_lead="dealer_left", must_head=False, must_trump=True,
        must_overtrump=False, run=(150, 300), **_MELD_250, aces_around=(100, 200),
        kings_around=(80, 160), queens_around=(60, 120), jacks_around=(40, 80),
        nine_of_trump=(0, 0), run_marriage="separate", min_tricks=0, no_trick="none",
        target=1000, both_past="higher_wins", set_out=-1000),
    "modern-15": dict(
        **_TRICKS_25, opening_bid=15, raise_min=1, raise_step=1, jump_bids=True,
        all_pass="dealer_stuck", stuck_bid=15, pass_cards=0, **_STRICT_PLAY, **_MELD_25,
        min_tricks=0, no_trick="none", target=150, both_past="bidder_wins"),
    "modern": dict(
        **_TRICKS_25, opening_bid=26, raise_min=1, raise_step=1, jump_bids=False,
        all_pass="dealer_stuck", stuck_bid=25, pass_cards=3, **_STRICT_PLAY, **_MELD_25,
        min_tricks=1, no_trick="side_scores_nothing", target=150, both_past="bidder_wins"),
    "classic": dict(
        card_points=(10, 10, 10, 0, 0, 0), last_trick=10,
        opening_bid=250, raise_min=10, raise_step=10, jump_bids=True, all_pass="throw_in",
        pass_cards=0, **_STRICT_PLAY, **_CLASSIC_MELD, run_marriage="included",
        min_tricks=0, no_trick="bidder_meld_void", target=1500, both_past="bidder_wins"),
    "classic-pass4": dict(
        card_points=(10, 10, 10, 0, 0, 0), last_trick=0,
        opening_bid=250, raise_min=10, raise_step=10, jump_bids=True, forced_open=True,
        all_pass="throw_in", pass_cards=4, **_STRICT_PLAY, **_CLASSIC_MELD,
        run_marriage="extra_card", extra_king_queen=20,
        min_tricks=0, no_trick="no_counter_meld_void", target=1500, both_past="bidder_wins"),
    "three-hand": dict(
        players=3, hand_size=15, kitty=3, discard_counts=True,
        **_TRICKS_25, opening_bid=16, raise_min=1, raise_step=1, jump_bids=False,
        all_pass="dealer_stuck", stuck_bid=15, pass_cards=0, **_STRICT_PLAY, **_MELD_25,
        min_tricks=1, short_voids_others=True, no_trick="side_scores_nothing", target=150,
        both_past="bidder_wins"),
    "double-deck": dict(
        hand_size=20, deck=(4, 4, 4, 4, 4, 0), card_points=(1, 1, 1, 0, 0, 0), last_trick=2,
        opening_bid=50, raise_min=1, raise_step=1, jump_bids=True, all_pass="dealer_stuck",
        stuck_bid=50, pass_cards=4, **_STRICT_PLAY,
        run=(15, 150, 225, 300), royal_marriage=(4, 8, 12, 16), marriage=(2, 4, 6, 8),
        pinochle=(4, 30, 60, 90), aces_around=(10, 100, 150, 200), kings_around=(8, 80, 120, 160),
        queens_around=(6, 60, 90, 120), jacks_around=(4, 40, 60, 80), nine_of_trump=(0, 0, 0, 0),
        run_marriage="included", min_tricks=0, no_trick="bidder_meld_void", target=500,
        both_past="bidder_wins"),
}
SEED = {"thousand": "000", "modern-15": "001", "modern": "002", "classic": "003",
        "classic-pass4": "004", "three-hand": "002", "double-deck": "003"}
DEFAULT = "thousand"

_DEFAULT_SOURCE = {
    "name": "RULES.md: the variant table",
    "players": "RULES.md: four seats, partners across", "hand_size": "RULES.md: 48 cards, 12 each",
    "deck": "RULES.md: 48 cards, two of each A, 10, K, Q, J, 9 in every suit",
    "kitty": "RULES.md: no kitty in four-hand", "discard_counts": "RULES.md: no discard in four-hand",
    "short_voids_others": "RULES.md: the other side banks its meld plus tricks",
    "five_nines": "004 optional rule, off by default (RULES.md)",
    "playing_1000": "004 optional rule 'playing 1000', off by default (RULES.md)",
    "set_out": "RULES.md: no such rule",
    "extra_king_queen": "RULES.md: not used with this run_marriage",
    "stuck_bid": "RULES.md: not used with this all_pass",
    "forced_open": "RULES.md: the opening bid is free",
}
SOURCES: dict[str, dict[str, str]] = {
    "thousand": {
        "card_points": "000: 'aces are worth eleven, tens ten, kings four, queens three and jacks two'",
        "last_trick": "000: 'The last trick of the hand is worth an extra ten'",
        "opening_bid": "000: 'Bidding starts at forty'",
        "raise_min": "000: 'Each bid must beat the last by at least five'",
        "raise_step": "000: 'at least five, and a jump is allowed' (any amount from five up)",
        "jump_bids": "000: 'a jump is allowed'",
        "all_pass": "000: 'If nobody bids, the hand is thrown in and the next dealer deals again'",
        "pass_cards": "000: 'There is no passing at that point'",
        "first_lead": "000: 'The seat left of the dealer leads the first trick, not the bid winner'",
        "must_head": "000: follow suit only; no duty to beat (RULES.md)",
        "must_trump": "000: 'you must trump in, even when it cannot win. A table can switch that rule off'",
        "must_overtrump": "000: 'even when it cannot win' (no duty to overtrump, RULES.md)",
        "run": "000: 'A trump run, ace to jack, is a hundred and fifty ... two runs are 300'",
        "royal_marriage": "000: 'Trump king and queen are a marriage, forty ... two royal marriages 80'",
        "marriage": "000: 'Other marriages, twenty'",
        "pinochle": "000: 'a pinochle, worth forty. Two of them are worth three hundred'",
        "aces_around": "000: 'aces a hundred ... all eight aces 200'",
        "kings_around": "000: 'kings eighty' (double: twice, 'Hold two of a meld and it pays twice')",
        "queens_around": "000: 'queens sixty' (double: twice)",
        "jacks_around": "000: 'jacks forty' (double: twice)",
        "nine_of_trump": "000: the nine is 'worth nothing ... no part of a run': no such meld",
        "run_marriage": "000: 'a full trump run is worth a hundred and ninety, not a hundred and fifty'",
        "min_tricks": "000: no trick requirement", "no_trick": "000: 'Meld counts even if your side takes no tricks'",
        "target": "000: 'The first side to a thousand points wins'",
        "both_past": "000: 'If both sides are at or past a thousand, whoever has more wins. An exact tie continues'",
        "set_out": "000: 'A side at minus a thousand or lower is set out'",
    },
    "modern-15": {
        "raise_step": "001: 'Each bid must be greater than the previous one' (any whole number)",
        "royal_marriage": "001: 'Trump Marriage' - king and queen of trump suit - 4 points' "
                          "(double 8: RULES.md)",
        "marriage": "001: 'king and queen of a suit other than trump - 2 points' (double 4: RULES.md)",
        "kings_around": "001: 'Kings around' - 4 kings of different suits - 8 points', "
                        "'a kings double around is worth 80 points'",
        "queens_around": "001: '4 queens of different suits - 6 points', 'worth 10 times the value "
                         "of a single around'",
        "jacks_around": "001: '4 jacks of different suits - 4 points', 'worth 10 times the value "
                        "of a single around'",
        "nine_of_trump": "001: 'nine of trump - 1 points' (each: RULES.md)",
        "min_tricks": "RULES.md: none (001 names no trick requirement)",
        "no_trick": "RULES.md: none (001 is silent)",
        "card_points": "001: 'Aces (A) 1 (8) Tens (10) 1 (8) Kings (K) 1 (8) Queens (Q) 0 Jacks (J) 0 Nines (9) 0'",
        "last_trick": "001: 'The last trick is always worth 1 points'",
        "opening_bid": "001: 'A minimum opening bid is 15'",
        "raise_min": "001: 'Each bid must be greater than the previous one'",
        "jump_bids": "001: any greater bid",
        "all_pass": "001: 'If no one bids the dealer gets the contract at 15'",
        "stuck_bid": "001: 'the dealer gets the contract at 15'",
        "pass_cards": "001: no passing", "first_lead": "001: 'The high bidder leads the play'",
        "must_head": "001: 'Each player must play a winning card against those played so far'",
        "must_trump": "001: 'if a player cannot follow suit, but has trump, they must play trump'",
        "must_overtrump": "001: 'can play a trump card higher than any other trump ... must do so'",
        "run": "001: 'Run ... 15 points ... A double run ... 150 points'",
        "pinochle": "001: 'Pinochle ... 4 points', 'Double pinochle ... 30 points'",
        "aces_around": "001: '10 points ... worth 10 times the value of a single around'",
        "run_marriage": "RULES.md: the run includes its marriage",
        "target": "RULES.md: 150 (not in the text)", "both_past": "RULES.md: bidding side wins",
    },
    "modern": {
        "card_points": "002: 'Each A, 10, and K won in tricks is worth 1'",
        "last_trick": "002: 'The last trick adds 1. A complete hand contains 25 Points'",
        "raise_step": "002: 'each raise adds one'",
        "run": "002 meld table: 'Run A, 10, K, Q, J in Trump 15 150'",
        "royal_marriage": "002 meld table: 'Trump marriage K and Q in Trump 4 8*'",
        "marriage": "002 meld table: 'Marriage K and Q in the same non-trump suit 2 4'",
        "pinochle": "002 meld table: 'Pinochle Q of spades and J of diamonds 4 30'",
        "aces_around": "002 meld table: 'Aces around An A in each suit 10 100'",
        "kings_around": "002 meld table: 'Kings around A K in each suit 8 80'",
        "queens_around": "002 meld table: 'Queens around A Q in each suit 6 60'",
        "jacks_around": "002 meld table: 'Jacks around A J in each suit 4 40'",
        "opening_bid": "002: 'The default Starting bid is 25' (so the first raise is 26)",
        "raise_min": "002: 'each raise adds one'", "jump_bids": "002: 'each raise adds one'",
        "all_pass": "002: 'If everyone before the dealer passes without raising, the dealer takes the Starting bid'",
        "stuck_bid": "002: 'The default Starting bid is 25'",
        "pass_cards": "002: 'the partner passes three cards first ... then passes three cards back'",
        "first_lead": "002: 'The bid winner chooses Trump and leads the first trick'",
        "must_head": "002: 'Beat the winning card when you can ... even when your partner is winning'",
        "must_trump": "002: 'Play Trump when you cannot follow suit'",
        "must_overtrump": "002: 'If Trump is already winning, play a higher Trump if you can'",
        "run_marriage": "002: 'A run already includes one Trump marriage ... An extra Trump marriage adds 4'",
        "nine_of_trump": "002: 'Nine of Trump ... 1 ... 2'",
        "min_tricks": "002: 'Required tricks, which defaults to one'",
        "no_trick": "002: 'A team that takes no tricks scores nothing'",
        "target": "002: 'The default target is 150'",
        "both_past": "002: 'If both teams reach the target in the same hand, the bidding team wins'",
    },
    "classic": {
        "jump_bids": "003: 'raises go up in tens' (any number of tens: RULES.md)",
        "run": "RULES.md: 150/1500 (003 announces a table of doubles and prints none)",
        "royal_marriage": "003: 'Your team melds a royal marriage (40)' (double 80: RULES.md)",
        "marriage": "RULES.md: 20/40 (003 gives no value)",
        "pinochle": "003: 'a pinochle (40)' (double 300: RULES.md)",
        "aces_around": "RULES.md: 100/1000 (003 gives no value)",
        "kings_around": "RULES.md: 80/800 (003 gives no value)",
        "queens_around": "RULES.md: 60/600 (003 gives no value)",
        "jacks_around": "RULES.md: 40/400 (003 gives no value)",
        "nine_of_trump": "RULES.md: 10 each (003 gives no value)",
        "min_tricks": "RULES.md: none (003 names no trick requirement)",
        "card_points": "003: 'each ace, 10, and king is worth 10 points'",
        "last_trick": "003: 'The last trick is worth an extra 10. That is 250 points'",
        "opening_bid": "003: 'The minimum opening bid is 250'",
        "raise_min": "003: 'raises go up in tens'", "raise_step": "003: 'raises go up in tens'",
        "all_pass": "RULES.md: thrown in", "pass_cards": "003: no passing",
        "first_lead": "003: 'The winning bidder leads the first trick'",
        "must_head": "003: 'you must beat the highest card played so far if you can'",
        "must_trump": "003: 'If you are void in the led suit you must trump'",
        "must_overtrump": "003: 'if a trump has already been played you must beat it if you can'",
        "run_marriage": "RULES.md: the run includes its marriage (classic scoring, as 002 x10)",
        "no_trick": "003: 'If the bidding team takes no tricks at all, their melds score nothing'",
        "target": "003: 'First team to 1500 points wins'",
        "both_past": "003: 'If both cross the line, the bidding team is checked first'",
    },
    "classic-pass4": {
        "card_points": "004: 'counters: Aces, 10s and Kings. Each counter card is worth one point' "
                       "(x10 on this scale: RULES.md)",
        "jump_bids": "004: 'usually in 10 point increments' (any number of tens: RULES.md)",
        "royal_marriage": "004: 'King and Queen in trump suit | marriage | 40 pts' (double 80: RULES.md)",
        "marriage": "004: 'King and Queen in non-trump suit | marriage | 20 pts' (double 40: RULES.md)",
        "pinochle": "004: 'pinochle | 40 pts', 'double pinochle | 300 pts'",
        "kings_around": "004: '80 kings | 80 pts', '800 kings | 800 pts'",
        "queens_around": "004: '60 queens | 60 pts', '600 queens | 600 pts'",
        "jacks_around": "004: '40 jacks | 40 pts', '400 jacks | 400 pts'",
        "min_tricks": "RULES.md: none (004 names no trick requirement)",
        "last_trick": "RULES.md: 0 (not in the text)",
        "opening_bid": "004: 'first player to dealer's left is \"in\" for 250 points'",
        "forced_open": "004: 'first player to dealer's left is \"in\" for 250 points'",
        "raise_min": "004: 'usually in 10 point increments'", "raise_step": "004: '10 point increments'",
        "all_pass": "RULES.md: cannot happen (forced opening)",
        "pass_cards": "004: 'His partner will pass four cards to him ... passes four cards ... back'",
        "first_lead": "004: 'The high bidder leads'",
        "must_head": "004: 'A player must also \"beat\" the previous high card if he can'",
        "must_trump": "004: 'in which case they must trump'",
        "must_overtrump": "004: 'he must beat the highest trump card if he can'",
        "run": "004: '| run | 150 pts', '| double run | 1500 pts'",
        "run_marriage": "004: 'Extra King or Queen in trump', "
                        "'(only for players with a run) | extra King/Queen | 20 pts'",
        "extra_king_queen": "004: 'Extra King or Queen in trump ... 20 pts'",
        "aces_around": "004: '100 aces ... 1000 aces'",
        "nine_of_trump": "004: '9 in trump suit ... 10 pts'",
        "no_trick": "004: 'If a team does not pull in any tricks with counter cards, it loses any meld'",
        "target": "RULES.md: 1500 (not in the text)", "both_past": "RULES.md: bidding side wins",
        "five_nines": "004: 'Optional rule: If a player is dealt five 9s and has no meld' (off)",
        "playing_1000": "004: 'Optional rule: If the high bidder believes he can get every point "
                        "of every trick, he announces he is \"playing 1000.\"' (off)",
    },
}

_DD = "RULES.md (double-deck): "
SOURCES["double-deck"] = {
    "hand_size": "003: 'Double-deck Pinochle: 80 cards, four players' (20 each: RULES.md)",
    "deck": "003: '80 cards, four players, no 9s' (four copies of A, 10, K, Q, J)",
    "card_points": _DD + "A, 10, K 1 point each (as 001/002, the scale a target of 500 implies)",
    "last_trick": _DD + "last trick 2 (50 trick points a hand)",
    "opening_bid": _DD + "the least bid is 50", "raise_min": _DD + "raises of at least 1",
    "raise_step": _DD + "raises of at least 1", "jump_bids": _DD + "jumps allowed",
    "all_pass": _DD + "the dealer takes it at 50 (as modern-15)", "stuck_bid": _DD + "at 50",
    "pass_cards": _DD + "4 cards each way (as classic-pass4); pass_cards=0 is 003's own game",
    "first_lead": "003: 'The winning bidder leads the first trick'",
    "must_head": "003: 'you must beat the highest card played so far if you can'",
    "must_trump": "003: 'If you are void in the led suit you must trump'",
    "must_overtrump": "003: 'if a trump has already been played you must beat it if you can'",
    **{name: _DD + "single/double/triple/quadruple" for name in COMBOS},
    "nine_of_trump": "003: 'no 9s'",
    "run_marriage": _DD + "a run includes its royal marriage; each further trump K+Q is one",
    "min_tricks": _DD + "none (as 003)",
    "no_trick": "003: 'If the bidding team takes no tricks at all, their melds score nothing'",
    "target": "003: 'the target is usually 500'",
    "both_past": "003: 'If both cross the line, the bidding team is checked first'",
}

SOURCES["three-hand"] = {
    # 002's three-hand rules keep the modern meld table and "The rules for playing each trick"
    **{k: v for k, v in SOURCES["modern"].items() if k in {**_MELD_25, **_TRICKS_25, **_STRICT_PLAY}},
    "players": "002: 'Each player keeps a separate Score'",
    "hand_size": "002: 'Deal 15 cards to each player and three face-down cards to the Kitty'",
    "kitty": "002: 'three face-down cards to the Kitty'",
    "discard_counts": "002: 'Discarded As, 10s, and Ks count toward the bid winner's Points'",
    "opening_bid": "002: 'The default Starting bid is 15' (so the first raise is 16)",
    "stuck_bid": "002: 'The default Starting bid is 15'",
    "raise_min": "002: 'each raise adds one'", "raise_step": "002: 'each raise adds one'",
    "jump_bids": "002: 'each raise adds one'",
    "all_pass": "RULES.md: 'if both other seats pass, the dealer takes it at 15'",
    "pass_cards": "002: 'The other two players do not pass' (no partners: the kitty instead)",
    "first_lead": "002: 'The bid winner leads the first of 15 tricks'",
    "must_head": "002: 'Beat the winning card when you can' ('The rules for playing each trick are the same')",
    "min_tricks": "002: 'The bid winner must make the Bid and win the Required tricks'",
    "short_voids_others": "002: 'If the bid winner fails to take the Required tricks, the other "
                          "players score nothing for that hand'",
    "no_trick": "RULES.md: 'Each other seat banks its own meld plus points if it won at least one trick'",
    "target": "002: 'The default target is 150'",
    "both_past": "002: 'A bid winner who reaches the target wins. Otherwise, the player with the "
                 "highest Score wins'",
}

PRESETS: dict[str, Variant] = {name: Variant(name=name, **opts) for name, opts in PRESETS_DATA.items()}
#: The presets whose hands the toolkit deals and plays: every one.
PLAYABLE: tuple[str, ...] = tuple(PRESETS)


def variant(spec: str | Variant = DEFAULT, **overrides: typing.Any) -> Variant:
    """A variant from its name or text spec, with options overridden by keyword.

    >>> variant("thousand:must_trump=false").must_trump
    False
    >>> variant("classic", last_trick=0).trick_total
    240
    """
    if isinstance(spec, Variant):
        base = spec
    else:
        name, items = split_spec(spec, VariantError)
        if name not in PRESETS:
            raise VariantError(_unknown("variant", name, list(PRESETS)))
        base = PRESETS[name]
        text = {}
        for key, val, item in items:
            if val is None:
                raise VariantError(f"option {item!r} has no value: write {item}=VALUE")
            text[key] = val
        base = base.with_options(**text) if text else base
    return base.with_options(**overrides) if overrides else base


# --------------------------------------------------------------------------------------------
# The compiled form that kernels read.

#: The integer rules a hand's kernels read, by position in ``Tables.rules``.
RULE_FIELDS = ("opening_bid", "raise_min", "forced_open", "all_pass", "stuck_bid", "pass_cards",
               "first_lead", "must_head", "must_trump", "must_overtrump", "last_trick",
               "min_tricks", "no_trick", "run_marriage", "extra_king_queen", "trick_total",
               "five_nines", "playing_1000", "players", "hand_size", "kitty", "discard_counts",
               "short_voids_others", "teams", "copies", "absent_kinds")
#: ``rules[R.opening_bid]`` in a kernel (an IntEnum, which numba reads as constants).
R = enum.IntEnum("R", {name: i for i, name in enumerate(RULE_FIELDS)})


class Tables(NamedTuple):
    """Flat arrays of a variant for the kernels."""

    meld_values: np.ndarray  # int32[combos, copies + 1]: value of 0, 1, 2 (.. 4) copies of each meld
    run_mode: int            # index into RUN_MARRIAGE
    extra_kq: int
    melds: np.ndarray        # int64[instances, ...]: melds.instance_table() (cards, suit, role)
    suit_meld: np.ndarray    # int32[SUIT_ROWS, suit configs]: a suit's own melds, scores and cards used
    suit_cross: np.ndarray   # int32[4, suit configs]: the melds across suits a suit's cards allow
    cross_meld: np.ndarray   # int32[2 ** (copies * melds across suits)]: their value (melds.cross_tables)
    card_points: np.ndarray  # int32[6]: A T K Q J 9
    point_class: np.ndarray  # int64[6]: per rank, the highest rank worth as many points
    rules: np.ndarray        # int64[len(RULE_FIELDS)]: choices as their index in CHOICES
    team: np.ndarray         # int64[players]: the side each seat plays for
    partner: np.ndarray      # int64[players]: the seat across, or -1 without partners


@functools.cache
def compile_variant(v: Variant) -> Tables:
    """The arrays kernels read for variant ``v`` (cached per variant)."""
    mv = np.zeros((len(COMBOS), v.copies + 1), np.int32)
    for i, name in enumerate(COMBOS):
        mv[i, 1:] = getattr(v, name)
    inst = instance_table()
    mode = RUN_MARRIAGE.index(v.run_marriage)
    configs = suit_configs(v.copies)
    suit_meld = np.zeros((SUIT_ROWS, len(configs)), np.int32)
    suit_tables(inst, mv, mode, v.extra_king_queen, configs, suit_meld)
    suit_cross, cross_meld = cross_tables(inst, mv, configs)

    def as_int(name: str) -> int:
        value = getattr(v, name)
        return CHOICES[name].index(value) if name in CHOICES else int(value)

    rules = np.array([as_int(name) for name in RULE_FIELDS], np.int64)
    seats = range(v.players)
    return Tables(mv, mode, v.extra_king_queen, inst, suit_meld, suit_cross, cross_meld,
                  np.asarray(v.card_points, np.int32),
                  np.array([v.card_points.index(p) for p in v.card_points], np.int64), rules,
                  np.array([v.team(p) for p in seats], np.int64),
                  np.array([-1 if v.partner(p) is None else v.partner(p) for p in seats], np.int64))


def meld_unit(v: Variant) -> int:
    """Greatest common divisor of every meld value (the meld scale's step)."""
    vals = [x for name in COMBOS for x in getattr(v, name)] + [v.extra_king_queen]
    return functools.reduce(math.gcd, vals) or 1


def band_width(v: Variant) -> int:
    """Width of a meld band in the bid tables: 8% of a hand's trick points in steps of the variant's
    meld scale (20 points in the 250-point games, 2 in the modern variants, 4 in double-deck, whose
    50 trick points stand beside melds twice the modern ones)."""
    unit = meld_unit(v)
    return max(unit, round(v.trick_total * 2 / 25 / unit) * unit)
