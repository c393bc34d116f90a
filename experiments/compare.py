"""Two rule settings played on the same games: both win rates, the paired difference, the causes.

`island-escape compare --a "players=3 cards=3" --b "players=3 cards=3 divers"` writes each
setting as a short text of `key=value` words (or the `--key value` options of `simulate`) and
named variants. Both settings play games 0 … N-1 of one seed, so they meet the same islands and
flood orders (common random numbers) and the difference is measured game by game
(`experiments.sweep.paired_difference`).
"""

from __future__ import annotations

import re

import numpy as np

from experiments.runner import wilson_interval
from experiments.sweep import paired_difference
from policies.island_escape.game import gauge_order_problem
from policies.island_escape.runner import run_games
from sim.island_escape.layout import CAUSES
from sim.island_escape.rules import VARIANTS, RuleError, Rules, gauge_of_length

LOSS_CAUSES = CAUSES[1:]

# The words a rules text understands, and the Rules field each one sets.
RULE_WORDS = {
    "players": "players",
    "cards": "cards_per_treasure", "cards_per_treasure": "cards_per_treasure",
    "cards-per-treasure": "cards_per_treasure",
    "gauge": "gauge",
    "gauge_length": "gauge_length", "gauge-length": "gauge_length",
    "swim": "swim_cost", "swim_cost": "swim_cost", "swim-cost": "swim_cost",
    "actions": "actions_per_turn", "actions_per_turn": "actions_per_turn",
    "variant": "variant",
}
EXAMPLE = "players=3 cards=3 gauge=AD 2C 2D 3C 3D 4C 4D 5C swim=1 (or gauge_length=8, actions=4, divers, short)"


def parse_rules_text(text: str) -> Rules:
    """Rules from a text such as "players=3 cards=3 divers" or "--players 3 --gauge AD 2C 2D".

    Variants come first and explicit words override them, as in `simulate`. Gauge cards may be
    separated by spaces or commas. Raises RuleError naming the word that cannot be read.
    """
    values: dict[str, list[str]] = {}
    variants: list[str] = []
    current: str | None = None
    for word in re.split(r"[\s,;]+", text.strip()):
        if not word:
            continue
        if word.startswith("--") or "=" in word:
            name, _, value = word.lstrip("-").partition("=")
            key = RULE_WORDS.get(name.lower())
            if key is None:
                raise RuleError(f"{name!r} is not a rule; write e.g. {EXAMPLE}")
            if key in values and key != "variant":
                raise RuleError(f"{name} is given twice")
            values.setdefault(key, [])
            if value:
                values[key].append(value)
            current = key
        elif word.lower() in VARIANTS:
            variants.append(word.lower())
        elif current is not None and (current == "gauge" or not values[current]):
            values[current].append(word)
        else:
            raise RuleError(f"{word!r}: expected key=value or a variant; write e.g. {EXAMPLE}")
    variants += [v.lower() for v in values.pop("variant", [])]
    for key, words in values.items():
        if not words:
            raise RuleError(f"{key} has no value")
        if key != "gauge" and len(words) > 1:
            raise RuleError(f"{key}: one value, not {' '.join(words)!r}")
    rules = Rules().with_variant(*variants)
    changes: dict = {}
    if "gauge" in values and "gauge_length" in values:
        raise RuleError("give gauge or gauge_length, not both")
    for key, words in values.items():
        if key == "gauge":
            changes["gauge"] = [w.upper() for w in words]
            problem = gauge_order_problem(changes["gauge"])
            if problem:
                raise RuleError(f"gauge: {problem}")
            continue
        try:
            number = int(words[0])
        except ValueError:
            raise RuleError(f"{key} must be a whole number, not {words[0]!r}") from None
        if key == "gauge_length":
            changes["gauge"] = list(gauge_of_length(number))
        else:
            changes[key] = number
    return Rules(**{**rules.as_record(), **changes})


def _side(rules: Rules, raw: np.ndarray) -> dict:
    n = len(raw)
    won = raw[:, 0] == 0
    wins = int(won.sum())
    counts = np.bincount(raw[:, 0], minlength=len(CAUSES))
    return {"rules": rules.as_record(), "games": n, "wins": wins, "win_rate": wins / n,
            "ci95": list(wilson_interval(wins, n)),
            "loss_rates": {c: int(counts[CAUSES.index(c)]) / n for c in LOSS_CAUSES}}


def compare(rules_a: Rules, rules_b: Rules, policy: str, games: int, seed: int = 0,
            threads: int | None = None) -> dict:
    """Both settings on games 0 … games-1 of `seed`; the difference a - b with its paired 95% CI.

    Rates are fractions of the games played (`rate_unit`).
    """
    raw_a = run_games(rules_a, policy, games, seed, threads=threads)
    raw_b = run_games(rules_b, policy, games, seed, threads=threads)
    d = paired_difference(raw_a[:, 0] == 0, raw_b[:, 0] == 0)
    return {"policy": policy, "seed": seed, "games": games, "rate_unit": "fraction of games",
            "a": _side(rules_a, raw_a), "b": _side(rules_b, raw_b),
            "difference": {"a_minus_b": d["difference"], "ci95": list(d["ci95"]),
                           "unpaired_ci95": list(d["unpaired_ci95"]), "games_ratio": d["games_ratio"]}}


def compare_text(result: dict, rules_line) -> str:
    """The comparison as the terminal shows it; `rules_line(Rules) -> str` names a setting."""
    a, b, d = result["a"], result["b"], result["difference"]
    lines = [f"policy      {result['policy']}, seed {result['seed']}, {result['games']:,} games each: "
             "A and B play the same islands and flood orders",
             f"A           {rules_line(Rules(**a['rules']))}",
             f"B           {rules_line(Rules(**b['rules']))}",
             "",
             f"{'':<18}{'A':>20}{'B':>20}"]

    def rate(side: dict) -> str:
        lo, hi = side["ci95"]
        return f"{100 * side['win_rate']:.1f}% ({100 * lo:.1f}-{100 * hi:.1f})"

    lines.append(f"{'win rate (95% CI)':<18}{rate(a):>20}{rate(b):>20}")
    for cause in LOSS_CAUSES:
        lines.append(f"{'lost: ' + cause:<18}{100 * a['loss_rates'][cause]:>19.1f}%"
                     f"{100 * b['loss_rates'][cause]:>19.1f}%")
    lo, hi = d["ci95"]
    ulo, uhi = d["unpaired_ci95"]
    ratio = d["games_ratio"]
    saved = f"{ratio:.1f}x" if np.isfinite(ratio) else "many times"
    lines += ["", f"A - B       {100 * d['a_minus_b']:+.2f} points, paired 95% interval {100 * lo:+.2f} to "
                  f"{100 * hi:+.2f}",
              f"            (unpaired runs would give {100 * ulo:+.2f} to {100 * uhi:+.2f}; pairing the games "
              f"is worth {saved} the games)"]
    verdict = ("A wins more often" if lo > 0 else "B wins more often" if hi < 0
               else "no difference shown at this number of games")
    lines.append(f"verdict     {verdict}")
    return "\n".join(lines)
