"""Island Escape's side of the runner: its rules into kernel parameters, its games into a table,
and its games written out as records that the reference engine (`island-escape replay`) plays
back. Seeds, threads and batches are policies/batches.py's, shared with Forbidden Island.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

import numpy as np

from policies.batches import BATCH, play_batches, play_in_chunks
from policies.island_escape.entries import PLAY_CHUNK, PLAY_LOGGED
from policies.island_escape.registry import POLICIES, player_params, policy_id
from sim.island_escape import layout as L
from sim.island_escape.rules import SUITS, Rules, rank_of

if TYPE_CHECKING:
    import pandas as pd

    from sim.island_escape.records import Record  # records (and the engine behind them) load only when exported

def card_code(card_id: int) -> str | None:
    """Kernel card id -> card code (R1)."""
    if card_id < 0:
        return None
    if card_id < 4:
        return "K" + SUITS[card_id]
    if card_id < 24:
        k = card_id - 4
        return f"{6 + k % 5}{SUITS[k // 5]}"
    return "JK"


def cards_of_mask(mask: int) -> list[str]:
    return [card_code(4 + b) for b in range(20) if (mask >> b) & 1]


def rules_to_params(rules: Rules) -> np.ndarray:
    if len(rules.gauge) > L.MAX_GAUGE:
        raise ValueError(f"the kernel takes gauges of at most {L.MAX_GAUGE} cards")
    p = np.zeros(L.NPARAMS, dtype=np.int32)
    p[L.P_PLAYERS] = rules.players
    p[L.P_PAWNS] = rules.pawns
    p[L.P_CPT] = rules.cards_per_treasure
    p[L.P_SWIM] = rules.swim_cost
    p[L.P_ACTIONS] = rules.actions_per_turn
    p[L.P_GLEN] = len(rules.gauge)
    for i, card in enumerate(rules.gauge):
        p[L.P_GRANK + i] = rank_of(card)
    return p


def default_policy_params(policy: str) -> np.ndarray:
    """A player's parameters when none are given: those of a spec `name@skill`, else the
    module's `default_params()`, else zeros (every weight at its default)."""
    pp = player_params(policy)
    if pp is not None:
        return pp
    module = POLICIES[policy][1]
    if hasattr(module, "default_params"):
        return module.default_params()
    return np.zeros(32, dtype=np.float64)


def _entry(rules: Rules, policy: str, policy_params: np.ndarray | None = None):
    """What the kernel is called with for a policy: its own compiled entry (numba compiles the
    kernel for that policy alone), the rule parameters and the policy's parameters."""
    pp = default_policy_params(policy) if policy_params is None else policy_params
    return PLAY_CHUNK[policy_id(policy)], rules_to_params(rules), pp


def run_games(rules: Rules, policy: str, games: int, seed: int = 0, first_game: int = 0,
              threads: int | None = None, policy_params: np.ndarray | None = None,
              on_batch: Callable[[int], None] | None = None) -> np.ndarray:
    """Raw kernel results of Island Escape, int32 [games, NRESULT] (columns: layout.RESULT_FIELDS)."""
    return play_in_chunks(*_entry(rules, policy, policy_params), games, seed, first_game, threads, L.NRESULT,
                          on_batch)


def raw_batches(rules: Rules, policy: str, games: int, seed: int = 0, threads: int | None = None):
    """`run_games`' rows batch by batch, (first game, rows), in constant memory (`play_batches`)."""
    return play_batches(*_entry(rules, policy), games, seed, 0, threads, L.NRESULT)


# Compact dtypes keep a million-game table small (about 40 MB).
_INT8 = ("treasures_raised", "tiles_sunk", "shores", "salvages", "gives", "raises", "raise_turn_S",
         "raise_turn_H", "raise_turn_D", "raise_turn_C", "gauge_left", "water_level", "loss_place",
         "explored", "kings_found", "salvage_held", "turns", "floods")


def results_frame(raw: np.ndarray, rules: Rules, policy: str, seed: int, first_game: int = 0,
                  variant: str = "") -> pd.DataFrame:
    """Per-game results as a DataFrame: rule columns, then outcome, then action counts."""
    import pandas as pd  # imported here so that playing games does not pay for pandas
    n = len(raw)
    cols = {name: raw[:, i] for i, name in enumerate(L.RESULT_FIELDS)}
    df = pd.DataFrame({
        "seed": np.full(n, seed, dtype=np.int64),
        "game": np.arange(first_game, first_game + n, dtype=np.int64),
        "players": np.full(n, rules.players, dtype=np.int8),
        "cards_per_treasure": np.full(n, rules.cards_per_treasure, dtype=np.int8),
        "gauge": pd.Categorical.from_codes(np.zeros(n, dtype=np.int8), categories=[" ".join(rules.gauge)]),
        "swim_cost": np.full(n, rules.swim_cost, dtype=np.int8),
        "actions_per_turn": np.full(n, rules.actions_per_turn, dtype=np.int8),
        "policy": pd.Categorical.from_codes(np.zeros(n, dtype=np.int8), categories=[policy]),
        "won": cols["cause"] == L.CAUSE_WIN,
        "cause": pd.Categorical.from_codes(cols["cause"], categories=list(L.CAUSES)),
    })
    for name in L.RESULT_FIELDS[1:]:
        col = cols[name]
        df[name] = col.astype(np.int8 if name in _INT8 else np.int16)
    unused = df.pop("unused")
    df.insert(df.columns.get_loc("raises") + 1, "unused", unused)
    return df


def iter_batches(rules: Rules, policy: str, games: int, seed: int = 0, threads: int | None = None,
                 batch: int = BATCH):
    """Yield the per-game table batch by batch, so callers can save work as it completes."""
    done = 0
    while done < games:
        n = min(batch, games - done)
        raw = run_games(rules, policy, n, seed, first_game=done, threads=threads)
        yield results_frame(raw, rules, policy, seed, first_game=done)
        done += n


def simulate(rules: Rules, policy: str = "random", games: int = 1000, seed: int = 0,
             threads: int | None = None, progress: bool | None = None) -> pd.DataFrame:
    """Play `games` games and return the per-game table (see README for the columns).

    `progress`: None shows a bar on a terminal only, True always, False never.
    """
    import pandas as pd
    from tqdm import tqdm

    frames = []
    with tqdm(total=games, unit="game", unit_scale=True, delay=1.0, mininterval=0.5, desc=policy,
              disable=None if progress is None else not progress) as bar:
        for df in iter_batches(rules, policy, games, seed, threads):
            frames.append(df)
            bar.update(len(df))
    if not frames:
        return results_frame(np.empty((0, L.NRESULT), dtype=np.int32), rules, policy, seed)
    return pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]


def export_records(rules: Rules, policy: str, seed: int, games: Iterable[int]) -> list[Record]:
    """Replayable records of chosen games: full layout, every flood, every action and escape."""
    return [record for record, _ in export_games(rules, policy, seed, games)]


def export_games(rules: Rules, policy: str, seed: int, games: Iterable[int]) -> list[tuple[Record, dict]]:
    """Records of chosen games, each with the final state the kernel reached (RECORD-FORMAT
    `final`; salvage in card order, since the kernel keeps salvage as a set)."""
    play_logged = PLAY_LOGGED[policy_id(policy)]  # as in run_games: compiled for this policy alone
    params = rules_to_params(rules)
    pp = default_policy_params(policy)
    out = []
    log = np.zeros((L.LOG_ROWS, 4), dtype=np.int32)
    res = np.zeros((1, L.NRESULT), dtype=np.int32)
    cards = np.zeros(25, dtype=np.int64)
    state = np.zeros(L.NSTATE, dtype=np.int32)
    for game in games:
        n = play_logged(params, pp, seed, game, res, log, cards, state)
        record = _record_from_log(rules, seed, cards, log[:n], res[0])
        out.append((record, _final_state(rules, state, record)))
    return out


_STATE_NAMES = ("down", "dry", "flooded", "sea")


def _final_state(rules: Rules, s: np.ndarray, record: Record) -> dict:
    board = [[{"card": card_code(int(s[L.CARD + r * 5 + c])), "state": _STATE_NAMES[s[L.TSTATE + r * 5 + c]]}
              for c in range(5)] for r in range(5)]
    raised = []
    seq = int(s[L.RAISE_SEQ])
    while seq:
        raised.insert(0, SUITS[seq % 5 - 1])
        seq //= 5
    return {
        "board": board,
        "pawns": [[int(s[L.PAWN + i]) % 5 + 1, int(s[L.PAWN + i]) // 5 + 1] for i in range(rules.pawns)],
        "salvage": [cards_of_mask(int(s[L.HAND + i])) for i in range(rules.pawns)],
        "raised": raised,
        "gauge": list(rules.gauge[int(s[L.GAUGE_TOP]):]),
    }


_DIRS = ("up", "down", "left", "right")


def _record_from_log(rules: Rules, seed: int, cards: np.ndarray, log: np.ndarray, res: np.ndarray) -> Record:
    from sim.island_escape.records import Record, layout_grid

    layout = {(i % 5 + 1, i // 5 + 1): card_code(int(c)) for i, c in enumerate(cards)}
    turns_played = int(res[1])
    turns: list[list[str]] = [[] for _ in range(turns_played)]
    floods: list[list[int]] = []
    pawns = [12] * rules.pawns  # follow positions to name shore/salvage places
    for turn, code, a, b in log.tolist():
        me = (turn - 1) % rules.pawns
        entries = turns[turn - 1]
        here = pawns[me]
        if code == L.LOG_FLOOD:
            floods.append([a % 5 + 1, a // 5 + 1])
            continue
        if code == L.LOG_ESCAPE:
            pawns[a] = b
            entries.append(f"escape {a} {b % 5 + 1},{b // 5 + 1}")
            continue
        if code < L.A_SHORE_HERE:  # move or swim
            d = code % 4
            dist = 1 if code < L.A_SWIM else 2
            c, r = here % 5 + int(L.DIR_DC[d]) * dist, here // 5 + int(L.DIR_DR[d]) * dist
            pawns[me] = r * 5 + c
            entries.append(f"{'move' if code < L.A_SWIM else 'swim'} {_DIRS[d]}")
        elif code < L.A_GIVE:
            if code == L.A_SHORE_HERE:
                t = here
            else:
                d = code - (L.A_SHORE if code < L.A_SALVAGE else L.A_SALVAGE)
                t = (here // 5 + int(L.DIR_DR[d])) * 5 + here % 5 + int(L.DIR_DC[d])
            entries.append(f"{'shore' if code < L.A_SALVAGE else 'salvage'} {t % 5 + 1},{t // 5 + 1}")
        elif code < L.A_RAISE:
            entries.append(f"give {a} " + " ".join(cards_of_mask(b)))
        elif code == L.A_RAISE:
            entries.append("raise " + " ".join(cards_of_mask(b)))
        elif code == L.A_TAKEOFF:
            entries.append("takeoff")
    cause = L.CAUSES[int(res[0])]
    result = {"outcome": "win" if cause == "win" else "loss", "cause": cause,
              "turns": turns_played, "floods": int(res[2])}
    return Record(rules, layout_grid(layout), seed, [tuple(f) for f in floods], turns, result)
