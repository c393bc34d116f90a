"""The lab uses numba and llvmlite through their public, documented API only.

No module replaces an attribute of numba or llvmlite, subclasses their classes, passes a private
compile option (`_nrt` and the like) or imports their internals; an intrinsic is written with
`numba.extending` and the code generation helpers its documentation uses (`numba.core.cgutils`,
llvmlite's IR builder, not its binding layer). numba has a lower bound and no cap, so a fresh install
takes the newest.
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
          "llvmlite", "llvmlite.ir"}
ROOTS = ("numba", "llvmlite")
# numba's own subpackages, not part of its top-level API though `from numba import X` reaches them
INTERNAL_NAMES = {"numba": {"core", "np", "misc", "parfors", "cpython", "experimental", "stencils", "pycc"},
                  "llvmlite": {"binding"}}


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
    name = module.rpartition(".")[2]
    return parent in PUBLIC and not name.startswith("_") and name not in INTERNAL_NAMES.get(parent, ())


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


def numba_aliases(tree) -> set[str]:
    """The names a module binds to numba, llvmlite or anything imported from them."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names if a.name.split(".")[0] in ROOTS}
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in ROOTS:
            names |= {a.asname or a.name for a in node.names}
    return names


def misuses(tree, where: str = "") -> list[str]:
    """Private compile options, attributes of numba or llvmlite assigned or set, their classes
    subclassed, and their internals imported by name at run time."""
    aliases = numba_aliases(tree)
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword):
            if node.arg and node.arg.startswith("_"):
                bad.append(f"{where}{node.value.lineno}: option {node.arg}")
            if node.arg is None and isinstance(node.value, ast.Dict):  # njit(**{"_nrt": False})
                keys = [k.value for k in node.value.keys if isinstance(k, ast.Constant)]
                bad += [f"{where}{node.value.lineno}: option {k}" for k in keys if str(k).startswith("_")]
        if isinstance(node, ast.Assign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Attribute) and _root(target) in aliases:
                    bad.append(f"{where}{node.lineno}: assigns {ast.unparse(target)}")
        if isinstance(node, ast.Call):
            name = ast.unparse(node.func)
            if name == "setattr" and node.args and _root(node.args[0]) in aliases:
                bad.append(f"{where}{node.lineno}: setattr on {ast.unparse(node.args[0])}")
            if name.endswith("import_module") and node.args and isinstance(node.args[0], ast.Constant) \
                    and str(node.args[0].value).split(".")[0] in ROOTS and not is_public(str(node.args[0].value)):
                bad.append(f"{where}{node.lineno}: imports {node.args[0].value}")
        if isinstance(node, ast.ClassDef):
            for base in node.bases:
                if _root(base) in aliases:
                    bad.append(f"{where}{node.lineno}: subclasses {ast.unparse(base)}")
    return bad


def _root(node) -> str:
    while isinstance(node, ast.Attribute | ast.Subscript):
        node = node.value
    return node.id if isinstance(node, ast.Name) else ""


def test_no_private_compile_options_and_no_patched_attributes():
    bad = []
    for path in sources():
        bad += misuses(ast.parse(path.read_text(), str(path)), f"{path.relative_to(ROOT)}:")
    assert not bad, "numba used against its documentation:\n" + "\n".join(bad)


def test_the_checks_catch_what_they_forbid():
    """The two scans above, on code that breaks each rule."""
    tree = ast.parse("from numba.core import caching\nfrom numba.core.cpu import CPUContext\nfrom numba import njit\n")
    found = {m for m, _ in numba_modules_imported(tree) if not is_public(m)}
    assert found == {"numba.core.caching", "numba.core.cpu.CPUContext"}
    assert is_public("numba.njit") and is_public("numba.extending.intrinsic") and is_public("numba.core.cgutils")
    assert not is_public("numba.np") and not is_public("numba.core") and not is_public("llvmlite.binding")
    sample = ast.parse(
        "import numba as nb\nfrom numba import config, njit\nfrom numba.core import caching\nimport importlib\n"
        "nb.config.CACHE_DIR = 'x'\nconfig.DEBUG = 1\nsetattr(caching, 'f', None)\n"
        "class L(caching.CacheImpl): pass\n"
        "f = njit(_nrt=False)\ng = njit(**{'_nrt': False})\nimportlib.import_module('numba.core.caching')\n"
        "class Fine(dict): pass\nh = dict(_private=1)\n")
    found = misuses(sample)
    kinds = sorted(line.split(": ", 1)[1].split()[0] for line in found)
    assert kinds == ["assigns", "assigns", "imports", "option", "option", "option", "setattr", "subclasses"], found


def test_numba_has_a_lower_bound_and_no_cap():
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    pins = {r.name: r for r in map(Requirement, deps)}
    numba = pins["numba"]
    operators = {spec.operator for spec in numba.specifier}
    assert ">=" in operators and not operators & {"<", "<=", "==", "~=", "!="}, numba
    assert "llvmlite" not in pins or not {s.operator for s in pins["llvmlite"].specifier} & {"<", "<=", "=="}
