"""Dealing: the deck is conserved, deals are reproducible from (seed, i) alone, and uniform."""
import math

import numba
import numpy as np
import pytest
from naive import naive_deal, naive_deal_around, naive_shuffle

from pinochle_sim._numba import set_threads
from pinochle_sim.engine.deal import deal, deal_around, deal_kinds_around, shuffle, stream
from pinochle_sim.engine.variants import PRESETS, variant


def test_deck_conserved():
    d = deal(2000, seed=3)
    assert (d.sum(axis=2) == 12).all()          # twelve cards a seat
    assert (d.sum(axis=1) == 2).all()           # both copies of every kind, somewhere
    assert d.min() >= 0 and d.max() <= 2


def test_double_deck_conserved_and_matches_naive_twin():
    """RULES.md "Double-deck": 80 cards, four copies of A 10 K Q J in every suit and no 9s, 20 to
    each of four seats; each deal is the naive shuffle of the deck in kind order."""
    d = deal(500, seed=7, v="double-deck")
    assert (d.sum(axis=2) == 20).all()
    assert (d.sum(axis=1)[:, 5::6] == 0).all() and (np.delete(d.sum(axis=1), np.s_[5::6], axis=1) == 4).all()
    deck = [k for k in range(24) for _ in range(0 if k % 6 == 5 else 4)]
    for i in range(10):
        shuffled = naive_shuffle(7, i, deck, 20)
        want = [sorted(shuffled[20 * p: 20 * p + 20]) for p in range(4)]
        assert [np.repeat(np.arange(24), d[i, p]).tolist() for p in range(4)] == want


def test_matches_naive_twin():
    d = deal(20, seed=99, start=1000)
    for i in range(20):
        want = naive_deal(99, 1000 + i)
        got = [sorted(np.repeat(np.arange(24), d[i, p]).tolist()) for p in range(4)]
        assert got == want


@pytest.mark.parametrize("spec", ["three-hand", "thousand:hand_size=10,kitty=8"])
def test_kitty_deals_match_naive_twin(spec):
    """The 48 cards with a kitty (seed 002's three-hand; four hands of ten and a kitty of eight,
    the most blocks a deal hands out): each seat's block of the naive shuffle, the rest to the
    kitty's row."""
    v = variant(spec)
    d = deal(20, seed=4, v=v)
    for i in range(20):
        shuffled = naive_shuffle(4, i, [k // 2 for k in range(48)], v.hand_size)
        want = [sorted(shuffled[v.hand_size * p: v.hand_size * p + v.hand_size]) for p in range(v.players)]
        want.append(sorted(shuffled[v.hand_size * v.players:]))
        assert [np.repeat(np.arange(24), row).tolist() for row in d[i]] == want


@pytest.mark.parametrize("players, hand, seat", [(4, 12, 0), (4, 12, 2), (3, 15, 1)])
def test_deal_around_matches_naive_twin(players, hand, seat):
    """The deal with one seat's cards fixed (``advise``, the bid tables' hand studies): the rest
    shuffled and handed out as the naive twin does, the kitty (three-hand) in the last row."""
    deck = np.empty(48, np.int8)
    for i in range(30):
        fixed = np.zeros(24, np.int8)
        for k in naive_deal(5, i)[seat % 4][:hand]:
            fixed[k] += 1
        counts = np.zeros((players + 1, 24), np.int8)
        deal_around(np.uint64(11), i, seat, fixed, deck, counts, players, hand)
        got = [sorted(np.repeat(np.arange(24), row).tolist()) for row in counts]
        assert got == naive_deal_around(11, i, seat, np.repeat(np.arange(24), fixed).tolist(), players, hand)


def test_double_deck_deal_around_matches_naive_twin():
    """Seed 003's double-deck with one seat's twenty cards fixed (``advise``): the other sixty
    shuffled and handed out as the naive twin does, twenty to each other seat."""
    v = PRESETS["double-deck"]
    deck = np.empty(80, np.int8)
    dealt = deal(30, seed=5, v=v)
    for i in range(30):
        seat = i % 4
        fixed = dealt[i, (seat + 1) % 4].copy()
        counts = np.zeros((5, 24), np.int8)
        deal_kinds_around(np.uint64(11), i, seat, fixed, 4, v.absent_kinds, deck, counts, 20)
        got = [sorted(np.repeat(np.arange(24), row).tolist()) for row in counts]
        assert got == naive_deal_around(11, i, seat, np.repeat(np.arange(24), fixed).tolist(), 4, 20,
                                        list(v.deck_counts))


def test_reproducible_whatever_threads_batch_or_start():
    full = deal(30_000, seed=7)
    threads = numba.get_num_threads()
    try:
        set_threads(1)
        one = deal(30_000, seed=7)
    finally:
        set_threads(threads)
    assert (one == full).all()
    assert (deal(5_000, seed=7, start=12_345) == full[12_345:17_345]).all()
    parts = np.concatenate([deal(n, seed=7, start=s) for s, n in ((0, 9_999), (9_999, 1), (10_000, 20_000))])
    assert (parts == full).all()
    assert not (deal(100, seed=8) == full[:100]).all()


@numba.njit
def _perm_counts(n_trials, stop):
    counts = np.zeros(24, np.int64)
    a = np.empty(4, np.int64)
    for t in range(n_trials):
        for k in range(4):
            a[k] = k
        shuffle(stream(np.uint64(5), t, 0), a, stop)
        # rank of the permutation (Lehmer code)
        r = 0
        for i in range(4):
            smaller = 0
            for j in range(i + 1, 4):
                smaller += a[j] < a[i]
            r = r * (4 - i) + smaller
        counts[r] += 1
    return counts


def _chi2_p(observed, expected):
    chi2 = float(((observed - expected) ** 2 / expected).sum())
    dof = len(observed) - 1
    # Wilson-Hilferty normal approximation to the chi-square tail
    z = ((chi2 / dof) ** (1 / 3) - (1 - 2 / (9 * dof))) / math.sqrt(2 / (9 * dof))
    return 0.5 * math.erfc(z / math.sqrt(2))


def test_shuffle_uniform_over_permutations():
    counts = _perm_counts(240_000, 0)
    assert _chi2_p(counts, np.full(24, 10_000.0)) > 1e-4


def test_deal_uniform_seat_of_each_card():
    # each of the 48 physical cards is equally likely in each seat; pairs of copies likewise
    d = deal(200_000, seed=11).astype(np.int64)
    per_seat = d.sum(axis=0)                          # [4, 24]: copies each seat got, over deals
    expected = np.full((4, 24), 200_000 * 2 / 4)
    assert _chi2_p(per_seat.ravel(), expected.ravel()) > 1e-4
    # both copies in one hand: 11/47 exactly
    both = (d == 2).sum(axis=(0, 1)) / 200_000
    se = math.sqrt(11 / 47 * 36 / 47 / 200_000)
    assert np.abs(both - 11 / 47).max() < 5 * se


def test_deal_uniform_hand_pattern():
    # the number of spades in seat 0's hand is hypergeometric(48, 12 spades, 12 drawn)
    d = deal(200_000, seed=12)
    spades = d[:, 0, :6].sum(axis=1)
    obs = np.bincount(spades, minlength=13).astype(float)
    exp = np.array([math.comb(12, k) * math.comb(36, 12 - k) for k in range(13)]) / math.comb(48, 12) * 200_000
    keep = exp > 5
    obs2 = np.append(obs[keep], obs[~keep].sum())
    exp2 = np.append(exp[keep], exp[~keep].sum())
    assert _chi2_p(obs2, exp2) > 1e-4


def test_bad_arguments():
    with pytest.raises(ValueError):
        deal(-1)
