"""Tune a policy's weights (its `pp` array) on one set of seeds, report on held-out seeds.

    island-escape tune expert --trials 40 --games 4000 --players 3 --cards-per-treasure 3

The game says which slots of a policy's parameter array may vary and over what range
(`Game.tune_space`; 0 in pp means "default"), and refuses a game whose players have no tunable
weights. The objective is the win rate on `games` games of the training seed
(the same islands and flood orders for every trial: common random numbers). The best weights
and the defaults are then both measured on `holdout` games of another seed, with 95% Wilson
intervals, so the report shows whether tuning generalizes or only fitted the training seeds.

Optuna's TPE sampler is used if it is installed (`pip install -e '.[tune]'`); otherwise a
plain random search over the same space.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np

from experiments.runner import wilson_interval
from policies.game import Game
from policies.registry import PARAMS_LENGTH


def win_rate(game: Game, rules, policy: str, pp: np.ndarray, games: int, seed: int) -> tuple[int, int]:
    raw = game.run_games(rules, policy, games, seed=seed, policy_params=pp)
    return int((raw[:, 0] == 0).sum()), games  # cause 0 is the win (Game.causes)


def _pp(game: Game, values: dict[int, float]) -> np.ndarray:
    pp = np.zeros(PARAMS_LENGTH)
    for k, v in values.items():
        pp[k] = v if v != 0 else 1e-12  # 0 means "default" in pp
    return pp


def tune(game: Game, policy: str, rules, trials: int = 30, games: int = 4000, holdout: int = 20000,
         seed: int = 1000, holdout_seed: int = 2000, sampler: str = "auto",
         echo: Callable[[str], None] = print) -> dict:
    space = game.tune_space(policy)
    zeros = np.zeros(PARAMS_LENGTH)
    use_optuna = sampler in ("auto", "optuna")
    if use_optuna:
        try:
            import optuna
        except ImportError:
            if sampler == "optuna":
                raise
            use_optuna = False
    base_wins, _ = win_rate(game, rules, policy, zeros, games, seed)
    echo(f"defaults: {100 * base_wins / games:.2f}% on {games} training games (seed {seed})")
    best = ({}, base_wins)
    if use_optuna:
        optuna.logging.set_verbosity(optuna.logging.WARNING)
        study = optuna.create_study(direction="maximize", sampler=optuna.samplers.TPESampler(seed=seed))

        def objective(trial):
            values = {k: trial.suggest_float(f"w{k}", lo, hi) for k, (lo, hi) in space.items()}
            wins, _ = win_rate(game, rules, policy, _pp(game, values), games, seed)
            echo(f"trial {trial.number:3d}: {100 * wins / games:.2f}%")
            return wins

        study.optimize(objective, n_trials=trials)
        if study.best_value > best[1]:
            best = ({int(k[1:]): v for k, v in study.best_params.items()}, int(study.best_value))
    else:
        gen = random.Random(seed)
        for trial in range(trials):
            values = {k: gen.uniform(lo, hi) for k, (lo, hi) in space.items()}
            wins, _ = win_rate(game, rules, policy, _pp(game, values), games, seed)
            echo(f"trial {trial:3d}: {100 * wins / games:.2f}%")
            if wins > best[1]:
                best = (values, wins)
    values, train_wins = best
    pp = _pp(game, values)
    out = {"policy": policy, "sampler": "optuna-tpe" if use_optuna else "random",
           "weights": {int(k): round(float(v), 4) for k, v in sorted(values.items())},
           "pp": [round(float(x), 4) for x in pp], "train": {"games": games, "seed": seed,
           "default_win_rate": base_wins / games, "tuned_win_rate": train_wins / games}}
    for label, params in (("default", zeros), ("tuned", pp)):
        wins, n = win_rate(game, rules, policy, params, holdout, holdout_seed)
        lo, hi = wilson_interval(wins, n)
        out[f"holdout_{label}"] = {"games": n, "seed": holdout_seed, "win_rate": wins / n, "ci95": [lo, hi]}
    return out
