"""Numbers that cannot go stale (issue 30): every figure the README and docs/ quote is rendered
from the result file that holds it, no figure is typed in their prose, and the committed
notebooks print the provenance of today's defaults."""
import json
import re
from pathlib import Path

import pytest

from pinochle_sim import __version__
from pinochle_sim.studies.strategies import default_bidding
from pinochle_sim.engine.pimc import BY_PRESET
from pinochle_sim.engine.tricks import DEFAULT_POLICY, POLICY_OPTIONS, _option_text
from pinochle_sim.engine.variants import variant
from script import load

ROOT = Path(__file__).resolve().parents[1]
render_docs = load("render_docs")


@pytest.mark.parametrize("name", render_docs.DOCS)
def test_every_quoted_figure_is_what_its_file_holds(name):
    text = (ROOT / name).read_text()
    assert render_docs.render(text) == text, f"run: python scripts/render_docs.py ({name} is stale)"


@pytest.mark.parametrize("name", render_docs.DOCS)
def test_no_figure_is_typed_in_the_prose(name):
    assert render_docs.typed_figures((ROOT / name).read_text()) == []


def test_a_planted_figure_is_caught():
    readme = (ROOT / "README.md").read_text()
    assert render_docs.MARKER.search(readme), "the README quotes no rendered figure"
    # a rendered figure edited by hand: the renderer puts the file's figure back, so --check fails
    planted = render_docs.MARKER.sub(lambda m: m.group(0).replace(m.group(3), " 99.9 ", 1), readme, count=1)
    assert planted != readme and render_docs.render(planted) == readme
    # a figure typed outside any marker
    typed = readme.replace("## How the seats bid", "## How the seats bid\n\n`value` beats it by 4.7 a hand.")
    assert len(render_docs.typed_figures(typed)) == 1


def test_a_text_is_quoted_as_it_is():
    """A figure may be a text of its file (the machine a bench ran on) or the day of a time stamp."""
    bench = json.loads((ROOT / "results" / "bench.json").read_text())["double_dummy_run"]
    assert render_docs.fig_json("results/bench.json", "double_dummy_run.machine.cpu", "s") == bench["machine"]["cpu"]
    assert render_docs.fig_json("results/bench.json", "double_dummy_run.when", "date") == bench["when"][:10]


def test_the_check_names_a_stale_figure(tmp_path, monkeypatch, capsys):
    for name in render_docs.DOCS:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text((ROOT / name).read_text())
    (tmp_path / "results").symlink_to(ROOT / "results")
    readme = tmp_path / "README.md"
    readme.write_text(readme.read_text().replace("| `thousand` | `contract` | your meld + ",
                                                 "| `thousand` | `contract` | your meld + 1", 1))
    monkeypatch.setattr(render_docs, "ROOT", tmp_path)
    assert render_docs.main(["--check"]) == 1
    assert "README.md" in capsys.readouterr().err
    assert render_docs.main([]) == 0 and render_docs.main(["--check"]) == 0


def _made_with(path: Path) -> list[str]:
    nb = json.loads(path.read_text())
    lines = []
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            text = "".join(out.get("text", "")) or "".join(out.get("data", {}).get("text/plain", ""))
            lines += [x for x in text.splitlines() if x.startswith("made with:")]
    return lines


@pytest.mark.parametrize("name", ["02_bid_estimates", "03_variant_comparison", "04_bidding_strategies",
                                  "05_bid_advisor", "06_three_hand"])
def test_committed_notebooks_ran_under_todays_defaults(name):
    lines = _made_with(ROOT / "notebooks" / f"{name}.ipynb")
    assert lines, f"{name}.ipynb prints no provenance: run `make notebooks`"
    for line in lines:
        fields = dict(f.split(" ", 1) for f in line.removeprefix("made with: ").split(" | ")[1:] if " " in f)
        what = line.removeprefix("made with: ").split(" | ")[0].split(",")[0]
        assert fields["pinochle-sim"] == __version__, line
        assert fields["play"] == DEFAULT_POLICY, f"{name}: {line}: run `make notebooks`"
        bidding = fields["bidding"]
        if not bidding.startswith(("none", "the strategies")):
            assert re.match(re.escape(default_bidding(variant(what))) + r"( \(|$)", bidding), \
                f"{name}: {line}: run `make notebooks`"


def test_card_play_states_the_sampling_players_defaults():
    """docs/card-play.md spells ``pimc``'s defaults as the code has them, each option of
    ``pimc.BY_PRESET`` with every preset's own."""
    text = " ".join((ROOT / "docs" / "card-play.md").read_text().split())
    options = {**POLICY_OPTIONS["pimc"], **{k: default for k, (default, _) in BY_PRESET.items()}}
    assert "`pimc:" + ",".join(f"{k}={_option_text('pimc', k, v)}" for k, v in options.items()) + "`" in text
    presets: dict[str, list[str]] = {}
    for option, (_, by_preset) in BY_PRESET.items():
        for preset, value in by_preset.items():
            presets.setdefault(preset, []).append(f"`{option}={_option_text('pimc', option, value)}`")
    for preset, own in presets.items():
        assert f"`{preset}`: {', '.join(own)}" in text, preset


def test_no_link_leaves_the_repository():
    for doc in [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for target in re.findall(r"\]\(([^)#\s]+)", doc.read_text()):
            assert not re.match(r"[a-z]+:", target), f"{doc.name}: {target} leaves the repository"
            path = (doc.parent / target).resolve()
            assert path.is_relative_to(ROOT) and path.exists(), f"{doc.name}: {target} is not in the repository"
