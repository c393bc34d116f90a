"""Between the kernel's arrays and plain Python: rules into parameters, a state into the
contract's snapshot, and what a record needs to hand the reference engine the kernel's deal
and rolls (the engine draws no random numbers itself)."""

from __future__ import annotations

import numpy as np

from sim.survive_the_island import layout as L
from sim.survive_the_island.rules import (
    LAND,
    MAX_CREATURES,
    SEA,
    TILES,
    Rules,
    load_board,
    placing_seat,
    seat_values,
)


def rescue_distances(board) -> list[int]:
    """Hex steps from each space to the nearest rescue island, over every space (the players'
    yardstick of how far a piece is from safety)."""
    far = 10 ** 6
    dist = [far] * board.spaces
    ring = list(board.rescue)
    for q in ring:
        dist[q] = 0
    while ring:
        nxt = []
        for q in ring:
            for n in board.neighbours[q]:
                if n >= 0 and dist[n] == far:
                    dist[n] = dist[q] + 1
                    nxt.append(n)
        ring = nxt
    return dist


def reach_entries(board, q0: int) -> list[int]:
    """The spaces within two steps of q0 (layout.P_REACH's entries), ascending: each space with
    bit REACH_STEP_SHIFT + d when it is q0's neighbour in direction d and bit REACH_VIA_SHIFT + d
    when it lies next to that neighbour."""
    via: dict[int, int] = {}
    for d, n in enumerate(board.neighbours[q0]):
        if n < 0:
            continue
        via[n] = via.get(n, 0) | 1 << (L.REACH_STEP_SHIFT + d)
        for m in board.neighbours[n]:
            if m >= 0 and m != q0:
                via[m] = via.get(m, 0) | 1 << (L.REACH_VIA_SHIFT + d)
    assert len(via) <= L.REACH_ROOM, "a hex has at most 18 spaces within two steps"
    return [q | via[q] for q in sorted(via)]


def params_of(rules: Rules) -> np.ndarray:
    """The kernel's parameter array (layout.PARAMS) of a rule set, its board precomputed."""
    board = load_board(rules.board)
    p = np.zeros(L.NPARAMS, dtype=np.int32)
    p[L.P_PLAYERS] = rules.players
    p[L.P_MOVES] = rules.moves
    p[L.P_SHARKS] = rules.sharks
    p[L.P_KAIJUS] = rules.kaijus
    p[L.P_SERPENTS] = rules.serpents
    p[L.P_RAFTS] = rules.rafts
    p[L.P_CAPACITY] = rules.raft_capacity
    p[L.P_VOLCANOES_TO_END] = rules.volcanoes_to_end
    p[L.P_DIE:L.P_DIE + 3] = rules.die
    p[L.P_SNAKE] = rules.setup == "snake"
    p[L.P_ADV_EACH] = rules.adventurers_each
    p[L.P_RAFTS_EACH] = rules.rafts_each
    p[L.P_NSPACES] = board.spaces
    land, rescue = board.land, board.rescue
    assert len(rescue) <= L.P_RESCUE_ROOM, "rules.load_board refuses a board with more rescue islands"
    p[L.P_NLAND] = len(land)
    p[L.P_LAND:L.P_LAND + len(land)] = land
    p[L.P_NRESCUE] = len(rescue)
    p[L.P_RESCUE:L.P_RESCUE + len(rescue)] = rescue
    shore = [q for q, k in enumerate(board.kinds) if k == SEA
             and any(n >= 0 and board.kinds[n] == LAND for n in board.neighbours[q])]
    p[L.P_NSHORE] = len(shore)
    p[L.P_SHORE:L.P_SHORE + len(shore)] = shore
    p[L.P_SERPENT_STARTS:L.P_SERPENT_STARTS + rules.serpents] = board.serpent_starts[:rules.serpents]
    p[L.P_KIND:L.P_KIND + board.spaces] = board.kinds
    p[L.P_NEIGH:L.P_NEIGH + 6 * board.spaces] = [n for row in board.neighbours for n in row]
    p[L.P_TILE_TERRAIN:L.P_TILE_TERRAIN + len(TILES)] = [t for t, _ in TILES]
    p[L.P_TILE_BACK:L.P_TILE_BACK + len(TILES)] = [b for _, b in TILES]
    values = seat_values(rules)
    p[L.P_SEAT_VALUES:L.P_SEAT_VALUES + len(values)] = values
    p[L.P_RESCUE_DIST:L.P_RESCUE_DIST + board.spaces] = rescue_distances(board)
    # "odd-r" offset rows to cube coordinates: x = column - (row - row % 2) / 2, z = row
    p[L.P_CUBE_X:L.P_CUBE_X + board.spaces] = [c - (r - (r & 1)) // 2 for r, c in board.cells]
    p[L.P_CUBE_Z:L.P_CUBE_Z + board.spaces] = [r for r, _ in board.cells]
    players, each = rules.players, rules.adventurers_each
    p[L.P_SEAT_OF:L.P_SEAT_OF + players * each] = [a // each for a in range(players * each)]
    p[L.P_NEXT_SEAT:L.P_NEXT_SEAT + players] = [(k + 1) % players for k in range(players)]
    p[L.P_PLACING_SEAT:L.P_PLACING_SEAT + L.MAX_ADVENTURERS] = [placing_seat(k, players, rules.setup)
                                                                for k in range(L.MAX_ADVENTURERS)]
    for q in range(board.spaces):
        entries = reach_entries(board, q)
        p[L.P_NREACH + q] = len(entries)
        p[L.P_REACH + L.REACH_ROOM * q:L.P_REACH + L.REACH_ROOM * q + len(entries)] = entries
    return p


def _ints(a) -> list[int]:
    return [int(x) for x in a]


def kernel_snapshot(s: np.ndarray, p: np.ndarray) -> dict:
    """The contract's snapshot of a kernel state (sti-contract: the keys both sides produce)."""
    spaces = int(p[L.P_NSPACES])
    players = int(p[L.P_PLAYERS])
    nadv = players * int(p[L.P_ADV_EACH])
    tile = s[L.TILE_AT:L.TILE_AT + spaces]
    kind = s[L.KIND:L.KIND + spaces]
    back = [int(p[L.P_TILE_BACK + t]) if t >= 0 else -1 for t in tile]
    terrain = [int(p[L.P_TILE_TERRAIN + t]) if t >= 0 else -1 for t in tile]
    phase = int(s[L.PHASE])
    ending = int(s[L.ENDING])
    hands = [_ints(s[L.HAND + L.NABILITIES * k:L.HAND + L.NABILITIES * k + L.NABILITIES]) for k in range(players)]
    return {
        "space_kind": _ints(kind),
        "tile_back": back,
        "tile_terrain": terrain,
        "values": _ints(s[L.VALUE:L.VALUE + nadv]),
        "adventurer_space": _ints(s[L.ADV_SPACE:L.ADV_SPACE + nadv]),
        "adventurer_raft": _ints(s[L.ADV_RAFT:L.ADV_RAFT + nadv]),
        "swam": [bool(x) for x in s[L.SWAM:L.SWAM + nadv]],
        "raft_space": _ints(s[L.RAFT_SPACE:L.RAFT_SPACE + int(p[L.P_RAFTS])]),
        "creature_space": _ints(s[L.CREATURE_SPACE:L.CREATURE_SPACE + MAX_CREATURES]),
        "hand": hands,
        "score": _ints(s[L.SCORE:L.SCORE + players]),
        "rescued": _ints(s[L.RESCUED:L.RESCUED + players]),
        "turn": int(s[L.TURN]),
        "seat": int(s[L.SEAT]),
        "decider": int(s[L.REPEL_SEAT] if phase == L.PH_REPEL else s[L.SEAT]),
        "phase": L.PHASES[phase],
        "moves_left": int(s[L.MOVES_LEFT]),
        "floods_left": int(s[L.FLOODS_LEFT]),
        "volcanoes": int(s[L.VOLCANOES]),
        "rolled": int(s[L.ROLLED]) if phase == L.PH_CREATURE else -1,
        "push_space": int(s[L.PUSH_SPACE]),
        "repel": [int(s[L.REPEL_SLOT]), int(s[L.REPEL_SPACE])] if phase == L.PH_REPEL else None,
        "ending": None if ending < 0 else L.ENDINGS[ending],
        "rolls": rolls_of(s),
    }


def rolls_of(s: np.ndarray) -> list[int]:
    """Every kind rolled so far, in order (rules.CREATURES indices): the engine's dice script."""
    return _ints(s[L.ROLLS:L.ROLLS + min(int(s[L.NROLLS]), L.MAX_ROLLS)])


def deal_of(s: np.ndarray, p: np.ndarray) -> dict:
    """The deal a game's state holds (valid at any time: a flooded tile's back is gone from the
    state, so read it right after `init_game`): the tile back index per island space (board.land
    order) and the values per adventurer."""
    land = _ints(p[L.P_LAND:L.P_LAND + int(p[L.P_NLAND])])
    nadv = int(p[L.P_PLAYERS]) * int(p[L.P_ADV_EACH])
    return {
        "tiles": [int(s[L.TILE_AT + q]) for q in land],  # rules.TILES index per island space
        "backs": [int(p[L.P_TILE_BACK + s[L.TILE_AT + q]]) for q in land],
        "values": _ints(s[L.VALUE:L.VALUE + nadv]),
    }



COUNT_FIELDS = ("ADV_N", "LOOSE_N", "RAFT_AT", "SERPENT_N", "SHARK_N", "KAIJU_AT", "MAY", "SEA_NEAR", "RAFT_LOAD",
                "RAFT_SEAT_N", "ON_BOARD", "TERRAIN_LEFT", "SHORE_BITS", "TILE_BITS", "UNPLACED_BITS", "VALUE_BITS")


def may_bits(kind: int, kaiju: bool) -> int:
    """What a piece may do on a space of kernel kind `kind` (K_*), a kaiju there or not (MAY_*)."""
    bits = 0
    if kind == L.K_SEA:
        bits |= L.MAY_SEA_PASS | (0 if kaiju else L.MAY_SEA_STOP)
    if kind in (L.K_SEA, L.K_LAND):
        bits |= L.MAY_KAIJU
    if kind != L.K_VOLCANO and not kaiju:
        bits |= L.MAY_ADVENTURER
    if kind == L.K_RESCUE:
        bits |= L.MAY_RESCUE
    return bits


def _bit_on(s: np.ndarray, at: int, q: int) -> None:
    """Space q into the set kept as bits at s[at:] (32 a word, as the kernel's `_bit_on`)."""
    word = int(s[at + (q >> 5)]) & 0xFFFFFFFF | 1 << (q & 31)
    s[at + (q >> 5)] = word - (1 << 32) if word >= 1 << 31 else word


def recount(s: np.ndarray, p: np.ndarray) -> None:
    """Rebuild the kernel's occupancy counts (COUNT_FIELDS) from where the pieces are (the space
    kinds and tiles, ADV_SPACE, ADV_RAFT, RAFT_SPACE, CREATURE_SPACE) and the values: a state arranged by hand
    becomes one the kernel can play, and a played state can be checked against its own counts."""
    from sim.survive_the_island.rules import CREATURE_BASE, KAIJU, MAX_PLAYERS, MAX_RAFTS, MAX_SPACES, SHARK

    spaces = int(p[L.P_NSPACES])
    each = int(p[L.P_ADV_EACH])
    nadv = int(p[L.P_PLAYERS]) * each
    for name, fill in (("ADV_N", 0), ("LOOSE_N", 0), ("RAFT_AT", -1), ("SERPENT_N", 0), ("SHARK_N", 0),
                       ("KAIJU_AT", -1), ("MAY", 0), ("SEA_NEAR", 0)):
        start = getattr(L, name)
        s[start:start + MAX_SPACES] = fill
    s[L.RAFT_LOAD:L.RAFT_LOAD + MAX_RAFTS] = 0
    s[L.RAFT_SEAT_N:L.RAFT_SEAT_N + MAX_RAFTS * MAX_PLAYERS] = 0
    s[L.ON_BOARD:L.ON_BOARD + MAX_PLAYERS] = 0
    s[L.TERRAIN_LEFT:L.TERRAIN_LEFT + 3] = 0
    s[L.SHORE_BITS:L.SHORE_BITS + L.BIT_WORDS] = 0
    s[L.TILE_BITS:L.TILE_BITS + 3 * L.BIT_WORDS] = 0
    s[L.UNPLACED_BITS:L.UNPLACED_BITS + MAX_PLAYERS] = 0
    s[L.VALUE_BITS:L.VALUE_BITS + MAX_PLAYERS * L.VALUE_ROOM] = 0
    for r in range(int(p[L.P_RAFTS])):
        if s[L.RAFT_SPACE + r] >= 0:
            s[L.RAFT_AT + s[L.RAFT_SPACE + r]] = r
    for a in range(nadv):
        seat, i = divmod(a, each)
        s[L.VALUE_BITS + L.VALUE_ROOM * seat + s[L.VALUE + a]] |= 1 << i
        q = s[L.ADV_SPACE + a]
        if q == L.UNPLACED_SPACE:
            s[L.UNPLACED_BITS + seat] |= 1 << i
        if q < 0:
            continue
        s[L.ON_BOARD + a // each] += 1
        s[L.ADV_N + q] += 1
        r = s[L.ADV_RAFT + a]
        if r >= 0:
            s[L.RAFT_LOAD + r] += 1
            s[L.RAFT_SEAT_N + MAX_PLAYERS * r + a // each] += 1
        else:
            s[L.LOOSE_N + q] += 1
    for slot in range(MAX_CREATURES):
        q = s[L.CREATURE_SPACE + slot]
        if q < 0:
            continue
        if slot >= CREATURE_BASE[KAIJU]:
            s[L.KAIJU_AT + q] = slot
        elif slot >= CREATURE_BASE[SHARK]:
            s[L.SHARK_N + q] += 1
        else:
            s[L.SERPENT_N + q] += 1
    for q in range(spaces):
        s[L.SEA_NEAR + q] = sum(1 for d in range(6) if (n := p[L.P_NEIGH + 6 * q + d]) >= 0
                                and s[L.KIND + n] == L.K_SEA)
        s[L.MAY + q] = may_bits(int(s[L.KIND + q]), bool(s[L.KAIJU_AT + q] >= 0))
        if s[L.SEA_NEAR + q] > 0:
            _bit_on(s, L.SHORE_BITS, q)
        if s[L.TILE_AT + q] >= 0:
            terrain = int(p[L.P_TILE_TERRAIN + s[L.TILE_AT + q]])
            s[L.TERRAIN_LEFT + terrain] += 1
            _bit_on(s, L.TILE_BITS + L.BIT_WORDS * terrain, q)


def count_errors(s: np.ndarray, p: np.ndarray) -> list[str]:
    """The occupancy counts that disagree with where the pieces are (none in a sound state)."""
    fresh = s.copy()
    recount(fresh, p)
    out = []
    for name in COUNT_FIELDS:
        start, size = L.STATE.fields[name]
        if not np.array_equal(fresh[start:start + size], s[start:start + size]):
            bad = np.nonzero(fresh[start:start + size] != s[start:start + size])[0]
            out.append(f"{name} at {bad.tolist()[:5]}: kept {s[start + bad[:5]].tolist()}, "
                       f"counted {fresh[start + bad[:5]].tolist()}")
    return out


# --- a logged kernel game as a record ---------------------------------------------------------------


class ExportError(RuntimeError):
    """A logged kernel game whose record cannot be written: the engine refuses a decision, or its
    replay ends elsewhere than the kernel's game."""


def logged_of(rules: Rules, seed: int, game: int, log: np.ndarray, res: np.ndarray, s: np.ndarray) -> dict:
    """A logged kernel game as a record needs it: every decision's code in order (`codes`), the
    deal (`tiles`, `backs`, `values`: `deal_of` the state `init_game` deals), every roll's
    creature kind (`rolls`), the results row (`result`, by layout.RESULT_FIELDS) and the final
    snapshot (`final`, the contract's)."""
    from sim.survive_the_island.kernel import init_game

    p = params_of(rules)
    start = np.zeros(L.NSTATE, dtype=np.int32)
    init_game(start, p, np.zeros(3, dtype=np.uint64), seed, game)
    return {"codes": _ints(log), **deal_of(start, p), "rolls": rolls_of(s),
            "result": dict(zip(L.RESULT_FIELDS, (int(x) for x in res), strict=True)),
            "final": kernel_snapshot(s, p)}


def record_of_log(rules: Rules, seed: int, game: int, log: np.ndarray, res: np.ndarray, s: np.ndarray,
                  where: str):
    """The record of a kernel game (docs/STI-RECORD-FORMAT.md): the reference engine plays the
    logged decisions from the kernel's deal and rolls, and the record is the engine's; its replay
    must end where the kernel's game ended (ExportError names where it does not)."""
    from sim.survive_the_island.engine import Deal, DiceError, IllegalAction, SurviveTheIslandEngine
    from sim.survive_the_island.records import RecordError, record_of, replay, result_json
    from sim.survive_the_island.rules import action_text

    logged = logged_of(rules, seed, game, log, res, s)
    deal = Deal(tuple(TILES[t] for t in logged["tiles"]), tuple(logged["values"]))
    engine = SurviveTheIslandEngine(rules, deal, iter(logged["rolls"]))
    for i, code in enumerate(logged["codes"], 1):
        try:
            engine.apply(code)
        except (IllegalAction, DiceError) as exc:
            raise ExportError(f"{where}: decision {i} ({action_text(code, engine.board)}) in turn {engine.turn}: "
                              f"the engine refuses it: {exc}") from None
    _same_end(engine, logged, where)
    record = record_of(engine, seed, game)
    try:
        again = replay(record)
    except RecordError as exc:
        raise ExportError(f"{where}: the record does not replay: {exc}") from None
    if result_json(again) != record.result:
        raise ExportError(f"{where}: the record's replay ends otherwise than the game it was written from")
    return record


def _same_end(engine, logged: dict, where: str) -> None:
    """The engine's game ends as the kernel's: the same final snapshot and results row."""
    final = engine.snapshot()
    for key, value in logged["final"].items():
        if final.get(key) != value:
            raise ExportError(f"{where}: at the end {key} differs: engine {final.get(key)!r}, kernel {value!r}")
    row = engine.result_row()
    mine = {"ending": row["ending"], "turns": row["turns"], "volcanoes": row["volcanoes"], "floods": row["floods"],
            "rescued": row["rescued"], "lost": row["lost"], "winners": row["winners"]}
    for seat in range(5):
        mine[f"score{seat}"] = row["score"][seat] if seat < len(row["score"]) else 0
        mine[f"rescued{seat}"] = row["rescued_by_seat"][seat] if seat < len(row["rescued_by_seat"]) else 0
    for key in L.RESULT_FIELDS:
        if mine[key] != logged["result"][key]:
            raise ExportError(f"{where}: the results row's {key} differs: engine {mine[key]}, kernel "
                              f"{logged['result'][key]}")
