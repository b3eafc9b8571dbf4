"""The one spelling of a variant, a bidding strategy and a play policy: ``NAME`` or
``NAME:key=value,key=value`` (``classic:must_trump=false``, ``table:conf=0.8``, ``pimc:worlds=20``).

>>> split_spec(" table: conf=0.8 ,seed")
('table', [('conf', '0.8', 'conf=0.8'), ('seed', None, 'seed')])
"""
from __future__ import annotations


def split_spec(spec: str, error: type[ValueError] = ValueError) -> tuple[str, list[tuple[str, str | None, str]]]:
    """``(name, [(key, value, item), ...])``: the name, and each option as written (``item``) with
    its key and value (None where the item has no ``=``); blanks around the parts are dropped.
    An option given twice is refused (``error``, the caller's kind of error): which one was meant
    cannot be told. What a key may be and what its value means is for the caller.

    >>> split_spec("pimc:worlds=5, worlds=6")
    Traceback (most recent call last):
    ValueError: option 'worlds' is given twice in 'pimc:worlds=5, worlds=6'
    """
    name, _, opts = spec.strip().partition(":")
    items = []
    for item in filter(None, (x.strip() for x in opts.split(","))):
        key, eq, value = item.partition("=")
        key = key.strip()
        if any(key == k for k, _, _ in items):
            raise error(f"option {key!r} is given twice in {spec.strip()!r}")
        items.append((key, value if eq else None, item))
    return name.strip(), items
