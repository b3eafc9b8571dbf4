"""Auction and scoring rules, case by case from the seed texts."""
import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from naive import naive_auction

from pinochle_sim.engine.auction import N_SITUATIONS, AuctionState, run_auction
from pinochle_sim.engine.scoring import score_hand
from pinochle_sim.engine.variants import compile_variant, variant


def auction(name, dealer, worth):
    v = variant(name)
    calls = np.zeros((200, 2), np.int32)
    margin = np.full(4, 30.0 * v.trick_total / 250)  # the default partner margin
    limits = np.repeat(np.array(worth, float)[:, None], N_SITUATIONS, axis=1)  # the same in every situation
    bidder, bid, n, _ = run_auction(dealer, limits, margin, compile_variant(v), calls, np.zeros(4, np.bool_))
    return bidder, bid, [[int(s), None if b < 0 else int(b)] for s, b in calls[:n]]


def test_thousand_opens_at_40_raises_by_5_and_throws_in():
    # seed 000: 'Bidding starts at forty ... beat the last by at least five ... If nobody bids,
    # the hand is thrown in'
    b, bid, calls = auction("thousand", 0, [0, 50, 0, 0])
    assert (b, bid) == (1, 40) and calls[0] == [1, 40]
    b, bid, calls = auction("thousand", 0, [0, 50, 47, 0])
    assert (b, bid) == (1, 50) and calls == [[1, 40], [2, 45], [3, None], [0, None], [1, 50],
                                             [2, None]]
    assert auction("thousand", 0, [10, 10, 10, 10])[:2] == (-1, 0)


def test_pass_is_final_and_three_passes_end_it():
    b, bid, calls = auction("classic", 3, [400, 300, 0, 0])
    assert calls[0][0] == 0  # left of the dealer first
    seats_after_pass = {}
    for i, (s, x) in enumerate(calls):
        assert s not in seats_after_pass
        if x is None:
            seats_after_pass[s] = i
    assert (b, bid) == (0, 310) and len(seats_after_pass) == 3


def test_dealer_stuck_modern():
    # seed 002: 'If everyone before the dealer passes without raising, the dealer takes the
    # Starting bid' (25); seed 001: 'If no one bids the dealer gets the contract at 15'
    assert auction("modern", 2, [0, 0, 0, 0]) == (2, 25, [[3, None], [0, None], [1, None]])
    assert auction("modern-15", 1, [0, 0, 0, 0])[:2] == (1, 15)


def test_modern_raises_exactly_one():
    b, bid, calls = auction("modern", 0, [28, 30, 0, 0])
    bids = [x for _, x in calls if x is not None]
    assert bids == [26, 27, 28] and (b, bid) == (1, 28)


def test_classic_pass4_forced_opening():
    # seed 004: 'first player to dealer's left is "in" for 250 points'
    b, bid, calls = auction("classic-pass4", 0, [0, 0, 0, 0])
    assert (b, bid) == (1, 250) and calls[0] == [1, 250]


def test_partner_is_not_outbid_without_reason():
    # seat 2 holds 260; its partner seat 0 is worth 280, less than 270 + the 30 margin
    b, bid, calls = auction("classic", 1, [280, 0, 300, 0])
    assert b == 2


def score(name, bidder, bid, meld, dix, points, tricks, counters):
    v = variant(name)
    out = np.zeros(2, np.int64)
    made = score_hand(v.team(bidder), bid, np.array(meld), np.array(dix), np.array(points),
                      np.array(tricks), np.array(counters), compile_variant(v).rules, out)
    return made, out.tolist()


def test_scoring_seed_000():
    # 'Bid two hundred and fifty, reach three hundred and ten, and bank all of it.'
    assert score("thousand", 0, 250, [150, 40], [0, 0], [160, 90], [8, 4], [10, 6]) == (1, [310, 130])
    # 'Fall short of the bid and you lose the whole bid instead, even below zero.'
    assert score("thousand", 1, 250, [60, 40], [0, 0], [160, 90], [8, 4], [10, 6]) == (0, [220, -250])
    # 'Meld counts even if your side takes no tricks.'
    assert score("thousand", 0, 40, [100, 60], [0, 0], [250, 0], [12, 0], [20, 0]) == (1, [350, 60])


def test_scoring_seed_002_required_trick_and_no_trick():
    # 'with a Bid of 25, Meld of 16 and Points of 10 add 26 ... Meld of 16 and Points of 8 ... subtract 25'
    assert score("modern", 0, 25, [16, 5], [0, 0], [10, 15], [6, 6], [8, 8]) == (1, [26, 20])
    assert score("modern", 0, 25, [16, 5], [0, 0], [8, 17], [6, 6], [8, 8]) == (0, [-25, 22])
    # 'Your team must also win the Required tricks'; 'A team that takes no tricks scores nothing.'
    assert score("modern", 0, 25, [30, 5], [0, 0], [0, 25], [0, 12], [0, 16]) == (0, [-25, 30])
    assert score("modern", 0, 25, [20, 9], [0, 0], [25, 0], [12, 0], [16, 0]) == (1, [45, 0])


def test_scoring_seed_003_bidder_meld_void_without_a_trick():
    # 'If the bidding team takes no tricks at all, their melds score nothing.'
    assert score("classic:no_trick=bidder_meld_void", 0, 250, [300, 40], [0, 0], [0, 250],
                 [0, 12], [0, 20]) == (0, [-250, 290])
    assert score("classic", 1, 250, [300, 40], [0, 0], [0, 250], [0, 12], [0, 20]) == (1, [300, 290])


def test_scoring_seed_004_no_counter_keeps_only_nines():
    # 'If a team does not pull in any tricks with counter cards, it loses any meld ...
    #  the points from the 9s can be counted.'
    assert score("classic-pass4", 0, 250, [200, 60], [0, 20], [240, 0], [11, 1], [24, 0]) == (1, [440, 20])


def test_trick_points_total_per_variant():
    # seed 000: 250; seed 001/002: 25; seed 003: 250; RULES.md: 240 for classic-pass4
    assert [variant(n).trick_total for n in ("thousand", "modern-15", "modern", "classic",
                                             "classic-pass4")] == [250, 25, 25, 250, 240]


def test_situations_and_the_limit_each_reads():
    # each call reads the limit of the situation its seat sees (dealer 0: seats 1, 2, 3, 0 call)
    v = variant("classic")
    calls = np.zeros((200, 2), np.int32)
    worth = np.full((4, N_SITUATIONS), -np.inf)
    worth[1, 0] = 300     # nobody has bid
    worth[2, 3] = 400     # an opponent holds the bid, partner still in
    worth[1, 2] = 350     # an opponent holds the bid, partner out
    worth[2, 2] = 265     # not enough for 280
    bidder, bid, n, sit = run_auction(0, worth, np.zeros(4), compile_variant(v), calls, np.zeros(4, np.bool_))
    seen = [[int(s), None if b < 0 else int(b)] for s, b in calls[:n]]
    assert seen == [[1, 250], [2, 260], [3, None], [0, None], [1, 270], [2, None]]
    assert (bidder, bid, sit) == (1, 270, 2)


@given(st.sampled_from(["thousand", "modern", "modern-15", "classic", "classic-pass4", "three-hand"]),
       st.integers(0, 3), st.data(), st.sampled_from([12, 30, 400]))
def test_auction_against_one_call_at_a_time(name, dealer, data, size):
    """The kernel counts runs of raises at once (``auction._raises``); the calls, winner, bid and
    situation are those of stepping one call at a time (``naive.naive_auction``), limits and
    partner margins drawn at random, up to a calls array too short for the auction."""
    v = variant(name)
    dealer %= v.players
    top = v.opening_bid + 40 * v.raise_min
    value = st.one_of(st.just(-np.inf), st.integers(v.opening_bid - 2 * v.raise_min, top),
                      st.floats(v.opening_bid - v.raise_min, top, allow_nan=False))
    worth = np.array(data.draw(st.lists(st.lists(value, min_size=N_SITUATIONS, max_size=N_SITUATIONS),
                                        min_size=v.players, max_size=v.players)), float)
    margin = np.array(data.draw(st.lists(st.sampled_from([0.0, 0.5, v.raise_min, 3.0 * v.raise_min]),
                                         min_size=v.players, max_size=v.players)))
    calls = np.zeros((size, 2), np.int32)
    bidder, bid, n, sit = run_auction(dealer, worth, margin, compile_variant(v), calls,
                                      np.zeros(v.players, np.bool_))
    want = naive_auction(dealer, worth.tolist(), margin.tolist(), v, size - 5)
    got = [(int(s), None if b < 0 else int(b)) for s, b in calls[:n]]
    assert (bidder, bid, got, sit) == want
    # issue 29: the Python AuctionState (advise reads auctions with it) agrees call by call: whose
    # turn, the situation seen, the least legal bid, every call legal, and the same result
    state = AuctionState(v, dealer)
    for j, (seat, call) in enumerate(got):
        assert seat == state.seat and not state.over
        if not state.forced:
            s = state.situation()
            limit = worth[seat, s] - (margin[seat] if s == 1 else 0)
            assert (call == state.least_bid <= limit) if call is not None else (
                limit < state.least_bid or j >= size - 5)
        state.call(call)
    assert state.result() == (bidder, bid, sit)
