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
from policies.game import game as game_named
from policies.game import game_of_rules


def rule_words(game) -> dict[str, object]:
    """The words a rules text of `game` understands: each option's name, its flag without the
    dashes, its other words, with - or _ alike; each names the option (a RuleOption)."""
    words = {}
    for option in game.options:
        for word in (option.name, option.flag.lstrip("-"), *option.words):
            words[word.lower()] = option
            words[word.lower().replace("_", "-")] = option
            words[word.lower().replace("-", "_")] = option
    return words


def parse_rules_text(text: str, game=None):
    """`game`'s rules from a text such as "players=3 cards=3 divers" or "--players 3 --gauge AD 2C
    2D": the words of the game's options (`Game.options`) with their values, and its variants.

    Variants come first and explicit words override them, as in `simulate`. The cards of a
    "cards" option (a gauge) may be separated by spaces or commas. Raises the game's RuleError
    naming the word that cannot be read.
    """
    game = game or game_named()
    RuleError = game.rule_error
    words = rule_words(game)
    example = game.rule_words_example or game.setting_help
    values: dict[str, list[str]] = {}
    variants: list[str] = []
    kinds = {o.name: o for o in game.options}
    current: str | None = None
    for word in re.split(r"[\s,;]+", text.strip()):
        if not word:
            continue
        if word.startswith("--") or "=" in word:
            name, _, value = word.lstrip("-").partition("=")
            option = words.get(name.lower())
            if option is None:
                raise RuleError(f"{name!r} is not a rule of {game.title}; write e.g. {example}")
            key = option.name
            if key in values and option.kind != "variants":
                raise RuleError(f"{name} is given twice")
            values.setdefault(key, [])
            if value:
                values[key].append(value)
            current = key
        elif word.lower() in game.variants:
            variants.append(word.lower())
        elif current is not None and (kinds[current].kind == "cards" or not values[current]):
            values[current].append(word)
        else:
            raise RuleError(f"{word!r}: expected key=value or a variant; write e.g. {example}")
    options: dict[str, object] = {}
    for key, given in values.items():
        option = kinds[key]
        if option.kind == "variants":  # `--variant divers`: its word was read as a variant already
            variants += [v.lower() for v in given]
            continue
        if not given:
            raise RuleError(f"{key} has no value")
        if option.kind != "cards" and len(given) > 1:
            raise RuleError(f"{key}: one value, not {' '.join(given)!r}")
        if option.kind == "cards":
            options[key] = " ".join(given)
        elif option.kind == "number":
            try:
                options[key] = int(given[0])
            except ValueError:
                raise RuleError(f"{key} must be a whole number, not {given[0]!r}") from None
        else:
            options[key] = given[0].lower() if option.kind == "level" else given[0]
    for variant in variants:
        if variant not in game.variants:
            raise RuleError(f"unknown variant {variant!r} (choose from {', '.join(game.variants)})")
    if variants:
        options["variants"] = variants
    return game.rules_from_options(**options)


def _side(rules, raw: np.ndarray) -> dict:
    causes = game_of_rules(rules).causes
    n = len(raw)
    won = raw[:, 0] == 0
    wins = int(won.sum())
    counts = np.bincount(raw[:, 0], minlength=len(causes))
    return {"rules": rules.as_record(), "games": n, "wins": wins, "win_rate": wins / n,
            "ci95": list(wilson_interval(wins, n)),
            "loss_rates": {c: int(counts[causes.index(c)]) / n for c in causes[1:]}}


def compare(rules_a, rules_b, policy: str, games: int, seed: int = 0, threads: int | None = None) -> dict:
    """Both settings (of one game) on games 0 … games-1 of `seed`; the difference a - b with its
    paired 95% CI. Rates are fractions of the games played (`rate_unit`).
    """
    game = game_of_rules(rules_a)
    raw_a = game.run_games(rules_a, policy, games, seed, threads=threads)
    raw_b = game.run_games(rules_b, policy, games, seed, threads=threads)
    d = paired_difference(raw_a[:, 0] == 0, raw_b[:, 0] == 0)
    return {"game": game.name, "policy": policy, "seed": seed, "games": games, "rate_unit": "fraction of games",
            "a": _side(rules_a, raw_a), "b": _side(rules_b, raw_b),
            "difference": {"a_minus_b": d["difference"], "ci95": list(d["ci95"]),
                           "unpaired_ci95": list(d["unpaired_ci95"]), "games_ratio": d["games_ratio"]}}


def compare_text(result: dict, game) -> str:
    """The comparison of two settings of `game` as the terminal shows it."""
    a, b, d = result["a"], result["b"], result["difference"]
    rules_line = game.setting_line
    lines = [f"policy      {result['policy']}, seed {result['seed']}, {result['games']:,} games each: "
             "A and B play the same islands and flood orders",
             f"A           {rules_line(game.rules(**a['rules']))}",
             f"B           {rules_line(game.rules(**b['rules']))}",
             "",
             f"{'':<18}{'A':>20}{'B':>20}"]

    def rate(side: dict) -> str:
        lo, hi = side["ci95"]
        return f"{100 * side['win_rate']:.1f}% ({100 * lo:.1f}-{100 * hi:.1f})"

    lines.append(f"{'win rate (95% CI)':<18}{rate(a):>20}{rate(b):>20}")
    for cause in a["loss_rates"]:
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
