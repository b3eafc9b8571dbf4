"""Exact meld odds for one hand (12 cards in four-hand, 15 in three-hand, 18 for a three-hand bid
winner's hand plus the kitty, 20 in double-deck), the same odds at the table, and their simulated
twins. The deck is the variant's (``Variant.deck``: two copies of each card, or four and no 9s).

Exact figures come from counting, never sampling:

* an *event* (aces around, a run in spades, a marriage in some suit...) is a bound on the count
  of each card kind, suit by suit, required in every suit or in at least one; the number of
  hands meeting it is a coefficient of a product of four per-suit polynomials;
* the meld distribution is a dynamic programme over the four suits whose state holds what the
  rest of the hand needs: cards used, the fewest A/K/Q/J in any suit so far (arounds), the
  queens of spades (pinochle), the plain-marriage points, and the largest trump bonus so far;
* "someone at the table holds it" is inclusion-exclusion over the players, each term a
  dynamic programme over the 24 kinds with the hand sizes of the players involved.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .._numba import in_spans, njit
from ..engine.cards import (DECK48, MAX_COPIES, A, J, K, N_KINDS, NINE, Q, T, deck_cards, deck_copies, deck_kinds,
                            kind_counts, parse_suit)
from ..engine.deal import BLOCK, deal_any
from ..progress import bar
from ..engine.meld import hand_meld_all_trumps
from ..engine.melds import MARRIAGE, SCORE_PLAIN, SCORE_TRUMP, TIMES, cross_suit, suit_configs
from ..engine.variants import Variant, compile_variant, variant

HAND = 12
TOTAL_HANDS = math.comb(48, HAND)  # 12-card hands; any size: math.comb(deck size, n)
MAX_CARDS = 20  # the largest hand counted: double-deck's twenty (three-hand's fifteen and a kitty: 18)
FACTORIAL = np.array([math.factorial(k) for k in range(MAX_COPIES + 1)], np.int64)


@dataclass(frozen=True)
class SuitLies:
    """Every way one suit of a deck (``ranks``: copies of A T K Q J 9) can lie in a hand: the
    configurations of ``melds.suit_configs`` for the deck's copies, in that order, with their
    multiplicity (0 for a configuration the deck cannot give) and their cards."""

    ranks: tuple[int, ...]

    @property
    def copies(self) -> int:
        return deck_copies(self.ranks)

    @property
    def size(self) -> int:
        return deck_cards(self.ranks)

    @functools.cached_property
    def configs(self) -> np.ndarray:
        return suit_configs(self.copies)

    @functools.cached_property
    def weights(self) -> np.ndarray:
        comb = np.vectorize(math.comb)
        return np.prod(comb(np.array(self.ranks), self.configs), axis=1).astype(np.int64)

    @functools.cached_property
    def sizes(self) -> np.ndarray:
        return self.configs.sum(axis=1)


@functools.cache
def suit_lies(ranks: tuple[int, ...] = DECK48) -> SuitLies:
    return SuitLies(tuple(ranks))



@dataclass(frozen=True)
class Event:
    """Per-suit bounds ``lo <= count <= hi`` on A T K Q J 9, in every suit (or in at least one)."""

    name: str
    label: str
    lo: tuple[tuple[int, ...], ...]
    hi: tuple[tuple[int, ...], ...]
    any_suit: bool = False
    meld: str = ""   # the variant's meld option of which the event is holding ``copies`` or more
    copies: int = 0

    @property
    def per_kind(self) -> bool:
        """True when the event is a bound on each kind separately (every-suit events)."""
        return not self.any_suit


def _bounds(per_suit: dict[int, dict[int, tuple[int, int]]]) -> tuple[tuple, tuple]:
    lo = [[0] * 6 for _ in range(4)]
    hi = [[MAX_COPIES] * 6 for _ in range(4)]
    for s, ranks in per_suit.items():
        for r, (a, b) in ranks.items():
            lo[s][r], hi[s][r] = a, b
    return tuple(map(tuple, lo)), tuple(map(tuple, hi))


def _every(name: str, label: str, ranks: dict[int, tuple[int, int]], **meld: str | int) -> Event:
    return Event(name, label, *_bounds({s: ranks for s in range(4)}), **meld)


def _some(name: str, label: str, ranks: dict[int, tuple[int, int]]) -> Event:
    return Event(name, label, *_bounds({s: ranks for s in range(4)}), any_suit=True)


def _cards(name: str, label: str, per_suit: dict[int, dict[int, tuple[int, int]]], **meld: str | int) -> Event:
    return Event(name, label, *_bounds(per_suit), **meld)


_RUN = (A, T, K, Q, J)
_RANK_NAMES = {A: "aces", K: "kings", Q: "queens", J: "jacks"}


def events(ranks: tuple[int, ...] = DECK48) -> tuple[Event, ...]:
    """The events the odds report for a deck (copies of A T K Q J 9 in each suit): marriages,
    runs, arounds and pinochles at every multiplicity the deck allows (each tagged with its meld
    option and copies), a nine of trump where the deck has nines. A bound "at least n" is written
    ``(n, MAX_COPIES)``."""
    copies, top = deck_copies(ranks), MAX_COPIES
    at_least = {n: (n, top) for n in range(1, copies + 1)}
    times = range(2, copies + 1)

    def all_of(n: int, what: str) -> str:
        return f"all eight {what}" if copies == 2 else f"{n} {what} in every suit"

    out = [
        _some("marriage_any_suit", "a marriage in some suit", {K: at_least[1], Q: at_least[1]}),
        _every("roundhouse", "a marriage in every suit", {K: at_least[1], Q: at_least[1]}),
        _cards("royal_marriage_given_suit", "K+Q of spades", {0: {K: at_least[1], Q: at_least[1]}}),
        _some("run_any_suit", "a run in some suit", {r: at_least[1] for r in _RUN}),
        _cards("run_given_suit", "a run in spades", {0: {r: at_least[1] for r in _RUN}}, meld="run", copies=1),
    ]
    out += [_cards(f"{TIMES[n]}_run_given_suit", f"a {TIMES[n]} run in spades", {0: {r: at_least[n] for r in _RUN}},
                   meld="run", copies=n) for n in times]
    for r, what in _RANK_NAMES.items():
        around = f"{what}_around"
        out.append(_every(around, f"{what} around", {r: at_least[1]}, meld=around, copies=1))
        out += [_every(f"{TIMES[n]}_{what}", all_of(n, what), {r: at_least[n]}, meld=around, copies=n) for n in times]
    out.append(_cards("pinochle", "Q of spades + J of diamonds", {0: {Q: at_least[1]}, 2: {J: at_least[1]}},
                      meld="pinochle", copies=1))
    out += [_cards(f"{TIMES[n]}_pinochle", "both Q of spades + both J of diamonds" if copies == 2 else
                   f"{n} Q of spades + {n} J of diamonds", {0: {Q: at_least[n]}, 2: {J: at_least[n]}},
                   meld="pinochle", copies=n) for n in times]
    if ranks[NINE]:
        out.append(_cards("nine_of_trump_given_suit", "a nine of spades", {0: {NINE: at_least[1]}}))
    out.append(_every("no_aces", "no ace at all", {A: (0, 0)}))
    return tuple(out)


EVENTS: tuple[Event, ...] = events()
EVENT_NAMES = tuple(e.name for e in EVENTS)


def _suit_poly(lo: tuple[int, ...], hi: tuple[int, ...], inside: bool, deck: SuitLies) -> np.ndarray:
    """Generating polynomial (by cards used) of one suit's configurations inside (or outside) bounds."""
    ok = np.all((deck.configs >= lo) & (deck.configs <= hi), axis=1)
    ok = ok if inside else ~ok
    return np.bincount(deck.sizes[ok], weights=deck.weights[ok], minlength=6 * deck.copies + 1)


def _hands_with(polys: list[np.ndarray], n: int) -> int:
    """Number of ``n``-card hands whose suits come from the given polynomials."""
    prod = np.array([1], dtype=object)
    for p in polys:
        prod = np.convolve(prod, p.astype(np.int64).astype(object))[: n + 1]
    return int(prod[n]) if len(prod) > n else 0


def event_probability(e: Event, n: int = HAND, ranks: tuple[int, ...] = DECK48) -> Fraction:
    """Exact chance that one ``n``-card hand of the deck ``ranks`` (copies of A T K Q J 9 in each
    suit) meets event ``e``.

    >>> event_probability(EVENTS[EVENT_NAMES.index("double_aces")]) == Fraction(math.comb(40, 4), TOTAL_HANDS)
    True
    >>> event_probability(EVENTS[EVENT_NAMES.index("double_aces")], 15) == Fraction(math.comb(40, 7), math.comb(48, 15))
    True
    """
    deck = suit_lies(ranks)
    total = math.comb(deck.size, n)
    if e.any_suit:
        none = _hands_with([_suit_poly(e.lo[s], e.hi[s], False, deck) for s in range(4)], n)
        return 1 - Fraction(none, total)
    return Fraction(_hands_with([_suit_poly(e.lo[s], e.hi[s], True, deck) for s in range(4)], n), total)


# --------------------------------------------------------------------------------------------
# Someone at the table.

@njit
def _splits(copies, j, out):
    """Every split of a kind's ``copies`` among ``j`` players (the rest elsewhere) into ``out``
    rows: the counts, and in the last column the ways, copies! / (c_1! ... c_j! (copies - sum c)!).
    Returns the number of rows."""
    n = copies + 1
    ns = 0
    for code in range(n ** j):
        c = code
        tot = 0
        ways = FACTORIAL[copies]
        for p in range(j):
            out[ns, p] = c % n
            tot += c % n
            ways //= FACTORIAL[c % n]
            c //= n
        if tot <= copies:
            out[ns, 4] = ways // FACTORIAL[copies - tot]
            ns += 1
    return ns


@njit
def _players_meeting(lo, hi, j, hand, deck):
    """Ways (real numbers) to give ``j`` players disjoint ``hand``-card hands that all meet
    per-kind bounds, from a deck of ``deck[k]`` copies of each kind.

    A dynamic programme over the kinds the bounds constrain, its state the cards each player has
    so far; the cards of every other kind then fill the hands in
    ``pool! / (prod (hand - have)! (pool - sum (hand - have))!)`` ways."""
    base = hand + 1
    size = base ** j
    dp = np.zeros(size, np.float64)
    dp[0] = 1.0
    splits = np.zeros(((MAX_COPIES + 1) ** 4, 5), np.int64)
    pool = 0
    for k in range(N_KINDS):
        if lo[k] <= 0 and hi[k] >= deck[k]:
            pool += deck[k]
            continue
        ns = _splits(deck[k], j, splits)
        new = np.zeros(size, np.float64)
        for st in range(size):
            if dp[st] == 0.0:
                continue
            for sp in range(ns):
                ok = True
                nxt = 0
                mul = 1
                rest = st
                for p in range(j):
                    c = splits[sp, p]
                    have = rest % base
                    rest //= base
                    if c < lo[k] or c > hi[k] or have + c > hand:
                        ok = False
                        break
                    nxt += (have + c) * mul
                    mul *= base
                if ok:
                    new[nxt] += dp[st] * splits[sp, 4]
        dp = new
    total = 0.0
    for st in range(size):
        if dp[st] == 0.0:
            continue
        rest = st
        need = 0
        log_ways = math.lgamma(pool + 1)
        for _ in range(j):
            short = hand - rest % base
            rest //= base
            need += short
            log_ways -= math.lgamma(short + 1)
        if need <= pool:
            total += dp[st] * math.exp(log_ways - math.lgamma(pool - need + 1))
    return total


def table_probability(e: Event, players: int = 4, hand: int = HAND, ranks: tuple[int, ...] = DECK48) -> float:
    """Chance that at least one of the ``players`` hands of ``hand`` cards of a deal of the deck
    ``ranks`` meets ``e`` (every-suit events only; the rest of the deck, a kitty, does not count)."""
    if not e.per_kind:
        raise ValueError(f"{e.name}: only events bounded kind by kind have a table figure")
    lo = np.array(e.lo, np.int64).reshape(N_KINDS)
    hi = np.array(e.hi, np.int64).reshape(N_KINDS)
    deck = np.array(kind_counts(ranks), np.int64)
    cards = int(deck.sum())
    log_deals = math.lgamma(cards + 1) - players * math.lgamma(hand + 1)
    total = 0.0
    for j in range(1, players + 1):
        ways = _players_meeting(lo, hi, j, hand, deck)
        rest = math.lgamma(cards - hand * j + 1) - (players - j) * math.lgamma(hand + 1)
        p_j = ways * math.exp(rest - log_deals) if ways > 0 else 0.0
        total += (-1) ** (j + 1) * math.comb(players, j) * p_j
    return total


def expected_per_hand(combo: str, n: int = HAND, ranks: tuple[int, ...] = DECK48) -> Fraction:
    """Exact expected number of marriages (plain or royal) or nines of trump in one ``n``-card
    hand of the deck ``ranks``, trump spades."""
    deck = suit_lies(ranks)
    rest = deck.size - sum(ranks)  # the other three suits' cards
    suit_marginal = [Fraction(int(w) * math.comb(rest, n - int(k)) if k <= n else 0, math.comb(deck.size, n))
                     for w, k in zip(deck.weights, deck.sizes)]
    k, q, nine = deck.configs[:, K], deck.configs[:, Q], deck.configs[:, NINE]
    per_suit = {"marriage": np.minimum(k, q), "royal_marriage": np.minimum(k, q), "nine_of_trump": nine}[combo]
    one = sum(p * int(x) for p, x in zip(suit_marginal, per_suit))
    return one * (3 if combo == "marriage" else 1)


# --------------------------------------------------------------------------------------------
# The meld distribution.

@njit
def _meld_dp(cfg, w, sizes, marr_idx, delta_idx, fixed, n_marr, n_delta, hand, around, pin, copies):
    """Main body of :func:`meld_distribution`: counts over (mins, pinochle, marriage sum, best delta).
    ``around``: the ranks of the four arounds; ``pin``: suit, rank, suit, rank of the two-card
    meld across suits (the pinochle), first suit lower; ``copies``: of a card in the deck."""
    # state: n, minA, minK, minQ, minJ, pin, marr, dmax
    nc = copies + 1
    dp = np.zeros((hand + 1, nc, nc, nc, nc, nc, n_marr, n_delta), np.int64)
    dp[0, copies, copies, copies, copies, 0, 0, 0] = 1
    for s in range(4):
        new = np.zeros_like(dp)
        last = s == 3
        for n in range(hand + 1):
            for ma in range(nc):
                for mk in range(nc):
                    for mq in range(nc):
                        for mj in range(nc):
                            for p in range(nc):
                                for m in range(n_marr):
                                    for d in range(n_delta):
                                        cnt = dp[n, ma, mk, mq, mj, p, m, d]
                                        if cnt == 0:
                                            continue
                                        for c in range(cfg.shape[0]):
                                            n2 = n + sizes[c]
                                            if n2 > hand or (last and n2 != hand):
                                                continue
                                            p2 = p
                                            if s == pin[0]:
                                                p2 = cfg[c, pin[1]]
                                            elif s == pin[2]:
                                                p2 = min(p, cfg[c, pin[3]])
                                            d2 = d
                                            if fixed < 0 or fixed == s:
                                                d2 = max(d, delta_idx[c])
                                            new[n2, min(ma, cfg[c, around[0]]), min(mk, cfg[c, around[1]]),
                                                min(mq, cfg[c, around[2]]), min(mj, cfg[c, around[3]]), p2,
                                                m + marr_idx[c], d2] += cnt * w[c]
        dp = new
    return dp[hand]


@dataclass(frozen=True)
class MeldDistribution:
    """Exact distribution of one hand's meld: ``counts[v]`` hands of the ``total`` score ``v``."""

    values: np.ndarray  # int64, sorted
    counts: np.ndarray  # int64 (hands, out of ``total``)
    total: int = TOTAL_HANDS  # every hand of its size: math.comb(deck size, cards)

    @property
    def probabilities(self) -> np.ndarray:
        return self.counts / self.total

    @property
    def mean(self) -> Fraction:
        return Fraction(int(sum(int(v) * int(c) for v, c in zip(self.values, self.counts))), self.total)

    def at_least(self, x: int) -> Fraction:
        return Fraction(int(self.counts[self.values >= x].sum()), self.total)

    def quantile(self, q: float) -> int:
        cum = np.cumsum(self.counts)
        return int(self.values[np.searchsorted(cum, q * self.total)])


def meld_distribution(v: Variant | str = "thousand", trump: int | None = 0,
                      n: int | None = None) -> MeldDistribution:
    """Exact distribution of an ``n``-card hand's meld (default: the variant's hand size), trump
    fixed (0..3) or the hand's best (None). Counted once per variant, trump and size in a
    process (its arrays are shared: read them, do not write them)."""
    v = variant(v) if isinstance(v, str) else v
    n = v.hand_size if n is None else n
    if not 0 < n <= MAX_CARDS:
        raise ValueError(f"meld odds are counted for hands of 1 to {MAX_CARDS} cards, not {n}")
    return _meld_distribution(v, None if trump is None else parse_suit(trump), n)


@functools.lru_cache(maxsize=64)
def _meld_distribution(v: Variant, trump: int | None, n: int) -> MeldDistribution:
    tb = compile_variant(v)
    mv = tb.meld_values
    deck = suit_lies(v.deck)
    arounds, (pin_combo, pin) = cross_suit()
    real = deck.weights > 0  # the configurations the deck can give
    as_trump, marr = tb.suit_meld[[SCORE_TRUMP, SCORE_PLAIN]][:, real].astype(np.int64)
    delta = as_trump - marr
    unit = math.gcd(*map(int, marr)) or 1
    deltas = np.unique(delta)  # index 0 is kept for "no trump suit seen yet"
    delta_idx = np.searchsorted(deltas, delta).astype(np.int64) + 1
    dp = _meld_dp(deck.configs[real], deck.weights[real], deck.sizes[real], marr // unit, delta_idx,
                  -1 if trump is None else int(trump), int(4 * marr.max() // unit) + 1,
                  len(deltas) + 1, n, np.array([r for _, r in arounds], np.int64), np.array(pin, np.int64),
                  deck.copies)
    totals: dict[int, int] = {}
    for idx in zip(*np.nonzero(dp)):
        ma, mk, mq, mj, p, m, d = idx
        value = (int(m) * unit + sum(int(mv[row, x]) for (row, _), x in zip(arounds, (ma, mk, mq, mj)))
                 + int(mv[pin_combo, p]) + int(deltas[d - 1]))
        totals[value] = totals.get(value, 0) + int(dp[idx])
    values = np.array(sorted(totals), np.int64)
    counts = np.array([totals[x] for x in values], np.int64)
    values.flags.writeable = counts.flags.writeable = False  # shared by every caller (the cache)
    return MeldDistribution(values, counts, math.comb(deck.size, n))


# --------------------------------------------------------------------------------------------
# The simulated twin: the same figures from dealt hands, with standard errors.

def _event_arrays(evs: tuple[Event, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    lo = np.array([e.lo for e in evs], np.int8)
    hi = np.array([e.hi for e in evs], np.int8)
    return lo, hi, np.array([e.any_suit for e in evs], np.bool_)


@njit
def _meets(c, lo, hi, any_suit):
    """Whether count vector ``c`` meets an event given by per-suit bounds."""
    hits = 0
    for s in range(4):
        ok = True
        for r in range(6):
            x = c[6 * s + r]
            if x < lo[s, r] or x > hi[s, r]:
                ok = False
                break
        hits += ok
    return hits > 0 if any_suit else hits == 4


@njit
def _simulate(seed, start, n, b0, b1, lo, hi, any_suit, tb, players, hand, with_kitty, kinds,
              vmax, ev1, ev2, evany, msum, msq, hist_fixed, hist_best):
    """Main body of :func:`simulate_meld`, blocks ``b0 .. b1-1`` of ``BLOCK`` deals: per-block
    integer accumulators (order-independent). Each seat's hand counts, with the kitty added when
    ``with_kitty``. ``kinds``: the deck as ``deal.deal_any`` reads it (``cards.deck_kinds``)."""
    n_ev = lo.shape[0]
    for b in range(b0, b1):
        deck = np.empty(48, np.int8)
        scratch = np.empty_like(kinds)
        counts = np.empty((players + 1, N_KINDS), np.int8)
        hands = np.empty((players, N_KINDS), np.int8)
        out = np.empty(4, np.int32)
        for d in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
            deal_any(seed, start + d, kinds, deck, scratch, counts, players, hand)
            for p in range(players):
                for k in range(N_KINDS):  # (not a row assignment: its shape check costs seconds of compile)
                    hands[p, k] = counts[p, k] + (counts[players, k] if with_kitty else 0)
            for e in range(n_ev):
                k = 0
                for p in range(players):
                    k += _meets(hands[p], lo[e], hi[e], any_suit[e])
                ev1[b, e] += k
                ev2[b, e] += k * k
                evany[b, e] += k > 0
            yf = 0
            yb = 0
            for p in range(players):
                hand_meld_all_trumps(hands[p], tb, out)
                best = max(out[0], out[1], out[2], out[3])
                yf += out[0]
                yb += best
                hist_fixed[b, min(out[0], vmax)] += 1
                hist_best[b, min(best, vmax)] += 1
            msum[b, 0] += yf
            msum[b, 1] += yb
            msq[b, 0] += yf * yf
            msq[b, 1] += yb * yb


@dataclass
class SimulatedOdds:
    """Simulated event frequencies (per hand and at the table) and meld means, with standard errors."""

    deals: int
    seed: int
    p_hand: dict[str, float]
    se_hand: dict[str, float]
    p_table: dict[str, float]
    se_table: dict[str, float]
    mean_meld: dict[str, float]  # "fixed_trump", "best_trump"
    se_mean_meld: dict[str, float]
    hist_fixed: np.ndarray
    hist_best: np.ndarray


def simulate_meld(v: Variant | str = "thousand", deals: int = 1_000_000, seed: int = 0,
                  progress: bool = False, chunk: int = 1 << 20, with_kitty: bool = False) -> SimulatedOdds:
    """Deal ``deals`` deals of variant ``v`` and estimate every exact figure of this module,
    streaming in chunks; ``with_kitty``: each seat's hand plus the kitty (what it would hold on
    winning the bid). "At the table": some seat's hand.

    Standard errors treat the deal as the unit (the hands of a deal are not independent).
    """
    v = variant(v) if isinstance(v, str) else v
    if with_kitty and not v.kitty:
        raise ValueError(f"{v.name} has no kitty")
    if deals < 1 or chunk < 1:
        raise ValueError(f"simulated odds need deals and a chunk of at least 1 (deals={deals}, chunk={chunk})")
    players = v.players
    tb = compile_variant(v)
    evs = events(v.deck)
    lo, hi, any_suit = _event_arrays(evs)
    n_ev = len(evs)
    kinds = deck_kinds(v.deck)
    vmax = int(meld_upper_bound(v))
    ev1 = np.zeros(n_ev, np.int64)
    ev2 = np.zeros(n_ev, np.int64)
    evany = np.zeros(n_ev, np.int64)
    msum = np.zeros(2, np.int64)
    msq = np.zeros(2, np.int64)
    hf = np.zeros(vmax + 1, np.int64)
    hb = np.zeros(vmax + 1, np.int64)
    with bar(deals, "dealing", progress) as pb:
        for start in range(0, deals, chunk):
            n = min(chunk, deals - start)
            nb = (n + BLOCK - 1) // BLOCK
            acc = [np.zeros((nb, n_ev), np.int64) for _ in range(3)] + \
                  [np.zeros((nb, 2), np.int64) for _ in range(2)] + \
                  [np.zeros((nb, vmax + 1), np.int64) for _ in range(2)]
            in_spans(nb, lambda b0, b1, start=start, n=n, acc=acc: _simulate(
                np.uint64(seed), np.int64(start), n, b0, b1, lo, hi, any_suit, tb, players, v.hand_size, with_kitty,
                kinds, vmax, *acc), 1)
            for total, part in zip((ev1, ev2, evany, msum, msq, hf, hb), acc):
                total += part.sum(axis=0)
            pb.update(n)
    N = deals
    hands = players * N
    p_hand = ev1 / hands
    var_k = np.maximum(ev2 / N - (ev1 / N) ** 2, 0.0)  # variance of the per-deal count
    se_hand = np.sqrt(var_k / N) / players
    p_tab = evany / N
    se_tab = np.sqrt(p_tab * (1 - p_tab) / N)
    mean = msum / hands
    var_y = np.maximum(msq / N - (msum / N) ** 2, 0.0)
    se_mean = np.sqrt(var_y / N) / players
    names = [e.name for e in evs]
    return SimulatedOdds(N, seed, dict(zip(names, p_hand.tolist())), dict(zip(names, se_hand.tolist())),
                         dict(zip(names, p_tab.tolist())), dict(zip(names, se_tab.tolist())),
                         {"fixed_trump": float(mean[0]), "best_trump": float(mean[1])},
                         {"fixed_trump": float(se_mean[0]), "best_trump": float(se_mean[1])}, hf, hb)


def meld_upper_bound(v: Variant) -> int:
    """A value no hand's meld exceeds (for histogram sizes)."""
    mv = compile_variant(v).meld_values
    return int(mv[:, v.copies].sum() + 4 * mv[MARRIAGE, v.copies] + 6 * v.copies * v.extra_king_queen)


# --------------------------------------------------------------------------------------------
# The report that `pinochle-sim odds` prints.

def exact_odds(v: Variant | str = "thousand", with_kitty: bool = False) -> dict:
    """Every exact figure for one hand of the variant (and at the table), as a JSON-ready dict;
    ``with_kitty``: for a hand plus the kitty (18 cards in three-hand), at the table meaning
    that some seat would hold it on taking the kitty.

    >>> round(exact_odds("classic")["events"]["aces_around"], 4)
    0.0276
    """
    v = variant(v) if isinstance(v, str) else v
    if with_kitty and not v.kitty:
        raise ValueError(f"{v.name} has no kitty")
    n = v.hand_size + (v.kitty if with_kitty else 0)
    evs = events(v.deck)
    by_event = {e.name: float(event_probability(e, n, v.deck)) for e in evs}
    # hands plus a shared kitty overlap: no exact table figure for them
    table = {} if with_kitty else {e.name: table_probability(e, v.players, n, v.deck) for e in evs if e.per_kind}
    fixed = meld_distribution(v, 0, n)
    best = meld_distribution(v, None, n)
    out = {
        "variant": v.spec,
        "cards": n,
        "events": by_event,
        "events_at_table": table,
        "mean_meld_fixed_trump": float(fixed.mean),
        "mean_meld_best_trump": float(best.mean),
        "expected_per_hand": {c: float(expected_per_hand(c, n, v.deck)) for c in
                              ("marriage", "royal_marriage", "nine_of_trump")[:3 if v.deck[NINE] else 2]},
        "meld_fixed_trump": _dist_summary(fixed),
        "meld_best_trump": _dist_summary(best),
        "notes": {"given_suit": "spades stands for any one named suit (trump)",
                  "fixed_trump": "trump spades, named before the hand is seen",
                  "best_trump": "the hand's best trump for meld"},
    }
    if n == HAND:  # the four-hand report as it always was
        del out["cards"]
    if with_kitty:
        out["notes"]["cards"] = f"the {v.hand_size} cards dealt plus the kitty of {v.kitty}"
    return out


def _dist_summary(d: MeldDistribution) -> dict:
    return {"mean": float(d.mean),
            "quantiles": {str(q): d.quantile(q) for q in (0.1, 0.25, 0.5, 0.75, 0.9, 0.99)},
            "distribution": {str(int(x)): float(c) / d.total for x, c in zip(d.values, d.counts)}}


__all__ = ["EVENTS", "EVENT_NAMES", "Event", "events", "MeldDistribution", "SimulatedOdds", "event_probability",
           "exact_odds", "meld_distribution", "simulate_meld", "table_probability"]
