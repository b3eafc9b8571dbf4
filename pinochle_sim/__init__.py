"""pinochle-sim: Monte Carlo bidding-strategy analysis for Pinochle, four-hand and three-hand.

The package is three layers, each importing only the ones before it:

* ``engine``: the rules and the hand kernel (``cards``, ``variants``, ``melds``, ``deal``,
  ``meld``, ``auction``, ``passing``, ``play``, ``scoring``, ``hand``);
* ``studies``: what is built on it (``strategies``, ``simulate``, ``declarer``, ``tables``,
  ``auction_model``, ``compare``, ``match``, ``stats``, ``odds``, ``advise``, ``dd``, ``tuning``);
* ``present``: the command line, pictures and text (``cli``, ``plots``, ``report``,
  ``records``, ``explore``);

with the helpers both sides use beside them (``files``, ``progress``, ``_numba``). The modules
keep their short names too: ``pinochle_sim.meld`` is ``pinochle_sim.engine.meld``.

>>> import pinochle_sim as ps
>>> ps.meld("AS TS KS QS JS 9D 9D 9C 9C 9H 9H JH", "S", "thousand").total
190
"""
import importlib
import importlib.abc
import importlib.util
import sys
import types
from importlib.metadata import PackageNotFoundError, version as _version

try:
    __version__ = _version("pinochle-sim")
except PackageNotFoundError:  # running from a source tree without installing
    __version__ = "0.0.0+src"

#: Every module by its short name, and the layer it lives in.
LAYERS = {
    "engine": ("cards", "variants", "melds", "deal", "meld", "auction", "passing", "play", "knowledge",
               "search", "pimc", "tricks",
               "scoring", "hand"),
    "studies": ("strategies", "simulate", "declarer", "tables", "auction_model", "compare", "match", "stats",
                "odds", "advise", "dd", "tuning"),
    "present": ("cli", "plots", "report", "records", "explore"),
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
    "compare": "compare", "double_dummy": "dd", "PRESETS": "variants", "Variant": "variants",
    "VariantError": "variants", "variant": "variants",
}


class _ShortNames(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """``pinochle_sim.meld`` and the like: the module of that name in its layer."""

    def find_spec(self, name, path=None, target=None):
        head, _, short = name.partition(".")
        if head == __name__ and short in _MODULES:
            return importlib.util.spec_from_loader(name, self)
        return None

    def create_module(self, spec):
        return importlib.import_module(f"{__name__}.{_MODULES[spec.name.partition('.')[2]]}")

    def exec_module(self, module):
        pass


sys.meta_path.insert(0, _ShortNames())
__all__ = ["__version__", *sorted(_EXPORTS)]


def _export(name: str):
    return getattr(importlib.import_module(f"{__name__}.{_MODULES[_EXPORTS[name]]}"), name)


def __getattr__(name: str):
    if name in _EXPORTS:
        return _export(name)
    if name in _MODULES or name in LAYERS or name == "runs":  # ps.tables, ps.engine, ps.runs
        return importlib.import_module(f"{__name__}.{name}")
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
