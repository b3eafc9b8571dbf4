# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 04 · Bidding strategies head to head
#
# A bid chart is only advice until it wins. Each pair of strategies meets on the same matches
# twice with the seats swapped (duplicate play), so the luck of the cards cancels; matches run
# to each variant's target under its game-end rules. `PINOCHLE_MATCHES` sets the duplicate
# pairs per pairing, `PINOCHLE_DEALS` the deals behind the calibration.

# %%
import os

import pandas as pd

import pinochle_sim as ps
from pinochle_sim.present import plots
from pinochle_sim.studies.match import calibration, tournament
from pinochle_sim.present.report import provenance_line

MATCHES = int(os.environ.get("PINOCHLE_MATCHES", os.environ.get("PINOCHLE_DEALS", "20000")))
DEALS = int(os.environ.get("PINOCHLE_DEALS", "200000"))
STRATEGIES = ["value", "auction", "table", "cautious", "aggressive", "formula", "meld+20", "tricks"]
pd.set_option("display.width", 200)

# %% [markdown]
# ## Round robins in `classic` and `thousand`
# `value` (the default) bids meld plus points per ace, ten and trump plus an allowance per
# auction situation, with weights each variant chose in duplicate play (`docs/bidding.md`);
# `auction` (the default before it) bids what an auction *winner* makes 67% of the time, by the
# situation it bids in; `table` bids what the made-to-declare bid table says the side makes 67%
# of the time, `cautious` 80%, `aggressive` 50%; `formula` was the default before `auction`;
# `meld+20` is the common public rule of thumb; `tricks` counts 25 per expected trick + meld +
# 30 for the partner.

# %%
results = {v: tournament(v, STRATEGIES, matches=MATCHES, seed=1) for v in ("classic", "thousand")}
for v, t in results.items():
    margin, se = t.payoff()
    print(provenance_line(t.provenance()))
    print(f"{v}: row's score margin per hand against column (± s.e.)")
    print((margin.round(1).astype(str) + " ± " + se.round(1).astype(str)).to_string(), "\n")

# %%
results["classic"].table[["a", "b", "win_rate_a", "ci_low", "ci_high", "set_rate_a", "set_rate_b",
                          "avg_bid_a", "avg_bid_b", "hands_per_match"]].round(3)

# %% [markdown]
# The default against each other strategy, read from the round robins above: its margin a hand,
# the 95% interval of that margin, and whether the interval is above zero.

# %%
rows = []
for v, t in results.items():
    margin, se = t.payoff()
    for other in t.strategies[1:]:  # by their specs (a model's deal count shows when not the default)
        m, s = margin.loc[t.strategies[0], other], se.loc[t.strategies[0], other]
        rows.append({"variant": v, "against": other, "margin a hand": m, "low": m - 1.96 * s,
                     "high": m + 1.96 * s, "above zero": m - 1.96 * s > 0})
pd.DataFrame(rows).set_index(["variant", "against"]).round(2)

# %% [markdown]
# ## Calibration: does "67%" mean 67%?
# Every seat bids with one strategy; for each contract a bidder chose, the chance its own
# estimate gave of making that very bid when it took it, binned, against how often it was made.
# The made-to-declare table (`table`) against the auction-aware model (`auction`), in `thousand`:

# %%
calib = {s: calibration("thousand", s, deals=DEALS, seed=11) for s in ("table", "auction")}
pd.concat({s: c.bins for s, c in calib.items()}).round(3)

# %% [markdown]
# At the margin (the contracts bid at the bidder's own limit, where a strategy spends its
# confidence), by the situation of the winning bid, with the Brier score of each:

# %%
pd.concat({s: c.margin for s, c in calib.items()}).round(3)

# %%
plots.calibration_plot(calib, f"thousand | {DEALS:,} deals, seed 11, every seat bidding with the "
                       "strategy named")

# %% [markdown]
# ## Seed 004's average high bid
# Seed 004 says the average high bid in its four-handed game is between 350 and 450.

# %%
pd.DataFrame([{"strategy": s, "average winning bid": (p := ps.play(
    "classic-pass4", DEALS, seed=1, bidding=s))[~p.thrown_in].bid.mean(),
    "made": (p[~p.thrown_in].made == 1).mean()} for s in STRATEGIES]).set_index("strategy").round(3)

# %% [markdown]
# ## What the figures say
#
# * The tables above are the answer, at whatever `PINOCHLE_MATCHES` this run used; at the full
#   size (20,000 duplicate pairs a pairing) `results/tournament_*.txt` and `docs/bidding.md`
#   hold them. The default, `value`, had its weights chosen in duplicate play: the search kept
#   a move of one weight only when it won by more than two standard errors on fresh deals, and
#   `docs/bidding.md` shows how each weight alone fares when moved. At the full size it beats
#   every other strategy here; a small run may not tell them apart.
# * The made-to-declare table is over-confident in real auctions: the calibration above says by
#   how much. It describes a seat *made* to declare; a winner of the auction is a selection (a
#   partner who has passed melds less), which `auction`'s model reads from auctions and the
#   table cannot.
# * The old default `formula` bids too freely and `meld+20` too timidly: the payoff tables above
#   say by how much each loses.
# * **Seed 004's 350-450.** The simulated auctions of `classic-pass4` end lower on average (the
#   table above). Our players bid on what the bidder's own twelve cards show and what the calls so
#   far say; human tables also bid to stop the opponents (seed 004's own advice), and seed 004's
#   figure is for experienced players who know their partner's style. The tables here say what is
#   *made*.
