"""Exact meld odds for one hand (12 cards in four-hand, 15 in three-hand, 18 for a three-hand bid
winner's hand plus the kitty), the same odds at the table, and their simulated twins.

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

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .._numba import in_spans, njit
from ..engine.cards import COPIES, A, J, K, N_KINDS, NINE, Q, T
from ..engine.deal import BLOCK, deal_one
from ..progress import bar
from ..engine.meld import hand_meld_all_trumps
from ..engine.melds import MARRIAGE, SUIT_CONFIGS, cross_suit
from ..engine.variants import Variant, compile_variant, variant

HAND = 12
TOTAL_HANDS = math.comb(48, HAND)  # 12-card hands; any size: math.comb(48, n)
MAX_CARDS = 18  # the largest hand counted: fifteen cards and a kitty of three
FACTORIAL = np.array([math.factorial(k) for k in range(COPIES + 1)], np.int64)

# Every way one suit can lie in a hand (``melds.SUIT_CONFIGS``) and its multiplicity.
SUIT_WEIGHTS = np.prod(np.vectorize(math.comb)(COPIES, SUIT_CONFIGS), axis=1).astype(np.int64)
SUIT_SIZES = SUIT_CONFIGS.sum(axis=1)


@dataclass(frozen=True)
class Event:
    """Per-suit bounds ``lo <= count <= hi`` on A T K Q J 9, in every suit (or in at least one)."""

    name: str
    label: str
    lo: tuple[tuple[int, ...], ...]
    hi: tuple[tuple[int, ...], ...]
    any_suit: bool = False

    @property
    def per_kind(self) -> bool:
        """True when the event is a bound on each kind separately (every-suit events)."""
        return not self.any_suit


def _bounds(per_suit: dict[int, dict[int, tuple[int, int]]]) -> tuple[tuple, tuple]:
    lo = [[0] * 6 for _ in range(4)]
    hi = [[COPIES] * 6 for _ in range(4)]
    for s, ranks in per_suit.items():
        for r, (a, b) in ranks.items():
            lo[s][r], hi[s][r] = a, b
    return tuple(map(tuple, lo)), tuple(map(tuple, hi))


def _every(name: str, label: str, ranks: dict[int, tuple[int, int]]) -> Event:
    return Event(name, label, *_bounds({s: ranks for s in range(4)}))


def _some(name: str, label: str, ranks: dict[int, tuple[int, int]]) -> Event:
    return Event(name, label, *_bounds({s: ranks for s in range(4)}), any_suit=True)


def _cards(name: str, label: str, per_suit: dict[int, dict[int, tuple[int, int]]]) -> Event:
    return Event(name, label, *_bounds(per_suit))


_RUN1 = {r: (1, 2) for r in (A, T, K, Q, J)}
_RUN2 = {r: (2, 2) for r in (A, T, K, Q, J)}
EVENTS: tuple[Event, ...] = (
    _some("marriage_any_suit", "a marriage in some suit", {K: (1, 2), Q: (1, 2)}),
    _every("roundhouse", "a marriage in every suit", {K: (1, 2), Q: (1, 2)}),
    _cards("royal_marriage_given_suit", "K+Q of spades", {0: {K: (1, 2), Q: (1, 2)}}),
    _some("run_any_suit", "a run in some suit", _RUN1),
    _cards("run_given_suit", "a run in spades", {0: _RUN1}),
    _cards("double_run_given_suit", "a double run in spades", {0: _RUN2}),
    _every("aces_around", "aces around", {A: (1, 2)}),
    _every("double_aces", "all eight aces", {A: (2, 2)}),
    _every("kings_around", "kings around", {K: (1, 2)}),
    _every("double_kings", "all eight kings", {K: (2, 2)}),
    _every("queens_around", "queens around", {Q: (1, 2)}),
    _every("double_queens", "all eight queens", {Q: (2, 2)}),
    _every("jacks_around", "jacks around", {J: (1, 2)}),
    _every("double_jacks", "all eight jacks", {J: (2, 2)}),
    _cards("pinochle", "Q of spades + J of diamonds", {0: {Q: (1, 2)}, 2: {J: (1, 2)}}),
    _cards("double_pinochle", "both Q of spades + both J of diamonds", {0: {Q: (2, 2)}, 2: {J: (2, 2)}}),
    _cards("nine_of_trump_given_suit", "a nine of spades", {0: {NINE: (1, 2)}}),
    _every("no_aces", "no ace at all", {A: (0, 0)}),
)
EVENT_NAMES = tuple(e.name for e in EVENTS)


def _suit_poly(lo: tuple[int, ...], hi: tuple[int, ...], inside: bool = True) -> np.ndarray:
    """Generating polynomial (by cards used) of one suit's configurations inside (or outside) bounds."""
    ok = np.all((SUIT_CONFIGS >= lo) & (SUIT_CONFIGS <= hi), axis=1)
    ok = ok if inside else ~ok
    return np.bincount(SUIT_SIZES[ok], weights=SUIT_WEIGHTS[ok], minlength=13)


def _hands_with(polys: list[np.ndarray], n: int) -> int:
    """Number of ``n``-card hands whose suits come from the given polynomials."""
    prod = np.array([1], dtype=object)
    for p in polys:
        prod = np.convolve(prod, p.astype(np.int64).astype(object))[: n + 1]
    return int(prod[n]) if len(prod) > n else 0


def event_probability(e: Event, n: int = HAND) -> Fraction:
    """Exact chance that one ``n``-card hand meets event ``e``.

    >>> event_probability(EVENTS[EVENT_NAMES.index("double_aces")]) == Fraction(math.comb(40, 4), TOTAL_HANDS)
    True
    >>> event_probability(EVENTS[EVENT_NAMES.index("double_aces")], 15) == Fraction(math.comb(40, 7), math.comb(48, 15))
    True
    """
    total = math.comb(48, n)
    if e.any_suit:
        none = _hands_with([_suit_poly(e.lo[s], e.hi[s], inside=False) for s in range(4)], n)
        return 1 - Fraction(none, total)
    return Fraction(_hands_with([_suit_poly(e.lo[s], e.hi[s]) for s in range(4)], n), total)


# --------------------------------------------------------------------------------------------
# Someone at the table.

@njit
def _players_meeting(lo, hi, j, hand=HAND):
    """Ways (real numbers) to give ``j`` players disjoint ``hand``-card hands that all meet
    per-kind bounds."""
    base = hand + 1
    size = base ** j
    dp = np.zeros(size, np.float64)
    dp[0] = 1.0
    n = COPIES + 1
    # every split of a kind's copies among the j players (the rest elsewhere); last column: ways,
    # COPIES! / (c_1! ... c_j! (COPIES - sum c)!)
    splits = np.zeros((n ** 4, 5), np.int64)
    ns = 0
    for code in range(n ** j):
        c = code
        tot = 0
        ways = FACTORIAL[COPIES]
        for p in range(j):
            splits[ns, p] = c % n
            tot += c % n
            ways //= FACTORIAL[c % n]
            c //= n
        if tot <= COPIES:
            splits[ns, 4] = ways // FACTORIAL[COPIES - tot]
            ns += 1
    for k in range(N_KINDS):
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
    return dp[size - 1]


def table_probability(e: Event, players: int = 4, hand: int = HAND) -> float:
    """Chance that at least one of the ``players`` hands of ``hand`` cards of a deal meets ``e``
    (every-suit events only; the rest of the deck, a kitty, does not count)."""
    if not e.per_kind:
        raise ValueError(f"{e.name}: only events bounded kind by kind have a table figure")
    lo = np.array(e.lo, np.int64).reshape(N_KINDS)
    hi = np.array(e.hi, np.int64).reshape(N_KINDS)
    log_deals = math.lgamma(49) - players * math.lgamma(hand + 1)
    total = 0.0
    for j in range(1, players + 1):
        ways = _players_meeting(lo, hi, j, hand)
        rest = math.lgamma(48 - hand * j + 1) - (players - j) * math.lgamma(hand + 1)
        p_j = ways * math.exp(rest - log_deals) if ways > 0 else 0.0
        total += (-1) ** (j + 1) * math.comb(players, j) * p_j
    return total


def expected_per_hand(combo: str, n: int = HAND) -> Fraction:
    """Exact expected number of marriages (plain or royal) or nines of trump in one ``n``-card
    hand, trump spades."""
    suit_marginal = [Fraction(int(w) * math.comb(36, n - int(k)), math.comb(48, n))
                     for w, k in zip(SUIT_WEIGHTS, SUIT_SIZES)]
    k, q, nine = SUIT_CONFIGS[:, K], SUIT_CONFIGS[:, Q], SUIT_CONFIGS[:, NINE]
    per_suit = {"marriage": np.minimum(k, q), "royal_marriage": np.minimum(k, q), "nine_of_trump": nine}[combo]
    one = sum(p * int(x) for p, x in zip(suit_marginal, per_suit))
    return one * (3 if combo == "marriage" else 1)


# --------------------------------------------------------------------------------------------
# The meld distribution.

@njit
def _meld_dp(cfg, w, sizes, marr_idx, delta_idx, fixed, n_marr, n_delta, hand, around, pin):
    """Main body of :func:`meld_distribution`: counts over (mins, pinochle, marriage sum, best delta).
    ``around``: the ranks of the four arounds; ``pin``: suit, rank, suit, rank of the two-card
    meld across suits (the pinochle), first suit lower."""
    # state: n, minA, minK, minQ, minJ, pin, marr, dmax
    nc = COPIES + 1
    dp = np.zeros((hand + 1, nc, nc, nc, nc, nc, n_marr, n_delta), np.int64)
    dp[0, COPIES, COPIES, COPIES, COPIES, 0, 0, 0] = 1
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
    total: int = TOTAL_HANDS  # every hand of its size: math.comb(48, cards)

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
    fixed (0..3) or the hand's best (None)."""
    v = variant(v) if isinstance(v, str) else v
    n = v.hand_size if n is None else n
    if not 0 < n <= MAX_CARDS:
        raise ValueError(f"meld odds are counted for hands of 1 to {MAX_CARDS} cards, not {n}")
    tb = compile_variant(v)
    mv = tb.meld_values
    arounds, (pin_combo, pin) = cross_suit()
    as_trump, marr = tb.suit_meld.astype(np.int64)
    delta = as_trump - marr
    unit = math.gcd(*map(int, marr)) or 1
    deltas = np.unique(delta)  # index 0 is kept for "no trump suit seen yet"
    delta_idx = np.searchsorted(deltas, delta).astype(np.int64) + 1
    dp = _meld_dp(SUIT_CONFIGS, SUIT_WEIGHTS, SUIT_SIZES, marr // unit, delta_idx,
                  -1 if trump is None else int(trump), int(4 * marr.max() // unit) + 1,
                  len(deltas) + 1, n, np.array([r for _, r in arounds], np.int64), np.array(pin, np.int64))
    totals: dict[int, int] = {}
    for idx in zip(*np.nonzero(dp)):
        ma, mk, mq, mj, p, m, d = idx
        value = (int(m) * unit + sum(int(mv[row, x]) for (row, _), x in zip(arounds, (ma, mk, mq, mj)))
                 + int(mv[pin_combo, p]) + int(deltas[d - 1]))
        totals[value] = totals.get(value, 0) + int(dp[idx])
    values = np.array(sorted(totals), np.int64)
    return MeldDistribution(values, np.array([totals[x] for x in values], np.int64), math.comb(48, n))


# --------------------------------------------------------------------------------------------
# The simulated twin: the same figures from dealt hands, with standard errors.

def _event_arrays() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    lo = np.array([e.lo for e in EVENTS], np.int8)
    hi = np.array([e.hi for e in EVENTS], np.int8)
    return lo, hi, np.array([e.any_suit for e in EVENTS], np.bool_)


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
def _simulate(seed, start, n, b0, b1, lo, hi, any_suit, tb, players, hand, with_kitty,
              vmax, ev1, ev2, evany, msum, msq, hist_fixed, hist_best):
    """Main body of :func:`simulate_meld`, blocks ``b0 .. b1-1`` of ``BLOCK`` deals: per-block
    integer accumulators (order-independent). Each seat's hand counts, with the kitty added when
    ``with_kitty``."""
    n_ev = lo.shape[0]
    for b in range(b0, b1):
        deck = np.empty(48, np.int8)
        counts = np.empty((players + 1, N_KINDS), np.int8)
        hands = np.empty((players, N_KINDS), np.int8)
        out = np.empty(4, np.int32)
        for d in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
            deal_one(seed, start + d, deck, counts, players, hand)
            for p in range(players):
                hands[p] = counts[p]
                if with_kitty:
                    hands[p] += counts[players]
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
    players = v.players
    tb = compile_variant(v)
    lo, hi, any_suit = _event_arrays()
    n_ev = len(EVENTS)
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
                vmax, *acc), 1)
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
    names = list(EVENT_NAMES)
    return SimulatedOdds(N, seed, dict(zip(names, p_hand.tolist())), dict(zip(names, se_hand.tolist())),
                         dict(zip(names, p_tab.tolist())), dict(zip(names, se_tab.tolist())),
                         {"fixed_trump": float(mean[0]), "best_trump": float(mean[1])},
                         {"fixed_trump": float(se_mean[0]), "best_trump": float(se_mean[1])}, hf, hb)


def meld_upper_bound(v: Variant) -> int:
    """A value no hand's meld exceeds (for histogram sizes)."""
    mv = compile_variant(v).meld_values
    return int(mv[:, 2].sum() + 4 * mv[MARRIAGE, 2] + 12 * v.extra_king_queen)


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
    events = {e.name: float(event_probability(e, n)) for e in EVENTS}
    # hands plus a shared kitty overlap: no exact table figure for them
    table = {} if with_kitty else {e.name: table_probability(e, v.players, n) for e in EVENTS if e.per_kind}
    fixed = meld_distribution(v, 0, n)
    best = meld_distribution(v, None, n)
    out = {
        "variant": v.spec,
        "cards": n,
        "events": events,
        "events_at_table": table,
        "mean_meld_fixed_trump": float(fixed.mean),
        "mean_meld_best_trump": float(best.mean),
        "expected_per_hand": {c: float(expected_per_hand(c, n)) for c in
                              ("marriage", "royal_marriage", "nine_of_trump")},
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


__all__ = ["EVENTS", "EVENT_NAMES", "Event", "MeldDistribution", "SimulatedOdds", "event_probability",
           "exact_odds", "meld_distribution", "simulate_meld", "table_probability"]
