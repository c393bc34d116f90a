"""Write each game's policies/<game>/dispatch.py and entries.py from its registry:
`python -m policies.gen_dispatch [game ...]` (every game by default).

The kernel reaches a policy through an integer policy id rather than by taking the policy's
functions as arguments: numba caches nothing for functions that take first-class function
arguments (numba issue #9609). The id is a compile-time constant, so numba compiles only the
policy in use (policies/dispatch.py says how). Both files are generated here from the game's
`policies/<game>/registry.py`, so adding a policy is one new module plus one registry line, then
running this script (tests/test_policies.py fails while any game's files are out of date).

A game's package gives the text of its two files (`policies/<game>/dispatch_texts.py`, `TEXTS`):
its play loop's entries differ from game to game (what a game logs, what its loop plays on from),
the way they are made does not.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

_POLICIES = Path(__file__).resolve().parent


@dataclass(frozen=True)
class DispatchTexts:
    """A game's generated files: the dispatch module (`{module_table}`: "    id: 'module',"
    lines), the entries module (`{functions}` and one `{<table>_table}` per entry table) and the
    functions of one policy (`{pid}`, `{ident}`); `tables` names each entry table and the
    function prefix it lists; `by` says what keys the tables: the policy's id or its name."""

    dispatch: str
    entries: str
    entry: str
    tables: tuple[tuple[str, str], ...]
    by: str  # "id" or "name"


def texts(game: str) -> DispatchTexts:
    """A game's texts: `TEXTS` of its package's `dispatch_texts.py` (policies/<game>/)."""
    from importlib import import_module

    return import_module(f"policies.{game}.dispatch_texts").TEXTS


def games() -> list[str]:
    """Every registered game's package folder (policies/game.py GAMES), in registry order."""
    from policies.game import GAMES

    return [package.rpartition(".")[2] for package in GAMES.values()]


def dispatch_path(game: str) -> Path:
    return _POLICIES / game / "dispatch.py"


def entries_path(game: str) -> Path:
    return _POLICIES / game / "entries.py"


def registry(game: str) -> dict[str, tuple[int, str]]:
    """name -> (id, module name), read from the game's registry.py source without importing it,
    so the generator works even while dispatch.py is stale (importing the registry may import
    the kernel, which imports dispatch.py)."""
    path = _POLICIES / game / "registry.py"
    tree = ast.parse(path.read_text())
    for node in tree.body:
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, ast.AnnAssign) else [])
        if any(getattr(t, "id", None) == "POLICIES" for t in targets):
            table = node.value.args[0] if isinstance(node.value, ast.Call) else node.value  # _Policies({...})
            return {k.value: (v.elts[0].value, v.elts[1].value) for k, v in zip(table.keys, table.values, strict=True)}
    raise SystemExit(f"{path} has no POLICIES dict")


def _sorted(game: str, policies: dict[str, tuple[int, str]] | None) -> list[tuple[int, str, str]]:
    """(id, module name, policy name) by id; default: the registry."""
    policies = registry(game) if policies is None else policies
    return sorted((pid, module, name) for name, (pid, module) in policies.items())


def render(game: str, policies: dict[str, tuple[int, str]] | None = None) -> str:
    """The text of the game's dispatch.py for `policies` (name -> (id, module name); default:
    its registry)."""
    entries = _sorted(game, policies)
    return texts(game).dispatch.format(
        module_table="".join(f"    {pid}: {module!r},\n" for pid, module, _ in entries))


def _quoted(name: str) -> str:
    return f'"{name}"'


def render_entries(game: str, policies: dict[str, tuple[int, str]] | None = None) -> str:
    """The text of the game's entries.py for `policies` (as in `render`)."""
    game_texts = texts(game)
    entries = [(pid, name, name.replace("-", "_")) for pid, _, name in _sorted(game, policies)]
    tables = {
        f"{table}_table": "".join(f"    {pid if game_texts.by == 'id' else _quoted(name)}: {prefix}_{ident},\n"
                                  for pid, name, ident in entries)
        for table, prefix in game_texts.tables}
    return game_texts.entries.format(
        functions="".join(game_texts.entry.format(pid=pid, ident=ident) for pid, _, ident in entries), **tables)


def main(argv: list[str] | None = None) -> int:
    known = games()
    chosen = (sys.argv[1:] if argv is None else argv) or known
    unknown = [g for g in chosen if g not in known]
    if unknown:
        print(f"unknown game {unknown[0]!r} (choose from {', '.join(known)})", file=sys.stderr)
        return 2
    for game in chosen:
        for path, text in ((dispatch_path(game), render(game)), (entries_path(game), render_entries(game))):
            if path.exists() and path.read_text() == text:
                print(f"{path} is up to date")
            else:
                path.write_text(text)
                print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
