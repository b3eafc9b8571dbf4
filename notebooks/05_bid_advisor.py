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
# # 05 · A bid advisor to explore
#
# Type a hand, pick a variant (options included, `classic:must_trump=false`) and the auction so
# far; the advisor simulates **this hand**: your twelve cards stay yours, the other 36 are dealt
# at random a few thousand times, and the hand is played out in every trump under the
# variant's full rules. It is `pinochle_sim.studies.advise`, the same function as
# `pinochle-sim advise HAND --variant V --auction "..."`, and the curve is `plots.advice_curve`
# (`pinochle_sim.present.explore` holds the view and the form).
#
# Read statically, the cells below show one worked example; in a live notebook the form at the
# end re-runs the advice for whatever you type. `PINOCHLE_DEALS` sets the deals per answer.

# %%
import os

from pinochle_sim.present.explore import advice_view, advisor_form

DEALS = min(int(os.environ.get("PINOCHLE_DEALS", "4000")), 20000)

# %% [markdown]
# ## A worked example
# Six hearts and one spade in `classic`, after a pass, your partner's 260 and another pass:

# %%
table, line, figure = advice_view("9S AH TH JH 9H JH 9H AD TD AC TC JC", "classic", "p 260 p", DEALS)
print(line)
table  # the chance-of-making curve shows below the table

# %% [markdown]
# The same cards in the default variant (`thousand`, no auction yet): aces and tens are worth
# more there, so the hand bids.

# %%
table, line, figure = advice_view("9S AH TH JH 9H JH 9H AD TD AC TC JC", "thousand", "", DEALS)
print(line)
figure

# %% [markdown]
# ## Your hand
# Change the cards, the variant or the auction and press **Advise**. Bad input answers in one
# line. (The form needs a live kernel with `ipywidgets`; `make lab` installs both.)

# %%
advisor_form(deals=DEALS)
