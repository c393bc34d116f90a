"""Fit the weights of `lookahead`'s estimate of an unfinished game
(policies/forbidden_island/lookahead_value.py): play expert games at every level and player
count, take the state at the start of each turn, and fit a logistic regression of the game's
outcome (won or not) on the state's features.

    python -m policies.forbidden_island.value_fit [--games GAMES_PER_CELL] [--seed SEED]

prints the fit's quality on held-out games (log loss against the base rate's, and against the
weights the module holds now, so a refit shows what it gained) and the WEIGHTS line to paste
into the module. numpy only: Newton's method on the log likelihood with a small
ridge term, which converges in a few steps on this many rows.
"""

from __future__ import annotations

import argparse

import numpy as np

from policies.entries import PLAY_ON
from policies.forbidden_island import expert, lookahead_value
from sim.forbidden_island import kernel as K
from sim.forbidden_island import layout as L
from sim.forbidden_island.convert import params_of
from sim.forbidden_island.rules import Rules

LEVELS = ("novice", "normal", "elite", "legendary")


def turn_states(rules: Rules, games: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features at the start of every turn of `games` expert games, the game's outcome (1: won)
    for each row, and each row's game number (to hold whole games out)."""
    p = params_of(rules)
    pp = expert.default_params()
    acts = np.zeros(L.MAX_LEGAL, dtype=np.int64)
    log = np.zeros(1, dtype=np.int32)
    f = np.zeros(lookahead_value.NFEATURES)
    rows, games_of, won = [], [], []
    for game in range(games):
        s = np.zeros(L.NSTATE, dtype=np.int32)
        rng = np.zeros(3, dtype=np.uint64)
        K.init_game(s, p, rng, seed, game)
        first = len(rows)
        while s[L.OUTCOME] < 0:
            lookahead_value.features(s, p, f)
            rows.append(f.copy())
            games_of.append(game)
            PLAY_ON["forbidden_island", "expert"](s, p, pp, rng, acts, log, -1, 1)
        won.extend([float(s[L.OUTCOME] == L.CAUSE_WIN)] * (len(rows) - first))
    return np.array(rows), np.array(won), np.array(games_of)


def fit_logistic(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3, steps: int = 30) -> np.ndarray:
    """Maximum-likelihood weights of P(y=1) = 1 / (1 + exp(-x @ w)) (Newton's method)."""
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        q = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (y - q) - ridge * w
        hess = (x * (q * (1 - q))[:, None]).T @ x + ridge * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w += step
        if np.abs(step).max() < 1e-8:
            break
    return w


def log_loss(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    q = np.clip(1.0 / (1.0 + np.exp(-(x @ w))), 1e-12, 1 - 1e-12)
    return float(-np.mean(y * np.log(q) + (1 - y) * np.log(1 - q)))


def main(games: int = 6000, seed: int = 78) -> None:
    parts = [turn_states(Rules(players=n, difficulty=d), games, seed) for n in (2, 3, 4) for d in LEVELS]
    x = np.concatenate([a for a, _, _ in parts])
    y = np.concatenate([b for _, b, _ in parts])
    g = np.concatenate([c for _, _, c in parts])
    held_out = g % 5 == 0
    w = fit_logistic(x[~held_out], y[~held_out])
    base = np.zeros(len(w))
    base[0] = np.log(y[~held_out].mean() / (1 - y[~held_out].mean()))
    print(f"{len(y)} turn states; held-out log loss {log_loss(x[held_out], y[held_out], w):.4f} "
          f"(the module's current WEIGHTS {log_loss(x[held_out], y[held_out], lookahead_value.WEIGHTS):.4f}, "
          f"base rate alone {log_loss(x[held_out], y[held_out], base):.4f})")
    w = fit_logistic(x, y)
    for name, v in zip(lookahead_value.FEATURES, w, strict=True):
        print(f"  {v:+.4f}  {name}")
    print("WEIGHTS = np.array([" + ", ".join(f"{v:.4f}" for v in w) + "])")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        prog="python -m policies.forbidden_island.value_fit",
        description="Fit lookahead's estimate of an unfinished Forbidden Island game on expert games.")
    parser.add_argument("--games", type=int, default=6000, help="expert games per level and player count (6000)")
    parser.add_argument("--seed", type=int, default=78, help="seed of the games (78)")
    args = parser.parse_args()
    if args.games < 5:
        parser.error(f"--games must be at least 5 (one game in five is held out), not {args.games}")
    if args.seed < 0:
        parser.error(f"--seed must be 0 or more, not {args.seed}")
    main(args.games, args.seed)
