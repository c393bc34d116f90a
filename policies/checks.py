"""What the conformance suite's checks of a game's players share (each game's `checks.py` gives
the rest): a policy's choice at a decision, made through the one policy signature."""

from __future__ import annotations

import numpy as np


def decide(folder: str, policy: str, pp: np.ndarray, decision: tuple) -> int:
    """The decision code `policy` of the game in sim/<folder>/ (its parameters `pp`) chooses at
    `decision` (s, p, rng), asked with the kernel's legal list; checks that the choice is on the
    list and that the policy drew from its own random stream only (the game's others untouched)."""
    from importlib import import_module

    kernel, layout = import_module(f"sim.{folder}.kernel"), import_module(f"sim.{folder}.layout")
    module = import_module(f"policies.{folder}.registry").REGISTRY.module(policy)
    s, p, rng = decision
    acts = np.zeros(layout.MAX_LEGAL, dtype=np.int64)
    n = kernel.legal_actions(s, p, acts)
    r = rng.copy()
    i = int(module.choose(s.copy(), p, pp, acts, n, r))
    assert 0 <= i < n, (policy, i, n)
    assert all(r[k] == rng[k] for k in range(len(rng)) if k != layout.STREAM_POLICY), policy
    return int(acts[i])


def random_walk_states(count: int, seed: int, settings, new_game, legal_actions, play, share: float,
                       max_legal: int) -> list[tuple]:
    """`count` kernel states (s, p, rng) at decisions with a choice, taken with probability `share`
    from games of uniform random play over `settings` in turn; `new_game(rules, seed, game)` deals
    a game and `play(s, p, code, rng)` plays a code, as the game's kernel does them."""
    import random

    out: list[tuple] = []
    acts = np.zeros(max_legal, dtype=np.int64)
    chooser = random.Random(seed)
    game = 0
    while len(out) < count:
        s, p, rng = new_game(settings[game % len(settings)], seed, game)
        while (n := legal_actions(s, p, acts)) > 0 and len(out) < count:
            if n > 1 and chooser.random() < share:
                out.append((s.copy(), p, rng.copy()))
            play(s, p, int(acts[chooser.randrange(n)]), rng)
        game += 1
    return out
