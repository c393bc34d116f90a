"""Whole games of Forbidden Island on the readable engine, with a chooser of the public view.

A chooser is a function `(view, legal) -> Action`: `view` is `ForbiddenIslandEngine.public_view()` (everything
but the order of the two draw piles) and `legal` is `ForbiddenIslandEngine.legal_actions()`. Because the chooser
never sees the `ForbiddenIslandEngine`, it cannot read the hidden piles (the twin of R19 for Forbidden Island).
Slow on purpose: this is where players are written and checked before they are ported.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from sim.forbidden_island.engine import Action, ForbiddenIslandEngine, PublicView, new_game
from sim.forbidden_island.rules import Rules

Chooser = Callable[[PublicView, list[Action]], Action]


def play_game(rules: Rules, seed: int, choose: Chooser, limit: int = 50_000) -> ForbiddenIslandEngine:
    """Play one seeded game to its end; the finished ForbiddenIslandEngine (outcome, events, history)."""
    game = new_game(rules, seed)
    for _ in range(limit):
        if game.over:
            return game
        game.apply(choose(game.public_view(), game.legal_actions()))
    raise RuntimeError(f"game {seed} did not end within {limit} decisions")


def random_chooser(seed: int) -> Chooser:
    """Uniform over the legal actions (the published random player's way of playing)."""
    rng = random.Random(f"fi/random-player/{seed}")
    return lambda view, legal: rng.choice(legal)
