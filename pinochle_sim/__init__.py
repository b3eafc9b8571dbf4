"""pinochle-sim: Monte Carlo bidding-strategy analysis for four-handed partnership Pinochle.

>>> import pinochle_sim as ps
>>> ps.meld("AS TS KS QS JS 9D 9D 9C 9C 9H 9H JH", "S", "thousand").total
190
"""
import importlib
import sys
import types
from importlib.metadata import PackageNotFoundError, version as _version

try:
    __version__ = _version("pinochle-sim")
except PackageNotFoundError:  # running from a source tree without installing
    __version__ = "0.0.0+src"

# The public names, loaded on first use so that a quick command imports only what it needs.
_EXPORTS = {
    "CardError": "cards", "format_hand": "cards", "hand_counts": "cards", "parse_card": "cards",
    "deal": "deal", "meld": "meld", "meld_all_trumps": "meld", "meld_table": "meld",
    "refused_cards": "meld", "exact_odds": "odds", "meld_distribution": "odds",
    "simulate_meld": "odds", "legal_plays": "play", "records": "records", "advise": "advise",
    "iter_play": "simulate", "play": "simulate", "simulate": "simulate", "bid_table": "tables",
    "declarer_stats": "tables", "partner_adds": "tables", "rule_of_thumb": "tables",
    "compare": "compare", "PRESETS": "variants", "Variant": "variants", "VariantError": "variants",
    "variant": "variants",
}
__all__ = ["__version__", *sorted(_EXPORTS)]


def _export(name: str):
    return getattr(importlib.import_module(f"{__name__}.{_EXPORTS[name]}"), name)


def __getattr__(name: str):
    if name in _EXPORTS:
        return _export(name)
    raise AttributeError(f"module 'pinochle_sim' has no attribute {name!r}")


def __dir__() -> list[str]:
    return __all__


class _Package(types.ModuleType):
    """Some public functions share their module's name (``meld``, ``deal``, ``simulate``,
    ``records``, ``compare``, and ``play``, which lives in ``simulate``): importing the
    submodule sets the package attribute to the module, so the function is looked up instead.
    Import the modules themselves with ``from pinochle_sim.simulate import ...``."""

    def __getattribute__(self, name: str):
        value = super().__getattribute__(name)
        if name in _EXPORTS and isinstance(value, types.ModuleType):
            return _export(name)
        return value


sys.modules[__name__].__class__ = _Package
