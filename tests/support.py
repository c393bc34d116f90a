"""Small helpers for building game situations in tests (not a test module)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from policies.entries import FLOOD
from sim import layout as L
from sim.engine import SEA, Action, Game, PileSource, deal
from sim.kernel import apply_action, begin_turn, floods_due, init_game, legal_actions
from sim.records import parse_record, replay, result_json
from sim.rules import Rules

Place = tuple[int, int]


def make_game(rules: Rules | None = None, named: dict[Place, str] | None = None,
              floods: list[Place] | tuple = (), seed: int = 0) -> Game:
    """A game with the given named cards (the rest dealt from `seed`) and scripted floods."""
    return Game(rules or Rules(), deal(seed, named), PileSource(seed, floods))


def sink(game: Game, *places: Place) -> None:
    """Turn places into sea by hand (card gone), to build a situation."""
    for place in places:
        game.board[place].card = None
        game.board[place].state = SEA


def set_state(game: Game, state: str, *places: Place) -> None:
    for place in places:
        game.board[place].state = state


def act(game: Game, *entries: str) -> None:
    """Apply record entries as actions of the current pawn."""
    for entry in entries:
        game.apply(Action.parse(entry))


def check(game: Game, entry: str) -> str | None:
    """Why an entry is illegal now (None when legal)."""
    return game.check(Action.parse(entry))


def record(**fields) -> dict:
    """A record dict with the given fields (RECORD-FORMAT.md)."""
    data = {"format": "island-escape-record/1"}
    data.update(fields)
    return data


def play(data: dict) -> Game:
    """Parse and replay a record dict."""
    return replay(parse_record(data))


def result(data: dict) -> dict:
    return result_json(play(data))


def grid(named: dict[Place, str]) -> list[list[str]]:
    """A record layout: the named places, `??` elsewhere, JK in the centre."""
    rows = [["??"] * 5 for _ in range(5)]
    rows[2][2] = "JK"
    for (c, r), card in named.items():
        rows[r - 1][c - 1] = card
    return rows


def kinds(game: Game, kind: str) -> list:
    """The events of one kind, as record dicts."""
    return [e.as_record() for e in game.events if e.kind == kind]


def everything_but(*keep: Place) -> list[Place]:
    """Every place of the island except the centre and `keep`."""
    return [(c, r) for r in range(1, 6) for c in range(1, 6) if (c, r) != (3, 3) and (c, r) not in keep]


# --- kernel states (numba policies) ------------------------------------------------------------


def kernel_decisions(s: np.ndarray, p: np.ndarray, rng: np.ndarray, seed: int, game: int, pid: int,
                     pp: np.ndarray, choose: Callable[[int], int]) -> Iterator[int]:
    """Play one game into `s` and `rng` with the kernel's own functions, called from Python.

    Yields the legal-action mask before each action of the current pawn (`s` and `rng` are then
    the state at that decision); `choose(legal)` picks the action, which must be legal. Floods
    and escapes go through the kernel with policy `pid` and its parameters `pp`.
    """
    opts = np.zeros(8, dtype=np.int64)
    log = np.zeros((1, 4), dtype=np.int32)
    init_game(s, p, rng, seed, game)
    while s[L.OUTCOME] < 0:
        begin_turn(s, p)
        while s[L.ACTS] > 0:
            legal = legal_actions(s, p)
            yield legal
            a = choose(legal)
            assert (legal >> a) & 1
            apply_action(s, p, a, log, -1)
            if s[L.OUTCOME] >= 0:
                break
        if s[L.OUTCOME] >= 0:
            break
        for _ in range(int(floods_due(s, p))):
            FLOOD[pid](s, p, pp, rng, opts, log, -1)
            if s[L.OUTCOME] >= 0:
                break


def hide_differently(s: np.ndarray, gen: np.random.Generator) -> np.ndarray:
    """A state the table cannot tell from `s` (R19): face-down cards permuted among the
    face-down places (Kings' places follow them), undrawn column and row cards reordered."""
    t = s.copy()
    down = [i for i in range(25) if t[L.TSTATE + i] == L.DOWN]
    cards = t[[L.CARD + i for i in down]]
    perm = gen.permutation(len(down))
    for i, place in enumerate(down):
        card = cards[perm[i]]
        t[L.CARD + place] = card
        if card < 4:
            t[L.KINGPOS + card] = place
    pos = int(t[L.PILE_POS])
    for base in (L.COLP, L.ROWP):
        t[base + pos:base + 5] = gen.permutation(t[base + pos:base + 5])
    return t


def escape_options(s: np.ndarray, pawn: int) -> tuple[np.ndarray, int]:
    """The pawn's escape options if its place sank now (R15), in the default order, and how many."""
    here = int(s[L.PAWN + pawn])
    opts = np.zeros(8, dtype=np.int64)
    n = 0
    for dc, dr in zip(L.ESC_DC, L.ESC_DR, strict=True):
        c, r = here % 5 + dc, here // 5 + dr
        if 0 <= c < 5 and 0 <= r < 5 and s[L.TSTATE + r * 5 + c] != L.SEA:
            opts[n] = r * 5 + c
            n += 1
    return opts, n
