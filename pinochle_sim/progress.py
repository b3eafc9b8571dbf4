"""Progress bars for long runs (tqdm, on standard error; silent when disabled)."""
from __future__ import annotations

import contextlib
from collections.abc import Iterator

from tqdm import tqdm


@contextlib.contextmanager
def bar(total: int, desc: str, enabled: bool = True, unit: str = " deals") -> Iterator[tqdm]:
    """A tqdm bar counting deals (or ``unit``); ``enabled=False`` gives one that prints nothing."""
    with tqdm(total=total, desc=desc, unit=unit, unit_scale=unit == " deals", disable=not enabled,
              dynamic_ncols=True, leave=False) as pb:
        yield pb
