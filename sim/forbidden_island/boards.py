"""Pictures of Forbidden Island's island (matplotlib), drawn with the parts of sim/boards.py.

The 24 tiles stand on their 6x6 grid (F1), each with its name and, for the eight pickup tiles,
the colour of its treasure; a flooded tile lies crosswise on a blue tint, a sunk one is sea.
Pawns are tokens in their role's colour. Beside the island: each player's role and hand, the
captured treasures and the water meter with the current mark and the skull.
"""

from __future__ import annotations

import sys
from pathlib import Path

import matplotlib

if "ipykernel" not in sys.modules:  # files only, no screen; a notebook keeps its inline backend
    matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Circle, FancyBboxPatch, Rectangle  # noqa: E402

from sim.boards import grid_numbers, save_figure, sea_square, verdict, write_gif  # noqa: E402
from sim.forbidden_island.engine import FLOODED, SUNK, ForbiddenIslandEngine  # noqa: E402
from sim.forbidden_island.rules import (  # noqa: E402
    CARD_NAMES,
    FLOOD_DRAWS,
    PLACES,
    SKULL,
    TREASURES,
    pickup_treasure,
    tile_name,
)

ROLE_COLOURS = {"diver": "#2c3e50", "engineer": "#c0392b", "explorer": "#27ae60", "messenger": "#95a5a6",
                "navigator": "#f1c40f", "pilot": "#2980b9"}
TREASURE_COLOURS = {"earth": "#8d6e63", "fire": "#e67e22", "chalice": "#16a085", "wind": "#8e44ad"}
FLOOD_TINT = "#d6eaf8"


def _place_xy(c: int, r: int) -> tuple[float, float]:
    """Lower-left corner of a place's square: column to the right, row 1 at the top."""
    return (c - 1, 6 - r)


def _wrapped(name: str) -> str:
    """A tile name on two lines at most, split near its middle."""
    words = name.split()
    if len(words) < 2:
        return name
    best = min(range(1, len(words)), key=lambda k: abs(len(" ".join(words[:k])) - len(" ".join(words[k:]))))
    return " ".join(words[:best]) + "\n" + " ".join(words[best:])


def _card_text(card: str) -> str:
    return card if card in TREASURES else {"lift": "Lift", "sandbags": "Sandbags"}.get(card, CARD_NAMES[card])


def draw_board(game: ForbiddenIslandEngine, title: str = ""):
    """Draw `game` as it stands now; returns the figure."""
    fig = plt.figure(figsize=(10.4, 6.2))
    ax = fig.add_axes((0.02, 0.04, 0.58, 0.86))
    side = fig.add_axes((0.62, 0.04, 0.36, 0.86))
    ax.set_xlim(-0.1, 6.1)
    ax.set_ylim(-0.1, 6.1)
    ax.set_aspect("equal")
    ax.axis("off")
    for place in PLACES:
        c, r = place
        x, y = _place_xy(c, r)
        tile = game.layout[place]
        state = game.state[tile]
        if state == SUNK:
            sea_square(ax, x, y)
            continue
        flooded = state == FLOODED
        if flooded:
            ax.add_patch(Rectangle((x, y), 1, 1, color=FLOOD_TINT, lw=0))
        w, h = (0.9, 0.64) if flooded else (0.9, 0.9)
        treasure = pickup_treasure(tile)
        edge = TREASURE_COLOURS[treasure] if treasure else "#7f8c8d"
        face = "#fdebd0" if tile == "fools_landing" else "white"
        ax.add_patch(FancyBboxPatch((x + 0.5 - w / 2, y + 0.5 - h / 2), w, h,
                                    boxstyle="round,pad=0.0,rounding_size=0.05", fc=face, ec=edge,
                                    lw=2.4 if treasure else 1.0))
        captured = treasure in game.captured
        label = _wrapped(tile_name(tile)) + ("\n(captured)" if captured else "")
        ax.text(x + 0.5, y + 0.62, label, ha="center", va="center", fontsize=6,
                color=edge if treasure else "#1c2833", weight="bold" if treasure else "normal")
    offsets = ((-0.28, -0.22), (0.28, -0.22), (-0.1, -0.22), (0.1, -0.22))
    for seat, (c, r) in enumerate(game.pawns):
        x, y = _place_xy(c, r)
        dx, dy = offsets[seat]
        colour = ROLE_COLOURS[game.roles[seat]]
        ax.add_patch(Circle((x + 0.5 + dx, y + 0.5 + dy), 0.11, fc=colour, ec="black", lw=1, zorder=5))
        ax.text(x + 0.5 + dx, y + 0.5 + dy, str(seat), ha="center", va="center", fontsize=7,
                color="black" if game.roles[seat] in ("navigator", "messenger") else "white", weight="bold",
                zorder=6)
    grid_numbers(ax, 6)
    side.axis("off")
    side.set_xlim(0, 1)
    side.set_ylim(0, 1)
    yy = 0.97
    side.text(0, yy, "hands", fontsize=10, weight="bold", va="top")
    for seat, hand in enumerate(game.hands):
        yy -= 0.075
        side.add_patch(Circle((0.03, yy - 0.015), 0.018, fc=ROLE_COLOURS[game.roles[seat]], ec="black"))
        cards = " ".join(_card_text(card) for card in hand) or "-"
        side.text(0.08, yy, f"{seat} {game.roles[seat]}: {cards}", fontsize=8, va="top")
    yy -= 0.1
    side.text(0, yy, "captured: " + (", ".join(game.captured) or "none"), fontsize=10, weight="bold", va="top")
    yy -= 0.1
    draws = f"{FLOOD_DRAWS[game.mark]} flood cards a turn" if game.mark in FLOOD_DRAWS else "the skull"
    side.text(0, yy, f"water meter: mark {game.mark} ({draws})", fontsize=10, weight="bold", va="top")
    yy -= 0.07
    for mark in range(1, SKULL + 1):
        x0 = 0.02 + 0.092 * (mark - 1)
        here = mark == game.mark
        side.add_patch(FancyBboxPatch((x0, yy - 0.07), 0.08, 0.07, boxstyle="round,pad=0.0,rounding_size=0.01",
                                      fc="#2980b9" if mark <= game.mark else "white", ec="#34495e",
                                      lw=1.6 if here else 0.6, alpha=0.9 if mark <= game.mark else 1.0))
        side.text(x0 + 0.04, yy - 0.035, "☠" if mark == SKULL else str(mark), ha="center", va="center", fontsize=8,
                  color="white" if mark <= game.mark else "#1c2833")
    yy -= 0.14
    side.text(0, yy, f"treasure pile {len(game.treasure_pile)}, flood pile {len(game.flood_pile)}, "
              f"{sum(1 for s in game.state.values() if s == SUNK)} tiles sunk", fontsize=8, va="top", color="#555")
    verdict(side, yy - 0.08, game.outcome)
    if title:
        fig.suptitle(title, fontsize=12)
    return fig


def save_board(game: ForbiddenIslandEngine, path: str | Path, title: str = "") -> Path:
    return save_figure(draw_board(game, title), path)


def replay_pictures(record, folder: str | Path, gif: str | Path | None = None) -> list[Path]:
    """Replay a record and write one PNG at the end of each turn (after its floods), and one of
    the setup; optionally an animated GIF of them."""
    from sim.forbidden_island.records import replay

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    game = record.new_game()
    paths = [save_board(game, folder / "turn-00.png", "After the setup")]
    shown = {"turn": 1}

    def after_action(game: ForbiddenIslandEngine, action) -> None:
        if game.turn > shown["turn"] or game.over:
            turn = shown["turn"]
            seat = (turn - 1) % game.rules.players
            end = "after the floods" if not game.over else (
                "win" if game.outcome == "win" else f"lost: {game.outcome}")
            title = f"Turn {turn} (player {seat}, {game.roles[seat]}) - {end}"
            paths.append(save_board(game, folder / f"turn-{turn:02d}.png", title))
            shown["turn"] = game.turn if not game.over else turn + 1

    replay(record, after_action=after_action)
    if gif:
        write_gif(paths, gif)
    return paths
