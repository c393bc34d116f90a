"""The layers' imports: a game's packages (sim/<game>/, policies/<game>/) import no other game's,
and nothing in sim/ or policies/ imports the commands above them (experiments/)."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(p.name for p in (ROOT / "sim").iterdir() if (p / "kernel.py").exists())


def _imports(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
    return out


def test_every_registered_game_is_found():
    from policies.game import GAMES as REGISTERED

    assert GAMES == sorted(package.rpartition(".")[2] for package in REGISTERED.values())


@pytest.mark.parametrize("game", GAMES)
def test_a_game_imports_no_other_game(game):
    others = [g for g in GAMES if g != game]
    for folder in ("sim", "policies"):
        for path in sorted((ROOT / folder / game).rglob("*.py")):
            for module in _imports(path):
                for other in others:
                    assert not module.startswith((f"sim.{other}", f"policies.{other}")), \
                        f"{path.relative_to(ROOT)} imports {module}"


def test_the_rules_and_players_import_no_command():
    for folder in ("sim", "policies"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            assert not any(m == "experiments" or m.startswith("experiments.") for m in _imports(path)), \
                f"{path.relative_to(ROOT)} imports the commands"
