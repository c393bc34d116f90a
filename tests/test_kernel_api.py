"""The entry points every game's kernel shares (sim/kernel_api.py): the same names and
parameters in both games, and through them the same games as each game's own play loop."""

import inspect
from importlib import import_module

import numpy as np
import pytest

from policies.game import GAMES
from sim.forbidden_island import layout as fi_layout
from sim.island_escape import layout as ie_layout
from sim.kernel_api import ENTRY_POINTS
from sim.streams import rand_below

# every registered game's kernel, by its package's folder (sim/<folder>/kernel.py)
KERNELS = {folder: import_module(f"sim.{folder}.kernel")
           for folder in (package.rpartition(".")[2] for package in GAMES.values())}
ie_kernel, fi_kernel = KERNELS["island_escape"], KERNELS["forbidden_island"]


@pytest.mark.parametrize("game", sorted(KERNELS))
def test_every_kernel_exports_the_shared_entry_points_with_the_same_parameters(game):
    for name, params in ENTRY_POINTS.items():
        function = getattr(KERNELS[game], name)
        assert tuple(inspect.signature(function.py_func).parameters) == params, (game, name)


def _play_shared(kernel, layout, p, seed, game, log, out_size):
    """A random player through the shared entry points alone: the k-th legal decision, k drawn
    from the policy stream as each game's `random` policy draws it."""
    s = np.zeros(layout.NSTATE, dtype=np.int32)
    rng = np.zeros(3, dtype=np.uint64)
    out = np.zeros(out_size, dtype=np.int64)
    seats = np.zeros(4, dtype=np.int64)
    kernel.init_game(s, p, rng, seed, game)
    nlog = 0
    while (n := kernel.legal_actions(s, p, out)) > 0:
        assert kernel.seat_outcomes(s, p, seats) == p[layout.P_PLAYERS]
        assert set(seats[:p[layout.P_PLAYERS]]) == {-1}  # running
        nlog = kernel.apply_action(s, p, out[rand_below(rng, layout.STREAM_POLICY, n)], rng, log, nlog)
    assert s[layout.OUTCOME] >= 0
    n = kernel.seat_outcomes(s, p, seats)
    assert n == p[layout.P_PLAYERS] and set(seats[:n]) == {int(s[layout.OUTCOME] == layout.CAUSE_WIN)}  # one team
    return s, nlog


@pytest.mark.parametrize("players", [1, 2, 4])
def test_island_escape_through_the_shared_entry_points_plays_the_play_loops_games(players):
    from policies.entries import PLAY_LOGGED
    from sim.island_escape.convert import params_of
    from sim.island_escape.rules import Rules

    p = params_of(Rules(players=players))
    pp = np.zeros(32)
    for game in range(40):
        log = np.zeros((ie_layout.LOG_ROWS, 4), dtype=np.int32)
        s, nlog = _play_shared(ie_kernel, ie_layout, p, 7, game, log, ie_layout.N_DECISIONS)
        row, got = np.zeros((1, ie_layout.NRESULT), dtype=np.int32), np.zeros((1, ie_layout.NRESULT), dtype=np.int32)
        ie_kernel.write_result(s, p, got, 0)
        want_log = np.zeros_like(log)
        want_s = np.zeros(ie_layout.NSTATE, dtype=np.int32)
        n = PLAY_LOGGED["island_escape", "random"](p, pp, 7, game, row, want_log, want_s)
        assert got.tolist() == row.tolist(), game
        assert nlog == n and np.array_equal(log[:n], want_log[:n]), game  # every action, flood and escape


@pytest.mark.parametrize("players", [2, 4])
def test_forbidden_island_through_the_shared_entry_points_plays_the_play_loops_games(players):
    from policies.entries import PLAY_LOGGED
    from sim.forbidden_island.convert import params_of
    from sim.forbidden_island.rules import Rules

    p = params_of(Rules(players=players))
    pp = np.zeros(32)
    for game in range(20):
        log = np.zeros(fi_layout.LOG_SHAPE, dtype=np.int32)
        s, nlog = _play_shared(fi_kernel, fi_layout, p, 3, game, log, fi_layout.MAX_LEGAL)
        got, row = np.zeros((1, fi_layout.NRESULT), dtype=np.int32), np.zeros((1, fi_layout.NRESULT), dtype=np.int32)
        fi_kernel.write_result(s, p, got, 0)
        want_log = np.zeros_like(log)
        end = np.zeros(fi_layout.NSTATE, np.int32)
        n = PLAY_LOGGED["forbidden_island", "random"](p, pp, 3, game, row, want_log, end)
        assert got.tolist() == row.tolist(), game
        assert nlog == n and np.array_equal(log[:n], want_log[:n]), game
