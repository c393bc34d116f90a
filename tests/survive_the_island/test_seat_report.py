"""The seat-balance report of a competitive game (experiments/seats.py) on Survive the Island: a
small study written end to end, and a study file's mistakes refused in one line before any game
is played."""

from __future__ import annotations

import subprocess
import sys

import pytest

from experiments.seats import build_seats_report, load_seat_study
from experiments.sweep import SweepError

TINY = """name = "tiny"
game = "survive-the-island"
policy = "expert"
seed = 3
players = [2, 4]
games = 1500
[skill]
weak = "random"
games = 200
search_games = 4
[fairness]
games = 1500
confirm_games = 1500
tolerance = 0.02
max_changes = 2
pairs_from = 2
[fairness.knobs]
setup = ["snake"]
moves = [2]
"""


def test_a_small_study_writes_every_section_and_figure(tmp_path):
    study = tmp_path / "tiny.toml"
    study.write_text(TINY)
    path = build_seats_report(str(study), tmp_path / "out", threads=2, echo=lambda line: None)
    text = path.read_text()
    assert path.name == "survive-the-island.md"
    for heading in ("## In short", "## Win share by seat", "## How games end and how long they last",
                    "## Score margins", "## Skill against luck", "## Rules that make the seats fair"):
        assert heading in text, heading
    for figure in ("seat_shares", "game_length", "fairness"):
        assert (tmp_path / "out" / "figures" / f"survive_the_island_{figure}.png").stat().st_size > 1000
        assert f"figures/survive_the_island_{figure}.png" in text
    # the fairness search tried the printed rules, each single change and their pair, per count
    assert text.count("| 4 | ") >= 4 and "setup snake" in text
    assert "`lookahead`" in text  # one expert among search players, and the other way round


@pytest.mark.parametrize("change, message", [
    (("name = \"tiny\"", "name = \"tiny\"\ncolour = 1"), "unknown key 'colour'"),
    (("game = \"survive-the-island\"", "game = \"island-escape\""), "whose seats play for themselves"),
    (("players = [2, 4]", "players = [2, 7]"), "7 is not a player count of Survive the Island"),
    (("policy = \"expert\"", "policy = \"clever\""), "unknown Survive the Island policy 'clever'"),
    (("moves = [2]", "moves = [0]"), "knobs.moves: 0"),
    (("moves = [2]", "gauge = [\"AC\"]"), "'gauge' is not a rule option of Survive the Island"),
])
def test_a_study_files_mistakes_are_refused_before_any_game(tmp_path, change, message):
    study = tmp_path / "bad.toml"
    study.write_text(TINY.replace(*change))
    with pytest.raises(SweepError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_seat_study(study)
    r = subprocess.run([sys.executable, "-m", "experiments.cli", "report", "--study", str(study), "--out",
                        str(tmp_path / "out")], capture_output=True, text=True)
    # a study naming a cooperative game is read as a difficulty study, which names its own keys
    said = "players: unknown key" if "seats play" in message else message
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and said in r.stderr, r.stderr
    assert not (tmp_path / "out").exists()  # nothing played, nothing written
