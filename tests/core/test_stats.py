"""The score summary: Student's t against published quantiles, intervals of known samples, reach tiles by board."""

from __future__ import annotations

import math
import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from plyground.core.stats import (
    REACH_TILES,
    mean_interval,
    median_interval,
    reach_tiles,
    share_interval,
    summarize_scores,
    t_quantile,
)
from plyground.errors import InvalidInputError
from plyground.g2048.board import MAX_TILE

# The 97.5% quantiles of Student's t (two-sided 95%), to ten decimals, from the published tables.
T_975 = {
    1: 12.7062047362,
    2: 4.3026527297,
    3: 3.1824463053,
    4: 2.7764451052,
    5: 2.5705818356,
    9: 2.2621571628,
    10: 2.2281388520,
    29: 2.0452296421,
    30: 2.0422724563,
    100: 1.9839715185,
    1000: 1.9623390808,
}


@pytest.mark.parametrize(("df", "expected"), sorted(T_975.items()))
def test_t_quantiles_match_the_tables(df: int, expected: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=1e-9)


def test_other_quantiles_and_the_normal_limit() -> None:
    assert t_quantile(0.995, 3) == pytest.approx(5.8409093097, abs=1e-9)
    assert t_quantile(0.9, 7) == pytest.approx(1.4149239277, abs=1e-9)
    assert t_quantile(0.025, 4) == pytest.approx(-T_975[4], abs=1e-9)
    assert t_quantile(0.5, 12) == 0.0
    assert t_quantile(0.975, 10**6) == pytest.approx(statistics.NormalDist().inv_cdf(0.975), abs=1e-5)
    assert t_quantile(0.975, 10**12) == pytest.approx(1.959963985, abs=1e-9)


@pytest.mark.parametrize(("p", "df"), [(0.0, 3), (1.0, 3), (0.975, 0), (0.975, 2.5), (True, 3), (0.975, True)])
def test_bad_quantile_arguments_are_refused(p: object, df: object) -> None:
    with pytest.raises(InvalidInputError):
        t_quantile(p, df)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("scores", "t"),
    [
        ([143_977, 279_719], T_975[1]),  # n = 2: the normal interval would be 143,977 to 279,719
        ([10, 12, 9, 15, 11], T_975[4]),  # n = 5
        ([1000 + 37 * i % 101 for i in range(30)], T_975[29]),  # n = 30
    ],
)
def test_the_interval_of_the_mean_is_students(scores: list[int], t: float) -> None:
    low, high = mean_interval(scores)  # type: ignore[misc]
    mean = statistics.fmean(scores)
    half = t * statistics.stdev(scores) / math.sqrt(len(scores))
    assert (low, high) == pytest.approx((mean - half, mean + half), rel=1e-10)


def test_two_games_get_a_wide_interval() -> None:
    low, high = mean_interval([143_977, 279_719])  # type: ignore[misc]
    assert round(low) == -650_535 and round(high) == 1_074_231  # with z = 1.96: 143,977 to 279,719
    # a mean score is never negative: the summary's interval stops at 0
    assert summarize_scores([143_977, 279_719], [2048, 4096]).interval == pytest.approx((0.0, 1_074_231), abs=1)
    assert summarize_scores([0, 0, 1], [2, 2, 2]).interval[0] == 0.0  # type: ignore[index]
    assert mean_interval([1, 2, 3, 4, 5]) == pytest.approx((1.036757, 4.963243), abs=1e-6)


def test_one_game_has_no_interval_and_none_a_summary_of_zeros() -> None:
    one = summarize_scores([500], [64], tiles=(32, 64, 128))
    assert (one.games, one.mean_score, one.median_score, one.interval, one.max_tile) == (1, 500.0, 500.0, None, 64)
    assert one.reach == {32: 1.0, 64: 1.0, 128: 0.0}
    none = summarize_scores([], [])
    assert (none.games, none.mean_score, none.interval, none.max_tile) == (0, 0.0, None, 0)
    assert none.reach == dict.fromkeys(REACH_TILES, 0.0)
    with pytest.raises(InvalidInputError, match="2 scores but 1 largest tiles"):
        summarize_scores([1, 2], [4])


def test_the_reach_tiles_of_a_board_are_those_it_can_hold() -> None:
    assert REACH_TILES[-1] == MAX_TILE == 32768  # the bitboard's largest tile
    assert reach_tiles(4, 4) == REACH_TILES
    assert reach_tiles(3, 4) == reach_tiles(4, 3) == (256, 512, 1024, 2048, 4096, 8192)  # 12 cells: 2**13
    assert reach_tiles(3, 3) == (256, 512, 1024)
    assert reach_tiles(2, 4) == (256, 512)
    assert reach_tiles(2, 3) == reach_tiles(2, 2) == ()
    with pytest.raises(InvalidInputError, match="rows and cols must be positive integers"):
        reach_tiles(0, 4)


# The ranks of the 95% distribution-free interval of the median, as published (Nair 1940, the
# tables of Conover's Practical Nonparametric Statistics): n -> k, the interval (x_(k), x_(n+1-k)).
PUBLISHED_MEDIAN_RANKS = {6: 1, 7: 1, 8: 1, 9: 2, 10: 2, 11: 2, 12: 3, 13: 3, 14: 3, 15: 4, 16: 4, 17: 5,
                          18: 5, 19: 5, 20: 6, 25: 8, 30: 10}  # fmt: skip


def test_the_median_interval_has_the_published_ranks() -> None:
    for n, k in PUBLISHED_MEDIAN_RANKS.items():
        values = [10 * i for i in range(n, 0, -1)]  # any order
        assert median_interval(values) == (10 * k, 10 * (n + 1 - k)), n
    assert median_interval([1, 2, 3, 4, 5]) is None and median_interval([]) is None
    assert median_interval([1, 2, 3, 4, 5], confidence=0.9) == (1, 5)  # 2 / 32 = 0.0625 <= 0.1


@given(st.integers(6, 80), st.sampled_from([0.8, 0.9, 0.95, 0.99]))
def test_the_median_interval_is_the_narrowest_that_covers(n: int, confidence: float) -> None:
    interval = median_interval(list(range(n)), confidence)
    if interval is None:
        assert 2 / 2**n > 1 - confidence
        return
    k = interval[0] + 1
    assert interval == (k - 1, n - k)

    def missed(rank: int) -> float:  # the median is below x_(rank) or above x_(n+1-rank)
        return sum(math.comb(n, i) for i in range(n + 1) if i < rank or i > n - rank) / 2**n

    assert missed(k) <= 1 - confidence
    assert k == (n + 1) // 2 or missed(k + 1) > 1 - confidence


def test_the_share_interval_is_wilson() -> None:
    low, high = share_interval(19, 20)  # type: ignore[misc]
    assert (low, high) == pytest.approx((0.7639, 0.9911), abs=1e-4)
    assert share_interval(0, 10)[0] == 0.0 and share_interval(10, 10)[1] == 1.0  # type: ignore[index]
    assert share_interval(0, 0) is None
    for args in ((3, 2), (-1, 2), (1.5, 2), (True, 2)):
        with pytest.raises(InvalidInputError):
            share_interval(*args)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="confidence"):
        share_interval(1, 2, confidence=1.0)
