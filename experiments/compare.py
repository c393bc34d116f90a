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


def _side(game, rules, policy: str, raw: np.ndarray) -> tuple[dict, np.ndarray]:
    """One setting's summary (its game's tally: a team's win rate and losses, or each seat's win
    share and the endings) and what each side got a game."""
    tally = game.tally(rules, policy)
    tally.add(raw)
    summary = tally.result()
    del summary["games_per_second"]
    names, outcomes = tally.sides(raw)
    return {"rules": rules.as_record(), **summary, "sides": names}, outcomes


def _difference(a: np.ndarray, b: np.ndarray) -> dict:
    d = paired_difference(a, b)
    return {"a_minus_b": d["difference"], "ci95": list(d["ci95"]), "unpaired_ci95": list(d["unpaired_ci95"]),
            "games_ratio": d["games_ratio"]}


def compare(rules_a, rules_b, policy: str, games: int, seed: int = 0, threads: int | None = None) -> dict:
    """Both settings (of one game) on games 0 … games-1 of `seed`: each setting's summary and,
    side by side (a cooperative game's team, a competitive game's seats where both settings have
    the same), the difference a - b with its paired 95% interval. Rates are fractions of the
    games played (`rate_unit`); `difference` is the team's where the game has one side."""
    game = game_of_rules(rules_a)
    a, out_a = _side(game, rules_a, policy, game.run_games(rules_a, policy, games, seed, threads=threads))
    b, out_b = _side(game, rules_b, policy, game.run_games(rules_b, policy, games, seed, threads=threads))
    result = {"game": game.name, "policy": policy, "seed": seed, "games": games, "rate_unit": "fraction of games",
              "a": a, "b": b, "differences": []}
    if a["sides"] == b["sides"]:  # a seat is compared with the same seat only
        result["differences"] = [{"side": name, **_difference(out_a[:, k], out_b[:, k])}
                                 for k, name in enumerate(a["sides"])]
    if len(result["differences"]) == 1:
        result["difference"] = {k: v for k, v in result["differences"][0].items() if k != "side"}
    return result


def compare_text(result: dict, game) -> str:
    """The comparison of two settings of `game` as the terminal shows it."""
    a, b = result["a"], result["b"]
    lines = [f"policy      {result['policy']}, seed {result['seed']}, {result['games']:,} games each: "
             "A and B are dealt the same games (common random numbers)",
             f"A           {game.setting_line(game.rules(**a['rules']))}",
             f"B           {game.setting_line(game.rules(**b['rules']))}",
             "",
             f"{'':<20}{'A':>20}{'B':>20}"]
    rows = game.tally(game.rules(**a["rules"]), result["policy"]).rows(a, b)
    lines += [f"{label:<20}{x:>20}{y:>20}" for label, x, y in rows]
    lines.append("")
    differences = result["differences"]
    if not differences:
        lines.append("A - B       the two settings have different seats: no seat is compared game by game")
        return "\n".join(lines)
    one = len(differences) == 1
    verdicts = []
    for d in differences:
        lo, hi = d["ci95"]
        who = "" if one else f"{d['side']} "
        lines.append(f"{'A - B' if d is differences[0] else '':<12}{who}{100 * d['a_minus_b']:+.2f} points, paired 95% "
                     f"interval {100 * lo:+.2f} to {100 * hi:+.2f}")
        if one:
            ulo, uhi = d["unpaired_ci95"]
            ratio = d["games_ratio"]
            saved = f"{ratio:.1f}x" if np.isfinite(ratio) else "many times"
            lines.append(f"            (unpaired runs would give {100 * ulo:+.2f} to {100 * uhi:+.2f}; pairing the "
                         f"games is worth {saved} the games)")
        if lo > 0 or hi < 0:
            verdicts.append(f"{'A' if lo > 0 else 'B'} wins more often" if one else
                            f"{d['side']} wins more under {'A' if lo > 0 else 'B'}")
    lines.append("verdict     " + ("; ".join(verdicts) if verdicts else
                                   "no difference shown at this number of games"))
    return "\n".join(lines)
