"""Pictures of Survive the Island's hex board (matplotlib), drawn with the parts of sim/boards.py.

Every space is a hex (S1's odd-r rows): sea blue, the island's tiles by terrain (beach sand,
forest green, mountain grey), a revealed volcano red, the rescue islands gold. On them: the
creatures (serpent, shark, kaiju) as lettered discs, a raft as a brown plank, and the
adventurers as small tokens in their seat's colour (values stay hidden, S16). Beside the board:
each seat's rescued adventurers and face-down abilities, the volcanoes so far and, at the end,
the scores and the winners.
"""

from __future__ import annotations

import math
import sys
import textwrap
from pathlib import Path

import matplotlib

if "ipykernel" not in sys.modules:  # files only, no screen; a notebook keeps its inline backend
    matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Circle, FancyBboxPatch, RegularPolygon  # noqa: E402

from sim.boards import SEA_BLUE, save_figure, write_gif  # noqa: E402
from sim.survive_the_island.engine import VOLCANO_SPACE, SurviveTheIslandEngine  # noqa: E402
from sim.survive_the_island.narrative import ENDING_TEXT  # noqa: E402
from sim.survive_the_island.rules import LAND, RESCUE, SEA  # noqa: E402

SEAT_COLOURS = ("#e74c3c", "#2e86c1", "#f1c40f", "#27ae60", "#8e44ad")
TERRAIN_COLOURS = ("#f5deb3", "#52a552", "#a6a6a6")  # beach, forest, mountain
RESCUE_GOLD = "#f0b429"
VOLCANO_RED = "#922b21"
RAFT_BROWN = "#8b5a2b"
CREATURE_LOOK = {"serpent": ("S", "#1e8449"), "shark": ("H", "#566573"), "kaiju": ("K", "#6c3483")}
ROOT3 = math.sqrt(3)


def hex_centre(row: int, column: int) -> tuple[float, float]:
    """A hex's centre for hexes of radius 1, pointy side up: odd rows half a hex to the right (S1)."""
    return ROOT3 * (column + 0.5 * (row % 2)), -1.5 * row


def board_figure(game: SurviveTheIslandEngine, title: str = ""):
    """Draw `game` as it stands now; returns the figure."""
    b = game.board
    fig = plt.figure(figsize=(11.5, 7.6))
    ax = fig.add_axes((0.01, 0.02, 0.70, 0.90))
    side = fig.add_axes((0.72, 0.02, 0.27, 0.90))
    xs = [hex_centre(r, c)[0] for r, c in b.cells]
    ys = [hex_centre(r, c)[1] for r, c in b.cells]
    ax.set_xlim(min(xs) - 1.2, max(xs) + 1.2)
    ax.set_ylim(min(ys) - 1.3, max(ys) + 1.3)
    ax.set_aspect("equal")
    ax.axis("off")
    for q, (r, c) in enumerate(b.cells):
        x, y = hex_centre(r, c)
        kind = game.kind[q]
        if kind == SEA:
            face, edge = SEA_BLUE, "#3e8ec4"
        elif kind == LAND:
            face, edge = TERRAIN_COLOURS[game.tile[q][0]], "#6e5a3a"
        elif kind == RESCUE:
            face, edge = RESCUE_GOLD, "#7d5a00"
        else:
            face, edge = VOLCANO_RED, "#4a0f0a"
        ax.add_patch(RegularPolygon((x, y), 6, radius=0.98, orientation=0, fc=face, ec=edge, lw=0.6))
        if kind == VOLCANO_SPACE:
            ax.add_patch(RegularPolygon((x, y - 0.1), 3, radius=0.55, fc="#e67e22", ec="black", lw=0.6))
        elif kind == RESCUE:
            ax.text(x, y, "rescue", ha="center", va="center", fontsize=6, weight="bold", color="#5a3e00")
        _pieces(ax, game, q, x, y)
    for r in range(max(r for r, _ in b.cells) + 1):  # row numbers, as spaces are written (r<row>c<column>)
        x, y = hex_centre(r, 0)
        ax.text(x - 1.1, y, str(r + 1), ha="right", va="center", fontsize=6, color="grey")
    for c in range(b.width):
        x, y = hex_centre(0, c)
        ax.text(x, y + 1.05, str(c + 1), ha="center", va="bottom", fontsize=6, color="grey")
    _side(side, game)
    if title:
        fig.suptitle(title, fontsize=12)
    return fig


def _pieces(ax, game: SurviveTheIslandEngine, q: int, x: float, y: float) -> None:
    creatures = game.creatures_at(q)
    for k, c in enumerate(creatures):
        letter, colour = CREATURE_LOOK[c.name]
        cx = x - 0.25 * (len(creatures) - 1) + 0.5 * k
        ax.add_patch(Circle((cx, y + 0.38), 0.27, fc=colour, ec="black", lw=0.8, zorder=4))
        ax.text(cx, y + 0.38, letter, ha="center", va="center", fontsize=7, color="white", weight="bold", zorder=5)
    raft = game.raft_at(q)
    if raft is not None:
        ax.add_patch(FancyBboxPatch((x - 0.62, y - 0.5), 1.24, 0.46, boxstyle="round,pad=0.0,rounding_size=0.08",
                                    fc=RAFT_BROWN, ec="#4e2f12", lw=0.8, zorder=3))
        ax.text(x + 0.74, y - 0.27, str(raft.number), ha="left", va="center", fontsize=5, color="#4e2f12", zorder=5)
    here = game.adventurers_at(q)
    for k, a in enumerate(here[:6]):
        ax_x = x - 0.45 + 0.3 * (k % 4)
        ax_y = y - 0.27 - (0.3 if k >= 4 else 0.0) + (0.0 if a.raft >= 0 else 0.05)
        ax.add_patch(Circle((ax_x, ax_y), 0.14, fc=SEAT_COLOURS[a.seat], ec="black", lw=0.7, zorder=6))


def _side(side, game: SurviveTheIslandEngine) -> None:
    side.axis("off")
    side.set_xlim(0, 1)
    side.set_ylim(0, 1)
    yy = 0.97
    side.text(0, yy, "seats", fontsize=11, weight="bold", va="top")
    for seat in range(game.rules.players):
        yy -= 0.075
        side.plot([0.04], [yy - 0.015], "o", ms=11, mfc=SEAT_COLOURS[seat], mec="black")  # markers stay round
        on_board = len(game.on_board(seat))
        line = f"seat {seat}: {game.rescued[seat]} rescued, {on_board} on the board, {sum(game.hand[seat])} face down"
        if game.over:
            line = f"seat {seat}: scores {game.score[seat]} ({game.rescued[seat]} rescued)"
        side.text(0.1, yy, line, fontsize=8, va="top")
    yy -= 0.1
    side.text(0, yy, f"volcanoes {game.volcanoes} of {game.rules.volcanoes_to_end}", fontsize=10, weight="bold",
              va="top")
    yy -= 0.06
    side.text(0, yy, f"tiles left {len(game.land_left())}, rafts on the board "
              f"{sum(r.space >= 0 for r in game.rafts)} of {game.rules.rafts}", fontsize=8, va="top", color="#555")
    yy -= 0.08
    for name, (letter, colour) in CREATURE_LOOK.items():
        side.plot([0.04], [yy - 0.012], "o", ms=10, mfc=colour, mec="black")
        side.text(0.04, yy - 0.012, letter, fontsize=6, ha="center", va="center", color="white")
        count = sum(c.space >= 0 for c in game.in_game if c.name == name)
        side.text(0.1, yy, f"{name}: {count} on the board", fontsize=8, va="top")
        yy -= 0.05
    if game.over:
        won = game.winners()
        who = f"seat {won[0]} wins" if len(won) == 1 else "seats " + ", ".join(map(str, won)) + " share the win"
        verdict = textwrap.fill(f"{ENDING_TEXT[game.ending]}: {who}", 30)
        side.text(0, yy - 0.04, verdict, fontsize=11, weight="bold", va="top", color="#1e8449")


def save_board(game: SurviveTheIslandEngine, path: str | Path, title: str = "") -> Path:
    return save_figure(board_figure(game, title), path)


def replay_pictures(record, folder: str | Path, gif: str | Path | None = None) -> list[Path]:
    """Replay a record and write one PNG after the set-up and one at the end of each seat turn
    (turn-000.png, turn-001.png, ...); optionally an animated GIF of them."""
    from sim.survive_the_island.records import replay

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths: list[Path] = []
    shown = {"turn": 0}

    def after_action(game: SurviveTheIslandEngine, code) -> None:
        while shown["turn"] < game.turn or (game.over and shown["turn"] == game.turn):
            turn = shown["turn"]
            if turn == 0:
                title = "After the set-up"
            else:
                seat = (turn - 1) % game.rules.players
                end = f" - {ENDING_TEXT[game.ending]}" if game.over and turn == game.turn else ""
                title = f"Turn {turn} (seat {seat}){end}"
            paths.append(save_board(game, folder / f"turn-{turn:03d}.png", title))
            shown["turn"] = turn + 1

    replay(record, after_action=after_action)
    if gif:
        write_gif(paths, gif)
    return paths
