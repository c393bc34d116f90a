"""Between the reference engine's objects and the kernel's arrays, in plain Python.

The kernel speaks integers (sim/forbidden_island/layout.py, docs/FI-KERNEL.md); records, tests and
people speak the engine's `Action`, `Rules` and `Setup`. `encode`/`decode` turn an action into its
code and back and need no game state; `params_of` gives the kernel's parameter array of a
`Rules`, `setup_into` writes an engine `Setup` into a state array for the kernel's setup,
`state_of` gives the kernel state of any engine game, and `engine_snapshot` / `kernel_snapshot`
the whole state of either in the same comparable plain values.
"""

from __future__ import annotations

import numpy as np

from sim.forbidden_island import layout as L
from sim.forbidden_island.engine import FLOODED, PHASES, SUNK, Action, ForbiddenIslandEngine, Setup
from sim.forbidden_island.rules import PLACES, ROLES, TILE_CODES, TREASURES, Rules

_PLACE_INDEX = {pl: i for i, pl in enumerate(PLACES)}


class CodeError(ValueError):
    """Not an action code, or an action that has none."""


def _place(place) -> int:
    if place not in _PLACE_INDEX:
        raise CodeError(f"{place!r} is not a place of the island")
    return _PLACE_INDEX[place]


def _seat(seat) -> int:
    if not (isinstance(seat, int) and 0 <= seat < L.MAX_PLAYERS):
        raise CodeError(f"{seat!r} is not a seat 0-{L.MAX_PLAYERS - 1}")
    return seat


def encode(action: Action) -> int:
    """The kernel's code for an engine action."""
    k = action.kind
    if k == "move":
        return L.A_MOVE + _place(action.place)
    if k == "fly":
        return L.A_FLY + _place(action.place)
    if k == "navigate":
        return L.A_NAVIGATE + 24 * _seat(action.pawn) + _place(action.place)
    if k == "shore":
        if action.place2 is None:
            return L.A_SHORE + _place(action.place)
        a, b = sorted((_place(action.place), _place(action.place2)))
        if a == b:
            raise CodeError("an Engineer's two shore-ups must be on different tiles")
        return L.A_SHORE2 + 24 * a + b
    if k == "give":
        if action.card not in TREASURES:
            raise CodeError(f"only treasure cards are given, not {action.card!r}")
        return L.A_GIVE + 4 * _seat(action.pawn) + TREASURES.index(action.card)
    if k == "capture":
        return L.A_CAPTURE
    if k == "draw":
        return L.A_DRAW
    if k == "flood":
        return L.A_FLOOD
    if k == "discard":
        if action.card not in L.CARDS[:L.DISCARDABLE]:
            raise CodeError(f"{action.card!r} is not a card a hand can hold")
        return L.A_DISCARD + 8 * _seat(action.by) + L.CARDS.index(action.card)
    if k == "swim":
        return L.A_SWIM + 24 * _seat(action.by) + _place(action.place)
    if k == "sandbags":
        return L.A_SANDBAGS + 24 * _seat(action.by) + _place(action.place)
    if k == "lift":
        mask = 0
        for pawn in action.pawns:
            mask |= 1 << _seat(pawn)
        if not mask:
            raise CodeError("a Helicopter Lift carries one pawn or more")
        return L.A_LIFT + 384 * _seat(action.by) + 24 * mask + _place(action.place)
    if k == "liftoff":
        return L.A_LIFTOFF + _seat(action.by)
    raise CodeError(f"unknown action kind {k!r}")


def decode(code: int) -> Action:
    """The engine action of a kernel code."""
    code = int(code)
    if not 0 <= code < L.N_ACTIONS:
        raise CodeError(f"{code} is not an action code (0-{L.N_ACTIONS - 1})")
    if code < L.A_FLY:
        return Action("move", place=PLACES[code - L.A_MOVE])
    if code < L.A_NAVIGATE:
        return Action("fly", place=PLACES[code - L.A_FLY])
    if code < L.A_SHORE:
        pawn, q = divmod(code - L.A_NAVIGATE, 24)
        return Action("navigate", pawn=pawn, place=PLACES[q])
    if code < L.A_SHORE2:
        return Action("shore", place=PLACES[code - L.A_SHORE])
    if code < L.A_GIVE:
        a, b = divmod(code - L.A_SHORE2, 24)
        if a >= b:
            raise CodeError(f"{code} is not an action code (two shore-ups are coded lower place first)")
        return Action("shore", place=PLACES[a], place2=PLACES[b])
    if code < L.A_CAPTURE:
        to, t = divmod(code - L.A_GIVE, 4)
        return Action("give", pawn=to, card=TREASURES[t])
    if code == L.A_CAPTURE:
        return Action("capture")
    if code == L.A_DRAW:
        return Action("draw")
    if code == L.A_FLOOD:
        return Action("flood")
    if code < L.A_SWIM:
        seat, card = divmod(code - L.A_DISCARD, 8)
        if card >= L.DISCARDABLE:
            raise CodeError(f"{code} is not an action code (no such card to discard)")
        return Action("discard", by=seat, card=L.CARDS[card])
    if code < L.A_SANDBAGS:
        seat, q = divmod(code - L.A_SWIM, 24)
        return Action("swim", by=seat, place=PLACES[q])
    if code < L.A_LIFT:
        seat, q = divmod(code - L.A_SANDBAGS, 24)
        return Action("sandbags", by=seat, place=PLACES[q])
    if code < L.A_LIFTOFF:
        seat, rest = divmod(code - L.A_LIFT, 384)
        mask, q = divmod(rest, 24)
        if not mask:
            raise CodeError(f"{code} is not an action code (a lift with no passenger)")
        return Action("lift", by=seat, pawns=tuple(i for i in range(4) if mask >> i & 1), place=PLACES[q])
    return Action("liftoff", by=code - L.A_LIFTOFF)


def kind_of(code: int) -> int:
    """The K_* kind of an action code (layout.KIND_NAMES); shore2 is an Engineer's double."""
    bounds = ((L.A_FLY, L.K_MOVE), (L.A_NAVIGATE, L.K_FLY), (L.A_SHORE, L.K_NAVIGATE), (L.A_SHORE2, L.K_SHORE),
              (L.A_GIVE, L.K_SHORE2), (L.A_CAPTURE, L.K_GIVE), (L.A_DRAW, L.K_CAPTURE), (L.A_FLOOD, L.K_DRAW),
              (L.A_DISCARD, L.K_FLOOD), (L.A_SWIM, L.K_DISCARD), (L.A_SANDBAGS, L.K_SWIM),
              (L.A_LIFT, L.K_SANDBAGS), (L.A_LIFTOFF, L.K_LIFT), (L.N_ACTIONS, L.K_LIFTOFF))
    for upper, kind in bounds:
        if code < upper:
            return kind
    raise CodeError(f"{code} is not an action code")


def params_of(rules: Rules) -> np.ndarray:
    """The kernel's parameter array (layout.P_*) of a rule setting."""
    p = np.zeros(L.NPARAMS, dtype=np.int32)
    p[L.P_PLAYERS] = rules.players
    p[L.P_START_MARK] = rules.start_mark
    p[L.P_ACTIONS] = rules.actions_per_turn
    p[L.P_DRAWS] = rules.treasure_draws
    p[L.P_HAND_LIMIT] = rules.hand_limit
    p[L.P_SETUP_FLOODS] = rules.setup_floods
    p[L.P_SETUP_CARDS] = rules.setup_cards
    p[L.P_CAPTURE] = rules.capture_cards
    return p


def setup_into(s: np.ndarray, setup: Setup) -> None:
    """Write an engine Setup (layout, roles, both decks top first) into state `s`, as the
    kernel's deal would: then `kernel.set_up` plays F3 from it."""
    s[:] = 0
    for place, code in enumerate(setup.layout):
        tile = TILE_CODES.index(code)
        s[L.PLACE_TILE + place] = tile
        s[L.TILE_PLACE + tile] = place
    s[L.ROLE:L.ROLE + L.MAX_PLAYERS] = -1
    for seat, role in enumerate(setup.roles):
        s[L.ROLE + seat] = ROLES.index(role)
    for i, code in enumerate(reversed(setup.flood_deck)):  # bottom first
        s[L.FPILE + i] = TILE_CODES.index(code)
    s[L.FPILE_N] = len(setup.flood_deck)
    for i, card in enumerate(reversed(setup.treasure_deck)):
        s[L.TPILE + i] = L.CARDS.index(card)
    s[L.TPILE_N] = len(setup.treasure_deck)


_STAGES = {"actions": L.STAGE_ACTIONS, "treasure": L.STAGE_TREASURE, "flood": L.STAGE_FLOOD}


def state_of(game: ForbiddenIslandEngine) -> np.ndarray:
    """The kernel state of any engine game, mid-turn or arranged by hand: what lets the kernel
    (and the players above it) play on from a record or a test's situation. The counters the
    engine does not keep (shuffles, cards drawn, actions by kind) start at 0."""
    s = np.zeros(L.NSTATE, dtype=np.int32)
    index = {pl: i for i, pl in enumerate(PLACES)}
    for place, code in enumerate(game.setup.layout):
        tile = TILE_CODES.index(code)
        s[L.PLACE_TILE + place] = tile
        s[L.TILE_PLACE + tile] = place
    for code, state in game.state.items():
        bit = 1 << index[game.place_of[code]]
        if state == FLOODED:
            s[L.FLOODED] |= bit
        elif state == SUNK:
            s[L.SUNK] |= bit
    s[L.ROLE:L.ROLE + L.MAX_PLAYERS] = -1
    s[L.PAWN:L.PAWN + L.MAX_PLAYERS] = -1
    for seat, role in enumerate(game.roles):
        s[L.ROLE + seat] = ROLES.index(role)
        s[L.PAWN + seat] = index[game.pawns[seat]]
        for card in game.hands[seat]:
            s[L.HAND + L.HAND_STRIDE * seat + L.CARDS.index(card)] += 1
        s[L.HAND_SIZE + seat] = len(game.hands[seat])
    for i, card in enumerate(reversed(game.treasure_pile)):
        s[L.TPILE + i] = L.CARDS.index(card)
    s[L.TPILE_N] = len(game.treasure_pile)
    for card in game.treasure_discard:
        s[L.TDISC + L.CARDS.index(card)] += 1
    for i, code in enumerate(reversed(game.flood_pile)):
        s[L.FPILE + i] = TILE_CODES.index(code)
    s[L.FPILE_N] = len(game.flood_pile)
    for code in game.flood_discard:
        s[L.FDISC] |= 1 << TILE_CODES.index(code)
    start = len(game.flood_pile)
    s[L.FLAYERS_N] = len(game.flood_layers)
    for k, size in enumerate(game.flood_layers):  # the engine lists them top first
        start -= size
        s[L.FLAYER + len(game.flood_layers) - 1 - k] = start
    s[L.MARK] = game.mark
    s[L.TURN] = game.turn
    s[L.CUR] = game.current
    s[L.STAGE] = _STAGES[game.stage]
    s[L.ACTS] = game.actions_left
    s[L.DRAWS] = game.draws_left
    s[L.FLOODS] = game.floods_left
    s[L.FLEW] = int(game.flew)
    for seat in game.swimmers:
        s[L.SWIMMERS] |= 1 << seat
    s[L.OUTCOME] = -1 if game.outcome is None else L.CAUSES.index(game.outcome)
    s[L.CAPTURE_ORDER:L.CAPTURE_ORDER + 4] = -1
    s[L.CAPTURE_TURN:L.CAPTURE_TURN + 4] = -1
    for k, treasure in enumerate(game.captured):
        t = TREASURES.index(treasure)
        s[L.CAPTURED] |= 1 << t
        s[L.CAPTURE_ORDER + k] = t
        s[L.CAPTURE_TURN + t] = next((e["turn"] for e in game.events
                                      if e["kind"] == "capture" and e["treasure"] == treasure), -1)
    return s


# --- reading a kernel state back (records, tests) ------------------------------------------------------


def treasure_pile_order(s: np.ndarray) -> list[str]:
    """The treasure draw pile, top first."""
    return [L.CARDS[s[L.TPILE + i]] for i in range(s[L.TPILE_N] - 1, -1, -1)]


def flood_pile_order(s: np.ndarray) -> list[str]:
    """The flood draw pile's tile codes, top first."""
    return [TILE_CODES[s[L.FPILE + i]] for i in range(s[L.FPILE_N] - 1, -1, -1)]


def flood_top_layer_order(s: np.ndarray) -> list[str]:
    """The flood pile's top layer, top first: right after a shuffle, the order it gave."""
    lo = s[L.FLAYER + s[L.FLAYERS_N] - 1]
    return [TILE_CODES[s[L.FPILE + i]] for i in range(s[L.FPILE_N] - 1, lo - 1, -1)]


def setup_of(s: np.ndarray, p: np.ndarray) -> Setup:
    """The engine Setup of a kernel state dealt but not yet set up (`kernel.deal`)."""
    players = int(p[L.P_PLAYERS])
    return Setup(layout=tuple(TILE_CODES[s[L.PLACE_TILE + q]] for q in range(L.NPLACES)),
                 roles=tuple(ROLES[s[L.ROLE + i]] for i in range(players)),
                 flood_deck=tuple(flood_pile_order(s)), treasure_deck=tuple(treasure_pile_order(s)))


def final_state_of(s: np.ndarray, p: np.ndarray) -> dict:
    """The `final` object of docs/FI-RECORD-FORMAT.md from a kernel state (hands in card order)."""
    flooded, sunk = int(s[L.FLOODED]), int(s[L.SUNK])

    def tile_state(tile: int) -> str:
        q = int(s[L.TILE_PLACE + tile])
        return "sunk" if sunk >> q & 1 else "flooded" if flooded >> q & 1 else "dry"

    players = int(p[L.P_PLAYERS])
    return {
        "tiles": {code: tile_state(t) for t, code in enumerate(TILE_CODES)},
        "pawns": [list(PLACES[s[L.PAWN + i]]) for i in range(players)],
        "hands": [[L.CARDS[c] for c in range(L.DISCARDABLE) for _ in range(s[L.HAND + L.HAND_STRIDE * i + c])]
                  for i in range(players)],
        "captured": [TREASURES[s[L.CAPTURE_ORDER + k]] for k in range(4) if s[L.CAPTURE_ORDER + k] >= 0],
        "mark": int(s[L.MARK]),
    }


def engine_snapshot(game: ForbiddenIslandEngine) -> dict:
    """The engine's whole state in comparable plain values (places as kernel indices)."""
    index = {pl: i for i, pl in enumerate(PLACES)}
    return {
        "layout": list(game.setup.layout),
        "roles": list(game.roles),
        "flooded": sorted(index[game.place_of[t]] for t in TILE_CODES if game.state[t] == FLOODED),
        "sunk": sorted(index[game.place_of[t]] for t in TILE_CODES if game.state[t] == SUNK),
        "pawns": [index[pl] for pl in game.pawns],
        "hands": [sorted(h) for h in game.hands],
        "treasure_pile": list(game.treasure_pile),
        "treasure_discard": sorted(game.treasure_discard),
        "flood_pile": list(game.flood_pile),
        "flood_discard": sorted(game.flood_discard),
        "flood_layers": list(game.flood_layers),
        "mark": game.mark, "turn": game.turn, "current": game.current, "phase": game.phase,
        "actions_left": game.actions_left, "draws_left": game.draws_left, "floods_left": game.floods_left,
        "flew": game.flew, "swimmers": list(game.swimmers), "outcome": game.outcome,
        "captured": list(game.captured),
    }


def kernel_snapshot(s: np.ndarray, p: np.ndarray) -> dict:
    """The same values read from a kernel state."""
    from sim.forbidden_island.kernel import phase
    players = int(p[L.P_PLAYERS])
    flooded, sunk = int(s[L.FLOODED]), int(s[L.SUNK])
    starts = [int(s[L.FLAYER + k]) for k in range(s[L.FLAYERS_N])] + [int(s[L.FPILE_N])]
    layers = [starts[k + 1] - starts[k] for k in range(len(starts) - 1)][::-1]
    outcome = int(s[L.OUTCOME])
    swimmers = int(s[L.SWIMMERS])
    return {
        "layout": [TILE_CODES[s[L.PLACE_TILE + q]] for q in range(24)],
        "roles": [ROLES[s[L.ROLE + i]] for i in range(players)],
        "flooded": [q for q in range(24) if flooded >> q & 1],
        "sunk": [q for q in range(24) if sunk >> q & 1],
        "pawns": [int(s[L.PAWN + i]) for i in range(players)],
        "hands": [sorted(L.CARDS[c] for c in range(L.NCARDS) for _ in range(s[L.HAND + 8 * i + c]))
                  for i in range(players)],
        "treasure_pile": treasure_pile_order(s),
        "treasure_discard": sorted(L.CARDS[c] for c in range(L.NCARDS) for _ in range(s[L.TDISC + c])),
        "flood_pile": flood_pile_order(s),
        "flood_discard": sorted(TILE_CODES[t] for t in range(24) if int(s[L.FDISC]) >> t & 1),
        "flood_layers": layers,
        "mark": int(s[L.MARK]), "turn": int(s[L.TURN]), "current": int(s[L.CUR]),
        "phase": PHASES[phase(s, p)],
        "actions_left": int(s[L.ACTS]), "draws_left": int(s[L.DRAWS]), "floods_left": int(s[L.FLOODS]),
        "flew": bool(s[L.FLEW]), "swimmers": [i for i in range(players) if swimmers >> i & 1],
        "outcome": None if outcome < 0 else L.CAUSES[outcome],
        "captured": [L.CARDS[s[L.CAPTURE_ORDER + k]] for k in range(4) if s[L.CAPTURE_ORDER + k] >= 0],
    }


# --- a logged kernel game as a record ---------------------------------------------------------------


class ExportError(RuntimeError):
    """A logged kernel game whose decisions do not replay to the kernel's result."""


def record_of_log(rules: Rules, seed: int, game: int, log: np.ndarray, res: np.ndarray, s_end: np.ndarray,
                  where: str):
    """The record of a kernel game (docs/FI-RECORD-FORMAT.md), naming its whole set-up and every
    shuffle so that the reference engine replays it exactly: the game played once more, step by
    step from Python, its logged decision codes `log` read as actions and what each shuffle gave
    read off the state; `result` is what the kernel reported (`res`, its results row)."""
    from sim.forbidden_island import kernel as K
    from sim.forbidden_island.records import SETUP_KEYS, Record
    from sim.streams import seed_streams

    p = params_of(rules)
    s = np.zeros(L.NSTATE, dtype=np.int32)
    rng = np.zeros(3, dtype=np.uint64)
    seed_streams(rng, seed, game)
    K.deal(s, p, rng)
    setup = setup_of(s, p)
    K.set_up(s, p, rng)
    shuffles = [("treasure", treasure_pile_order(s))] if s[L.N_TSHUFFLES] else []
    turns: list[list[str]] = []
    for code in log:
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
    if s[L.OUTCOME] != res[0]:
        raise ExportError(f"{where}: the logged decisions do not replay to the kernel's result")
    cause = L.CAUSES[int(res[0])]
    result = {"outcome": "win" if cause == "win" else "loss", "cause": cause, "turns": int(res[1]),
              "final": final_state_of(s, p)}
    return Record(rules, seed, {k: getattr(setup, k) for k in SETUP_KEYS}, shuffles, turns, result)
