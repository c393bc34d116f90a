"""The worlds a search plays its candidates on (each kernel's `sample_world`, sim/kernel_api.py):
drawn from what the deciding seat sees and the policy stream alone, and one of the states it
cannot tell from the true one."""

from __future__ import annotations

from importlib import import_module

import numpy as np
import pytest

from policies.game import GAMES
from policies.game import game as game_named

STATES = 160  # decisions a game, across its honesty settings


@pytest.fixture(scope="module", params=list(GAMES))
def decisions(request):
    game = game_named(request.param)
    return game, import_module(f"sim.{game.folder}.kernel"), game.checks.decision_states(STATES, seed=31)


def _world(kernel, s, p, rng) -> np.ndarray:
    out = np.zeros_like(s)
    kernel.sample_world(s, p, rng.copy(), out)
    return out


def test_a_world_depends_on_nothing_hidden(decisions):
    """The same public state with its hidden part drawn otherwise gives the very same world."""
    game, kernel, states = decisions
    gen = np.random.default_rng(7)
    redrawn = 0
    for d in states:
        s, p, rng = d[0], d[1], d[-1]
        other = game.checks.rehide(d, gen)
        redrawn += game.checks.hidden_redrawn(d, other)
        assert np.array_equal(_world(kernel, s, p, rng), _world(kernel, other[0], p, rng))
    assert redrawn > len(states) // 2  # the check really did hide things otherwise


def test_a_world_is_one_the_seat_cannot_tell_from_the_truth(decisions):
    """A world redraws what is hidden from the policy stream only (the game's other streams
    untouched) and keeps everything public: drawn again from the world, a world is the one drawn
    from the true state."""
    game, kernel, states = decisions
    changed = 0
    for d in states:
        s, p, rng = d[0], d[1], d[-1]
        r = rng.copy()
        out = np.zeros_like(s)
        kernel.sample_world(s, p, r, out)
        others = [k for k in range(len(rng)) if k != import_module(f"sim.{game.folder}.layout").STREAM_POLICY]
        assert all(r[k] == rng[k] for k in others)
        changed += not np.array_equal(out, s)
        assert np.array_equal(_world(kernel, out, p, rng), _world(kernel, s, p, rng))  # the same public state
    assert changed > len(states) // 4
