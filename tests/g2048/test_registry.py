"""The registry of 2048 evaluators: each kind is made by load_evaluator, and reading it loads no kernel."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from plyground.g2048 import registry
from plyground.g2048.registry import load_evaluator

PACKAGE = Path(registry.__file__).parent


@pytest.mark.parametrize("name", list(registry.KINDS))
def test_every_kind_is_made_by_load_evaluator(name: str) -> None:
    evaluator = load_evaluator(name)
    assert evaluator.kind == name and registry.kind_of(name) is registry.KINDS[name]


def test_a_prefixed_name_is_of_its_kind_and_other_names_of_none() -> None:
    assert registry.kind_of("ntuple:~/run") is registry.KINDS["network"]
    assert [registry.kind_of(name) for name in ("net.npz", "Heuristic", "", "ntuple")] == [None] * 4


def test_every_kernel_file_a_kind_names_is_there_and_listed_once() -> None:
    groups = registry.kernel_groups([*registry.KINDS, "ntuple:x", "no such"])
    files = [kernels for _, kernels, _ in groups]
    assert len(files) == len(set(files)) and all((PACKAGE / name).is_file() for name in files)
    assert groups[0] == (registry.PACKAGE, "_kernels.py", "2048")


def test_the_web_lab_offers_the_registrys_kinds() -> None:
    from plyground.apps.web.sessions import EVALUATORS

    assert set(EVALUATORS) == set(registry.KINDS)


def test_reading_the_registry_loads_no_kernel() -> None:
    script = (
        "import sys\n"
        "from plyground.g2048.registry import kernel_groups\n"
        "kernel_groups(['network', 'heuristic'])\n"
        "print(sorted(m for m in sys.modules if m == 'numba' or m.startswith('plyground.g2048')))\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["['plyground.g2048',", "'plyground.g2048.registry']"]
