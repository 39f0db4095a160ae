"""Kernel bodies run as plain Python (``NUMBA_DISABLE_JIT=1``) must agree with the naive twins too.

Compiled and interpreted numba code can differ (an untyped ``b + 1`` on a uint64 is
int64 under JIT, uint64 without), so the kernel tests run once more in a subprocess
with the JIT off.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KERNEL_TESTS = [
    "tests/g2048/test_kernels.py",
    "tests/g2048/test_heuristic.py::test_table_evaluation_matches_naive",
    "tests/g2048/test_expectimax.py::test_search_equals_naive_expectimax",
    "tests/g2048/test_expectimax.py::test_lost_board_is_never_chosen",
    "tests/g2048/test_expectimax.py::test_sampling_seed_changes_the_sample",
    "tests/g2048/test_solver_kernels.py",
    "tests/g2048/ntuple/test_kernels.py",
    *(
        f"tests/g2048/ntuple/test_search.py::{name}"
        for name in (
            "test_search_equals_naive_points_plus_value",
            "test_search_equals_naive_at_depth_3",
            "test_depth_1_is_the_greedy_value",
            "test_a_move_into_certain_loss_is_worth_its_points",
        )
    ),
    "tests/g2048/test_solver.py::test_values_equal_the_brute_force_on_every_reachable_state[2-2-0.1-True]",
    "tests/g2048/test_solver.py::test_counts_equal_the_brute_force[2-2-0.1-True]",
    "tests/kinrow/test_board.py::test_winning_moves_match_the_naive_twin",
    "tests/kinrow/test_board.py::test_result_follows_the_rules",
    "tests/kinrow/test_mcts.py::test_takes_the_win_or_blocks_the_loss",
    "tests/kinrow/test_mcts.py::test_symmetric_moves_share_statistics",
    *(
        f"tests/core/test_elias_fano.py::{name}"
        for name in (
            "test_kernels_match_naive",
            "test_count_ones_matches_naive",
            "test_every_bit_position_decodes",
            "test_encode_matches_naive_and_round_trips",
            "test_read_only_input_and_arrays",
            "test_corrupt_arrays_are_refused",
            "test_a_value_past_64_bits_is_refused",
        )
    ),
    *(
        f"tests/kinrow/test_alphabeta.py::{name}"
        for name in (
            "test_evaluate_matches_naive",
            "test_gain_is_the_change_of_the_evaluation",
            "test_wins_at_matches_naive",
            "test_candidates_match_naive",
            "test_heuristic_extremes_match_naive_and_stay_below_a_win",
            "test_table_values_round_trip",
            "test_search_equals_plain_minimax",
            "test_deep_search_equals_plain_minimax",
            "test_kernel_search_near_stones_equals_plain_minimax",
            "test_negamax_restores_the_board_and_the_near_counts",
            "test_bounds_in_the_table_are_kept_apart_from_values",
            "test_deeper_entries_are_not_taken_for_shallower_values",
            "test_tic_tac_toe_is_a_draw",
        )
    ),
]


def test_kernel_tests_pass_without_jit() -> None:
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "HYPOTHESIS_PROFILE": "nojit"}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-W",
            "ignore::RuntimeWarning",
            *KERNEL_TESTS,
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    summary = result.stdout.strip().splitlines()[-1]
    assert " passed" in summary and "failed" not in summary and "skipped" not in summary, summary
