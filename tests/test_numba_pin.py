"""numba and llvmlite are the versions pyproject.toml pins (the ones the tests have passed on).

The kernel relies on parts of numba that are not public API (the `_nrt` compile flag, array
views built in intrinsics); a different numba may compile them differently without an error.
The lab also changes numba's own behaviour in five places, each tested where it lives and each
written against this numba's (and llvmlite's) private classes:
- `sim/general_calls.py`: calls from compiled code into the Island Escape modules are typed
  with plain arguments and compiled once into IR that only the entry optimises; the helpers'
  per-function passes run on a thread with its own LLVM context, which skips llvmlite's lock;
- `sim/layout.py`: the compiler loads its numpy support without importing scipy.linalg;
- `sim/compiler_shortcuts.py`: the compiler skips work that changes nothing (cold compile);
- `experiments/runner.py`: cached kernels load without readying the compiler, and without the
  reference-counting runtime unless their code calls it (start-up);
- `sim/forbidden_island/numba_cache.py`: Forbidden Island's cached code is stamped with one
  digest of all its sources, so an edit anywhere in that game recompiles all of it.
Moving to another numba or llvmlite means checking these five first.
"""

from __future__ import annotations

import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
from packaging.requirements import Requirement

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def pinned() -> dict[str, Requirement]:
    deps = tomllib.loads(PYPROJECT.read_text())["project"]["dependencies"]
    return {r.name: r for r in map(Requirement, deps) if r.name in ("numba", "llvmlite")}


def test_numba_and_llvmlite_are_pinned_to_a_range_with_an_upper_bound():
    pins = pinned()
    assert set(pins) == {"numba", "llvmlite"}
    for name, req in pins.items():
        assert any(spec.operator == "<" for spec in req.specifier), f"{name} needs an upper bound: {req}"


@pytest.mark.parametrize("name", ["numba", "llvmlite"])
def test_installed_version_is_the_tested_one(name):
    req = pinned()[name]
    installed = version(name)
    assert req.specifier.contains(installed), (
        f"{name} {installed} is installed, but the kernel is tested on {name}{req.specifier} "
        f"(pyproject.toml): reinstall with `pip install -e .` or, to move to {installed}, run "
        "`make test` on it and widen the pin")
