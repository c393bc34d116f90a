"""The report's modules know no game: they import no game package, and their imports run one way
(the figures read the ladder's facts; the ladder's code draws nothing)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

REPORT_MODULES = ("report", "anchor", "rulebook", "card", "skill", "plots")
GAME_PACKAGES = ("sim.island_escape", "sim.forbidden_island", "policies.island_escape", "policies.forbidden_island")


def _imports(module: str) -> set[str]:
    tree = ast.parse(Path(f"experiments/{module}.py").read_text())
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
            out |= {f"{node.module}.{alias.name}" for alias in node.names}
    return out


@pytest.mark.parametrize("module", REPORT_MODULES)
def test_a_report_module_imports_no_game_package(module):
    found = {name for name in _imports(module) if name.startswith(GAME_PACKAGES)}
    assert not found, f"experiments/{module}.py imports {sorted(found)}"


def test_the_ladder_code_does_not_import_the_figures():
    assert not any(name.startswith("experiments.plots") for name in _imports("anchor"))
    loaded = subprocess.run([sys.executable, "-c", "import sys, experiments.anchor; "
                             "print('experiments.plots' in sys.modules, 'matplotlib' in sys.modules)"],
                            capture_output=True, text=True, check=True).stdout.split()
    assert loaded == ["False", "False"]
