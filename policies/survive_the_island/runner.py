"""Survive the Island's side of the runner: its rules into kernel parameters, its games into a
table, and one game's decisions, deal and rolls for a record. Seeds, threads and batches are
policies/batches.py's, shared with the other games.

A player string names one policy for every seat ("expert") or one per seat ("expert,random,
random,random", registry.seat_policies): a single policy plays through its own compiled entry
(entries.py), a mixed table through seats.py's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from policies.batches import play_batches, play_in_chunks
from sim.survive_the_island import layout as L
from sim.survive_the_island.rules import Rules

if TYPE_CHECKING:
    import pandas as pd

ENDINGS = L.ENDINGS
POLICY_PARAMS = 32  # length of a policy's parameter array (zeros: every weight at its default)


def default_params(policy: str) -> np.ndarray:
    """A player's parameter array when none is given: those of a spec `name@skill`, else its
    module's `default_params()`, else zeros."""
    from policies.survive_the_island.registry import module, player_params

    pp = player_params(policy)
    if pp is not None:
        return pp
    if "," in policy:
        return np.zeros(POLICY_PARAMS, dtype=np.float64)
    mod = module(policy)
    return mod.default_params() if hasattr(mod, "default_params") else np.zeros(POLICY_PARAMS, dtype=np.float64)


def seat_policies(rules: Rules, policy: str) -> list[str]:
    """Each seat's policy (UnknownPolicy, a ValueError, for a bad player string)."""
    from policies.survive_the_island.registry import seat_policies as parse

    return parse(policy, rules.players)


def _mixed(rules: Rules, policy: str) -> list[str] | None:
    """Each seat's policy when the player string names different ones, else None."""
    names = seat_policies(rules, policy)
    return names if len(set(names)) > 1 else None


def _entry(rules: Rules, policy: str, policy_params: np.ndarray | None = None, logged: bool = False):
    """What the kernel is called with for a player string: its compiled entry, the rule
    parameters and the policy parameters."""
    from sim.survive_the_island.convert import params_of

    names = _mixed(rules, policy)
    pp = default_params(policy) if policy_params is None else policy_params
    if names is not None:
        from policies.survive_the_island import seats

        return (seats.play_logged if logged else seats.play_chunk), params_of(rules), seats.seat_params(names, pp)
    from policies.survive_the_island.entries import PLAY_CHUNK, PLAY_LOGGED

    name = seat_policies(rules, policy)[0].partition("@")[0]
    return (PLAY_LOGGED if logged else PLAY_CHUNK)[name], params_of(rules), pp


def run_games(rules: Rules, policy: str, games: int, seed: int = 0, first_game: int = 0,
              threads: int | None = None, policy_params: np.ndarray | None = None, on_batch=None) -> np.ndarray:
    """Raw kernel results, int32 [games, NRESULT] (columns: layout.RESULT_FIELDS). Game g of a
    seed is dealt the same whatever plays it (the kernel's deal stream)."""
    return play_in_chunks(*_entry(rules, policy, policy_params), games, seed, first_game, threads, L.NRESULT,
                          on_batch)


def raw_batches(rules: Rules, policy: str, games: int, seed: int = 0, threads: int | None = None):
    """`run_games`' rows batch by batch, (first game, rows), in constant memory."""
    return play_batches(*_entry(rules, policy), games, seed, 0, threads, L.NRESULT)


def results_frame(raw: np.ndarray, rules: Rules, policy: str, seed: int, first_game: int = 0) -> pd.DataFrame:
    """Per-game results as a table: the setting, the ending, then the result fields (turns,
    volcanoes, tiles flooded, adventurers rescued and lost, the winners' seat mask, each seat's
    score and rescued adventurers)."""
    import pandas as pd

    n = len(raw)
    df = pd.DataFrame({
        "game_kind": pd.Categorical.from_codes(np.zeros(n, dtype=np.int8), categories=["survive-the-island"]),
        "seed": np.full(n, seed, dtype=np.int64),
        "game": np.arange(first_game, first_game + n, dtype=np.int64),
        "players": np.full(n, rules.players, dtype=np.int8),
        "policy": pd.Categorical.from_codes(np.zeros(n, dtype=np.int8), categories=[policy]),
        "ending": pd.Categorical.from_codes(raw[:, 0], categories=list(ENDINGS)),
    })
    for i, name in enumerate(L.RESULT_FIELDS[1:], 1):
        df[name] = raw[:, i].astype(np.int16 if name.startswith("score") or name == "turns" else np.int8)
    return df


def win_shares(raw: np.ndarray, players: int) -> np.ndarray:
    """Each game's win share of each seat, float [games, players] (S14: k tied winners share
    the win, 1/k each): the winners' mask read from the results rows."""
    mask = raw[:, L.RESULT_FIELDS.index("winners")]
    won = np.stack([(mask >> seat) & 1 for seat in range(players)], axis=1).astype(np.float64)
    return won / won.sum(axis=1, keepdims=True)


class ExportError(RuntimeError):
    pass


def logged_game(rules: Rules, policy: str, seed: int, game: int) -> dict:
    """One game as a record needs it: every decision's code in order (`codes`), the deal
    (`tiles`: rules.TILES index per island space in board.land order, `backs`, `values` per
    adventurer), every roll's creature kind (`rolls`), the results row (`result`, by
    layout.RESULT_FIELDS) and the final snapshot (`final`, the contract's)."""
    from policies.survive_the_island.play import LOG_SIZE
    from sim.survive_the_island import kernel as K
    from sim.survive_the_island.convert import deal_of, kernel_snapshot, rolls_of

    play_logged, p, pp = _entry(rules, policy, logged=True)
    log = np.zeros(LOG_SIZE, dtype=np.int32)
    res = np.zeros((1, L.NRESULT), dtype=np.int32)
    s = np.zeros(L.NSTATE, dtype=np.int32)
    n = play_logged(p, pp, seed, game, res, log, s)
    if n >= LOG_SIZE:
        raise ExportError(f"game {game} took more than {LOG_SIZE} decisions; its record would be cut short")
    start = np.zeros(L.NSTATE, dtype=np.int32)
    K.init_game(start, p, np.zeros(3, dtype=np.uint64), seed, game)
    return {"codes": [int(c) for c in log[:n]], **deal_of(start, p), "rolls": rolls_of(s),
            "result": dict(zip(L.RESULT_FIELDS, (int(x) for x in res[0]), strict=True)),
            "final": kernel_snapshot(s, p)}

