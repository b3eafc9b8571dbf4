"""What the seats know during the play, and the hidden hands the sampling player draws from it
(issue 15): the inferences hold for the real hands, the count of layouts equals brute force and
the draws follow it exactly, and the sampling player never reads a hidden card."""
import itertools
import math
import random

import numpy as np
import pytest
from naive import final_hands

from pinochle_sim.engine.cards import hand_counts, parse_cards
from pinochle_sim.engine.knowledge import (_meld_in_trump, agrees_with_calls, agrees_with_meld, draw, may_hold,
                                           new_sampler, new_seen, note_calls, observe, pool_mask, pool_of, prepare,
                                           revealed, start_seen, swap)
from pinochle_sim.engine.meld import meld_table, meld_used
from pinochle_sim.engine.pimc import draw_world, new_scratch, pimc_card, walk_world
from pinochle_sim.engine.play import SUIT, add_copy, beats, copies_in, legal_mask, to_masks
from pinochle_sim.engine.search import Position
from pinochle_sim.engine.tricks import POLICY_OPTIONS, Hands, in_full, policy_row
from pinochle_sim.engine.hand import max_calls
from pinochle_sim.studies.simulate import Setup
from pinochle_sim.engine.variants import PLAYABLE, PRESETS, compile_variant, variant
from pinochle_sim.studies.records import records

SUITS = "SHDC"


@pytest.mark.parametrize("name", ["classic", "thousand", "modern"])
def test_revealed_is_what_legal_mask_rules_out(name):
    """A kind is ruled out exactly when holding it (beside the card played) would have made the
    card illegal: the definition, checked kind by kind with the obligations' own kernel."""
    v = variant(name)
    rng = random.Random(3)
    for _ in range(3000):
        lead, trump = rng.randrange(4), rng.randrange(4)
        win = rng.randrange(24)
        if SUIT[win] != lead and SUIT[win] != trump:
            continue
        card = rng.randrange(24)
        rules = (v.must_head, v.must_trump, v.must_overtrump)
        if not legal_mask((1 << card), 1, lead, win, trump, *rules):
            continue
        want = 0
        for k in range(24):
            if k != card and not legal_mask((1 << card) | (1 << k), 1, lead, win, trump, *rules) >> card & 1:
                want |= 1 << k
        assert revealed(card, lead, win, trump, *rules) & ~(1 << card) == want


def _bidding(v):
    """The seats' bidding in the records (each variant's default), as the kernels read it."""
    return Setup(v, "contract").bid


def _calls(rec, v):
    """A record's calls as the kernels keep them (int32[max calls, 2]: seat, bid or -1)."""
    calls = np.zeros((max_calls(v), 2), np.int32)
    for i, (seat, bid) in enumerate(rec["auction"]):
        calls[i] = seat, -1 if bid is None else bid
    return calls


def _replay(rec, v):
    """Yield copies of (seen, hands as counts), the seat to play, the trick so far, the trump
    and the kinds played (p1, p2) before every card of a record, the knowledge kept by the
    kernels' own functions."""
    tb = compile_variant(v)
    seats = v.players
    trump = SUITS.index(rec["trump"])
    hands = np.array([hand_counts(" ".join(h), deck=v.deck_counts) for h in final_hands(rec)], np.int8)
    passes = np.zeros((2, 12), np.int8)
    if rec.get("discard"):
        passes[0, :v.kitty] = parse_cards(" ".join(rec["discard"]))
    for r, (_, _, cards) in enumerate(rec["passes"]):
        passes[r, :len(cards)] = parse_cards(" ".join(cards))
    seen = new_seen(seats)
    start_seen(seen, hands, meld_table(hands, v).astype(np.int32), trump, rec["bidder"], passes, tb, rec["bid"], -1,
               np.zeros(24, np.int64))
    note_calls(seen, _calls(rec, v), len(rec["auction"]), rec["bidder"], _bidding(v).margin, tb)
    absent = v.absent_kinds  # a kind the deck lacks counts as played in full, as in the trick loop
    p1 = p2 = absent | absent << 24
    for t in rec["tricks"]:
        lead = win = -1
        for j, name in enumerate(c for c in t["cards"] if c):
            seat = (t["leader"] + j) % seats
            card = parse_cards(name)[0]
            yield type(seen)(*(a.copy() for a in seen)), hands.copy(), seat, j, lead, win, trump, p1, p2
            observe(seen, seat, card, j, lead, win, trump, tb.rules)
            if j == 0:
                lead, win = SUIT[card], card
            elif beats(card, win, trump):
                win = card
            hands[seat, card] -= 1
            p1, p2 = add_copy(p1, p2, card)


@pytest.mark.parametrize("name", ["classic-pass4", "thousand", "three-hand", "modern"])
def test_what_seats_know_holds_for_the_real_hands(name):
    v = variant(name)
    tb = compile_variant(v)
    sampler = new_sampler()
    checked = 0
    for rec in records(v, 40, seed=4, policy="contract"):
        if rec["bidder"] is None:
            continue
        discard = hand_counts(" ".join(rec.get("discard", [])))
        for seen, hands, seat, _j, _lead, _win, trump, p1, p2 in _replay(rec, v):
            for o in range(v.players):
                for q in range(v.players + 1):
                    held = discard if q == v.players else hands[q]
                    if q != o:
                        assert (seen.known[o, q] <= held).all()
                    assert not any(held[k] and seen.forbid[q] >> k & 1 for k in range(24))
            h1, h2 = to_masks(hands[seat])
            assert prepare(seen, seat, h1, h2, p1, p2, v.copies > 2, sampler) > 0
            # the masks kept beside the counts say the same, and the cards a seat cannot place
            # (counted by kind and as a mask) are the copies neither played, held nor known
            for o in range(v.players):
                for q in range(v.players + 1):
                    assert (seen.kmask[o, q], seen.kmask2[o, q]) == to_masks(seen.known[o, q])
            pool = np.zeros(24, np.int64)
            mask = pool_of(seen, seat, h1, h2, p1, p2, False, pool)
            known = seen.known[seat].sum(axis=0)
            naive = [2 - (p1 >> k & 1) - (p2 >> k & 1) - hands[seat, k] - known[k] for k in range(24)]
            assert pool.tolist() == naive and mask == sum(1 << k for k in range(24) if naive[k] > 0)
            # the real hands agree with the meld each seat laid down (it showed all it held)
            masks = np.array([to_masks(hands[q]) for q in range(v.players)], np.int64)
            assert agrees_with_meld(seen, seat, masks[:, 0].copy(), masks[:, 1].copy(), trump, tb)
            checked += 1
    assert checked > 300


def test_what_seats_know_of_four_copies_holds_for_the_real_hands():
    """Seed 003's double-deck, under the contract player: what each seat knows another holds is
    held, what it rules out is not, its masks say what its counts do, and the cards a seat cannot
    place are the copies of four neither played, held nor known (by kind and as a mask); every
    card a seat holds is one the others may think it holds, and the sampler counts layouts."""
    v = variant("double-deck")
    checked = 0
    sampler = new_sampler()
    pool = np.zeros(24, np.int64)
    for seen, hands, seat, p1, p2, h1, h2 in _positions(v, 12, seed=4):
        pooled = pool_mask(seen, seat, h1, h2, p1, p2, True)
        known = seen.known[seat].sum(axis=0)
        played = [copies_in(p1, p2, 1 << k) for k in range(24)]
        naive = [4 - played[k] - hands[seat, k] - known[k] for k in range(24)]
        assert pooled == sum(1 << k for k in range(24) if naive[k] > 0)
        assert pool_of(seen, seat, h1, h2, p1, p2, True, pool) == pooled and pool.tolist() == naive
        assert prepare(seen, seat, h1, h2, p1, p2, True, sampler) > 0
        for q in range(v.players):
            assert (seen.kmask[seat, q], seen.kmask2[seat, q]) == to_masks(seen.known[seat, q])
            if q != seat:
                assert (seen.known[seat, q] <= hands[q]).all()
                may = may_hold(seen, seat, q, pooled)
                assert all(may >> k & 1 for k in range(24) if hands[q, k])
        checked += 1
    assert checked > 500


def _positions(v, deals, seed):
    """Every position before a card of ``v``'s played records (contract play): what the seats
    know, the hands, the seat to play, the cards played (``p1``, ``p2``) and its hand as masks."""
    for rec in records(v, deals, seed=seed, policy="contract"):
        if rec["bidder"] is None:
            continue
        for seen, hands, seat, _j, _lead, _win, _trump, p1, p2 in _replay(rec, v):
            yield seen, hands, seat, p1, p2, *to_masks(hands[seat])


@pytest.mark.parametrize("name", ["classic", "thousand", "three-hand"])
def test_worlds_drawn_with_infer_agree_with_the_meld_shown(name):
    """Issue 33: meld is laid down in full, so no seat holds a card that would have made more meld
    than it showed; ``pimc:infer=1`` draws a world that says otherwise again. In the first tricks
    some plain draws disagree (the check has work to do); the draws with ``infer`` agree."""
    v = variant(name)
    tb = compile_variant(v)
    sc = new_scratch(v.players, v.teams, -1, _bidding(v))
    plain, bad, kept = 0, 0, 0
    for rec in records(v, 8, seed=3, policy="contract"):
        if rec["bidder"] is None:
            continue
        for seen, hands, seat, _j, _lead, _win, trump, p1, p2 in list(_replay(rec, v))[:3 * v.players]:
            h1, h2 = to_masks(hands[seat])
            assert prepare(seen, seat, h1, h2, p1, p2, v.copies > 2, sc.sampler) > 0
            for infer in (0, 1):
                state = np.uint64(99)
                for _ in range(20):
                    state = np.uint64(draw_world(seen, seat, h1, h2, state, trump, tb, infer, 0, sc))
                    ok = agrees_with_meld(seen, seat, sc.h1, sc.h2, trump, tb)
                    plain += not infer
                    bad += not infer and not ok
                    kept += infer and ok
    assert bad > 0 and kept >= 0.99 * plain, (bad, kept, plain)


@pytest.mark.parametrize("name", PLAYABLE)
def test_the_meld_check_reads_a_world_as_the_meld_table_does(name):
    """``knowledge._meld_in_trump`` (each suit's configuration read from the masks) gives every
    seat's meld in trump, its played cards counted, as ``meld_table`` scores the counts, on the
    worlds ``pimc`` draws through the play (double-deck's four copies included)."""
    v = variant(name)
    tb = compile_variant(v)
    sc = new_scratch(v.players, v.teams, -1, _bidding(v))
    checked = 0
    for rec in records(v, 4, seed=5, policy="contract"):
        if rec["bidder"] is None:
            continue
        for seen, hands, seat, _j, _lead, _win, trump, p1, p2 in list(_replay(rec, v))[::5]:
            h1, h2 = to_masks(hands[seat])
            prepare(seen, seat, h1, h2, p1, p2, v.copies > 2, sc.sampler)
            state = np.uint64(7)
            for _ in range(3):
                state = np.uint64(draw_world(seen, seat, h1, h2, state, trump, tb, 0, 0, sc))
                for q in range(v.players):
                    counts = np.array([copies_in(sc.h1[q], sc.h2[q], 1 << k) + seen.played[q, k] for k in range(24)])
                    assert _meld_in_trump(seen, q, sc.h1, sc.h2, trump, tb) == meld_table(counts[None], v)[0, trump]
                    checked += 1
    assert checked > 100


@pytest.mark.parametrize("name", ["thousand", "classic", "classic-pass4", "three-hand"])
def test_the_real_hands_agree_with_the_calls_and_worlds_drawn_with_calls_do(name):
    """Issue 33: the seats bid by their strategies, so every call says something of the caller's
    hand (a bid: its limit reaches the bid; a pass: it does not reach the next). The real hands
    agree with the calls at every position, from every seat's view; plain draws early in the
    hand often do not (the check has work to do); draws with ``calls`` agree, up to the cap of
    draws: in ``thousand``'s long auctions under 2% of plain draws agree early in the hand, and
    about one world in nine still disagrees after ``MAX_DRAWS`` draws."""
    v = variant(name)
    tb = compile_variant(v)
    bd = _bidding(v)
    sc = new_scratch(v.players, v.teams, -1, bd)
    checked, plain, bad, kept, walked = 0, 0, 0, 0, 0
    for rec in records(v, 30, seed=3, policy="contract"):
        if rec["bidder"] is None:
            continue
        for i, (seen, hands, seat, _j, _lead, _win, trump, p1, p2) in enumerate(_replay(rec, v)):
            masks = np.array([to_masks(hands[q]) for q in range(v.players)], np.int64)
            assert agrees_with_calls(seen, seat, masks[:, 0].copy(), masks[:, 1].copy(), bd, tb, sc.hand, sc.melds,
                                     sc.worth)
            assert seen.called.sum() >= 1
            checked += 1
            if i >= 2 * v.players:
                continue
            h1, h2 = to_masks(hands[seat])
            assert prepare(seen, seat, h1, h2, p1, p2, v.copies > 2, sc.sampler) > 0
            for calls in (0, 1):
                state = np.uint64(99)
                for _ in range(10):
                    state = np.uint64(draw_world(seen, seat, h1, h2, state, trump, tb, 0, calls, sc))
                    ok = agrees_with_calls(seen, seat, sc.h1, sc.h2, bd, tb, sc.hand, sc.melds, sc.worth)
                    plain += not calls
                    bad += not calls and not ok
                    kept += calls and ok
                    if calls:  # the chain walks on from an agreeing world and stays where the calls hold
                        for _ in range(3):
                            state = np.uint64(walk_world(seen, seat, h1, h2, state, trump, tb, 0, 1, 16, sc))
                            now = agrees_with_calls(seen, seat, sc.h1, sc.h2, bd, tb, sc.hand, sc.melds, sc.worth)
                            assert now or not ok
                            walked += now
    assert checked > 200 and bad > 0.1 * plain, (checked, bad, plain)
    assert kept >= (0.85 if name == "thousand" else 0.99) * plain, (kept, plain)
    assert walked >= 3 * kept, (walked, kept)


def test_a_nine_of_trump_not_shown_is_not_held():
    """A world that hands a seat a meld it did not show disagrees with its meld: the simplest, a
    nine of trump (seed 001 scores it) swapped into a hand that showed none for a card outside
    its meld. (The sampler never draws this one: every nine of trump held is shown, so known.)"""
    v = variant("classic")
    tb = compile_variant(v)
    for rec in records(v, 20, seed=5, policy="contract"):
        if rec["bidder"] is None:
            continue
        seen, hands, seat, *_, trump, _p1, _p2 = next(_replay(rec, v))
        nine = 6 * trump + 5  # the 9 of trump (kinds by suit, A 10 K Q J 9)
        plain = [q for q in range(v.players) if q != seat and hands[q, nine] == 0]
        holder = [q for q in range(v.players) if q != seat and hands[q, nine] > 0]
        if not plain or not holder:
            continue
        q, r = plain[0], holder[0]
        used = np.zeros(24, np.int64)
        meld_used(hands[q], trump, tb, used)
        spare = next((k for k in range(24) if hands[q, k] > used[k] and k % 6 != 5), None)
        if spare is None:
            continue
        world = hands.copy()
        world[q, spare] -= 1
        world[r, spare] += 1
        world[r, nine] -= 1
        world[q, nine] += 1
        masks = np.array([to_masks(world[p]) for p in range(v.players)], np.int64)
        real = np.array([to_masks(hands[p]) for p in range(v.players)], np.int64)
        assert agrees_with_meld(seen, seat, real[:, 0].copy(), real[:, 1].copy(), trump, tb)
        assert not agrees_with_meld(seen, seat, masks[:, 0].copy(), masks[:, 1].copy(), trump, tb)
        return
    pytest.fail("no deal to plant a nine of trump in")


def _brute_force(seen, o, sampler):
    """Every layout of the pool among the holders, with its weight (ways to pick the physical
    copies), by enumeration."""
    pool = [k for k in range(24) for _ in range(sampler.pool[k])]
    holders = [int(h) for h in sampler.holders if h >= 0]
    need = [int(n) for n in sampler.need[:len(holders)]]
    layouts = {}
    for choice in itertools.product(range(len(holders)), repeat=len(pool)):
        if [choice.count(h) for h in range(len(holders))] != need:
            continue
        if any(seen.forbid[holders[h]] >> k & 1 for k, h in zip(pool, choice)):
            continue
        key = tuple(sorted(zip(choice, pool)))  # the layout: which holder has how many of each kind
        layouts[key] = layouts.get(key, 0) + 1  # the two copies of a kind are two physical cards
    return holders, layouts


def _small_position(name):
    """The first position of ``name``'s records (seed 8) whose hidden cards, nine at most, lie in
    20 layouts or more: the variant, the seat's sampler (prepared), what it knows, the seat and
    its hand, the holders and each layout's share of the count, checked against enumeration."""
    v = variant(name)
    sampler = new_sampler()
    for seen, _hands, seat, p1, p2, h1, h2 in _positions(v, 30, seed=8):
        total = prepare(seen, seat, h1, h2, p1, p2, v.copies > 2, sampler)
        if sampler.pool.sum() > 9:
            continue
        holders, layouts = _brute_force(seen, seat, sampler)
        assert total == sum(layouts.values())
        if len(layouts) >= 20:
            return v, sampler, seen, seat, h1, h2, holders, {k: w / total for k, w in layouts.items()}
    raise AssertionError(f"no position of {name} with 20 layouts or more")


@pytest.mark.parametrize("name", ["classic", "three-hand", "double-deck"])
def test_draws_follow_the_exact_count(name):
    """The count of layouts equals enumeration, and 20,000 draws land on each layout as often as
    its share of the count says (three-hand: the discard is a holder for the seats that did not
    make it)."""
    v, sampler, seen, seat, h1, h2, holders, share = _small_position(name)
    assert int(sampler.pool.sum()) == sum(int(n) for n in sampler.need)
    state = np.uint64(12345)
    wh1 = np.zeros(v.players, np.int64)
    wh2 = np.zeros(v.players, np.int64)
    got = {}
    n = 20000
    for _ in range(n):
        state = np.uint64(draw(seen, seat, h1, h2, sampler, state, wh1, wh2))  # stays unsigned
        key = []
        for h, q in enumerate(holders):
            if q == v.players:  # the discard: what the seat's hand and the other hands leave
                continue
            for k in range(24):
                c = int(copies_in(wh1[q], wh2[q], 1 << k)) - int(seen.known[seat, q, k])
                key += [(h, k)] * c
        pile = [h for h, q in enumerate(holders) if q == v.players]
        if pile:
            taken = {}
            for _h, k in key:
                taken[k] = taken.get(k, 0) + 1
            key += [(pile[0], k) for k in range(24) for _ in range(int(sampler.pool[k]) - taken.get(k, 0))]
        key = tuple(sorted(key))
        got[key] = got.get(key, 0) + 1
    assert set(got) <= set(share)
    for key, p in share.items():
        assert abs(got.get(key, 0) / n - p) < 4.5 * math.sqrt(p * (1 - p) / n) + 1e-9


@pytest.mark.parametrize("name", ["classic", "three-hand", "double-deck"])
def test_the_chain_walks_the_exact_count(name):
    """Issue 33: the chain of moves (``knowledge.swap``), started from one draw and with every
    move it makes kept, visits each layout as often as its share of the count says (the target
    of the sampler's chain where every world agrees). 40,000 layouts, one every three moves; the
    chain's samples are correlated, so the bound is wider than for independent draws."""
    v, sampler, seen, seat, h1, h2, holders, share = _small_position(name)
    wh1 = np.zeros(v.players, np.int64)
    wh2 = np.zeros(v.players, np.int64)
    state = np.uint64(draw(seen, seat, h1, h2, sampler, np.uint64(4321), wh1, wh2))
    got, n, moved = {}, 40000, 0
    for _ in range(n):
        for _ in range(3):
            state, a, *_ = swap(seen, sampler, state)
            state = np.uint64(state)
            moved += a >= 0
        key = tuple(sorted((h, k) for h in range(len(holders)) for k in range(24)
                           for _ in range(int(sampler.counts[h, k]))))
        got[key] = got.get(key, 0) + 1
    assert set(got) <= set(share) and moved > n // 2  # (one proposal in six or more made)
    for key, p in share.items():
        assert abs(got.get(key, 0) / n - p) < 10 * math.sqrt(p * (1 - p) / n) + 1e-9, (key, p, got.get(key, 0) / n)


def _taken(rec, v, cards):
    """int64[3, sides]: each side's points, tricks and counters before the trick in which
    ``cards`` cards are still in the hands (the bid winner's discard's points counted where they
    count)."""
    tb = compile_variant(v)
    team = np.zeros((3, v.teams), np.int64)
    if v.discard_counts:
        team[0, tb.team[rec["bidder"]]] = sum(tb.card_points[k % 6] for k in parse_cards(" ".join(rec["discard"])))
    for t in rec["tricks"][:(v.players * v.hand_size - cards) // v.players]:
        team[:, tb.team[t["winner"]]] += (t["points"], 1, any(tb.card_points[k % 6] for k in parse_cards(
            " ".join(c for c in t["cards"] if c))))
    return team


@pytest.mark.parametrize("name", list(PLAYABLE))
def test_playing_for_the_score_values_the_last_card_at_the_hand_score(name):
    """The last card of a hand hides nothing, so its one world is the real one: with
    ``objective=score`` it is worth the hand's score for its side less the others' (their mean,
    times sides - 1) as the hand kernel scored it, the three-hand bid winner's discard counted
    from what its seat may know; with ``objective=points``, the points its side took in the
    trick."""
    v = PRESETS[name]
    tb = compile_variant(v)
    seats = v.players
    checked = 0
    for rec in records(v, 20, seed=3, policy="contract"):
        if rec["bidder"] is None:
            continue
        seen, hands, seat, j, lead, win, trump, p1, p2 = list(_replay(rec, v))[-1]
        trick = rec["tricks"][-1]
        if v.teams == 3 and trick["winner"] not in (seat, rec["bidder"]):
            continue  # the search gives the seat's points alone: the rest go to the bid winner
        played = [parse_cards(c)[0] for c in trick["cards"] if c]
        card = played[-1]
        on_table = played[:-1]
        me = tb.team[seat]
        h1, h2 = np.zeros(seats, np.int64), np.zeros(seats, np.int64)
        h1[seat] = 1 << card
        win_seat = (trick["leader"] + on_table.index(win)) % seats
        # plain ints, as the trick loop's: another type would compile the sampling player again
        pos = Position(seat, j, lead, win, win_seat, sum(1 << k for k in set(on_table)),
                       int(sum(tb.card_points[k % 6] for k in on_table)), 1, int(tb.card_points[card % 6]))
        score = np.array(rec["score"])
        for objective, want in (("score", (v.teams - 1) * score[me] - (score.sum() - score[me])),
                                ("points", trick["points"] * (tb.team[trick["winner"]] == me))):
            row = policy_row(f"pimc:worlds=1,objective={objective}")[1]
            hs = Hands(h1.copy(), h2.copy(), seen, np.zeros(seats, np.int64), np.zeros(24, np.int64))
            sc = new_scratch(seats, v.teams, seats * v.hand_size, _bidding(v))
            other = 1 << (card ^ 1)  # a second card, not held (valued -1), so that the seat is asked
            pimc_card(hs, pos, p1, p2, 1 << card | other, card, trump, tb.team[rec["bidder"]], 4, tb, *row[1:],
                      _taken(rec, v, seats), np.uint64(1), sc)
            assert sc.sums[card] == want, (name, rec["deal"], objective)
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("objective", ["points", "score"])
@pytest.mark.parametrize("name", list(PLAYABLE))
def test_sampling_player_reads_no_hidden_card(name, objective):
    """The same seat, cards and knowledge with every card it cannot see dealt otherwise among the
    other seats and, in three-hand, the discard: the same values of every card, the same card and
    the same random state. The
    position's points still to take are summed from the hands as dealt, as the trick loop sums
    them (issue 33: in three-hand that sum told the seats the discard's points), and a false sum
    changes nothing either: the sampling player counts them in each world it draws. Playing for
    the score, it reads each side's points so far, which in three-hand hold the bid winner's
    discard: a false figure there changes nothing either."""
    v = PRESETS[name]
    tb = compile_variant(v)
    seats = v.players
    rec = next(r for r in records(v, 30, seed=8, policy="contract") if r["bidder"] is not None)
    discard = hand_counts(" ".join(rec.get("discard", [])))
    bt = tb.team[rec["bidder"]]
    positions = list(_replay(rec, v))
    rng = np.random.default_rng(5)
    for seen, hands, seat, j, lead, win, trump, p1, p2 in positions[8:-4 * seats:9] + positions[-4 * seats:]:
        cards = int(hands.sum())
        team = _taken(rec, v, cards)
        legal = legal_mask(to_masks(hands[seat])[0], j, max(lead, 0), win, trump, v.must_head, v.must_trump,
                           v.must_overtrump)
        prefer = int(legal & -legal).bit_length() - 1
        # (playing for the score, the worlds agree with the calls too: what the calls say is public)
        row = policy_row(f"pimc:worlds=8,objective={objective}" + (",calls=1" if objective == "score" else ""))[1]
        hidden = [k for q in range(seats) if q != seat for k in range(24) for _ in range(hands[q, k])]
        if seat != rec["bidder"]:  # the discard is hidden from all but the bid winner
            hidden += [k for k in range(24) for _ in range(discard[k])]
        picks = []
        for shuffle in range(4):  # the last: the real layout, with false counts of the points
            dealt = hands.copy()
            order = np.array(hidden, np.int64)
            order = rng.permutation(order) if shuffle else order
            at = 0
            for q in range(seats):
                if q != seat:
                    dealt[q] = np.bincount(order[at:at + hands[q].sum()], minlength=24)
                    at += hands[q].sum()
            left = int(sum(dealt[q, k] * tb.card_points[k % 6] for q in range(seats) for k in range(24)))
            taken = team.copy()
            if shuffle == 3:
                dealt, left = hands.copy(), 0
                if v.discard_counts:  # the bid winner's points so far hold its discard's
                    taken[0, bt] += 17
            pos = Position(seat, j, max(lead, 0), win, -1 if j == 0 else (seat - 1) % seats, 0, 0, cards, left)
            h1, h2 = np.zeros(seats, np.int64), np.zeros(seats, np.int64)
            for q in range(seats):
                h1[q], h2[q] = to_masks(dealt[q])
            hs = Hands(h1, h2, seen, np.zeros(seats, np.int64), np.zeros(24, np.int64))
            sc = new_scratch(seats, v.teams, seats * v.hand_size, _bidding(v))
            state, card = pimc_card(hs, pos, p1, p2, legal, prefer, trump, bt, 4, tb, *row[1:], taken, np.uint64(7),
                                    sc)
            picks.append((int(state), int(card), tuple(sc.sums)))  # every card's value, not only the pick
        assert picks[0] == picks[1] == picks[2] == picks[3], (name, seat, j, cards)
        assert legal >> picks[0][1] & 1


@pytest.mark.parametrize("name", ["thousand", "classic"])
def test_close_solves_again_only_late_decisions(name):
    """``close`` (issue 33): a decision with at most ``close`` tricks left whose rollouts find the
    contract in doubt is valued again, solved double dummy, on fresh worlds. Nothing before those
    tricks changes: hand by hand, ``close=4`` plays the cards of ``close=0`` up to a trick with at
    most four left, and in some hand it plays otherwise there; a ``close`` at or below ``dd``
    never solves again (the records of ``close=0``, the player before it). At ``dd=3``, the
    default of the presets but these two."""
    v = PRESETS[name]
    base = records(v, deals=60, seed=3, policy="pimc:worlds=4,dd=3,close=0")
    assert records(v, deals=60, seed=3, policy="pimc:worlds=4,dd=3,close=3") == base
    differ = 0
    for a, b in zip(base, records(v, deals=60, seed=3, policy="pimc:worlds=4,dd=3,close=4")):
        first = next((t for t, (x, y) in enumerate(zip(a["tricks"], b["tricks"])) if x["cards"] != y["cards"]), None)
        if first is not None:
            differ += 1
            assert v.hand_size - first <= 4, (name, a["deal"], first)
    assert differ > 0


def test_policy_specs():
    assert policy_row("pimc")[0] == "pimc"
    assert policy_row("pimc:worlds=80")[0] == "pimc:worlds=80"
    spec, row = policy_row("pimc:dd=2,worlds=10")
    assert spec == "pimc:worlds=10,dd=2" and list(row) == [3, 10, 2, 0, 1, 0, 16, 4]
    spec, row = policy_row("pimc:infer=1")
    assert spec == "pimc:infer=1" and list(row) == [3, 80, 6, 1, 1, 0, 16, 4]
    spec, row = policy_row("pimc:objective=score,infer=0")
    assert spec == "pimc:infer=0" and list(row) == [3, 80, 6, 0, 1, 0, 16, 4]
    spec, row = policy_row("pimc:objective=points")
    assert spec == "pimc:objective=points" and list(row) == [3, 80, 6, 0, 0, 0, 16, 4]
    spec, row = policy_row("pimc:calls=1,infer=1")
    assert spec == "pimc:infer=1,calls=1" and list(row) == [3, 80, 6, 1, 1, 1, 16, 4]
    spec, row = policy_row("pimc:calls=1,chain=0")
    assert spec == "pimc:calls=1,chain=0" and list(row) == [3, 80, 6, 0, 1, 1, 0, 4]
    spec, row = policy_row("pimc:close=0")
    assert spec == "pimc:close=0" and list(row) == [3, 80, 6, 0, 1, 0, 16, 0]
    # close left out is the preset's (classic and thousand measured stronger at 6, classic-pass4 at 5); written out,
    # the number
    spec, row = policy_row("pimc", "classic")
    assert spec == "pimc" and list(row) == [3, 160, 7, 1, 1, 0, 16, 6]
    # so is dd (modern, modern-15, three-hand and thousand measured stronger at 6, classic, classic-pass4 and
    # double-deck at 7)
    for name, preset, dd in (("pimc", "thousand", 6), ("pimc:dd=5", "thousand", 5), ("pimc", "classic", 7),
                             ("pimc:dd=6", "classic", 6),
                             ("pimc", "modern", 6), ("pimc", "modern-15", 6), ("pimc", "double-deck", 7),
                             ("pimc", "classic-pass4", 7), ("pimc:dd=6", "classic-pass4", 6),
                             ("pimc", "three-hand", 6), ("pimc:dd=5", "modern", 5),
                             ("pimc:dd=5", "modern-15", 5),
                             ("pimc:dd=3", "classic", 3), ("pimc:dd=3", "double-deck", 3),
                             ("pimc:dd=5", "classic-pass4", 5), ("pimc:dd=5", "three-hand", 5),
                             ("pimc:dd=4", "double-deck", 4), ("pimc:dd=5", "double-deck", 5),
                             ("pimc:dd=6", "double-deck", 6)):
        assert policy_row(name, preset)[1][2] == dd
    assert policy_row("pimc:dd=3", "thousand")[0] == "pimc:dd=3"
    # worlds is 80 in every preset (measured stronger than 40 in each) but classic's 160 (stronger than 80 at six
    # tricks solved); written out, the number, and spelled
    for name, preset, worlds in (("pimc", "thousand", 80), ("pimc", "classic", 160), ("pimc", "three-hand", 80),
                                 ("pimc", "classic-pass4", 80), ("pimc:worlds=80", "classic", 80),
                                 ("pimc:worlds=40", "thousand", 40), ("pimc:worlds=40", "double-deck", 40)):
        assert policy_row(name, preset)[1][1] == worlds
    assert policy_row("pimc:worlds=40", "thousand")[0] == "pimc:worlds=40"
    assert policy_row("pimc:worlds=80", "classic")[0] == "pimc:worlds=80"
    for name, preset, close in (("pimc", "classic-pass4", 5), ("pimc", "thousand", 6), ("pimc:close=4", "classic", 4),
                                ("pimc:close=4", "thousand", 4), ("pimc", "modern-15", 4)):
        assert policy_row(name, preset)[1][7] == close
    assert policy_row("pimc:close=4", "thousand")[0] == "pimc:close=4"
    # so is infer (measured stronger at 80 worlds in thousand, modern-15, classic, classic-pass4 and double-deck)
    for name, preset, infer in (("pimc", "classic", 1), ("pimc", "thousand", 1), ("pimc", "classic-pass4", 1),
                                ("pimc", "modern-15", 1), ("pimc", "modern", 0), ("pimc", "double-deck", 1),
                                ("pimc:infer=0", "classic", 0), ("pimc:infer=1", "modern", 1)):
        assert policy_row(name, preset)[1][3] == infer
    assert policy_row("pimc:infer=0", "classic")[0] == "pimc:infer=0"
    for bad, says in (("greedy", "unknown play policy"), ("pimc:depth=3", "unknown option 'depth'"),
                      ("pimc:worlds=0", "whole number from 1 to 10000"), ("heuristic:worlds=3", "takes none"),
                      ("pimc:infer=2", "whole number from 0 to 1"), ("pimc:calls=2", "whole number from 0 to 1"),
                      ("pimc:objective=tricks", "objective is one of points, score"),
                      ("pimc:close=21", "whole number from 0 to 20")):
        with pytest.raises(ValueError, match=says):
            policy_row(bad)


def test_a_policy_in_full_names_every_option_and_plays_as_written():
    """A result's provenance spells its play out in full (``pimc`` alone says nothing once the
    defaults move): every option at its value in the preset, read back to the same kernel row."""
    for preset in PRESETS:
        for name in ("pimc", "pimc:worlds=40,infer=0", "pimc:objective=points,close=0", "contract", "random"):
            full = in_full(name, preset)
            assert np.array_equal(policy_row(full, preset)[1], policy_row(name, preset)[1])
            base, _, options = full.partition(":")
            assert [o.split("=")[0] for o in options.split(",") if o] == list(POLICY_OPTIONS.get(base, {}))
    assert in_full("pimc", "classic") == "pimc:worlds=160,dd=7,infer=1,objective=score,calls=0,chain=16,close=6"
    setup = Setup("classic", "pimc:worlds=40")
    assert setup.provenance(1, 10)["play_policy_in_full"] == [in_full("pimc:worlds=40", "classic")] * 4
