"""The layout: the rules engine apart from the studies built on it and from presentation, every
import (at the top of a module or inside a function) pointing down the layers, no circle, and
every module imported by its real name."""
import ast
import importlib
import importlib.util
from pathlib import Path

import pinochle_sim

ROOT = Path(pinochle_sim.__file__).parent
ORDER = {"": 0, "engine": 1, "studies": 2, "present": 3}  # "": the shared helpers


def _module(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def _imports() -> dict[str, set[str]]:
    """Each module's imports of the package's own modules, by dotted name under the package."""
    out = {}
    for path in ROOT.rglob("*.py"):
        name = _module(path)
        package = name.rpartition(".")[0] if path.name != "__init__.py" else name
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".") if package else []
                    base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = (node.module or "").removeprefix("pinochle_sim").lstrip(".")
                    if not (node.module or "").startswith("pinochle_sim"):
                        continue
                for alias in node.names:  # "from . import x" may name a module
                    full = f"{target}.{alias.name}" if target else alias.name
                    found.add(full if (ROOT / (full.replace(".", "/") + ".py")).exists() else target)
        out[name] = {m for m in found if m and m != name}
    return out


def _layer(module: str) -> str:
    head = module.split(".")[0]
    return head if head in ORDER else ""


def test_every_import_points_down_the_layers():
    for module, targets in _imports().items():
        if module.endswith("__init__") or module in ("__main__", "__init__"):
            continue
        for target in targets:
            if target in ("__init__", ""):
                continue  # the package's version string
            assert ORDER[_layer(target)] <= ORDER[_layer(module)], f"{module} imports {target}"


def test_no_import_circle():
    imports = _imports()
    graph = {m: {t for t in ts if t in imports} for m, ts in imports.items()}
    done = set()

    def visit(m, path):
        assert m not in path, " -> ".join([*path, m])
        if m in done:
            return
        for t in graph.get(m, ()):
            visit(t, [*path, m])
        done.add(m)
    for m in graph:
        visit(m, [])


def test_modules_are_imported_by_their_real_names():
    # issue 29: no import hook; the package's public functions stay, and importing the module of
    # the same name does not shadow them
    import sys
    assert not any(type(f).__module__.startswith("pinochle_sim") for f in sys.meta_path)
    for layer, modules in pinochle_sim.LAYERS.items():
        for m in modules:
            assert importlib.import_module(f"pinochle_sim.{layer}.{m}").__name__ == f"pinochle_sim.{layer}.{m}"
            assert importlib.util.find_spec(f"pinochle_sim.{m}") is None
    meld_module = importlib.import_module("pinochle_sim.engine.meld")
    simulate_module = importlib.import_module("pinochle_sim.studies.simulate")
    assert pinochle_sim.meld is meld_module.meld and pinochle_sim.simulate is simulate_module.simulate


#: The engine's loops over deals: studies call them through their typed wrappers
#: (``hand.play_rows``, ``record_deals``...), and presentation not at all.
KERNEL_LOOPS = {"_play_many", "_play_many_dd", "_record_many", "_declare_hand", "_worths_around", "_after_pass"}


def test_no_module_imports_another_modules_private_names():
    # issue 29: private names stay in their module; a study reaches the engine through its public face
    for path in ROOT.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("pinochle_sim")):
                private = [a.name for a in node.names if a.name.startswith("_") and not a.name.startswith("__")
                           and not a.asname]
                assert not private, f"{_module(path)} imports {private} from {node.module}"


def test_only_the_engine_runs_its_kernel_loops():
    for path in ROOT.rglob("*.py"):
        if _layer(_module(path)) == "engine":
            continue
        names = {n.id for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.Name)}
        names |= {n.attr for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.Attribute)}
        assert not names & KERNEL_LOOPS, f"{_module(path)} calls {sorted(names & KERNEL_LOOPS)}"


#: What runs a simulation: presentation calls none of it, except at its front doors (the command
#: line and the notebook's form), which hand the results to the rest to draw and write.
SIMULATIONS = {"declarer_stats", "cached_stats", "auction_summary", "records", "match_hands", "play_matches",
               "play", "simulate", "iter_play", "play_rows", "record_deals", "bid_chart", "advise", "Run"}


def test_presentation_only_draws_and_writes():
    # issue 29: a bid chart's auctions ran inside report.py; now a study returns them (studies.chart)
    for path in (ROOT / "present").glob("*.py"):
        if path.stem in ("cli", "explore", "__init__"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                names = {a.name for a in node.names}
                assert not names & SIMULATIONS, f"{_module(path)} imports {sorted(names & SIMULATIONS)}"
                module = node.module or ""
                assert not module.endswith(("engine.hand", "runs")), f"{_module(path)} imports {module}"
