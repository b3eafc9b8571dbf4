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
# # 02 · Bid estimates: meld plus what your aces and tens should take
#
# Seed 000: "Count your meld, add what your aces and tens should win, and bid what the two
# together can reach." Each seat of every simulated deal declares in turn (names its best
# trump, passes if the variant passes, plays the hand out), and we look at what its side
# banked. `PINOCHLE_DEALS` sets the number of deals per variant.

# %%
import os

import pandas as pd

import pinochle_sim as ps
from pinochle_sim.present import plots
from pinochle_sim.present.report import provenance_line
from pinochle_sim.studies.declarer import declarer_stats
from pinochle_sim.studies.tables import bid_table, partner_adds, rule_of_thumb, rule_text

DEALS = int(os.environ.get("PINOCHLE_DEALS", "300000"))
# the 48-card partnership games (three-hand: notebook 06; double-deck: its own section at the end)
VARIANTS = [name for name, v in ps.PRESETS.items() if v.players == 4 and v.deck_size == 48]
stats = {v: declarer_stats(v, deals=DEALS, seed=1) for v in VARIANTS}
print(provenance_line(stats["thousand"].provenance()))

# %% [markdown]
# ## The bid table (default variant)
# Expected side total by your meld (rows) and aces + tens (columns):

# %%
s = stats["thousand"]
t = bid_table(s, "aces_tens", min_hands=100)
t["mean_total"].unstack("aces_tens").round(0)

# %% [markdown]
# The highest bid the side makes at least 67% of the time (blank: pass):

# %%
t["bid_67"].unstack("aces_tens")

# %%
plots.bid_heatmap(s)

# %%
plots.make_curves(s)

# %% [markdown]
# ## The rule of thumb, variant by variant
# "Expected side total = your meld + a + b per ace + c per ten + d per trump", fitted by
# least squares over every declared hand, with 95% intervals from independent batches of deals.
# It measures a seat *made to declare* (every seat of every deal in turn); what the winner of an
# auction brings is below, by the situation of its winning bid.

# %%
rules = pd.concat({v: rule_of_thumb(stats[v])[["estimate", "ci_low", "ci_high"]] for v in VARIANTS})
rules.round(2)

# %%
for v in VARIANTS:
    print(f"{v:14s} {rule_text(stats[v])}")

# %% [markdown]
# ### The rule of thumb for auction winners
# With every seat bidding by the default strategy (`value`): how far the winner's side total
# sits above the made-to-declare rule, and its partner's meld, by the situation of the winning
# bid (means with standard errors); the bid charts' `auction_winners.csv` hold the same.

# %%
from pinochle_sim.studies.simulate import Setup  # noqa: E402
from pinochle_sim.studies.strategies import default_bidding  # noqa: E402
from pinochle_sim.studies.auction_model import auction_summary  # noqa: E402

winners = pd.concat({v: auction_summary(Setup(v, bidding=default_bidding(ps.variant(v))).bid, stats[v],
                                        deals=min(DEALS, 200_000))
                     .set_index("situation")[["contracts", "above_rule_of_thumb", "above_rule_of_thumb_se",
                                               "partner_meld", "made"]] for v in ("thousand", "classic")})
winners.round(2)

# %% [markdown]
# ## What the partner adds

# %%
pd.concat({v: partner_adds(stats[v]) for v in VARIANTS}).round(2)

# %% [markdown]
# In the passing variants (`modern`, `classic-pass4`) the partner's cards also raise the
# declarer's own meld, which the "meld gained by passing" row measures.
#
# ## One hand, five tables
# The same cards under each variant's rules, simulated as they are (`ps.advise`: the hand
# fixed, the other cards dealt at random), with 95% intervals:

# %%
hand = "AS AS TS KS QS JS 9S AH TH KD QD JC"
rows = []
for v in VARIANTS:
    a = ps.advise(hand, v, deals=min(DEALS, 20000), seed=1)
    rows.append({"variant": v, "best_trump": a["best_trump"], "expected_total": a["expected_total"],
                 "95% interval": "{:.0f}-{:.0f}".format(*a["expected_total_ci95"]),
                 "recommended_bid": a["recommended_bid"],
                 "could be": "{}-{}".format(*a["recommended_bid_range"])})
pd.DataFrame(rows).set_index("variant").round(1)

# %% [markdown]
# The scale differs (250 trick points, 25 in the modern variants), and so do the meld tables:
# a run and its marriage are 190 in `thousand` but 150 in `classic`; passing lets a
# `classic-pass4` declarer fill its run, so the same cards are worth more there.

# %% [markdown]
# ## Double-deck: twenty cards from eighty
# Seed 003's double-deck (four copies of A, 10, K, Q, J and no 9s; twenty cards a seat, twenty
# tricks, 50 trick points, four cards passed each way), made to declare as above. Its meld comes in
# triples and quadruples and a hand holds four aces and four tens on average (the columns count up
# to eight of each, sixteen together); its meld bands are 4 points wide:

# %%
dd = declarer_stats("double-deck", deals=DEALS, seed=1)
print(rule_text(dd))
rule_of_thumb(dd)[["estimate", "ci_low", "ci_high"]].round(2)

# %%
plots.bid_heatmap(dd)
