"""The lab uses numba and llvmlite through their public, documented API only.

No module replaces an attribute of numba or llvmlite, subclasses their classes, passes a private
compile option (`_nrt` and the like) or imports their internals; an intrinsic is written with
`numba.extending` and the code generation helpers its documentation uses (`numba.core.cgutils`,
llvmlite's IR builder). numba has a lower bound and no cap, so a fresh install takes the newest.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("sim", "policies", "experiments")
# modules of numba and llvmlite the lab may import
PUBLIC = {"numba", "numba.extending", "numba.core.cgutils", "numba.core.errors", "numba.typed", "numba.types",
          "llvmlite", "llvmlite.ir", "llvmlite.binding"}


def sources():
    for package in PACKAGES:
        yield from sorted((ROOT / package).rglob("*.py"))


def imported_names(tree: ast.AST):
    """(module, line) for every import, `from X import Y` giving X.Y."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                yield f"{node.module}.{alias.name}", node.lineno


def is_public(module: str) -> bool:
    if module in PUBLIC:
        return True
    parent = module.rpartition(".")[0]
    # `from numba import njit`, `from numba.extending import intrinsic`: names of a public module
    return parent in PUBLIC and not module.rpartition(".")[2].startswith("_") and module not in (
        "numba.core", "llvmlite.binding.ffi")


def numba_modules_imported(tree):
    return [(m, line) for m, line in imported_names(tree) if m.split(".")[0] in ("numba", "llvmlite")]


def test_only_public_numba_and_llvmlite_modules_are_imported():
    bad = []
    for path in sources():
        tree = ast.parse(path.read_text(), str(path))
        for module, line in numba_modules_imported(tree):
            if not is_public(module):
                bad.append(f"{path.relative_to(ROOT)}:{line}: {module}")
    assert not bad, "internals of numba or llvmlite imported:\n" + "\n".join(bad)


def test_no_private_compile_options_and_no_patched_attributes():
    bad = []
    for path in sources():
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.keyword) and node.arg and node.arg.startswith("_"):
                bad.append(f"{path.relative_to(ROOT)}:{node.value.lineno}: option {node.arg}")
            if isinstance(node, ast.Assign | ast.AugAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Attribute) and "numba" in ast.unparse(target.value).lower():
                        bad.append(f"{path.relative_to(ROOT)}:{node.lineno}: assigns {ast.unparse(target)}")
            if isinstance(node, ast.ClassDef):
                for base in node.bases:
                    if ast.unparse(base).split(".")[0] in ("numba", "llvmlite", "caching", "codegen", "compiler"):
                        bad.append(f"{path.relative_to(ROOT)}:{node.lineno}: subclasses {ast.unparse(base)}")
    assert not bad, "numba used against its documentation:\n" + "\n".join(bad)


def test_the_checks_catch_what_they_forbid():
    """The two scans above, on code that breaks each rule."""
    tree = ast.parse("from numba.core import caching\nfrom numba.core.cpu import CPUContext\nfrom numba import njit\n")
    found = {m for m, _ in numba_modules_imported(tree) if not is_public(m)}
    assert found == {"numba.core.caching", "numba.core.cpu.CPUContext"}
    assert is_public("numba.njit") and is_public("numba.extending.intrinsic") and is_public("numba.core.cgutils")


def test_numba_has_a_lower_bound_and_no_cap():
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    pins = {r.name: r for r in map(Requirement, deps)}
    numba = pins["numba"]
    operators = {spec.operator for spec in numba.specifier}
    assert ">=" in operators and not operators & {"<", "<=", "==", "~=", "!="}, numba
    assert "llvmlite" not in pins or not {s.operator for s in pins["llvmlite"].specifier} & {"<", "<=", "=="}
