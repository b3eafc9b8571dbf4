"""`variants NAME` cites where each option comes from: every quotation is in the seed it names."""
import dataclasses
import re
from pathlib import Path

import pytest

from pinochle_sim.engine.variants import PRESETS, SEED, Variant

SEEDS = Path(__file__).parents[2] / "shared" / "seeds"
QUOTE = re.compile(r"(?:(?<=^)|(?<=[\s(,]))'(.+?)'(?=$|[\s),.;])")


def _norm(text: str) -> str:
    return " ".join(text.lower().replace("’", "'").replace("“", '"').replace("”", '"').split())


def _seed_text(number: str) -> str:
    files = list(SEEDS.glob(f"{number}_*.txt"))
    if not files:
        pytest.skip(f"seed texts not found beside the repository ({SEEDS})")
    return _norm(files[0].read_text())


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_source_is_a_seed_quote_or_a_rules_decision(name):
    v = PRESETS[name]
    missing = []
    for f in dataclasses.fields(Variant):
        if f.name == "name":
            continue
        src = v.source(f.name)
        m = re.match(r"(\d{3})\b", src)
        assert m or src.startswith("RULES.md"), f"{name}.{f.name}: {src!r} names no source"
        if not m:
            continue
        assert m.group(1) in (SEED[name], "004"), f"{name}.{f.name} cites seed {m.group(1)}"
        text = _seed_text(m.group(1))
        quotes = QUOTE.findall(src)
        for q in quotes:
            for piece in filter(None, (p.strip() for p in _norm(q).split("..."))):
                if piece not in text:
                    missing.append(f"{name}.{f.name}: {piece!r} is not in seed {m.group(1)}")
    assert not missing, "\n".join(missing)


def test_classic_meld_values_are_rules_decisions():
    # seed 003 prints no meld table beyond a royal marriage and a pinochle (issue 9)
    v = PRESETS["classic"]
    for option in ("run", "aces_around", "kings_around", "nine_of_trump"):
        assert v.source(option).startswith("RULES.md"), option


def test_an_override_says_so():
    from pinochle_sim.engine.variants import variant
    assert variant("classic:last_trick=0").source("last_trick") == "overridden (preset classic: 10)"
