"""One summary of a batch of scores: the mean with its 95% interval, the median, and the tiles reached.

The interval of the mean is Student's: ``mean ± t · s / √n``, with ``t`` the 97.5% quantile
of Student's t with ``n - 1`` degrees of freedom (12.706 for two games, 2.045 for thirty,
1.960 in the limit), so that a handful of games gets an honestly wide interval.

>>> summary = summarize_scores([100, 200, 600], [4096, 2048, 8192], tiles=(2048, 4096, 8192))
>>> summary.mean_score, summary.median_score, summary.reach[4096]
(300.0, 200.0, 0.6666666666666666)
>>> round(t_quantile(0.975, 2), 4)
4.3027
>>> reach_tiles(3, 3)
(256, 512, 1024)
"""

from __future__ import annotations

import functools
import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from plyground.errors import InvalidInputError

__all__ = [
    "REACH_TILES",
    "ScoreSummary",
    "mean_half_width",
    "mean_interval",
    "median_interval",
    "reach_tiles",
    "share_interval",
    "summarize_scores",
    "t_quantile",
]

REACH_TILES: tuple[int, ...] = (256, 512, 1024, 2048, 4096, 8192, 16384, 32768)
"""The tiles whose reach a summary counts, up to the largest tile a 2048 bitboard holds (2**15)."""


def reach_tiles(rows: int, cols: int) -> tuple[int, ...]:
    """The tiles of :data:`REACH_TILES` that a 2048 board of ``rows`` × ``cols`` can hold.

    A board of ``n`` cells holds tiles up to ``2**(n + 1)`` (the bitboard stops at 32768).

    >>> reach_tiles(4, 4)[-1], reach_tiles(3, 4)[-1], reach_tiles(2, 4), reach_tiles(2, 2)
    (32768, 8192, (256, 512), ())

    Raises:
        InvalidInputError: a size that is not a positive integer.
    """
    for value in (rows, cols):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise InvalidInputError(f"rows and cols must be positive integers, got {rows!r} and {cols!r}")
    cells = rows * cols
    return tuple(tile for tile in REACH_TILES if tile.bit_length() - 1 <= cells + 1)


# ---------------------------------------------------------------------------------------
# Student's t


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz; converges for x < (a+1)/(a+b+2))."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 1000):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            step = c * d
            h *= step
        if abs(step - 1.0) < 1e-15:
            break
    return h


def _log_gamma_ratio(a: float) -> float:
    """``ln Γ(a + 1/2) - ln Γ(a)``, also for large ``a`` where the two logarithms cancel."""
    if a < 50:
        return math.lgamma(a + 0.5) - math.lgamma(a)
    return 0.5 * math.log(a) - 1 / (8 * a) + 1 / (192 * a**3) + 1 / (640 * a**5) - 17 / (14336 * a**7)


def _t_tail(t: float, df: int) -> float:
    """``P(T > t)`` for Student's t with ``df`` degrees of freedom, t >= 0: ``I_x(df/2, 1/2) / 2``, x = df/(df+t²)."""
    a, b = df / 2, 0.5
    x, y = df / (df + t * t), t * t / (df + t * t)  # y = 1 - x, without the cancellation
    if y == 0.0:
        return 0.5
    log_x = math.log1p(-y) if y < 0.5 else math.log(x)
    log_front = _log_gamma_ratio(a) - math.lgamma(b) + a * log_x + b * math.log(y)
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a / 2
    return (1.0 - math.exp(log_front) * _beta_fraction(b, a, y) / b) / 2


@functools.lru_cache(maxsize=256, typed=True)  # typed: True is not the 1 it equals
def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (to 1e-8; 1e-12 below a million degrees).

    >>> round(t_quantile(0.975, 1), 4), round(t_quantile(0.975, 29), 4), round(t_quantile(0.975, 10**9), 4)
    (12.7062, 2.0452, 1.96)

    Raises:
        InvalidInputError: ``p`` not strictly between 0 and 1, or ``df`` not a positive integer.
    """
    if isinstance(p, bool) or not isinstance(p, int | float) or not 0.0 < p < 1.0:
        raise InvalidInputError(f"a quantile needs a probability strictly between 0 and 1, got {p!r}")
    if isinstance(df, bool) or not isinstance(df, int) or df < 1:
        raise InvalidInputError(f"degrees of freedom must be a positive integer, got {df!r}")
    if p <= 0.5:
        return -t_quantile(1.0 - p, df) if p < 0.5 else 0.0
    if df > 10**9:  # the normal limit, closer than doubles can tell them apart
        return statistics.NormalDist().inv_cdf(p)
    tail, low, high = 1.0 - p, 0.0, 1.0
    while _t_tail(high, df) > tail:  # the tail falls as t grows: bracket the quantile, then bisect
        low, high = high, 2 * high
    for _ in range(200):
        middle = (low + high) / 2
        if middle in (low, high):
            break
        if _t_tail(middle, df) > tail:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def mean_interval(values: Sequence[float], confidence: float = 0.95) -> tuple[float, float] | None:
    """Student's ``confidence`` interval of the mean of ``values`` (None for fewer than two).

    >>> mean_interval([1, 2, 3, 4, 5])
    (1.036756..., 4.963243...)
    >>> mean_interval([7]) is None
    True

    Raises:
        InvalidInputError: a confidence not strictly between 0 and 1.
    """
    _check_confidence(confidence)
    n = len(values)
    if n < 2:
        return None
    mean = statistics.fmean(values)
    half = t_quantile(0.5 + confidence / 2, n - 1) * statistics.stdev(values) / math.sqrt(n)
    return mean - half, mean + half


def mean_half_width(values: Sequence[float], confidence: float = 0.95) -> float:
    """Half the width of :func:`mean_interval` (the ``±`` after a mean), NaN for fewer than two values.

    >>> round(mean_half_width([1, 2, 3, 4, 5]), 4), mean_half_width([7])
    (1.9632, nan)

    Raises:
        InvalidInputError: a confidence not strictly between 0 and 1.
    """
    bounds = mean_interval(values, confidence)
    return math.nan if bounds is None else (bounds[1] - bounds[0]) / 2


def _check_confidence(confidence: float) -> None:
    if isinstance(confidence, bool) or not isinstance(confidence, int | float) or not 0.0 < confidence < 1.0:
        raise InvalidInputError(f"confidence must be strictly between 0 and 1, got {confidence!r}")


def share_interval(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float] | None:
    """Wilson's ``confidence`` interval of a share ``successes / n`` (None without a trial).

    Unlike the plain ``p ± z·√(p(1-p)/n)``, it stays inside [0, 1] and is not empty at 0 or n.

    >>> [round(x, 3) for x in share_interval(19, 20)]
    [0.764, 0.991]
    >>> [round(x, 3) for x in share_interval(0, 10)]
    [0.0, 0.278]

    Raises:
        InvalidInputError: counts that are not integers with 0 <= successes <= n, or a bad confidence.
    """
    _check_confidence(confidence)
    for value in (successes, n):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidInputError(f"successes and n must be integers, got {successes!r} and {n!r}")
    if not 0 <= successes <= n:
        raise InvalidInputError(f"successes must be from 0 to n = {n}, got {successes}")
    if n == 0:
        return None
    z = statistics.NormalDist().inv_cdf(0.5 + confidence / 2)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exactly, not 1e-17 off by rounding
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def median_interval(values: Sequence[float], confidence: float = 0.95) -> tuple[float, float] | None:
    """A distribution-free ``confidence`` interval of the median of ``values``: two of the values.

    The k-th smallest and the k-th largest value, with k the largest rank such that the
    median lies between them with probability at least ``confidence`` whatever the
    distribution (the number of values below the median is binomial(n, 1/2)). None when even
    the smallest and the largest values are not enough (fewer than 6 values at 95%).

    >>> median_interval(list(range(1, 21)))
    (6, 15)
    >>> median_interval([3, 1, 2]) is None
    True

    Raises:
        InvalidInputError: a bad confidence.
    """
    _check_confidence(confidence)
    ordered = sorted(values)
    n = len(ordered)
    if n == 0:
        return None

    def outside(k: int) -> float:  # P(fewer than k values below the median) + P(fewer than k above)
        return 2 * sum(math.comb(n, i) for i in range(k)) / (1 << n)

    if outside(1) > 1 - confidence:
        return None
    k = 1
    while k + 1 <= (n + 1) // 2 and outside(k + 1) <= 1 - confidence:
        k += 1
    return ordered[k - 1], ordered[n - k]


# ---------------------------------------------------------------------------------------
# The summary


@dataclass(frozen=True)
class ScoreSummary:
    """Statistics of a batch of games.

    Attributes:
        games: the number of games.
        mean_score: the mean score (0 without a game).
        interval: the 95% interval of the mean score (Student's t, its lower end at least 0: a
            score is never negative); None for fewer than two games.
        median_score: the median score (0 without a game).
        reach: tile -> the share (0 to 1) of the games whose largest tile reached at least it,
            for the tiles asked for (by default those of :data:`REACH_TILES`).
        max_tile: the largest tile of any game (0 without a game).
    """

    games: int
    mean_score: float
    interval: tuple[float, float] | None
    median_score: float
    reach: Mapping[int, float]
    max_tile: int


def summarize_scores(
    scores: Iterable[float], max_tiles: Iterable[int], *, tiles: Sequence[int] = REACH_TILES
) -> ScoreSummary:
    """The summary of games with these final scores and largest tiles (one of each per game).

    Give ``tiles=reach_tiles(rows, cols)`` so that the reach lists only tiles the board can hold.

    Raises:
        InvalidInputError: not as many largest tiles as scores.
    """
    values = [float(score) for score in scores]
    largest = [int(tile) for tile in max_tiles]
    if len(largest) != len(values):
        raise InvalidInputError(f"{len(values)} scores but {len(largest)} largest tiles: one of each per game")
    n = len(values)
    if not n:
        return ScoreSummary(0, 0.0, None, 0.0, dict.fromkeys(tiles, 0.0), 0)
    reach = {tile: sum(t >= tile for t in largest) / n for tile in tiles}
    interval = mean_interval(values)
    if interval is not None and min(values) >= 0:  # the mean of scores is never negative
        interval = (max(0.0, interval[0]), interval[1])
    return ScoreSummary(n, statistics.fmean(values), interval, float(statistics.median(values)), reach, max(largest))
