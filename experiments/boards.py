"""Pictures of the island (matplotlib): the 5x5 cards, pawns, salvage, raised treasures, gauge.

Face-down tiles show a card back, face-up tiles their rank and suit (hearts and diamonds red),
flooded tiles lie crosswise on a blue tint, sea is water, the helicopter is the joker. Pawns
are coloured tokens; each pawn's salvage, the raised treasures and the gauge (top card = water
level) stand beside the board.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import matplotlib

if "ipykernel" not in sys.modules:  # files only, no screen; a notebook keeps its inline backend
    matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Circle, FancyBboxPatch, Rectangle  # noqa: E402

from sim.engine import DOWN, FLOODED, SEA, Game  # noqa: E402
from sim.rules import SUIT_SYMBOL, pretty, rank_of  # noqa: E402

PAWN_COLOURS = ("#e74c3c", "#2980b9", "#27ae60", "#f39c12")
RED_SUITS = ("H", "D")
SEA_BLUE = "#5dade2"
FLOOD_TINT = "#d6eaf8"
BACK = "#34495e"


def _card_label(card: str) -> tuple[str, str]:
    if card == "JK":
        return "JK\nheli", "#6c3483"
    return card[:-1] + SUIT_SYMBOL[card[-1]], "#c0392b" if card[-1] in RED_SUITS else "#1c2833"


def _place_xy(c: int, r: int) -> tuple[float, float]:
    """Lower-left corner of a place's square: column to the right, row 1 at the top."""
    return (c - 1, 5 - r)


def draw_board(game: Game, title: str = "", ax_board=None, ax_side=None):
    """Draw `game` as it stands now; returns the figure."""
    if ax_board is None:
        fig = plt.figure(figsize=(9.6, 6.0))
        ax_board = fig.add_axes((0.02, 0.05, 0.58, 0.85))
        ax_side = fig.add_axes((0.62, 0.05, 0.36, 0.85))
    fig = ax_board.figure
    ax_board.set_xlim(-0.1, 5.1)
    ax_board.set_ylim(-0.1, 5.1)
    ax_board.set_aspect("equal")
    ax_board.axis("off")
    for (c, r), tile in game.board.items():
        x, y = _place_xy(c, r)
        if tile.state == SEA:
            sea_square(ax_board, x, y, gid=f"place-{c}-{r}")
            continue
        flooded = tile.state == FLOODED
        if flooded:  # crosswise on a blue tint
            ax_board.add_patch(Rectangle((x, y), 1, 1, color=FLOOD_TINT, lw=0))
            w, h = 0.86, 0.62
        else:
            w, h = 0.62, 0.86
        cx, cy = x + 0.5, y + 0.5
        if tile.state == DOWN:
            face, edge = BACK, "#1b2631"
        else:
            face, edge = ("#fdebd0" if tile.card == "JK" else "white"), "#7f8c8d"
        # the id lets the play page make a place clickable in the SVG (experiments/play)
        ax_board.add_patch(FancyBboxPatch((cx - w / 2, cy - h / 2), w, h, boxstyle="round,pad=0.0,rounding_size=0.06",
                                          fc=face, ec=edge, lw=1.2, gid=f"place-{c}-{r}"))
        if tile.state == DOWN:
            ax_board.add_patch(Rectangle((cx - w / 2 + 0.07, cy - h / 2 + 0.07), w - 0.14, h - 0.14, fill=False,
                                         ec="#85929e", lw=0.8, hatch="xx"))
        else:
            text, colour = _card_label(tile.card)
            weight = "bold" if tile.card.startswith("K") or tile.card == "JK" else "normal"
            ax_board.text(cx, cy, text, ha="center", va="center", fontsize=12 if len(text) < 4 else 9,
                          color=colour, weight=weight, rotation=90 if flooded else 0)
            if tile.card.startswith("K") and tile.card[-1] in game.raised:
                ax_board.text(cx, y + 0.08, "raised", ha="center", va="bottom", fontsize=6, color="#1e8449")
    # pawns: tokens in the corners of their place
    offsets = ((-0.3, 0.3), (0.3, 0.3), (-0.3, -0.3), (0.3, -0.3))
    for i, (c, r) in enumerate(game.pawns):
        x, y = _place_xy(c, r)
        dx, dy = offsets[i]
        ax_board.add_patch(Circle((x + 0.5 + dx, y + 0.5 + dy), 0.13, fc=PAWN_COLOURS[i], ec="black", lw=1, zorder=5))
        ax_board.text(x + 0.5 + dx, y + 0.5 + dy, str(i), ha="center", va="center", fontsize=7, color="white",
                      weight="bold", zorder=6)
    grid_numbers(ax_board, 5)
    # the side panel: salvage, raised treasures, gauge
    ax_side.axis("off")
    ax_side.set_xlim(0, 1)
    ax_side.set_ylim(0, 1)
    yy = 0.97
    ax_side.text(0, yy, "salvage", fontsize=10, weight="bold", va="top")
    for i, hand in enumerate(game.salvage):
        yy -= 0.07
        ax_side.add_patch(Circle((0.03, yy - 0.015), 0.018, fc=PAWN_COLOURS[i], ec="black",
                                 transform=ax_side.transAxes))
        ax_side.text(0.08, yy, f"pawn {i}: " + (" ".join(pretty(c) for c in hand) or "-"), fontsize=9, va="top")
    yy -= 0.1
    raised = " ".join(f"{SUIT_SYMBOL[s]}" for s in game.raised) or "-"
    ax_side.text(0, yy, f"raised treasures: {raised}", fontsize=10, weight="bold", va="top")
    yy -= 0.1
    ax_side.text(0, yy, f"gauge (water level {rank_of(game.gauge[0])})", fontsize=10, weight="bold", va="top")
    yy -= 0.07
    for k, card in enumerate(game.gauge):
        text, colour = _card_label(card)
        x0 = 0.02 + 0.1 * k
        ax_side.add_patch(FancyBboxPatch((x0, yy - 0.09), 0.08, 0.09, boxstyle="round,pad=0.0,rounding_size=0.01",
                                         fc="#fef9e7" if k == 0 else "white", ec="#7f8c8d", lw=1.5 if k == 0 else 0.8))
        ax_side.text(x0 + 0.04, yy - 0.045, text, ha="center", va="center", fontsize=8, color=colour)
    yy -= 0.16
    drawn = " ".join(f"({c},{r})" for c, r in zip(game.col_drawn, game.row_drawn, strict=True)) or "-"
    ax_side.text(0, yy, f"floods this pass: {drawn}", fontsize=8, va="top", color="#555")
    yy -= 0.05
    ax_side.text(0, yy, f"turn {game.turn}, {game.floods} floods so far", fontsize=8, va="top", color="#555")
    verdict(ax_side, yy - 0.08, game.outcome)
    if title:
        fig.suptitle(title, fontsize=12)
    return fig


def board_svg(game: Game, title: str = "") -> str:
    """The same picture as SVG text for the play page: text kept as text, no date and stable
    ids, so the same state always gives the same bytes."""
    with plt.rc_context({"svg.fonttype": "none", "svg.hashsalt": "island-escape"}):
        fig = draw_board(game, title)
        buf = io.StringIO()
        fig.savefig(buf, format="svg", metadata={"Date": None})
        plt.close(fig)
    return buf.getvalue()


def grid_numbers(ax, n: int) -> None:
    """Column numbers above an n x n board and row numbers at its left (row 1 at the top)."""
    for k in range(n):
        ax.text(k + 0.5, n + 0.03, str(k + 1), ha="center", va="bottom", fontsize=7, color="grey")
        ax.text(-0.05, n - 0.5 - k, str(k + 1), ha="right", va="center", fontsize=7, color="grey")


def sea_square(ax, x: float, y: float, gid: str | None = None) -> None:
    """A place lost to the sea: water with a few dashed waves."""
    ax.add_patch(Rectangle((x, y), 1, 1, color=SEA_BLUE, alpha=0.55, lw=0, gid=gid))
    for k in range(3):
        ax.plot([x + 0.15, x + 0.35, x + 0.55, x + 0.75], [y + 0.25 + 0.25 * k] * 4,
                color="white", lw=0.8, alpha=0.7, marker=None, ls=(0, (2, 2)))


def verdict(ax, y: float, outcome: str | None) -> None:
    """How the game ended, in the side panel (nothing while it goes on)."""
    if outcome:
        text = "the team escapes!" if outcome == "win" else f"lost: {outcome}"
        ax.text(0, y, text, fontsize=12, weight="bold", va="top", color="#1e8449" if outcome == "win" else "#c0392b")


def save_figure(fig, path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=80)
    plt.close(fig)
    return path


def save_board(game: Game, path: str | Path, title: str = "") -> Path:
    return save_figure(draw_board(game, title), path)


def write_gif(paths: list[Path], gif: str | Path) -> None:
    """The pictures as an animated GIF, a frame every 0.9 s."""
    from PIL import Image

    frames = [Image.open(p).convert("P", palette=Image.Palette.ADAPTIVE) for p in paths]
    if frames:
        frames[0].save(gif, save_all=True, append_images=frames[1:], duration=900, loop=0)


def replay_pictures(record, folder: str | Path, gif: str | Path | None = None, sinkings: bool = True) -> list[Path]:
    """Replay a record and write one PNG per turn (and one after each sinking); optionally a GIF."""
    from sim.records import replay

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths: list[Path] = []
    state = {"events": 0}

    def after_flood(game: Game) -> None:
        new = game.events[state["events"]:]
        sank = [e for e in new if e.kind == "sink"]
        if sinkings and sank:
            e = sank[-1]
            title = f"Turn {game.turn}, flood {game.floods}: {pretty(e.card)} sinks at column {e.at[0]}, row {e.at[1]}"
            paths.append(save_board(game, folder / f"turn-{game.turn:02d}-flood-{game.floods:02d}.png", title))
        state["events"] = len(game.events)

    def after_turn(game: Game) -> None:
        state["events"] = len(game.events)
        pawn = (game.turn - 1) % game.rules.pawns
        title = f"Turn {game.turn} (pawn {pawn}) - after the flood phase"
        if game.over:
            title = f"Turn {game.turn} (pawn {pawn}) - " + ("win" if game.outcome == "win" else f"lost: {game.outcome}")
        paths.append(save_board(game, folder / f"turn-{game.turn:02d}.png", title))

    replay(record, after_turn=after_turn, after_flood=after_flood)
    if gif:
        write_gif(paths, gif)
    return paths
