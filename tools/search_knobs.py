"""The shared search's knobs tried against their defaults: paired win rates and speed.

    python -m tools.search_knobs GAME GAMES NAME=KNOB:VALUE[,KNOB:VALUE...] ...

e.g. `python -m tools.search_knobs forbidden-island 2000 c8r2=K_CONFIRM:8,K_ROUNDS:2`. Each
variant is the game's `lookahead` at budget 1 with the named slots of its parameter array set
(policies/search.py names the slots: K_SCREEN, K_CONFIRM, K_HORIZON, K_CHORIZON, K_MARGIN, K_ROUNDS, ...).
Every variant plays the same games as the default on the game's two strength settings
(`Game.strength_settings`), so the difference of win rates is measured game by game (95% half
width), with the wall-clock games a second on this machine's threads. A knob that makes the
search faster keeps its strength only where the difference stays within noise on both settings.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from policies import search as S
from policies.game import game as game_named


def variant_params(base: np.ndarray, spec: str) -> np.ndarray:
    """`base` with the slots `K_NAME:value,...` set; ValueError naming a bad part."""
    pp = np.array(base, dtype=np.float64)
    for part in filter(None, spec.split(",")):
        name, _, value = part.partition(":")
        if not name.startswith("K_") or not hasattr(S, name):
            raise ValueError(f"{part!r}: not a knob of policies/search.py (K_SCREEN, K_CONFIRM, ...)")
        pp[getattr(S, name)] = float(value)
    return pp


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    game = game_named(argv[0])
    games = int(argv[1])
    if game.registry.seat_table:
        print(f"search_knobs: {game.title}'s seats play apart; its search is measured by `island-escape strength`",
              file=sys.stderr)
        return 2
    base = game.registry.default_params("lookahead@1")
    try:
        variants = [("default", base)] + [(name, variant_params(base, spec))
                                          for name, _, spec in (a.partition("=") for a in argv[2:])]
    except ValueError as exc:
        print(f"search_knobs: {exc}", file=sys.stderr)
        return 2
    settings = [game.rules_from_options(**kw) for kw in game.strength_settings]
    won: dict[tuple[str, int], np.ndarray] = {}
    for name, pp in variants:
        for k, rules in enumerate(settings):
            start = time.perf_counter()
            raw = game.run_games(rules, "lookahead", games, 4100, policy_params=pp)
            rate = games / (time.perf_counter() - start)
            won[(name, k)] = game.seat_outcome(raw, rules, 0)
            line = f"{name:<24} {game.setting_line(rules):<70} {100 * won[(name, k)].mean():5.1f}%  {rate:8.1f} games/s"
            if name != "default":
                d = won[(name, k)] - won[("default", k)]
                line += f"  {100 * d.mean():+5.2f} ± {196 * d.std(ddof=1) / np.sqrt(games):.2f}"
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
