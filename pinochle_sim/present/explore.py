"""The bid advisor of notebook 05: the view of one answer, and a small form to explore with.

Both call the public functions the command line calls (:func:`pinochle_sim.studies.advise.advise`,
:func:`pinochle_sim.present.plots.advice_curve`); nothing here decides anything.
"""
from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from ..studies.advise import advise
from .plots import advice_curve
from .report import bid_range_note, provenance_line
from ..engine.variants import PLAYABLE


def advice_view(hand: str, variant: str = "thousand", auction: str = "", deals: int = 4000,
                seed: int = 1) -> tuple[pd.DataFrame, str, Figure]:
    """``advise`` for a notebook: a table per trump, the advice in a line or two, the curve.

    >>> table, line, figure = advice_view("9S AH TH JH 9H JH 9H AD TD AC TC JC", deals=200)
    >>> list(table.index), line.startswith("Name H")
    (['S', 'H', 'D', 'C'], True)
    """
    a = advise(hand, variant, deals=deals, seed=seed, auction=auction or None)
    table = pd.DataFrame([{"trump": m["trump"], "meld": m["meld"], "trumps": m["trumps"],
                           "expected side total": round(m["expected_total"], 1),
                           "95% interval": "{:.1f}-{:.1f}".format(*m["ci95"]),
                           "makes the opening bid": f"{m['p_make_opening']:.0%}"}
                          for m in a["melds"]]).set_index("trump")
    rec = a["recommended_bid"]
    lo, hi = a["recommended_bid_range"]
    if rec is None:
        line = f"Name {a['best_trump']} if you must declare, but do not bid: {a['why']}."
    else:
        line = f"Name {a['best_trump']} and bid up to {rec} ({bid_range_note(rec, lo, hi)}): {a['why']}."
    if "call" in a:
        line += f"\nCall now: {a['call']} ({a['call_why']})."
    line += "\n" + provenance_line(a["provenance"])
    return table, line, advice_curve(a)


def advisor_form(hand: str = "AS TS KS QS JS KS 9S QS JD AH AD AC", variant: str = "thousand",
                 auction: str = "", deals: int = 4000):
    """An ipywidgets form: hand, variant (options included), auction so far, deals, and an
    Advise button that shows :func:`advice_view`'s answer below it. Bad input answers in one
    line. Returns the form (``.children[-2]`` is the button, ``.children[-1]`` the output)."""
    import ipywidgets as w
    from IPython.display import display

    hand_box = w.Text(value=hand, description="hand", layout=w.Layout(width="420px"))
    variant_box = w.Combobox(value=variant, options=list(PLAYABLE), description="variant",
                             placeholder="NAME[:option=value,...]")
    auction_box = w.Text(value=auction, description="auction", placeholder='e.g. "p 260 p" from dealer+1')
    deals_box = w.IntSlider(value=deals, min=500, max=20000, step=500, description="deals")
    button = w.Button(description="Advise", button_style="primary")
    out = w.Output()

    def on_advise(_=None) -> None:
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
    return w.VBox([hand_box, variant_box, auction_box, deals_box, button, out])
