"""Prototype a policy in plain Python against the reference engine (slow, but easy to change).

A Python policy is a function `policy(view, legal, rng) -> Action | None`:

- `view` is `IslandEscapeEngine.public_view()` (R19: only what the table can see),
- `legal` is `IslandEscapeEngine.legal_actions()` for the current pawn (never empty choices: None ends the turn),
- `rng` is a `random.Random` of its own (the deal and the floods have their own streams).

An optional `escape(view, pawn, options, rng) -> place` picks where a pawn swims when its place
sinks (R15); the default takes the first option in the RECORD-FORMAT order.

    from policies.island_escape.python import play_python, raise_or_wander
    game = play_python(raise_or_wander, Rules(), seed=3)
    print(game.outcome, game.turn)

Once a prototype plays well, port it to a numba module (README, "Extending the lab").
"""

from __future__ import annotations

import random
from collections.abc import Callable

from sim.island_escape.engine import Action, IslandEscapeEngine, PublicView, new_game
from sim.island_escape.rules import Rules

PythonPolicy = Callable[[PublicView, list[Action], random.Random], "Action | None"]


def play_python(policy: PythonPolicy, rules: Rules, seed: int, escape=None, max_turns: int = 200) -> IslandEscapeEngine:
    """Play one game of `rules` dealt from `seed` with a Python policy; returns the finished IslandEscapeEngine.

    An action the engine refuses raises `IllegalAction`: the engine is the referee.
    """
    game = new_game(rules, seed)
    rng = random.Random(f"policy/{seed}")

    def choose_escape(g: IslandEscapeEngine, pawn: int, options):
        if escape is None:
            return options[0]
        return escape(g.public_view(), pawn, list(options), rng)

    while not game.over and game.turn < max_turns:
        game.begin_turn()
        while game.actions_left > 0 and not game.over:
            legal = game.legal_actions()
            action = policy(game.public_view(), legal, rng)
            if action is None:
                break
            game.apply(action)
        if game.over:
            break
        game.run_flood_phase(choose_escape)
    return game


def raise_or_wander(view: PublicView, legal: list[Action], rng: random.Random) -> Action | None:
    """A tiny example: take off, raise, shore up, salvage, else a random move."""
    by_kind: dict[str, list[Action]] = {}
    for action in legal:
        by_kind.setdefault(action.kind, []).append(action)
    for kind in ("takeoff", "raise", "shore", "salvage"):
        if by_kind.get(kind):
            return by_kind[kind][0]
    moves = by_kind.get("move", [])
    return rng.choice(moves) if moves else None
