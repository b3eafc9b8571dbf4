"""The tricks of a hand (twelve of four cards, or fifteen of three in three-hand), each seat
playing by its card-play policy:

* ``random``: a legal card at random;
* ``heuristic``: the club player of ``play`` (its own cards and the cards played);
* ``contract``: the same player knowing what the table knows (``knowledge``: the melds laid
  down, the cards passed, the voids and failures to beat) and the contract. It counts as a
  threat only a card an opponent may hold; it does not cash a boss card in a suit an opponent is
  known to be void in while that opponent may hold trump; the declaring side stops drawing trump
  when the opponents can hold none. Otherwise it leads low to a suit its partner is known to win
  (it holds the top card still out) or to ruff, else from its longest side suit no opponent is
  known to ruff. Following, it trusts its partner's winning card only if no opponent still to
  play may beat it (a higher card of its suit, or a trump from a seat known void in the suit
  led); it wins with the cheapest card that holds the trick so, and with a card that may be beaten
  only when that costs nothing (a card worth no points) or its side's meld is at stake (it has
  taken no trick, under the ``no_trick`` rule, or the three-hand bid winner is short of its
  ``min_tricks``); else it plays its least card;
* ``pimc``: the sampling player (``pimc``), its worlds and double-dummy depth per seat.

A policy is a row of ``policy`` (int64[seats, 8]): its code, and for ``pimc`` the worlds a
decision, the tricks left from which it solves them double dummy, whether its worlds must
agree with the meld not laid down (``infer``), what it plays for (``objective``: the points
its side takes, or the hand's score), whether its worlds must agree with the calls (``calls``),
the moves of the chain from one such world to the next (``chain``; 0: each drawn afresh) and
the tricks left from which a decision with the contract in doubt is solved double dummy
(``close``; at most ``dd``: never).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._numba import bjit, ijit
from ..specs import split_spec
from .knowledge import may_hold, observe, pool_mask
from .pimc import BY_PRESET, CALLS, CHAIN, OBJECTIVE, OBJECTIVES, PRESET, pimc_card, preset_default
from .play import (ABOVE, ALL, HIGH, RANK, SUIT, add_copy, all_out, cheaper, beats, choose_follow, choose_lead,
                   copies_in, legal_mask, lsb, msb, partner_safe, pick_random, suit_mask, take, to_masks, trick_step)
from .search import Position
from .variants import R

POLICIES = ("random", "heuristic", "contract", "pimc")
RANDOM, HEURISTIC, CONTRACT, PIMC = range(len(POLICIES))
#: The card play every command assumes unless told: the strongest that bid tables of millions of
#: hands can afford (``results/play_strength.md``).
DEFAULT_POLICY = "contract"
#: Policy options (``pimc:worlds=30,dd=5``) and their defaults, as columns 1.. of a policy row
#: (the options of ``pimc.BY_PRESET``: the variant's preset's, ``pimc.preset_default``).
POLICY_OPTIONS = {"pimc": {"worlds": PRESET, "dd": PRESET, "infer": PRESET, "objective": OBJECTIVE, "calls": CALLS,
                           "chain": CHAIN, "close": PRESET}}
MAX_TRICKS = 20  # room in a hand record for the longest hand (20 tricks in double-deck)
#: The values each option takes: 10,000 worlds a decision is already hours for a few hundred
#: deals; double dummy from more tricks left than a hand has (up to 20, a double-deck hand's)
#: is the whole hand.
POLICY_RANGES = {"pimc": {"worlds": (1, 10_000), "dd": (0, 20), "infer": (0, 1), "objective": OBJECTIVES,
                          "calls": (0, 1), "chain": (0, 1000), "close": (0, 20)}}


@bjit
def contract_lead(h1, h2, trump, declaring, points, draw_trump_min, threat, ruff, mates, to_ruff):
    """The contract-aware heuristic's lead: the plain heuristic's trump draw and boss cards (no
    boss cashed into a known ruff); else a low card to a suit its partner is known to win (it
    holds the top card still out) or to ruff; else the lowest card of its longest side suit,
    a suit an opponent may ruff last."""
    safe_suits = 0
    for s in range(4):
        if s != trump and not (ruff >> s) & 1:
            safe_suits |= suit_mask(s)
    card = choose_lead(h1, h2, threat, trump, declaring, points, draw_trump_min, ruff)
    if SUIT[card] == trump and declaring or (not threat & ABOVE[card] and SUIT[card] != trump):
        return card  # drawing trump, or a boss card
    best = -1
    for s in range(4):
        m = h1 & suit_mask(s) & safe_suits
        if not m:
            continue
        out = (threat | mates) & suit_mask(s)
        top = lsb(out) if out else -1
        if (top >= 0 and (mates >> top) & 1 and not threat & (ABOVE[top] | (1 << top))) or (to_ruff >> s) & 1:
            k = msb(m)
            if best < 0 or points[RANK[k]] < points[RANK[best]]:
                best = k
    if best >= 0:
        return best
    best_len = 0
    for s in range(4):
        m = h1 & suit_mask(s) & safe_suits
        if m:
            length = copies_in(h1, h2, suit_mask(s))
            k = msb(m)
            if length > best_len or (length == best_len and points[RANK[k]] < points[RANK[best]]):
                best_len = length
                best = k
    return best if best >= 0 else card


class Hands(NamedTuple):
    """What the trick loop plays from and keeps besides the cards on the table: each seat's cards
    as masks (``h1``: the kinds it holds at least once, ``h2``: twice; int64[seats]), what the
    seats know (``seen``, ``knowledge.Seen``), and scratch: the contract-aware heuristic's
    (``may``: int64[seats]) and ``knowledge.start_seen``'s (``pool``: int64[24])."""

    h1: np.ndarray
    h2: np.ndarray
    seen: tuple
    may: np.ndarray
    used: np.ndarray


@ijit
def contract_card(hs, pos, trump, declaring, at_stake, last, tb, draw_trump_min, p1, p2):
    """The contract-aware heuristic's card (see the module docstring) for the seat of ``pos``
    (``search.Position``), from the :class:`Hands` ``hs`` (its ``may`` is scratch) and the
    kinds played at least once (``p1``) and twice (``p2``). Inlined into the trick loop: a call
    passing the variant's tables and the hands cost more than the card."""
    h1, h2, seen, may, _ = hs
    seat, j, lead, win, win_seat = pos.seat, pos.j, pos.lead, pos.win, pos.win_seat
    team = tb.team
    points = tb.card_points
    seats = h1.shape[0]
    pooled = pool_mask(seen, seat, h1[seat], h2[seat], p1, p2, tb.rules[R.copies] > 2)
    threat = 0  # kinds an opponent may hold
    for q in range(seats):
        may[q] = may_hold(seen, seat, q, pooled)
        if team[q] != team[seat]:
            threat |= may[q]
    if j == 0:
        ruff = 0  # suits where an opponent known void may trump
        for q in range(seats):
            if team[q] != team[seat]:
                ruff |= _ruffs(may[q], trump)
        mate = tb.partner[seat]
        mates = seen.kmask[seat, mate] if mate >= 0 else 0  # kinds the partner is known to hold
        to_ruff = _ruffs(may[mate], trump) if mate >= 0 else 0
        return contract_lead(h1[seat], h2[seat], trump, declaring, points, draw_trump_min, threat, ruff, mates,
                             to_ruff)
    rules = tb.rules
    legal = legal_mask(h1[seat], j, lead, win, trump, rules[R.must_head], rules[R.must_trump],
                       rules[R.must_overtrump])
    after, ruffer = _still_to_play(seat, j, lead, trump, team, may)
    partner_wins = win_seat == tb.partner[seat]
    if partner_wins and (last or _holds(win, trump, after, ruffer)):
        return choose_follow(legal, threat, trump, last, win, True, points)
    cheapest = -1  # the cheapest card that wins the trick, and the cheapest that keeps it
    kept = -1
    least = -1
    x = legal
    while x:
        k = lsb(x)
        x &= x - 1
        if beats(k, win, trump):
            if cheapest < 0 or cheaper(k, cheapest, trump, points):
                cheapest = k
            if (last or _holds(k, trump, after, ruffer)) and (kept < 0 or cheaper(k, kept, trump, points)):
                kept = k
        if least < 0 or cheaper(k, least, trump, points):
            least = k
    if kept >= 0:
        return kept
    if cheapest >= 0 and (at_stake or (not partner_wins and points[RANK[cheapest]] == 0)):
        return cheapest  # a winner that may be beaten: only when it costs nothing or the meld is at stake
    return least


@bjit
def _ruffs(m, trump):
    """The side suits a seat that may hold the kinds ``m`` is void in while it may hold trump (a bit each)."""
    out = 0
    if m & suit_mask(trump):
        for s in range(4):
            if s != trump and not m & suit_mask(s):
                out |= 1 << s
    return out


@ijit
def _still_to_play(seat, j, lead, trump, team, may):
    """What the opponents still to play to the trick after ``seat`` (the ``j``-th card) may do,
    ``may`` being what each seat may hold: the kinds any of them may hold, and whether one of
    them may trump the suit led (known void in it, it may hold trump)."""
    seats = may.shape[0]
    after = 0
    ruffer = False
    q = seat
    for _ in range(j + 1, seats):
        q = q + 1 if q + 1 < seats else 0
        if team[q] == team[seat]:
            continue
        after |= may[q]
        if not may[q] & suit_mask(lead) and may[q] & suit_mask(trump):
            ruffer = True
    return after, ruffer


@ijit
def _holds(card, trump, after, ruffer):
    """No opponent still to play to the trick may beat ``card`` (a higher card of its suit, or
    a trump from a seat known void in the suit led; ``after``, ``ruffer``: :func:`_still_to_play`)."""
    return not after & ABOVE[card] and (SUIT[card] == trump or not ruffer)


def search_room(tb, policy: np.ndarray) -> int | None:
    """What the loops pass as ``search`` for the play ``policy`` (rows of :func:`policy_row`)
    in variant ``tb``: None when no seat samples, so that the sampling player and its search
    are not compiled into them; else the most cards left when a seat solves a decision double
    dummy, the room ``pimc.new_scratch`` makes for the search."""
    room = [min(max(int(row[2]), int(row[7])), int(tb.rules[R.hand_size])) * int(tb.rules[R.players])
            for row in policy if row[0] == PIMC]
    return max(room) if room else None


@bjit
def play_tricks(hands, leader, trump, bidder_team, tb, policy, draw_trump_min, state, rec_cards,
                rec_info, team, hs, sc, sitter=-1):
    """Play out ``hands`` (int8[seats, 24] count vectors, left unchanged) from ``leader`` under
    variant ``tb`` (``variants.Tables``: its obligations, card points, seats and sides).

    Each trick is written to ``rec_cards[t]`` (kinds from the leader on; -1 in the slots of
    seats that do not play: a fourth slot in three-hand, a ``sitter``) and ``rec_info[t]``
    (leader, winner, points with the last-trick bonus); ``team[0..2, side]`` receive each
    side's trick points, tricks and counters (cards worth points). ``hs`` (:class:`Hands`) holds
    the hands as masks (filled here), what the seats know (set up by ``knowledge.start_seen``,
    kept up to date when a seat's policy reads it) and the contract-aware heuristic's scratch;
    ``sc`` is the sampling player's (``pimc.new_scratch``), or None when no seat samples (numba
    then compiles this kernel without the sampling player). Returns the random state.

    With a ``sitter`` (seed 004's "playing 1000") its partner, the bidder, follows its sure plan
    whatever its policy: it leads trumps from the top as many times as there are trumps it
    lacks, then every other card from the top of its suit (``passing.sure_sweep`` checks that
    this plan cannot lose a trick). Seats that know more play the contract-aware heuristic there.
    """
    h1, h2, seen = hs.h1, hs.h2, hs.seen
    rules = tb.rules
    points = tb.card_points
    must_head, must_trump, must_overtrump = rules[R.must_head], rules[R.must_trump], rules[R.must_overtrump]
    seats = rules[R.players]
    n_tricks = rules[R.hand_size]
    for p in range(seats):
        h1[p], h2[p] = to_masks(hands[p])
    four = rules[R.copies] > 2
    absent = rules[R.absent_kinds]
    p1 = absent | (absent << HIGH)  # the cards played, as a hand's masks; a kind the deck lacks as played in full
    p2 = p1
    sweeper = tb.partner[sitter] if sitter >= 0 else -1
    trump_leads = 0
    if sweeper >= 0:
        trump_leads = 6 * rules[R.copies] - copies_in(h1[sweeper], h2[sweeper], suit_mask(trump))
    players = seats - 1 if sitter >= 0 else seats
    knows = False
    sampling = False
    for p in range(seats):
        knows |= policy[p, 0] >= CONTRACT
        sampling |= policy[p, 0] == PIMC
    cards = 0  # cards in hand, and the points they hold (for the sampling player's positions)
    left = 0
    if sampling:
        for p in range(seats):
            for k in range(24):
                cards += hands[p, k]
                left += hands[p, k] * points[RANK[k]]
    for t in range(n_tricks):
        lead = 0
        win = -1
        win_seat = -1
        pts = 0
        counters = 0
        table = 0
        rec_cards[t, :] = -1
        j = 0
        seat = leader - 1
        for _ in range(seats):
            seat = seat + 1 if seat + 1 < seats else 0
            if seat == sitter:
                continue
            legal = legal_mask(h1[seat], j, lead, win, trump, must_head, must_trump, must_overtrump)
            code = policy[seat, 0]
            if seat == sweeper and j == 0:
                trumps = h1[seat] & suit_mask(trump)
                others = h1[seat] & ~suit_mask(trump)
                if trump_leads > 0 and trumps:
                    card = lsb(trumps)
                    trump_leads -= 1
                else:
                    card = lsb(others) if others else lsb(trumps)
            elif code == RANDOM:
                state, card = pick_random(h1[seat], h2[seat], legal, state)
            elif not legal & (legal - 1):  # one legal card: every other policy plays it, no work
                card = lsb(legal)
            elif code == HEURISTIC:
                unseen = ALL & ~all_out(h1[seat], h2[seat], p1, p2, four)
                last = j == players - 1
                if j == 0:
                    card = choose_lead(h1[seat], h2[seat], unseen, trump, tb.team[seat] == bidder_team,
                                       points, draw_trump_min, 0)
                else:
                    card = choose_follow(legal, unseen, trump, last, win,
                                         partner_safe(unseen, last, win, win_seat == tb.partner[seat]), points)
            else:
                side = tb.team[seat]
                at_stake = ((rules[R.no_trick] > 0 and team[1, side] == 0)
                            or (side == bidder_team and team[1, side] < rules[R.min_tricks]))
                pos = Position(seat, j, lead, win, win_seat, table, pts, cards, left)
                card = contract_card(hs, pos, trump, side == bidder_team, at_stake, j == players - 1, tb,
                                     draw_trump_min, p1, p2)
                if code == PIMC and sitter < 0:
                    if sc is not None:  # (a branch numba drops when no seat samples)
                        state, c = pimc_card(hs, pos, p1, p2, legal, card, trump, bidder_team, draw_trump_min,
                                             tb, policy[seat, 1], policy[seat, 2], policy[seat, 3], policy[seat, 4],
                                             policy[seat, 5], policy[seat, 6], policy[seat, 7], team, state, sc)
                        card = c if c >= 0 else card
            if knows:
                observe(seen, seat, card, j, lead, win, trump, rules)
            take(h1, h2, seat, card)
            p1, p2 = add_copy(p1, p2, card)
            rec_cards[t, j] = card
            lead, win, win_seat = trick_step(card, seat, j, lead, win, win_seat, trump)
            p = points[RANK[card]]
            pts += p
            counters += p > 0
            table |= 1 << card
            cards -= 1
            left -= p
            j += 1
        if t == n_tricks - 1:
            pts += rules[R.last_trick]
        rec_info[t, 0] = leader
        rec_info[t, 1] = win_seat
        rec_info[t, 2] = pts
        side = tb.team[win_seat]
        team[0, side] += pts
        team[1, side] += 1
        team[2, side] += counters
        leader = win_seat
    return state


def policy_row(name: str, preset: str = "") -> tuple[str, np.ndarray]:
    """The kernel row of a policy written ``NAME`` or ``NAME:option=value,...`` in a variant made
    from ``preset`` (its canonical spelling, the row). An option left out is spelled so whatever
    its value in the preset (``pimc.BY_PRESET``'s options: ``pimc.preset_default``)."""
    base, items = split_spec(name)
    if base not in POLICIES:
        raise ValueError(f"unknown play policy {base!r}; valid: {', '.join(POLICIES)}")
    known = POLICY_OPTIONS.get(base, {})
    values = dict(known)
    for key, val, _ in items:
        if key not in known:
            raise ValueError(f"unknown option {key!r} of play policy {base!r}"
                             + (f"; valid: {', '.join(known)}" if known else "; it takes none"))
        allowed = POLICY_RANGES[base][key]
        if isinstance(allowed[0], str):  # named choices
            if val not in allowed:
                raise ValueError(f"play policy option {key} is one of {', '.join(allowed)}")
            values[key] = allowed.index(val)
            continue
        low, high = allowed
        if val is None or not val.strip().isdigit() or not low <= int(val) <= high:
            raise ValueError(f"play policy option {key} needs a whole number from {low} to {high}")
        values[key] = int(val)
    spec = _spelled(base, {k: v for k, v in values.items() if v != known[k]})
    for key in BY_PRESET:
        if values.get(key) == PRESET:
            values[key] = preset_default(key, preset)
    row = np.zeros(1 + max(len(o) for o in POLICY_OPTIONS.values()), np.int64)
    row[0] = POLICIES.index(base)
    row[1:1 + len(values)] = list(values.values())
    return spec, row


def in_full(name: str, preset: str = "") -> str:
    """The policy ``name`` with every option written out at the value it takes in a variant made
    from ``preset`` (``pimc`` -> ``pimc:worlds=80,dd=5,...``): what the play was whatever the
    defaults become, for a result's provenance."""
    spec, row = policy_row(name, preset)
    base = spec.partition(":")[0]
    return _spelled(base, {key: int(row[1 + i]) for i, key in enumerate(POLICY_OPTIONS.get(base, {}))})


def _spelled(policy: str, values: dict[str, int]) -> str:
    """``policy`` written with the options ``values`` (none: the bare name)."""
    return policy + (":" + ",".join(f"{k}={_option_text(policy, k, v)}" for k, v in values.items()) if values else "")


def _option_text(policy: str, key: str, value: int) -> str:
    """An option's value as written: a number, or the name of a choice."""
    allowed = POLICY_RANGES[policy][key]
    return allowed[value] if isinstance(allowed[0], str) else str(value)
