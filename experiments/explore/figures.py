"""The explorer's pictures, drawn on the server as SVG with matplotlib (no charting code in the
page, nothing fetched from the network): the win rate per player count against the bands, the
curve across skill (or levels), how games end and when they are lost. Each figure is drawn from
an `answer` (estimate.py) and carries a title and a description for screen readers; the page
shows the same numbers as tables beside it.

matplotlib's object-oriented API only (a Figure and its SVG canvas, no pyplot): the server
draws in its worker threads, and pyplot's global state is not safe there.
"""

from __future__ import annotations

import io
import threading
from xml.sax.saxutils import escape

import matplotlib

matplotlib.use("Agg")
from matplotlib.backends.backend_svg import FigureCanvasSVG  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from experiments.plots import PALETTE  # noqa: E402

FIGURES = ("rates", "curve", "causes", "hazard")
BAND_COLOURS = {"easy": "#2a9d8f", "normal": "#e9c46a", "hard": "#e76f51"}
SETTING, REFERENCE = "#1f618d", "#7f8c8d"
COLOURS = PALETTE
_LOCK = threading.Lock()  # matplotlib's text layout caches are shared: one figure at a time


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _svg(fig: Figure, name: str, title: str, description: str) -> str:
    """The figure as SVG text, with a title and a description a screen reader announces."""
    buffer = io.StringIO()
    FigureCanvasSVG(fig)
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "explore"}):
        fig.savefig(buffer, format="svg", metadata={"Date": None})
    text = buffer.getvalue()
    text = text[text.index("<svg"):]  # no XML prologue: the page may place the SVG inline
    close = text.index(">")
    return (text[:close] + f' role="img" aria-labelledby="{name}-title {name}-desc">'
            f'<title id="{name}-title">{escape(title)}</title><desc id="{name}-desc">{escape(description)}</desc>'
            + text[close + 1:])


def _bands(ax, bands: dict) -> None:
    for level, (lo, hi) in bands.items():
        ax.axhspan(100 * lo, 100 * hi, color=BAND_COLOURS.get(level, "#cccccc"), alpha=0.15, lw=0)
        ax.text(1.0, 100 * (lo + hi) / 2, f" {level.capitalize()}", transform=ax.get_yaxis_transform(),
                va="center", ha="left", fontsize=8, color="#555555")


def seat_shares(a: dict) -> tuple[Figure, str, str]:
    """A competitive game's seats: each seat's share of the win with its 95% interval, a group per
    player count, the setting's bar beside the reference's, a fair share dashed across."""
    fig = Figure(figsize=(5.6, 3.4), layout="constrained")
    ax = fig.add_subplot()
    x, ticks, labels, words = 0.0, [], [], []
    for row in a["counts"]:
        seats, fair = row["setting"]["seats"], row["fair_share"]["setting"]
        for k in range(len(seats)):
            for side, colour, offset in (("setting", SETTING, -0.2), ("reference", REFERENCE, 0.2)):
                seat = row[side]["seats"][k] if k < len(row[side]["seats"]) else None
                if seat is None:
                    continue
                share, (lo, hi) = seat["win_share"], seat["win_share_ci95"]
                ax.bar(x + k + offset, 100 * share, width=0.38, color=colour if side == "setting" else "white",
                       edgecolor=colour, label=(a["reference"]["label"] if side == "reference" else "this setting")
                       if row is a["counts"][0] and k == 0 else None)
                ax.errorbar(x + k + offset, 100 * share, yerr=[[100 * (share - lo)], [100 * (hi - share)]],
                            color="black", capsize=2, lw=0.8)
        ax.hlines(100 * fair, x - 0.5, x + len(seats) - 0.5, colors="black", linestyles="dashed", lw=1)
        ticks += [x + k for k in range(len(seats))]
        labels += [f"{k + 1}" if k else f"{row['players']}p: 1" for k in range(len(seats))]
        words.append(f"{row['players']} players: " + ", ".join(
            f"seat {s['seat']} {_pct(s['win_share'])}" for s in seats) + f" (fair {_pct(fair)})")
        x += len(seats) + 1
    ax.set_xticks(ticks, labels, fontsize=7)
    ax.set_xlabel("seat, in turn order, by player count (dashes: a fair share)")
    ax.set_ylabel("share of the win, % (95% interval)")
    top = max([s["win_share_ci95"][1] for row in a["counts"] for side in ("setting", "reference")
               for s in row[side]["seats"]] + [row["fair_share"]["setting"] for row in a["counts"]])
    # room above the tallest bar for the legend; shares of a few tenths of a point still visible
    ax.set_ylim(0, min(100.0, max(1.0, 125 * top)))
    ax.grid(alpha=0.3, axis="y")
    ax.legend(fontsize=8, loc="upper right")
    return fig, "Share of the win by seat", "; ".join(words)


def rates(a: dict) -> tuple[Figure, str, str]:
    """Win rate per player count, the setting beside its reference, over the bands; a competitive
    game's seats their shares of the win."""
    if a["measure"] == "seat shares":
        return seat_shares(a)
    fig = Figure(figsize=(5.6, 3.4), layout="constrained")
    ax = fig.add_subplot()
    _bands(ax, a["bands"])
    xs = [row["players"] for row in a["counts"]]
    for k, (side, colour, marker, label) in enumerate((("setting", SETTING, "o", "this setting"),
                                                        ("reference", REFERENCE, "s", a["reference"]["label"]))):
        rate = [100 * row[side]["win_rate"] for row in a["counts"]]
        err = [[r - 100 * row[side]["ci95"][0] for r, row in zip(rate, a["counts"], strict=True)],
               [100 * row[side]["ci95"][1] - r for r, row in zip(rate, a["counts"], strict=True)]]
        ax.errorbar([x + (0.08 if k else -0.08) for x in xs], rate, yerr=err, fmt=marker, color=colour, capsize=4,
                    ms=7 if k == 0 else 5, mfc=colour if k == 0 else "white", label=label)
    ax.set_xticks(xs, [f"{x}" for x in xs])
    ax.set_xlim(min(xs) - 0.5, max(xs) + 0.5)
    ax.set_ylim(0, 100)
    ax.set_xlabel("players")
    ax.set_ylabel("win rate, % (95% interval)")
    ax.grid(alpha=0.3, axis="y")
    ax.legend(fontsize=8, loc="lower left")
    words = "; ".join(f"{row['players']} players: {_pct(row['setting']['win_rate'])} "
                      f"({_pct(row['setting']['ci95'][0])}-{_pct(row['setting']['ci95'][1])}), reference "
                      f"{_pct(row['reference']['win_rate'])}" for row in a["counts"])
    return fig, "Win rate by player count", words


def curve(a: dict) -> tuple[Figure, str, str]:
    """Win rate across skill (or the game's levels) at one player count, the search marked."""
    c = a["curve"]
    fig = Figure(figsize=(5.6, 3.4), layout="constrained")
    ax = fig.add_subplot()
    _bands(ax, a["bands"])
    if c is None:
        ax.text(0.5, 0.5, "no curve for this game", ha="center", va="center", transform=ax.transAxes)
        return fig, "Win rate curve", "no curve for this game"
    skill = c["axis"] == "skill"
    search_name = c["search"]["player"] if c["search"] else "search"
    xs = [p["x"] if skill else k for k, p in enumerate(c["points"])]
    for side, colour, style, label in (("setting", SETTING, "-o", "this setting"),
                                       ("reference", REFERENCE, "--s", a["reference"]["label"])):
        rate = [100 * p[side]["win_rate"] for p in c["points"]]
        ax.plot(xs, rate, style, color=colour, ms=4, label=label)
        ax.fill_between(xs, [100 * p[side]["ci95"][0] for p in c["points"]],
                        [100 * p[side]["ci95"][1] for p in c["points"]], color=colour, alpha=0.18, lw=0)
    words = [f"{p['label']}: {_pct(p['setting']['win_rate'])} (reference {_pct(p['reference']['win_rate'])})"
             for p in c["points"]]
    edge = (max(xs) + (0.08 if skill else 0.4))
    if c["search"] and c["search"]["setting"]["games"]:
        s = c["search"]
        for side, colour, fill in (("setting", SETTING, SETTING), ("reference", REFERENCE, "white")):
            r = s[side]
            if r["games"]:
                ax.errorbar([edge + (0.03 if side == "reference" else 0)], [100 * r["win_rate"]],
                            yerr=[[100 * (r["win_rate"] - r["ci95"][0])], [100 * (r["ci95"][1] - r["win_rate"])]],
                            fmt="^", color=colour, mfc=fill, ms=8, capsize=3)
        words.append(f"{s['player']} (the strongest fair search): {_pct(s['setting']['win_rate'])} "
                     f"on {s['setting']['games']} games")
    marked = c["marked"]
    if marked is not None:
        x = marked if skill else next((k for k, p in enumerate(c["points"]) if p["x"] == marked), None)
        if x is not None:
            ax.axvline(x, color=SETTING, ls=":", lw=1.2)
            words.append(f"the setting's player is marked at {c['points'][0]['label'].split()[0]} {marked}")
    if skill:
        ax.set_xlim(-0.04, edge + 0.12)
        ax.set_xticks([p["x"] for p in c["points"]], [f"{p['x']:g}" for p in c["points"]])
        ax.set_xlabel(f"skill (0 careless - 1 the expert);  ▲ {search_name}")
    else:
        ax.set_xlim(-0.4, edge + 0.6)
        ax.set_xticks(xs, [p["label"].capitalize() for p in c["points"]])
        ax.set_xlabel(f"level;  ▲ {search_name}, at the setting's level")
    ax.set_ylim(0, 100)
    ax.set_ylabel("win rate, % (95% band)")
    ax.grid(alpha=0.3, axis="y")
    ax.legend(fontsize=8, loc="upper left")
    title = f"Win rate across {'skill' if skill else 'levels'}, {c['players']} players"
    return fig, title, "; ".join(words)


def endings(a: dict, est: dict) -> list[tuple[str, float, str]]:
    """How an estimate's games ended, as (name, fraction of the games, colour): the win and each
    loss cause, or a competitive game's endings."""
    if a["measure"] == "seat shares":
        return [(name, est["endings"].get(name, 0.0), f"C{k}") for k, name in enumerate(a["endings"])]
    return [("win", est["win_rate"], "#27ae60")] + [
        (cause, est["loss_rates"].get(cause, 0.0), COLOURS.get(cause, "#95a5a6")) for cause in a["causes"]]


def causes(a: dict) -> tuple[Figure, str, str]:
    """How games end: wins and each loss cause (a competitive game: its endings), the setting
    above its reference, per count."""
    rows = [(f"{row['players']}p {label}", row[side]) for row in a["counts"]
            for side, label in (("setting", "setting"), ("reference", "reference"))]
    fig = Figure(figsize=(5.6, 0.42 * len(rows) + 1.4), layout="constrained")
    ax = fig.add_subplot()
    for y, (_, est) in enumerate(rows):
        left = 0.0
        for name, share, colour in endings(a, est):
            ax.barh(y, 100 * share, left=left, color=colour, label=name if y == 0 else None)
            left += 100 * share
    ax.set_yticks(range(len(rows)), [label for label, _ in rows], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("% of games")
    ax.legend(ncol=4, fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.18 - 0.3 / len(rows)))
    words = "; ".join(f"{label}: " + ", ".join(f"{name} {_pct(share)}" for name, share, _ in endings(a, est))
                      for label, est in rows)
    return fig, "How games end", words


def hazard(a: dict) -> tuple[Figure, str, str]:
    """When games are lost: per turn, the share of games still running that are lost in it, by
    cause, a panel per player count; the reference's total as a line."""
    counts = a["counts"]
    fig = Figure(figsize=(5.6, 1.9 * len(counts) + 0.8), layout="constrained")
    axes = fig.subplots(len(counts), 1, sharex=True, squeeze=False)[:, 0]
    words = []
    for ax, row in zip(axes, counts, strict=True):
        h, ref = row["hazard"]["setting"], row["hazard"]["reference"]
        turns = h["turns"]
        layers = [[100 * x for x in h["lost"][cause]] for cause in a["causes"]]
        # one shape a cause (a stack of areas), not a bar a turn: a light SVG however long the games
        ax.stackplot(turns, *layers, colors=[COLOURS.get(c, "#95a5a6") for c in a["causes"]], step="mid",
                     labels=a["causes"] if row is counts[0] else ())
        bottom = [sum(layer[k] for layer in layers) for k in range(len(turns))]
        total_ref = [100 * sum(ref["lost"][c][k] for c in a["causes"]) for k in range(len(turns))]
        ax.step(turns, total_ref, where="mid", color="black", lw=1, ls="--",
                label=a["reference"]["label"] if row is counts[0] else None)
        # the water's last flood loses most games still running: the axis stops above the rest
        top = max([*bottom[:-1], *total_ref[:-1], 5.0])
        ax.set_ylim(0, 1.25 * top)
        ax.set_ylabel(f"{row['players']}p: % lost", fontsize=8)
        ax.grid(alpha=0.3, axis="y")
        if bottom:
            peak = max(range(len(bottom)), key=bottom.__getitem__)
            words.append(f"{row['players']} players: most often lost in turn {turns[peak]} "
                         f"({bottom[peak]:.1f}% of the games still running)")
    axes[-1].set_xlabel("turn")
    fig.legend(fontsize=7, ncol=4, loc="outside lower center")
    return fig, "Loss hazard over turns", "; ".join(words)


DRAW = {"rates": rates, "curve": curve, "causes": causes, "hazard": hazard}


def figure_svg(name: str, a: dict) -> str:
    """Figure `name` (one of FIGURES) of answer `a` as SVG text."""
    with _LOCK:
        fig, title, description = DRAW[name](a)
        return _svg(fig, name, title, description)
