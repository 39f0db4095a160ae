"""benchmarks/shard_solver.py: the 4x3 forward pass's summary when a stop cut an age's costs away."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from tests.benchmarks import load_script


def test_an_age_without_its_costs_still_counts_its_states_but_not_in_the_rates(tmp_path: Path) -> None:
    script = load_script("shard_solver.py")
    folder = tmp_path / "4x3"
    rows = script.forward_pass(folder, 16, 2, 1, Console(quiet=True))
    published = script.published(16)
    assert [row["age"] for row in rows] == sorted(published)
    whole = script.forward_summary(folder, rows, 16, 1)
    assert whole["matches_published"] and whole["states"] == sum(published.values())
    assert whole["states_measured"] == sum(row["states"] for row in rows)

    cut = [row for row in rows if row["age"] != 10]  # as if a stop fell inside age 10's rounds
    summary = script.forward_summary(folder, cut, 16, 1)
    assert summary["matches_published"] and summary["states"] == whole["states"]
    assert summary["ages_measured"] == whole["ages_measured"] - 1
    assert summary["states_measured"] == whole["states_measured"] - published[10]
    assert summary["wall_s"] < whole["wall_s"]
