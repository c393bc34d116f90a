"""The parts of a board picture every game draws the same way (matplotlib): the grid's numbers,
a place lost to the sea, the verdict beside the board, saving a figure and an animated GIF."""

from __future__ import annotations

import sys
from pathlib import Path

import matplotlib

if "ipykernel" not in sys.modules:  # files only, no screen; a notebook keeps its inline backend
    matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

SEA_BLUE = "#5dade2"


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


def write_gif(paths: list[Path], gif: str | Path) -> None:
    """The pictures as an animated GIF, a frame every 0.9 s."""
    from PIL import Image

    frames = [Image.open(p).convert("P", palette=Image.Palette.ADAPTIVE) for p in paths]
    if frames:
        frames[0].save(gif, save_all=True, append_images=frames[1:], duration=900, loop=0)
