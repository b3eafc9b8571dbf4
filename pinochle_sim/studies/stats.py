"""Paired comparisons: means, differences on the same deals, intervals, p-values, Holm's
correction, and how much the pairing saved."""
from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054


def normal_sf(z: float) -> float:
    """P(Z > z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2))


#: The one-sided normal quantile of 80%: a study sized with ``Z95 + Z80`` standard errors to the
#: effect finds its 95% interval clear of zero four times in five.
Z80 = 0.8416212335729143


def deals_to_show(deals: int, diff: float, se: float) -> int | None:
    """How many deals would put a 95% interval clear of zero four times in five, were the true
    difference ``diff``: the ``deals`` that gave standard error ``se``, scaled as the error
    shrinks (one over the square root of the deals). None when ``diff`` is zero or ``se`` unknown.

    >>> deals_to_show(400, 5.41, 4.12)
    1821
    """
    if not diff or not math.isfinite(se) or not math.isfinite(diff):
        return None
    return math.ceil(deals * ((Z95 + Z80) * se / abs(diff)) ** 2)


def mean_se(x: np.ndarray) -> tuple[float, float, int]:
    """Mean, standard error and count of the finite values of ``x``."""
    x = x[np.isfinite(x)]
    n = len(x)
    if n == 0:
        return float("nan"), float("nan"), 0
    return float(x.mean()), float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else float("nan"), n


def paired(base: np.ndarray, other: np.ndarray) -> dict:
    """Compare ``other`` with ``base`` deal by deal (deals where both are defined).

    Returns the mean difference, its standard error ``diff_se`` and 95% interval, a two-sided p-value
    (normal), the unpaired standard error of the same difference, ``deals_saved``: how many
    times more deals an unpaired comparison would need for the same precision, and the two means
    on those deals (``base_mean``, ``paired_mean``; their difference is ``diff``).

    >>> r = paired(np.array([1.0, 2, 3, 4]), np.array([1.5, 2.5, 3.5, 4.5]))
    >>> r["diff"], r["diff_se"], r["p_value"]
    (0.5, 0.0, 0.0)
    """
    ok = np.isfinite(base) & np.isfinite(other)
    b, o = base[ok], other[ok]
    n = int(ok.sum())
    if n < 2:
        return {"diff": float("nan"), "diff_se": float("nan"), "ci_low": float("nan"),
                "ci_high": float("nan"), "p_value": float("nan"), "se_unpaired": float("nan"),
                "deals_saved": float("nan"), "pairs": n, "base_mean": float("nan"),
                "paired_mean": float("nan")}
    d = o - b
    diff = float(d.mean())
    se = float(d.std(ddof=1) / math.sqrt(n))
    se_unpaired = float(math.sqrt((b.var(ddof=1) + o.var(ddof=1)) / n))
    if se > 0:
        p = 2 * normal_sf(abs(diff) / se)
    else:  # no variation at all: the difference is exact
        p = 1.0 if diff == 0 else 0.0
    return {"diff": diff, "diff_se": se, "ci_low": diff - Z95 * se, "ci_high": diff + Z95 * se,
            "p_value": p, "se_unpaired": se_unpaired,
            "deals_saved": (se_unpaired / se) ** 2 if se > 0 else float("inf"), "pairs": n,
            "base_mean": float(b.mean()), "paired_mean": float(o.mean())}


def holm(p_values: np.ndarray) -> np.ndarray:
    """Holm's step-down adjustment of p-values (controls the family-wise error rate).

    >>> holm(np.array([0.01, 0.04, 0.03])).round(2).tolist()
    [0.03, 0.06, 0.06]
    """
    p = np.asarray(p_values, float)
    out = np.full_like(p, np.nan)
    ok = np.isfinite(p)
    q = p[ok]
    m = len(q)
    order = np.argsort(q)
    adj = np.maximum.accumulate((m - np.arange(m)) * q[order])
    res = np.empty(m)
    res[order] = np.minimum(adj, 1.0)
    out[ok] = res
    return out


_T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776}


def t975(df: float) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom (two-sided 95%).

    Exact to 3 decimals: a table below 5 degrees of freedom, the Cornish-Fisher series above.

    >>> round(t975(15), 3), round(t975(1e9), 3)
    (2.131, 1.96)
    """
    if df < 1:
        return float("nan")
    if df < 5:
        return _T975[int(df)]
    z = Z95
    return float(z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
                 + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3)
                 + (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z)
                 / (92160 * df ** 4))


def wilson(k, n, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval (95% by default) for ``k`` successes in ``n`` trials, elementwise;
    NaN where ``n`` is 0. Unlike the normal interval it is honest at 0, 1 and small ``n``.

    >>> lo, hi = wilson(0, 10)
    >>> float(lo), round(float(hi), 3)
    (0.0, 0.278)
    """
    k = np.asarray(k, float)
    n = np.asarray(n, float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        # the bounds hold p itself, even where rounding puts an end a hair inside it (p = 0, 1)
        return np.clip(np.fmin(centre - half, p), 0, 1), np.clip(np.fmax(centre + half, p), 0, 1)
