"""How often a table's 95% skill interval holds its true skill (`calibrate --table`).

    python -m tools.skill_coverage [LOGS] [GAMES]

Logs of the lab's own skilled players at a few true skills (LOGS logs each, GAMES games of each
of three Island Escape and four Forbidden Island settings, seeds apart from the lab curve's),
each placed on the skill axis as `calibrate --table` places a table; prints per true skill how
many intervals hold it, their mean width and the mean error of the estimate. About 20 s.
"""

from __future__ import annotations

import argparse

import numpy as np

from experiments.playtest import SKILL_GRID, LabWinRate, estimate_skill
from policies.game import game

TRUE_SKILLS = (0.55, 0.72, 0.87, 0.93, 0.97)
LOG_SEED = 20_000  # the logs' games: apart from the lab curve's seed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", nargs="?", type=int, default=30)
    parser.add_argument("games", nargs="?", type=int, default=300)
    args = parser.parse_args()
    ie, fi = game("island-escape"), game("forbidden-island")
    settings = (ie.rules(players=2), ie.rules(players=3, cards_per_treasure=1),
                ie.rules(players=2, cards_per_treasure=3),
                *(fi.rules(players=p, difficulty=d) for p in (2, 3) for d in ("novice", "normal")))
    lab = LabWinRate()
    print(f"lab curve: {lab.games:,} games at each of {len(SKILL_GRID)} skills, seed {lab.seed}")
    for true in TRUE_SKILLS:
        held, widths, errors = 0, [], []
        for k in range(args.logs):
            counts = []
            for j, rules in enumerate(settings):
                g = ie if ie.owns_rules(rules) else fi
                raw = g.run_games(rules, g.player(None, true), args.games, LOG_SEED + 100 * k + j)
                counts.append((rules, args.games, int((raw[:, 0] == 0).sum())))
            skill, (lo, hi), _ = estimate_skill(counts, lab, lab.floor)
            held += lo <= true <= hi
            widths.append(hi - lo)
            errors.append(skill - true)
        print(f"skill {true}: {held}/{args.logs} intervals hold it; mean width {np.mean(widths):.3f}; "
              f"mean error {np.mean(errors):+.4f}")


if __name__ == "__main__":
    main()
