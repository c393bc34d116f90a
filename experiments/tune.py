"""Tune a policy's weights (its parameter array) on training seeds, judge them on held-out seeds.

    island-escape tune expert --game forbidden-island --trials 300 --save tuned
    island-escape tune expert --trials 40 --games 4000 --players 3 --cards-per-treasure 3

The game says which slots of a policy's parameter array may vary and over what range
(`Game.tune_space`; 0 in the array means "the default"), and refuses a game whose players have no
weights. The objective is the number of games won over a list of settings, `games` games each on
the training seed: the same islands and draws for every trial (common random numbers). Without a
setting named, the list is the game's `tune_settings()`, the cells the report judges with the
player, so that one player serves every cell (a player tuned to one setting is never saved as a
named player). The best weights and the defaults then play the same `holdout` games of another
seed in every setting; the report gives both rates with 95% Wilson intervals and their paired
difference, so it shows whether tuning generalizes or only fitted the training seeds.

Optuna's TPE sampler (multivariate, its first trial the defaults) searches the space, or a plain
random search where asked (`sampler="random"`) or where optuna is missing.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np

from experiments.runner import wilson_interval
from experiments.sweep import paired_difference
from policies.game import Game


def won(game: Game, rules, policy: str, pp: np.ndarray, games: int, seed: int) -> np.ndarray:
    """Each of `games` games of the seed: 1 won, 0 lost."""
    return game.seat_outcome(game.run_games(rules, policy, games, seed=seed, policy_params=pp), rules, 0)


def with_weights(game: Game, policy: str, values: dict[int, float]) -> np.ndarray:
    """The policy's own parameter array (its scratch space included) with `values` in their slots."""
    pp = game.registry.default_params(policy).copy()
    for k, v in values.items():
        pp[k] = v if v != 0 else 1e-12  # 0 means "default" in the array
    return pp


def tune(game: Game, policy: str, settings: list, trials: int = 30, games: int = 4000, holdout: int = 20000,
         seed: int = 1000, holdout_seed: int = 2000, sampler: str = "auto",
         echo: Callable[[str], None] = print) -> dict:
    """Search `policy`'s weights for the most games won over `settings` (a list of rules)."""
    space = game.tune_space(policy)
    use_optuna = sampler in ("auto", "optuna")
    if use_optuna:
        try:
            import optuna
        except ImportError:
            if sampler == "optuna":
                raise
            use_optuna = False

    def wins(values: dict[int, float]) -> int:
        pp = with_weights(game, policy, values)
        return int(sum(won(game, rules, policy, pp, games, seed).sum() for rules in settings))

    total = games * len(settings)
    base_wins = wins({})
    echo(f"defaults: {100 * base_wins / total:.2f}% of {total} training games ({len(settings)} settings, seed {seed})")
    best = ({}, base_wins)
    if use_optuna:
        optuna.logging.set_verbosity(optuna.logging.WARNING)
        study = optuna.create_study(direction="maximize",
                                    sampler=optuna.samplers.TPESampler(seed=seed, multivariate=True))
        defaults = getattr(game.registry.module(policy), "DEFAULTS", ())
        start = {f"w{k}": float(defaults[k]) for k, (lo, hi) in space.items()
                 if k < len(defaults) and lo <= defaults[k] <= hi}
        if len(start) == len(space):
            study.enqueue_trial(start)  # the defaults first: the search starts where the player stands

        def objective(trial):
            values = {k: trial.suggest_float(f"w{k}", lo, hi, log=lo > 0) for k, (lo, hi) in space.items()}
            score = wins(values)
            echo(f"trial {trial.number:3d}: {100 * score / total:.2f}%")
            return score

        study.optimize(objective, n_trials=trials)
        if study.best_value > best[1]:
            best = ({int(k[1:]): v for k, v in study.best_params.items()}, int(study.best_value))
    else:
        gen = random.Random(seed)
        for trial in range(trials):
            values = {k: gen.uniform(lo, hi) for k, (lo, hi) in space.items()}
            score = wins(values)
            echo(f"trial {trial:3d}: {100 * score / total:.2f}%")
            if score > best[1]:
                best = (values, score)
    values, train_wins = best
    out = {"policy": policy, "sampler": "optuna-tpe" if use_optuna else "random",
           "weights": {int(k): round(float(v), 4) for k, v in sorted(values.items())},
           "settings": [game.setting_line(rules) for rules in settings],
           "train": {"games": games, "seed": seed, "trials": trials, "default_win_rate": base_wins / total,
                     "tuned_win_rate": train_wins / total}}
    out.update(judge(game, policy, settings, out["weights"], holdout, holdout_seed))
    return out


def judge(game: Game, policy: str, settings: list, weights: dict[int, float], holdout: int, seed: int) -> dict:
    """The default and the tuned weights on the same held-out games of every setting: each
    setting's rates, the overall rates with their Wilson intervals and the paired difference."""
    tuned_pp = with_weights(game, policy, weights)
    default_pp = game.registry.default_params(policy)
    by_setting, everything = [], {"default": [], "tuned": []}
    for rules in settings:
        row = {"setting": game.setting_line(rules)}
        for label, pp in (("default", default_pp), ("tuned", tuned_pp)):
            w = won(game, rules, policy, pp, holdout, seed)
            everything[label].append(w)
            row[label] = float(w.mean())
        by_setting.append(row)
    out = {"by_setting": by_setting}
    for label, parts in everything.items():
        w = np.concatenate(parts)
        lo, hi = wilson_interval(int(w.sum()), len(w))
        out[f"holdout_{label}"] = {"games": len(w), "seed": seed, "win_rate": float(w.mean()), "ci95": [lo, hi]}
    d = paired_difference(np.concatenate(everything["tuned"]), np.concatenate(everything["default"]))
    low, high = d["ci95"]
    out["holdout_difference"] = {"points": 100 * d["difference"], "half_width": 100 * (high - low) / 2}
    return out
