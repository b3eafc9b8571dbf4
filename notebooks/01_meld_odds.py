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
# # 01 · Meld odds: exact, simulated, and seed 004's "odds" column corrected
#
# How likely is each meld in a 12-card hand? The exact figures count every possible hand
# (no sampling); the simulated ones deal hands with the toolkit's dealer, so the two checking
# each other is a test of both. `PINOCHLE_DEALS` sets the number of simulated deals.

# %%
import os

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

import pinochle_sim as ps
from pinochle_sim.studies.odds import EVENTS, exact_odds, meld_distribution, simulate_meld

DEALS = int(os.environ.get("PINOCHLE_DEALS", "1000000"))
VARIANT = "classic"
exact = exact_odds(VARIANT)
sim = simulate_meld(VARIANT, deals=DEALS, seed=1)

# %%
rows = []
for e in EVENTS:
    p = exact["events"][e.name]
    rows.append({"combination": e.label, "exact": p, "simulated": sim.p_hand[e.name],
                 "s.e.": sim.se_hand[e.name],
                 "z": (sim.p_hand[e.name] - p) / sim.se_hand[e.name] if sim.se_hand[e.name] else np.nan,
                 "someone at the table": exact["events_at_table"].get(e.name, np.nan)})
table = pd.DataFrame(rows).set_index("combination")
table.round({"exact": 6, "simulated": 6, "s.e.": 6, "z": 1, "someone at the table": 4})

# %% [markdown]
# The simulated column sits within a few standard errors of the exact one (the `z` column).
#
# ## Seed 004's odds column
#
# Seed 004 prints odds such as "1 : 4" for 100 aces and "1 : 20" for a double pinochle. Its
# figures do not match dealt hands, for one hand or for the whole table:

# %%
seed004 = {"run_given_suit": "1 : 2", "double_run_given_suit": "1 : 100", "aces_around": "1 : 4",
           "double_aces": "1 : 100", "kings_around": "1 : 20", "double_kings": "1 : 300",
           "queens_around": "1 : 20", "double_queens": "1 : 500", "jacks_around": "1 : 20",
           "double_jacks": "1 : 1000", "pinochle": "1 : 4", "double_pinochle": "1 : 20",
           "roundhouse": "1 : 30"}
labels = {e.name: e.label for e in EVENTS}
corrected = pd.DataFrame([
    {"meld": labels[k], "seed 004": v, "one hand": exact["events"][k],
     "one hand, 1 in": 1 / exact["events"][k],
     "someone at the table": exact["events_at_table"][k],
     "table, 1 in": 1 / exact["events_at_table"][k]} for k, v in seed004.items()]).set_index("meld")
corrected.round({"one hand": 7, "one hand, 1 in": 0, "someone at the table": 6, "table, 1 in": 0})

# %% [markdown]
# Every around is equally likely (each rank has two copies in every suit), so the seed's
# spread between 1 : 300 for eight kings and 1 : 1000 for eight jacks cannot hold. Seed 004's
# "1 : 4" for 100 aces is close to the chance that *someone at the table* holds them, not one
# player. The exact figures:

# %%
doubles = {exact["events"][f"double_{r}"] for r in ("aces", "kings", "queens", "jacks")}
assert len({round(p, 15) for p in doubles}) == 1  # every double around alike
print(f"any double around: 1 in {1 / exact['events']['double_kings']:,.0f} hands, "
      f"1 in {1 / exact['events_at_table']['double_kings']:,.0f} deals (someone at the table)")
print(f"aces around: 1 in {1 / exact['events']['aces_around']:.1f} hands, "
      f"1 in {1 / exact['events_at_table']['aces_around']:.1f} deals (someone at the table)")

# %% [markdown]
#
# ## The meld distribution

# %%
fixed, best = meld_distribution(VARIANT, 0), meld_distribution(VARIANT, None)
fig, ax = plt.subplots(figsize=(8, 4))
for d, label in ((fixed, "trump named before seeing the hand"), (best, "the hand's best trump")):
    keep = d.values <= 300
    ax.step(d.values[keep], d.probabilities[keep], where="mid", label=f"{label} (mean {float(d.mean):.1f})")
ax.set_xlabel(f"meld ({VARIANT} points)")
ax.set_ylabel("chance")
ax.set_title("Exact distribution of one hand's meld")
ax.legend()
plt.show()

# %% [markdown]
# ## Double-deck: twenty cards from eighty
#
# Seed 003's variation deals four hands of 20 from 80 cards: four copies of A, 10, K, Q and J in
# every suit, no 9s. Its melds come single to quadruple (RULES.md's values), and the same
# counting, with four copies, gives its exact odds beside the simulated twin:

# %%
from pinochle_sim.studies.odds import events

DD = "double-deck"
dd_exact = exact_odds(DD)
dd_sim = simulate_meld(DD, deals=DEALS, seed=1)
dd_table = pd.DataFrame([
    {"combination": e.label, "exact": dd_exact["events"][e.name], "simulated": dd_sim.p_hand[e.name],
     "s.e.": dd_sim.se_hand[e.name], "one hand, 1 in": 1 / dd_exact["events"][e.name],
     "someone at the table": dd_exact["events_at_table"].get(e.name, np.nan)}
    for e in events(ps.variant(DD).deck)]).set_index("combination")
dd_table.style.format({"exact": "{:.3g}", "simulated": "{:.3g}", "s.e.": "{:.2g}", "one hand, 1 in": "{:,.0f}",
                       "someone at the table": "{:.3g}"})

# %% [markdown]
# A triple around needs three copies of a rank in every suit, a rarity of millions of hands,
# while a double pinochle is common (the last column). The meld a hand brings, against the trick
# points of a hand (the dashed line):

# %%
dd_fixed, dd_best = meld_distribution(DD, 0), meld_distribution(DD, None)
fig, ax = plt.subplots(figsize=(8, 4))
for d, label in ((dd_fixed, "trump named before seeing the hand"), (dd_best, "the hand's best trump")):
    keep = d.values <= 120
    ax.step(d.values[keep], d.probabilities[keep], where="mid", label=f"{label} (mean {float(d.mean):.1f})")
trick_points = ps.variant(DD).trick_total
ax.axvline(trick_points, color="grey", linestyle="--", label=f"trick points a hand ({trick_points})")
ax.set_xlabel("meld (double-deck points)")
ax.set_ylabel("chance")
ax.set_title("Exact distribution of one 20-card hand's meld (double-deck)")
ax.legend()
plt.show()
