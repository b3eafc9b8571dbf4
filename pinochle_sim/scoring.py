"""Scoring a hand (RULES.md): the bidding side banks meld plus trick points if together they
reach the bid and it takes the tricks required; otherwise it loses the bid. The other side banks
its meld plus tricks. Rules for a side that takes no trick or no counter (``no_trick``):

* ``side_scores_nothing`` (002): a side that takes no trick scores nothing (its meld is void);
* ``bidder_meld_void`` (003): the bidding side's meld is void if it takes no trick;
* ``no_counter_meld_void`` (004): a side that takes no counter (a card worth trick points)
  loses its meld except its nines of trump.
"""
from __future__ import annotations

from ._numba import njit

NONE, SIDE_NOTHING, BIDDER_VOID, NO_COUNTER = range(4)


@njit
def banked_meld(team, bidder_team, meld, dix, tricks, counters, rule):
    """The meld a team keeps after the variant's rule on taking no trick or no counter."""
    if rule == SIDE_NOTHING and tricks == 0:
        return 0
    if rule == BIDDER_VOID and tricks == 0 and team == bidder_team:
        return 0
    if rule == NO_COUNTER and counters == 0:
        return dix
    return meld


@njit
def score_playing_1000(bidder, team_meld, team_points, team_counters, out):
    """Seed 004's "playing 1000": if the bidding side took every counter it scores 1000 and the
    opponents lose their meld (and bank nothing); otherwise it loses 1000 and the opponents
    bank their meld and trick points. Returns 1 if made."""
    bt = bidder % 2
    if team_counters[1 - bt] == 0:
        out[bt] = 1000
        out[1 - bt] = 0
        return 1
    out[bt] = -1000
    out[1 - bt] = team_meld[1 - bt] + team_points[1 - bt]
    return 0


@njit
def score_hand(bidder, bid, team_meld, team_dix, team_points, team_tricks, team_counters,
               min_tricks, rule, out):
    """Write each team's banked score into ``out`` (int[2]); return 1 if the bid was made."""
    bt = bidder % 2
    made = 0
    for team in range(2):
        m = banked_meld(team, bt, team_meld[team], team_dix[team], team_tricks[team],
                        team_counters[team], rule)
        total = m + team_points[team]
        if team == bt:
            if total >= bid and team_tricks[team] >= min_tricks:
                out[team] = total
                made = 1
            else:
                out[team] = -bid
        else:
            out[team] = total
    return made
