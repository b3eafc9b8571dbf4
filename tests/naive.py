"""Slow, obviously-correct twins of the kernels, written from RULES.md without the package's code."""
from __future__ import annotations

import math
from itertools import product

SUITS = "SHDC"
RANKS = "ATKQJ9"
M64 = (1 << 64) - 1


def names(counts) -> list[str]:
    return [RANKS[k % 6] + SUITS[k // 6] for k in range(24) for _ in range(int(counts[k]))]


def naive_meld(counts, trump: int, v) -> int:
    """Meld by listing the cards by name and checking each combination of RULES.md in turn."""
    held = names(counts)

    def n(card: str) -> int:
        return held.count(card)

    def copies(cards: list[str]) -> int:  # complete copies of a combination (0, 1 or 2)
        return min(n(c) for c in cards)

    def value(pair: tuple[int, int], k: int) -> int:
        return 0 if k == 0 else pair[k - 1]

    t = SUITS[trump]
    total = 0
    runs = copies([r + t for r in "ATKQJ"])
    total += value(v.run, runs)
    royal = copies(["K" + t, "Q" + t])
    if v.run_marriage == "separate":
        total += value(v.royal_marriage, royal)
    elif v.run_marriage == "included":
        total += value(v.royal_marriage, royal - runs)
    elif runs:
        total += v.extra_king_queen * ((n("K" + t) - runs) + (n("Q" + t) - runs))
    else:
        total += value(v.royal_marriage, royal)
    for s in SUITS:
        if s != t:
            total += value(v.marriage, copies(["K" + s, "Q" + s]))
    total += value(v.pinochle, copies(["QS", "JD"]))
    for rank, pair in (("A", v.aces_around), ("K", v.kings_around), ("Q", v.queens_around),
                       ("J", v.jacks_around)):
        total += value(pair, copies([rank + s for s in SUITS]))
    nines = n("9" + t)
    total += value(v.nine_of_trump, nines)
    return total


def naive_meld_used(counts, trump: int, v) -> list[int]:
    """The copies of each card (kinds in order) that take part in a scoring meld, by listing the
    cards by name and checking each combination of RULES.md in turn: a combination that scores
    uses the copies of it held; a card serving several uses the most any one needs; with
    ``run_marriage=extra_card`` and a run held, every trump K and Q is used when the extra K or Q
    scores."""
    held = names(counts)

    def n(card: str) -> int:
        return held.count(card)

    def copies(cards: list[str]) -> int:
        return min(n(c) for c in cards)

    def value(values: tuple[int, ...], k: int) -> int:
        return 0 if k == 0 else values[k - 1]

    used: dict[str, int] = {}

    def use(cards: list[str], k: int) -> None:
        for c in cards:
            used[c] = max(used.get(c, 0), k)

    def scoring(values: tuple[int, ...], cards: list[str]) -> None:
        k = copies(cards)
        use(cards, k if value(values, k) else 0)

    t = SUITS[trump]
    run = [r + t for r in "ATKQJ"]
    scoring(v.run, run)
    runs = copies(run) if value(v.run, copies(run)) else 0
    royal = ["K" + t, "Q" + t]
    k = copies(royal)
    if v.run_marriage == "extra_card" and runs:
        if v.extra_king_queen:
            for c in royal:
                use([c], n(c))
    elif v.run_marriage == "included":
        use(royal, k if value(v.royal_marriage, k - runs) else 0)
    else:
        scoring(v.royal_marriage, royal)
    for s in SUITS:
        if s != t:
            scoring(v.marriage, ["K" + s, "Q" + s])
    scoring(v.pinochle, ["QS", "JD"])
    for rank, values in (("A", v.aces_around), ("K", v.kings_around), ("Q", v.queens_around),
                         ("J", v.jacks_around)):
        scoring(values, [rank + s for s in SUITS])
    scoring(v.nine_of_trump, ["9" + t])
    return [used.get(r + s, 0) for s in SUITS for r in RANKS]


# The dealing RNG, in Python integers: SplitMix64 streams and a 16-bit-quarter Fisher-Yates.
GOLDEN = 0x9E3779B97F4A7C15


def mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def naive_deal(seed: int, i: int) -> list[list[int]]:
    """Deal ``i`` of a run, as the kinds each seat holds (sorted)."""
    deck = naive_shuffle(seed, i, [k // 2 for k in range(48)], 12)
    return [sorted(deck[12 * p: 12 * p + 12]) for p in range(4)]


def naive_deal_around(seed: int, i: int, seat: int, fixed: list[int], players: int = 4,
                      hand: int = 12, copies: list[int] | None = None) -> list[list[int]]:
    """Deal ``i`` with ``seat`` holding the kinds ``fixed``: the other cards of the deck
    (``copies`` of each kind, default two), in kind order, shuffled and handed out ``hand`` to
    each other seat in order, the rest to a last row (the kitty); every row sorted."""
    copies = copies or [2] * 24
    rest = [k for k in range(24) for _ in range(copies[k] - fixed.count(k))]
    deck = naive_shuffle(seed, i, rest, hand)
    out, j = [], 0
    for p in range(players):
        if p == seat:
            out.append(sorted(fixed))
        else:
            out.append(sorted(deck[hand * j: hand * j + hand]))
            j += 1
    return out + [sorted(deck[hand * j:])]


def naive_shuffle(seed: int, i: int, deck: list[int], hand: int) -> list[int]:
    """The deal's Fisher-Yates shuffle of ``deck`` (a copy), down to position ``hand``."""
    deck = list(deck)
    state = mix64(mix64((seed + GOLDEN * 1) & M64) ^ i)

    def word() -> int:
        nonlocal state
        state = (state + GOLDEN) & M64
        return mix64(state)

    pos = len(deck) - 1
    while pos > hand - 1:
        w = word()
        for _ in range(4):
            if pos == hand - 1:
                break
            n = pos + 1
            m = (w & 0xFFFF) * n
            w >>= 16
            if (m & 0xFFFF) < n:
                floor = (0x10000 - n) % n
                while (m & 0xFFFF) < floor:
                    m = (word() & 0xFFFF) * n
            j = m >> 16
            deck[pos], deck[j] = deck[j], deck[pos]
            pos -= 1
    return deck


def p_every_suit_has(rank_min: int) -> float:
    """P(one hand holds at least ``rank_min`` of one rank in every suit), by inclusion-exclusion
    over the suits that fall short (rank_min 1: no copy; 2: at most one)."""
    total = math.comb(48, 12)
    good = 0
    for short in product((0, 1), repeat=4):
        k = sum(short)
        if rank_min == 1:
            ways = math.comb(48 - 2 * k, 12)
        else:  # each short suit holds 0 or 1 copy of the two: 1 + 2x per such suit
            ways = sum(math.comb(k, j) * 2 ** j * math.comb(48 - 2 * k, 12 - j) for j in range(k + 1))
        good += (-1) ** k * ways
    return good / total


# ---------------------------------------------------------------------------------------------
# An independent rule checker for hand records (RULES.md), by card names.

ORDER = "ATKQJ9"


def suit(card: str) -> str:
    return card[1]


def higher(a: str, b: str) -> bool:
    """Card a outranks card b of the same suit."""
    return ORDER.index(a[0]) < ORDER.index(b[0])


def winning_card(cards: list[str], trump: str) -> int:
    """Index of the card that wins a trick: highest trump, else highest of the suit led; the
    first of two identical cards wins."""
    best = 0
    for i in range(1, len(cards)):
        c, w = cards[i], cards[best]
        if suit(c) == suit(w) and higher(c, w):
            best = i
        elif suit(c) == trump and suit(w) != trump:
            best = i
    return best


def naive_legal(hand: list[str], trick: list[str], trump: str, v) -> set[str]:
    """The cards a player may play, written out rule by rule from RULES.md and the seeds."""
    if not trick:
        return set(hand)
    led = suit(trick[0])
    win = trick[winning_card(trick, trump)]
    same = [c for c in hand if suit(c) == led]
    if same:
        if v.must_head and suit(win) == led:  # a trump on a plain lead frees the others
            over = [c for c in same if higher(c, win)]
            if over:
                return set(over)
        return set(same)
    trumps = [c for c in hand if suit(c) == trump]
    if trumps and v.must_trump:
        if v.must_overtrump and suit(win) == trump:
            over = [c for c in trumps if higher(c, win)]
            if over:
                return set(over)
        return set(trumps)
    return set(hand)


def _counts(cards: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in cards:
        out[c] = out.get(c, 0) + 1
    return out


def _remove(hand: list[str], cards: list[str]) -> None:
    for c in cards:
        assert c in hand, f"{c} is not in {hand}"
        hand.remove(c)


def to_counts(cards: list[str]) -> list[int]:
    counts = [0] * 24
    for c in cards:
        counts[SUITS.index(c[1]) * 6 + RANKS.index(c[0])] += 1
    return counts


def side(seat: int, v) -> int:
    """Partners across in four-hand (team 0 = seats 0, 2); every seat alone in three-hand."""
    return seat % 2 if v.players == 4 else seat


def check_auction(rec: dict, v) -> None:
    """Calls in turn from the dealer's left, passes final, bids legal, the right winner."""
    seats = v.players
    dealer, calls = rec["dealer"], rec["auction"]
    passed: set[int] = set()
    high, high_seat = None, None
    seat = (dealer + 1) % seats
    for i, (s, bid) in enumerate(calls):
        while seat in passed:
            seat = (seat + 1) % seats
        assert s == seat, f"call {i} by seat {s}, expected seat {seat}"
        if bid is None:
            passed.add(s)
        else:
            if high is None:
                assert bid >= v.opening_bid, "opening bid too low"
                if v.forced_open and i == 0:
                    assert bid == v.opening_bid
            else:
                raise_ = bid - high
                assert raise_ >= v.raise_min and raise_ % v.raise_step == 0, f"bad raise {raise_}"
                if not v.jump_bids:
                    assert raise_ == v.raise_min
            high, high_seat = bid, s
        seat = (seat + 1) % seats
    if v.forced_open:
        assert calls and calls[0] == [(dealer + 1) % seats, v.opening_bid], "forced opening missing"
    if high is not None:
        assert len(passed) == seats - 1 and high_seat not in passed, "auction ended early or late"
        assert (rec["bidder"], rec["bid"]) == (high_seat, high)
    elif v.all_pass == "dealer_stuck":
        assert passed == {(dealer + k) % seats for k in range(1, seats)} and len(calls) == seats - 1
        assert (rec["bidder"], rec["bid"]) == (dealer, v.stuck_bid)
    else:
        assert len(passed) == seats and rec["bidder"] is None and rec["bid"] is None


def naive_score(rec: dict, v, meld: list[int], tricks: list[dict], discard_points: int = 0) -> list[int]:
    """What each side banks (RULES.md 'Scoring a hand', the no-trick rows and three-hand's rules)."""
    n = v.players // 2 if v.players == 4 else v.players
    pts, won, counters = [0] * n, [0] * n, [0] * n
    value = dict(zip(ORDER, v.card_points))
    for t in tricks:
        team = side(t["winner"], v)
        pts[team] += t["points"]
        won[team] += 1
        counters[team] += sum(value[c[0]] > 0 for c in t["cards"])
    bt = side(rec["bidder"], v)
    pts[bt] += discard_points  # 002: 'Discarded As, 10s, and Ks count toward the bid winner's Points'
    final = final_hands(rec)
    nines = [final[p].count("9" + rec["trump"]) for p in range(v.players)]
    dix = [0 if k == 0 else v.nine_of_trump[k - 1] for k in nines]
    short = won[bt] < v.min_tricks
    out = [0] * n
    for team in range(n):
        members = [p for p in range(v.players) if side(p, v) == team]
        m = sum(meld[p] for p in members)
        if v.no_trick == "side_scores_nothing" and won[team] == 0:
            m = 0
        if v.no_trick == "bidder_meld_void" and won[team] == 0 and team == bt:
            m = 0
        if v.no_trick == "no_counter_meld_void" and counters[team] == 0:
            m = sum(dix[p] for p in members)
        total = m + pts[team]
        if team == bt:
            out[team] = total if total >= rec["bid"] and not short else -rec["bid"]
        elif short and v.short_voids_others:
            out[team] = 0  # 002: 'the other players score nothing for that hand'
        else:
            out[team] = total
    return out


def final_hands(rec: dict) -> list[list[str]]:
    hands = [list(h) for h in rec["hands"]]
    if rec.get("discard"):
        hands[rec["bidder"]] += rec["kitty"]
        _remove(hands[rec["bidder"]], rec["discard"])
    for giver, taker, cards in rec["passes"]:
        _remove(hands[giver], cards)
        hands[taker].extend(cards)
    return hands


def check_record(rec: dict, v) -> None:
    """Replay a hand record and check every rule; raises AssertionError naming what broke."""
    seats, size = v.players, v.hand_size
    hands = [list(h) for h in rec["hands"]]
    kitty = rec.get("kitty", [])
    every = [c for h in hands for c in h] + kitty
    assert len(hands) == seats, f"{len(hands)} hands, not {seats}"
    assert all(len(h) == size for h in hands), f"a hand is not {size} cards"
    assert len(kitty) == v.kitty and (("kitty" in rec) == (v.kitty > 0)), "kitty"
    deck = {r + s: n for s in SUITS for r, n in zip(ORDER, v.deck) if n}  # RULES.md: two of each, or 003's four, no 9s
    assert _counts(every) == deck, "deck"
    assert rec["dealer"] == rec["deal"] % seats
    check_auction(rec, v)
    if rec["bidder"] is None:
        assert rec["tricks"] == [] and rec["score"] == [0] * len(rec["score"]) and rec["passes"] == []
        assert rec.get("discard", []) == []
        return
    bidder, trump = rec["bidder"], rec["trump"]
    partner = (bidder + 2) % 4 if seats == 4 else None
    discard_points = 0
    if v.kitty:  # 002: the bid winner picks up the kitty and discards any three cards
        assert len(rec["discard"]) == v.kitty
        hands[bidder] += kitty
        _remove(hands[bidder], rec["discard"])
        value = dict(zip(ORDER, v.card_points))
        if v.discard_counts:
            discard_points = sum(value[c[0]] for c in rec["discard"])
    if v.pass_cards:
        (g1, t1, c1), (g2, t2, c2) = rec["passes"]
        assert (g1, t1, g2, t2) == (partner, bidder, bidder, partner), "passing order"
        assert len(c1) == len(c2) == v.pass_cards
        _remove(hands[partner], c1)
        hands[bidder].extend(c1)
        _remove(hands[bidder], c2)
        hands[partner].extend(c2)
    else:
        assert rec["passes"] == []
    assert all(len(h) == size for h in hands), "hands after passing or the discard"
    meld = [naive_meld(to_counts(h), SUITS.index(trump), v) for h in hands]
    sweep = bool(rec.get("playing_1000"))  # seed 004: the bidder's side shows no meld
    assert sweep is False or (v.playing_1000 and v.first_lead == "bidder" and partner is not None)
    if sweep:
        meld[bidder] = meld[partner] = 0
    assert rec["meld"] == meld, f"meld {rec['meld']} != {meld}"
    leader = bidder if v.first_lead == "bidder" else (rec["dealer"] + 1) % seats
    assert len(rec["tricks"]) == size
    value = dict(zip(ORDER, v.card_points))
    sitting_out = list(hands[partner]) if sweep else []
    seats_in_turn = [s for s in range(seats) if not (sweep and s == partner)]
    for i, t in enumerate(rec["tricks"]):
        assert t["leader"] == leader, f"trick {i}: wrong leader"
        assert len(t["cards"]) == len(seats_in_turn)
        order = sorted(seats_in_turn, key=lambda s: (s - leader) % seats)
        played: list[str] = []
        for j, card in enumerate(t["cards"]):
            seat = order[j]
            legal = naive_legal(hands[seat], played, trump, v)
            assert card in legal, f"trick {i}: seat {seat} played {card}, legal {sorted(legal)}"
            hands[seat].remove(card)
            played.append(card)
        winner = order[winning_card(played, trump)]
        assert t["winner"] == winner, f"trick {i}: winner {t['winner']} != {winner}"
        pts = sum(value[c[0]] for c in played) + (v.last_trick if i == size - 1 else 0)
        assert t["points"] == pts, f"trick {i}: points"
        leader = winner
    if sweep:
        assert hands[partner] == sitting_out, "the partner playing 1000 played a card"
        hands[partner] = []
    assert all(h == [] for h in hands), "cards left over"
    unplayed = sum(value[c[0]] for c in sitting_out + rec.get("discard", []))
    assert sum(t["points"] for t in rec["tricks"]) == v.trick_total - unplayed
    if sweep:
        # seed 004: every counter taken scores 1000 and the opponents lose their meld;
        # otherwise the bidders lose 1000 and the opponents keep meld and trick points
        opp = 1 - bidder % 2
        lost = any(t["winner"] % 2 == opp and any(value[c[0]] > 0 for c in t["cards"])
                   for t in rec["tricks"])
        opp_total = meld[opp] + meld[opp + 2] + sum(t["points"] for t in rec["tricks"]
                                                    if t["winner"] % 2 == opp)
        want = [0, 0]
        want[bidder % 2], want[opp] = (-1000, opp_total) if lost else (1000, 0)
        assert rec["score"] == want, "score playing 1000"
        return
    assert rec["score"] == naive_score(rec, v, meld, rec["tricks"], discard_points), "score"


# ---------------------------------------------------------------------------------------------
# Exhaustive minimax with every hand visible (the double-dummy solver's twin).

def naive_double_dummy(hands: list[list[str]], trick: list[str], leader: int, trump: str, v) -> dict:
    """Every legal card of the seat to play, with the trick points (last-trick bonus included,
    the current trick's cards on the table included when its side wins it) its side takes from
    here when every seat plays perfectly: the side of the seat to play maximises, every other
    seat minimises. No pruning, no table."""
    seats = len(hands)
    value = dict(zip(ORDER, v.card_points))
    me = (leader + len(trick)) % seats
    mine = side(me, v)

    def play(hands, trick, leader):
        seat = (leader + len(trick)) % seats
        out = {}
        for card in sorted(naive_legal(hands[seat], trick, trump, v)):
            rest = [list(h) for h in hands]
            rest[seat].remove(card)
            now = trick + [card]
            if len(now) == seats:
                winner = (leader + winning_card(now, trump)) % seats
                pts = sum(value[c[0]] for c in now) + (v.last_trick if not any(rest) else 0)
                gained = pts if side(winner, v) == mine else 0
                out[card] = gained + (best(rest, [], winner) if any(rest) else 0)
            else:
                out[card] = best(rest, now, leader)
        return out

    def best(hands, trick, leader):
        seat = (leader + len(trick)) % seats
        vals = play(hands, trick, leader).values()
        return max(vals) if side(seat, v) == mine else min(vals)

    return play(hands, trick, leader)


def naive_sure_trumps(counts, trump: int, team: int, v) -> tuple[int, int]:
    """The points of the trumps side ``team``, and every other side together, take whatever the
    play (``counts``: each seat's count vector): rank by rank from the top, a side's copies count
    while the other side holds no copy of that trump or of any higher one."""
    out = [0, 0]
    still = [True, True]  # no trump of the other side above, so far
    for r in range(6):
        k = 6 * trump + r
        held = [sum(int(c[k]) for s, c in enumerate(counts) if (side(s, v) == team) == mine) for mine in (True, False)]
        for i in range(2):
            still[i] &= held[1 - i] == 0
            if still[i]:
                out[i] += held[i] * v.card_points[r]
    return out[0], out[1]


def naive_auction(dealer: int, worth, margin, v, room: int) -> tuple[int, int, list, int]:
    """The bidding policy one call at a time (``auction``'s docstring): ``worth[seat][situation]``
    is the most a seat bids, less ``margin[seat]`` over its partner; at most ``room`` calls bid.
    Returns (bidder or -1, bid, calls as (seat, bid or None), situation of the winning bid)."""
    seats = v.players
    passed = [False] * seats
    calls: list = []
    high, high_seat, high_sit = 0, None, -1
    seat = (dealer + 1) % seats
    if v.forced_open:
        calls.append((seat, v.opening_bid))
        high, high_seat = v.opening_bid, seat
        seat = (seat + 1) % seats
    while True:
        out = sum(passed)
        if out == seats:
            return -1, 0, calls, -1
        if out == seats - 1 and high_seat is not None:
            return high_seat, high, calls, high_sit
        if not passed[seat]:
            if high_seat is None and out == seats - 1 and v.all_pass == "dealer_stuck":
                return seat, v.stuck_bid, calls, -1
            mate = v.partner(seat)
            if high_seat is None:
                sit = 0
            elif mate is None:
                sit = 3
            else:
                sit = 1 if high_seat == mate else 2 if passed[mate] else 3
            bid = v.opening_bid if high_seat is None else high + v.raise_min
            limit = worth[seat][sit] - (margin[seat] if sit == 1 else 0)
            if bid <= limit and len(calls) < room:
                calls.append((seat, bid))
                high, high_seat, high_sit = bid, seat, sit
            else:
                calls.append((seat, None))
                passed[seat] = True
        seat = (seat + 1) % seats


def naive_follow(legal: list[int], unseen: set[int], trump: int, last: bool, win: int, safe: bool,
                 points) -> int:
    """The plain heuristic's card when following (``play``'s docstring), over kinds 0..23 (suit
    ``k // 6``, rank ``k % 6`` from the ace): ``unseen`` the kinds others may hold, ``win`` the
    winning kind, ``safe`` its partner wins and keeps the trick. Ties go to the lowest kind."""
    def boss(k):
        return not any(u // 6 == k // 6 and u % 6 < k % 6 for u in unseen)

    def beats(k):
        return (k // 6 == win // 6 and k < win) or (k // 6 == trump and win // 6 != trump)

    def cost(k):  # plain before trump, fewest points, lowest rank
        return (k // 6 == trump, points[k % 6], -(k % 6))
    cards = sorted(legal)
    if safe:  # the most points to the partner: plain first, a card that could not win a trick first
        return min(cards, key=lambda k: (k // 6 == trump, boss(k), -points[k % 6], -(k % 6)))
    winners = [k for k in cards if beats(k)]
    if not winners:
        return min(cards, key=cost)
    bosses = [k for k in winners if boss(k)]
    return min(bosses if bosses and not last else winners, key=cost)


def naive_lead(h1: set[int], h2: set[int], unseen: set[int], trump: int, declaring: bool, points,
               draw_trump_min: int, ruff: set[int]) -> int:
    """The plain heuristic's lead (``play``'s docstring) from the kinds held ``h1`` (``h2``: the
    copies held beyond the first, a kind once for each), no boss cashed in the suits ``ruff``.
    Among suits alike, the first."""
    def boss(k):
        return not any(u // 6 == k // 6 and u % 6 < k % 6 for u in unseen)
    trumps = sorted(k for k in h1 if k // 6 == trump)
    n_trump = len(trumps) + sum(1 for k in h2 if k // 6 == trump)
    if declaring and n_trump >= draw_trump_min and any(u // 6 == trump for u in unseen):
        return trumps[0] if boss(trumps[0]) else trumps[-1]  # the top trump, else a low one
    sides = [s for s in range(4) if s != trump and any(k // 6 == s for k in h1)]
    tops = [min(k for k in h1 if k // 6 == s) for s in sides if s not in ruff]
    cash = [k for k in tops if boss(k)]
    if cash:
        return max(cash, key=lambda k: points[k % 6])
    if sides:
        def longest(s):
            low = max(k for k in h1 if k // 6 == s)
            return sum(1 for k in h1 if k // 6 == s) + sum(1 for k in h2 if k // 6 == s), -points[low % 6]
        s = max(sides, key=longest)
        return max(k for k in h1 if k // 6 == s)
    return trumps[-1]
