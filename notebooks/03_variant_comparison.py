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
# # 03 · What does a house rule change? Paired comparisons on the same deals
#
# Every variant plays the same deals (same seed, same deal indices), so each metric is compared
# deal by deal and the luck of the cards cancels; the "pairing saved" column says how many times
# more deals an unpaired comparison would need. Points are per 250 trick points, so the
# 25-point modern variants sit on the same scale as the others. p-values are Holm-adjusted over
# every difference. `PINOCHLE_DEALS` sets the deal count.

# %%
import os

import pandas as pd

from pinochle_sim.present import plots
from pinochle_sim.studies.compare import compare
from pinochle_sim.present.report import provenance_line

DEALS = int(os.environ.get("PINOCHLE_DEALS", "200000"))
TABLE_DEALS = min(DEALS, 100_000)
pd.set_option("display.width", 200)


def show(c):
    t = c.table.dropna(subset=["diff"])
    return t[["variant", "metric", "mean", "diff", "ci_low", "ci_high", "p_holm", "deals_saved"]].round(4)


# %% [markdown]
# ## The seed variants side by side (baseline `thousand`)

# %%
seeds = compare(["thousand", "modern-15", "modern", "classic", "classic-pass4"], deals=DEALS, seed=1,
                table_deals=TABLE_DEALS)
print(provenance_line(seeds.provenance()))
show(seeds)

# %%
plots.forest_plot(seeds)

# %% [markdown]
# ## One option at a time (baseline `classic`)

# %%
options = compare(["classic", "classic:must_trump=false", "classic:must_head=false",
                   "classic:must_overtrump=false", "classic:first_lead=dealer_left",
                   "classic:pass_cards=3", "classic:pass_cards=4",
                   "classic:card_points=11/10/4/3/2/0"], deals=DEALS, seed=1, table_deals=TABLE_DEALS)
print(provenance_line(options.provenance()))
show(options)

# %%
plots.forest_plot(options)

# %% [markdown]
# ## What the figures say
# Each line below is computed from the comparisons above, so it says what this run found, with
# its 95% interval and whether it holds after Holm's correction over every difference.


# %%
def finding(c, spec, metric):
    r = c.table.set_index(["variant", "metric"]).loc[(spec, metric)]
    fmt = "{:+.2f}" if r.unit == "per 250" else "{:+.4f}"
    verdict = "holds" if r.p_holm < 0.05 else "not significant"
    return (f"{spec}, {r.description}: {fmt.format(r['diff'])} ({fmt.format(r.ci_low)} to "
            f"{fmt.format(r.ci_high)}; {verdict}, Holm p = {r.p_holm:.2g}; pairing saved "
            f"{r.deals_saved:.0f}x)")


for spec in options.table.variant.unique()[1:]:
    for metric in ("declarer_trick_points", "declarer_total", "set_rate", "bidder_score"):
        print(finding(options, spec, metric))
    print()

# %% [markdown]
# How to read them: a duty of play (`must_trump`, `must_head`, `must_overtrump`) moves the
# declaring side's trick points by a fraction of a point a hand, and leaves the auction exactly as
# it was (the bidding is held, and play does not enter it: `thrown_in` and `winning_bid` differ by
# exactly zero). Who leads first, the card points and above all passing change what the declaring
# side reaches, and so the bids: passing makes `classic-pass4` a different game to bid, not the
# same game with a few cards moved. On the per-250 scale `classic:last_trick=0` would show a
# larger declaring total: without the bonus the hand has 240 trick points, and meld is scaled up
# with them.
