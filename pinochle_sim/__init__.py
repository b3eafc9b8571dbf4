"""pinochle-sim: Monte Carlo bidding-strategy analysis for four-handed partnership Pinochle.

>>> import pinochle_sim as ps
>>> ps.meld("AS TS KS QS JS 9D 9D 9C 9C 9H 9H JH", "S", "thousand").total
190
"""
from importlib.metadata import PackageNotFoundError, version as _version

from .cards import CardError, format_hand, hand_counts, parse_card
from .meld import meld, meld_all_trumps, meld_table, refused_cards
from .variants import PRESETS, Variant, VariantError, variant

try:
    __version__ = _version("pinochle-sim")
except PackageNotFoundError:  # running from a source tree without installing
    __version__ = "0.0.0+src"

__all__ = ["CardError", "PRESETS", "Variant", "VariantError", "__version__", "format_hand",
           "hand_counts", "meld", "meld_all_trumps", "meld_table", "parse_card", "refused_cards",
           "variant"]
