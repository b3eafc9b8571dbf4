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
# variant's full rules. It is `pinochle_sim.advise`, the same function as
# `pinochle-sim advise HAND --variant V --auction "..."`, and the curve is `plots.advice_curve`.
#
# Read statically, the cells below show one worked example; in a live notebook the form at the
# end re-runs the advice for whatever you type. `PINOCHLE_DEALS` sets the deals per answer.

# %%
import os

import pandas as pd
from IPython.display import display

import pinochle_sim as ps
from pinochle_sim import plots

DEALS = min(int(os.environ.get("PINOCHLE_DEALS", "4000")), 20000)


def advice_view(hand: str, variant: str = "thousand", auction: str = "", deals: int = DEALS,
                seed: int = 1):
    """The advice as a table per trump, the call to make in one line, and the curve."""
    a = ps.advise(hand, variant, deals=deals, seed=seed, auction=auction or None)
    per_trump = pd.DataFrame(a["melds"]).set_index("trump")[["meld", "trumps", "expected_total", "ci95",
                                                            "p_make_opening"]]
    rec = a["recommended_bid"]
    lo, hi = a["recommended_bid_range"]
    line = (f"Name {a['best_trump']}; bid up to {rec if rec is not None else '(pass)'} "
            f"(the simulation cannot tell it from {lo or 'pass'}-{hi}). {a['why']}.")
    if "call" in a:
        line += f"\nCall now: {a['call']} ({a['call_why']})."
    return per_trump.round(1), line, plots.advice_curve(a)


# %% [markdown]
# ## A worked example
# Six hearts and one spade in `classic`, after a pass, your partner's 260 and another pass:

# %%
table, line, figure = advice_view("9S AH TH JH 9H JH 9H AD TD AC TC JC", "classic", "p 260 p")
print(line)
table

# %%
figure

# %% [markdown]
# The same cards in the default variant (`thousand`, no auction yet): aces and tens are worth
# more there, so the hand bids.

# %%
table, line, figure = advice_view("9S AH TH JH 9H JH 9H AD TD AC TC JC", "thousand")
print(line)
figure

# %% [markdown]
# ## Your hand
# Change the cards, the variant or the auction and press **Advise**. Bad input answers in one
# line. (The form needs a live kernel with `ipywidgets`; `make lab` installs both.)

# %%
import ipywidgets as w  # noqa: E402

hand_box = w.Text(value="AS TS KS QS JS KS 9S QS JD AH AD AC", description="hand",
                  layout=w.Layout(width="420px"))
variant_box = w.Combobox(value="thousand", options=list(ps.PRESETS), description="variant",
                         placeholder="NAME[:option=value,...]")
auction_box = w.Text(value="", description="auction", placeholder='e.g. "p 260 p" from dealer+1')
deals_box = w.IntSlider(value=DEALS, min=500, max=20000, step=500, description="deals")
button = w.Button(description="Advise", button_style="primary")
out = w.Output()


def on_advise(_=None):
    out.clear_output()
    with out:
        try:
            table, line, figure = advice_view(hand_box.value, variant_box.value, auction_box.value,
                                              deals_box.value)
        except ValueError as e:  # bad cards, variant or auction: one line, as on the command line
            print(f"error: {e}")
            return
        print(line)
        display(table, figure)


button.on_click(on_advise)
display(w.VBox([hand_box, variant_box, auction_box, deals_box, button, out]))
button.click()  # the first answer, so the form is never empty (and CI runs the callback)
