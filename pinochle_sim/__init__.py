"""pinochle-sim: Monte Carlo bidding-strategy analysis for Pinochle, four-hand and three-hand.

The package is three layers, each importing only the ones before it:

* ``engine``: the rules and the hand kernel (``cards``, ``variants``, ``melds``, ``deal``,
  ``meld``, ``auction``, ``passing``, ``play``, ``scoring``, ``hand``);
* ``studies``: what is built on it (``strategies``, ``simulate``, ``declarer``, ``tables``,
  ``auction_model``, ``compare``, ``match``, ``stats``, ``odds``, ``advise``, ``dd``, ``tuning``,
  ``records``, ``chart``);
* ``present``: the command line, pictures and text (``cli``, ``plots``, ``report``, ``show``,
  ``explore``);

with the helpers both sides use beside them (``files``, ``progress``, ``_numba``). A module is
imported by its real name (``pinochle_sim.engine.meld``); the public functions below are here too.

>>> import pinochle_sim as ps
>>> ps.meld("AS TS KS QS JS 9D 9D 9C 9C 9H 9H JH", "S", "thousand").total
190
"""
import importlib
from importlib.metadata import PackageNotFoundError, version as _version

try:
    __version__ = _version("pinochle-sim")
except PackageNotFoundError:  # running from a source tree without installing
    __version__ = "0.0.0+src"

#: Every module, by the layer it lives in.
LAYERS = {
    "engine": ("cards", "variants", "melds", "deal", "meld", "auction", "passing", "play", "knowledge",
               "search", "pimc", "tricks",
               "scoring", "hand"),
    "studies": ("strategies", "simulate", "declarer", "tables", "auction_model", "compare", "match", "stats",
                "odds", "advise", "dd", "tuning", "records", "chart"),
    "present": ("cli", "plots", "report", "show", "explore"),
}
_MODULES = {m: f"{layer}.{m}" for layer, mods in LAYERS.items() for m in mods}

# The public names, loaded on first use so that a quick command imports only what it needs.
_EXPORTS = {
    "CardError": "cards", "format_hand": "cards", "hand_counts": "cards", "parse_card": "cards",
    "deal": "deal", "meld": "meld", "meld_all_trumps": "meld", "meld_table": "meld",
    "refused_cards": "meld", "exact_odds": "odds", "meld_distribution": "odds",
    "simulate_meld": "odds", "legal_plays": "play", "records": "records", "advise": "advise",
    "iter_play": "simulate", "play": "simulate", "simulate": "simulate", "bid_table": "tables",
    "declarer_stats": "declarer", "partner_adds": "tables", "rule_of_thumb": "tables",
    "compare": "compare", "double_dummy": "dd", "bid_chart": "chart", "PRESETS": "variants",
    "PLAYABLE": "variants", "Variant": "variants", "VariantError": "variants",
    "variant": "variants",
}


__all__ = ["__version__", *sorted(_EXPORTS)]


def _export(name: str):
    return getattr(importlib.import_module(f"{__name__}.{_MODULES[_EXPORTS[name]]}"), name)


def __getattr__(name: str):
    if name in _EXPORTS:
        return _export(name)
    if name in LAYERS or name == "runs":  # ps.engine, ps.runs
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'pinochle_sim' has no attribute {name!r}")


def __dir__() -> list[str]:
    return __all__
