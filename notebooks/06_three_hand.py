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

# %% [markdown]
# # 06 · Three-hand Pinochle
#
# Seed 002's three-hand rules (`three-hand`): three seats each on its own, 15 cards each and a
# kitty of three; the bid winner takes the kitty, discards any three cards (its discarded A, 10
# and K count for it), names trump and leads the first of 15 tricks. Modern's 25-point scale and
# meld table; the bid winner must take a trick, and if it does not the others score nothing.
# Everything the four-hand notebooks show works here too; this one shows what is different.
# `PINOCHLE_DEALS` sets the deals, `PINOCHLE_MATCHES` the matches per seating.

# %%
import os

import matplotlib.pyplot as plt
import pandas as pd

import pinochle_sim as ps
from pinochle_sim.present import plots
from pinochle_sim.studies.match import calibration, tournament
from pinochle_sim.studies.odds import exact_odds, meld_distribution
from pinochle_sim.present.report import provenance_line
from pinochle_sim.studies.tables import rule_text

DEALS = int(os.environ.get("PINOCHLE_DEALS", "500000"))
MATCHES = int(os.environ.get("PINOCHLE_MATCHES", "5000"))
V = ps.variant("three-hand")
pd.set_option("display.width", 200)

# %% [markdown]
# ## Meld in 15 cards, and in 18 once the kitty is taken
# Exact figures (counted, not sampled): the chance of each meld in one 15-card hand, in the bid
# winner's 18 cards (hand plus kitty), and for comparison in a four-hand 12-card hand.

# %%
odds = {"12 cards (modern)": exact_odds("modern"), "15 cards": exact_odds(V),
        "18 cards (with the kitty)": exact_odds(V, with_kitty=True)}
events = ["run_any_suit", "aces_around", "kings_around", "pinochle", "double_pinochle", "roundhouse"]
table = pd.DataFrame({k: {e: o["events"][e] for e in events} for k, o in odds.items()})
table.loc["mean meld, best trump"] = [o["mean_meld_best_trump"] for o in odds.values()]
table.round(4)

# %%
fig, ax = plt.subplots(figsize=(8, 4))
for label, (v, n) in {"12 cards (modern)": ("modern", 12), "15 cards": (V, 15),
                      "18 cards (with the kitty)": (V, 18)}.items():
    d = meld_distribution(v, None, n)
    keep = d.values <= 40
    ax.step(d.values[keep], d.probabilities[keep], where="mid", label=label)
ax.set_xlabel("meld in the hand's best trump (25-point scale)")
ax.set_ylabel("share of hands")
ax.set_title("Exact meld distributions: the kitty is worth about five points of meld")
ax.legend(frameon=False)
plt.show()

# %% [markdown]
# ## What to bid alone
# The declarer simulation makes every seat of every deal the bid winner in turn: it takes the
# kitty, discards, names trump and plays the hand out. The chart reads the bid from what the
# bidder sees when bidding: its 15 cards' meld in their best trump, and its aces and tens.

# %%
stats = ps.declarer_stats(V, deals=DEALS, seed=1)
print(provenance_line(stats.provenance()))
plots.bid_heatmap(stats)

# %%
print(rule_text(stats))
ps.partner_adds(stats).round(2)

# %% [markdown]
# No partner adds meld (0 above); the kitty and discard do ("meld gained by passing" is the meld
# the kitty adds), and the buried counters count for the bidder.
#
# ## One hand
# A 15-card hand simulated as it is: the other 33 cards dealt at random, the kitty taken, trump
# named after the discard.

# %%
advice = ps.advise("AS TS KS QS JS 9S AH TH KH QH AD KD QD AC KC", V, deals=min(DEALS, 5000), seed=1)
print(advice["why"])
print(provenance_line(advice["provenance"]))
plots.advice_curve(advice)

# %% [markdown]
# ## Three at a table
# Three strategies sit at one table and play the same matches three times, the seats rotated, so
# each sits in each seat on the same cards; a third of the wins is even. `auction:conf=0.5`, the
# auction-aware model at 50%, is three-hand's default: alone against two, taking the contract
# (and the kitty) pays more often than at 67%. `value`, with three-hand's own weights, is the
# four-hand default; here it wins points a deal but fewer matches (`docs/bidding.md`).

# %%
t = tournament(V, ["value", "auction:conf=0.5", "formula"], matches=MATCHES, seed=1)
print(provenance_line(t.provenance()))
t.table[["strategy", "win_rate", "ci_low", "ci_high", "margin_per_hand", "margin_se", "set_rate",
         "avg_bid"]].round(3)

# %% [markdown]
# ## Does the default's "50%" mean 50%?

# %%
plots.calibration_plot({"three-hand": calibration(V, "auction:conf=0.5", deals=min(DEALS, 200_000), seed=11)},
                       "three-hand | bidding auction:conf=0.5")
