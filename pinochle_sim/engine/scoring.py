"""Scoring a hand (RULES.md): the bidding side banks meld plus trick points if together they
reach the bid and it takes the tricks required; otherwise it loses the bid. The other side banks
its meld plus tricks. A side is a partnership in four-hand and a seat in three-hand. Rules for a
side that takes no trick or no counter (``no_trick``):

* ``side_scores_nothing`` (002): a side that takes no trick scores nothing (its meld is void);
* ``bidder_meld_void`` (003): the bidding side's meld is void if it takes no trick;
* ``no_counter_meld_void`` (004): a side that takes no counter (a card worth trick points)
  loses its meld except its nines of trump.

With ``short_voids_others`` (002, three-hand) a bid winner short of its required tricks leaves
the other sides nothing for the hand.
"""
from __future__ import annotations

from .._numba import ijit
from .variants import BIDDER_VOID, NO_COUNTER, SIDE_NOTHING, R


@ijit
def banked_meld(team, bidder_team, meld, dix, tricks, counters, rule):
    """The meld a team keeps after the variant's rule on taking no trick or no counter."""
    if rule == SIDE_NOTHING and tricks == 0:
        return 0
    if rule == BIDDER_VOID and tricks == 0 and team == bidder_team:
        return 0
    if rule == NO_COUNTER and counters == 0:
        return dix
    return meld


@ijit
def score_playing_1000(bt, team_meld, team_points, team_counters, out):
    """Seed 004's "playing 1000" for the bidding side ``bt``: if it took every counter it scores
    1000 and the opponents lose their meld (and bank nothing); otherwise it loses 1000 and the
    opponents bank their meld and trick points. Returns 1 if made."""
    swept = True
    for team in range(out.shape[0]):
        if team != bt and team_counters[team] > 0:
            swept = False
    for team in range(out.shape[0]):
        if team == bt:
            out[team] = 1000 if swept else -1000
        else:
            out[team] = 0 if swept else team_meld[team] + team_points[team]
    return 1 if swept else 0


@ijit
def score_hand(bt, bid, team_meld, team_dix, team_points, team_tricks, team_counters, rules, out):
    """Write each side's banked score into ``out`` (int[sides]) when side ``bt`` holds the
    contract ``bid``; return 1 if the bid was made."""
    short = team_tricks[bt] < rules[R.min_tricks]
    made = 0
    for team in range(out.shape[0]):
        m = banked_meld(team, bt, team_meld[team], team_dix[team], team_tricks[team],
                        team_counters[team], rules[R.no_trick])
        total = m + team_points[team]
        if team == bt:
            if total >= bid and not short:
                out[team] = total
                made = 1
            else:
                out[team] = -bid
        elif short and rules[R.short_voids_others]:
            out[team] = 0
        else:
            out[team] = total
    return made
