"""Forbidden Island's side of the runner: its rules into kernel parameters, its games into a
table, and its games written out as records that `island-escape replay` (the reference engine)
plays back. Seeds, threads and batches are policies/batches.py's, shared with Island Escape.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from policies.batches import play_batches, play_in_chunks
from sim.forbidden_island import layout as L
from sim.forbidden_island.rules import Rules

if TYPE_CHECKING:
    import pandas as pd

CAUSES = L.CAUSES  # the win, then F14's losses in the order they are checked
POLICY_PARAMS = 32  # length of a policy's parameter array (zeros: every weight at its default)


def default_params(policy: str) -> np.ndarray:
    """A player's parameter array when none is given: those of a spec `name@skill`, else its
    module's `default_params()`, else zeros."""
    from policies.forbidden_island.registry import module, player_params

    pp = player_params(policy)
    if pp is not None:
        return pp
    mod = module(policy)
    return mod.default_params() if hasattr(mod, "default_params") else np.zeros(POLICY_PARAMS, dtype=np.float64)


def _entry(rules: Rules, policy: str, policy_params: np.ndarray | None = None):
    """What the kernel is called with for a policy: its compiled entry, the rule parameters and
    the policy's parameters."""
    from policies.forbidden_island.entries import PLAY_CHUNK
    from policies.forbidden_island.registry import policy_id
    from sim.forbidden_island.convert import params_of

    policy_id(policy)
    pp = default_params(policy) if policy_params is None else policy_params
    return PLAY_CHUNK[policy.partition("@")[0]], params_of(rules), pp


def run_games(rules: Rules, policy: str, games: int, seed: int = 0, first_game: int = 0,
              threads: int | None = None, policy_params: np.ndarray | None = None, on_batch=None) -> np.ndarray:
    """Raw kernel results, int32 [games, NRESULT] (columns: sim/forbidden_island/layout.py RESULT_FIELDS).
    Game g of a seed is dealt the same at every level and player count (the kernel's deal)."""
    return play_in_chunks(*_entry(rules, policy, policy_params), games, seed, first_game, threads, L.NRESULT,
                          on_batch)


def raw_batches(rules: Rules, policy: str, games: int, seed: int = 0, threads: int | None = None):
    """`run_games`' rows batch by batch, (first game, rows), in constant memory (runner.play_batches)."""
    return play_batches(*_entry(rules, policy), games, seed, 0, threads, L.NRESULT)


_SMALL = ("treasures", "mark", "tiles_sunk", "waters_rise", "capture_turn_earth", "capture_turn_fire",
          "capture_turn_chalice", "capture_turn_wind")


def results_frame(raw: np.ndarray, rules: Rules, policy: str, seed: int, first_game: int = 0) -> pd.DataFrame:
    """Per-game results as a table: the setting, then won and the cause, then the result fields
    (turns, treasures captured, final water mark, tiles sunk, cards drawn, actions by kind)."""
    import pandas as pd

    n = len(raw)
    df = pd.DataFrame({
        "game_kind": pd.Categorical.from_codes(np.zeros(n, dtype=np.int8), categories=["forbidden-island"]),
        "seed": np.full(n, seed, dtype=np.int64),
        "game": np.arange(first_game, first_game + n, dtype=np.int64),
        "players": np.full(n, rules.players, dtype=np.int8),
        "difficulty": pd.Categorical.from_codes(np.zeros(n, dtype=np.int8), categories=[rules.difficulty]),
        "policy": pd.Categorical.from_codes(np.zeros(n, dtype=np.int8), categories=[policy]),
        "won": raw[:, 0] == L.CAUSE_WIN,
        "cause": pd.Categorical.from_codes(raw[:, 0], categories=list(CAUSES)),
    })
    for i, name in enumerate(L.RESULT_FIELDS[1:], 1):
        df[name] = raw[:, i].astype(np.int8 if name in _SMALL else np.int16)
    return df


class ExportError(RuntimeError):
    pass


def export_records(rules: Rules, policy: str, seed: int, games: Iterable[int]):
    """Records of chosen games (docs/FI-RECORD-FORMAT.md), each naming its whole setup and every
    shuffle, so that the reference engine replays the kernel's game exactly; `result` is what the
    kernel reported (outcome, cause, turns, final state)."""
    from policies.forbidden_island.entries import PLAY_LOGGED
    from policies.forbidden_island.play import LOG_SIZE
    from sim.forbidden_island import kernel as K
    from sim.forbidden_island.convert import (
        decode,
        final_state_of,
        flood_top_layer_order,
        params_of,
        setup_of,
        treasure_pile_order,
    )
    from sim.forbidden_island.records import SETUP_KEYS, Record
    from sim.streams import seed_streams

    p = params_of(rules)
    pp = default_params(policy)
    log = np.zeros(LOG_SIZE, dtype=np.int32)
    res = np.zeros((1, L.NRESULT), dtype=np.int32)
    records = []
    for game in games:
        n = PLAY_LOGGED[policy.partition("@")[0]](p, pp, seed, game, res, log)
        if n >= LOG_SIZE:
            raise ExportError(f"game {game} took more than {LOG_SIZE} decisions; its record would be cut short")
        # The game once more, step by step from Python, reading what each shuffle gave.
        s = np.zeros(L.NSTATE, dtype=np.int32)
        rng = np.zeros(3, dtype=np.uint64)
        seed_streams(rng, seed, game)
        K.deal(s, p, rng)
        setup = setup_of(s, p)
        K.set_up(s, p, rng)
        shuffles = [("treasure", treasure_pile_order(s))] if s[L.N_TSHUFFLES] else []
        turns: list[list[str]] = []
        for code in log[:n]:
            turn = int(s[L.TURN])
            while len(turns) < turn:
                turns.append([])
            tshuffles, fshuffles = int(s[L.N_TSHUFFLES]), int(s[L.N_FSHUFFLES])
            K.play_action(s, p, int(code), rng)
            if s[L.N_FSHUFFLES] > fshuffles:  # a Waters Rise! shuffles the flood deck first
                shuffles.append(("flood", flood_top_layer_order(s)))
            if s[L.N_TSHUFFLES] > tshuffles:
                shuffles.append(("treasure", treasure_pile_order(s)))
            turns[turn - 1].append(str(decode(int(code))))
        if s[L.OUTCOME] != res[0, 0]:
            raise ExportError(f"game {game}: the logged decisions do not replay to the kernel's result")
        cause = CAUSES[int(res[0, 0])]
        result = {"outcome": "win" if cause == "win" else "loss", "cause": cause, "turns": int(res[0, 1]),
                  "final": final_state_of(s, p)}
        records.append(Record(rules, seed, {k: getattr(setup, k) for k in SETUP_KEYS}, shuffles, turns, result))
    return records

