"""The layers' imports, read from the sources: the commands reach a game only through its Game
object, no package imports the layer above it, and no modules import each other in a circle."""

from __future__ import annotations

import ast
from pathlib import Path

from policies.game import GAMES

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("sim", "policies", "experiments")  # each imports only those before it


def imports(path: Path) -> set[str]:
    """Every module a source imports, at its top or inside a function (a lazy import is still
    an arrow), relative imports resolved."""
    tree = ast.parse(path.read_text(), str(path))
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            out.add(base)
            out.update(f"{base}.{alias.name}" for alias in node.names)  # `from pkg import module`
    return out


def modules() -> dict[str, Path]:
    found = {}
    for layer in LAYERS:
        for path in sorted((ROOT / layer).rglob("*.py")):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


def game_packages() -> set[str]:
    """Every game's packages: its players' (GAMES) and its rules' (the folders of sim/)."""
    rules = {f"sim.{d.name}" for d in (ROOT / "sim").iterdir() if (d / "__init__.py").exists()}
    return rules | set(GAMES.values())


def test_the_commands_import_no_game_package():
    packages = game_packages()
    assert {"sim.island_escape", "policies.forbidden_island"} <= packages
    found = [f"{name} imports {target}" for name, path in modules().items() if name.startswith("experiments")
             for target in imports(path) if any(target == p or target.startswith(p + ".") for p in packages)]
    assert not found, "\n".join(found)


def test_no_layer_imports_the_one_above():
    found = []
    for name, path in modules().items():
        layer = LAYERS.index(name.split(".")[0])
        for target in imports(path):
            top = target.split(".")[0]
            if top in LAYERS and LAYERS.index(top) > layer:
                found.append(f"{name} imports {target}")
    assert not found, "\n".join(found)


def test_no_game_imports_another():
    packages = sorted(game_packages())
    found = []
    for name, path in modules().items():
        own = next((p for p in packages if name == p or name.startswith(p + ".")), None)
        if own is None:
            continue
        mine = own.split(".")[1]  # the game's folder name, the same under sim/ and policies/
        for target in imports(path):
            other = next((p for p in packages if target == p or target.startswith(p + ".")), None)
            if other is not None and other.split(".")[1] != mine:
                found.append(f"{name} imports {target}")
    assert not found, "\n".join(found)


def test_no_modules_import_each_other_in_a_circle():
    graph = {name: set() for name in modules()}
    for name, path in modules().items():
        for target in imports(path):
            # `from pkg import name` names a module when pkg.name is one; else the package itself
            while target and target not in graph:
                target = target.rpartition(".")[0]
            if target and target != name and not name.startswith(target + "."):
                graph[name].add(target)
    circles, state = [], {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = "open"
        for nxt in sorted(graph[node]):
            if nxt.startswith(node + "."):
                continue  # a package's __init__ importing its own modules is no circle
            if state.get(nxt) == "open":
                circles.append(" -> ".join(path[path.index(nxt):] + [nxt]) if nxt in path else f"{node} -> {nxt}")
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert not circles, "\n".join(circles)
