"""Island Escape at the play page's table: one game played by people, step by step, with the
reference engine as the referee (`GAME.table()`, served by experiments/play/server.py).

A `Session` holds the whole game (hidden parts included) on the server. Everything it hands out
goes through `public_state`, built from what R19 calls public: the identity of a face-down tile
and the order of the undrawn column and row cards never leave this module.

The island and the flood order are those of kernel game `(seed, 0)`: the deal and the piles come
from the kernel's own random streams, so the bots can play the very same game
(`run_games(rules, policy, 1, seed)`) and `island-escape simulate --seed S` starts with it.
"""

from __future__ import annotations

import copy
import datetime as dt
import os
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from policies.game import ECHO_LIMIT, clip, counted, shorten
from sim.island_escape import layout as L
from sim.island_escape.convert import card_code
from sim.island_escape.engine import DOWN, Action, IslandEscapeEngine, PileSource
from sim.island_escape.kernel import deal_layout, shuffle_piles
from sim.island_escape.narrative import Narrator, ending_text
from sim.island_escape.records import Record, layout_grid, write_record
from sim.island_escape.rules import DIRECTIONS, SUIT_SYMBOL, RuleError, Rules, gauge_order_problem, pretty, step

Place = tuple[int, int]
BOT_POLICIES = ("expert", "greedy", "novice", "lookahead")  # who plays the people's game too
# The report's levels a table may choose, and the report files holding them: the levels to print
# (anchored on Forbidden Island, whose expert is its skill-1 player) where made, else the expert's.
LEVELS = ("easy", "normal", "hard")
LEVEL_REPORTS = ("difficulty-anchored.json", "difficulty.json")
RULE_KEYS = ("players", "cards_per_treasure", "swim_cost", "actions_per_turn", "gauge")  # RECORD-FORMAT's


class PlayError(ValueError):
    """A request the referee refuses; `status` is the HTTP status to answer with (409: not now)."""

    def __init__(self, message: str, status: int = 409):
        super().__init__(message)
        self.status = status


def rules_of_request(rule_keys: dict) -> Rules:
    """The rules a new game asks for (RECORD-FORMAT rule keys, players included), checked: an
    unknown key or an impossible setting is a PlayError (400) saying which."""
    unknown = sorted(set(rule_keys) - set(RULE_KEYS))
    if unknown:
        raise PlayError(f"unknown rule {clip(unknown[0])}", 400)
    try:
        rules = Rules(**rule_keys)
    except (RuleError, TypeError) as exc:
        raise PlayError(f"bad rules: {shorten(str(exc), 200)}", 400) from None
    problem = gauge_order_problem(rules.gauge)  # R3: the water rises down the gauge in rank order
    if problem:
        raise PlayError(f"bad rules: gauge: {shorten(problem, 200)}", 400)
    return rules


def kernel_island(seed: int, game: int, passes: int) -> tuple[dict[Place, str], list[Place]]:
    """The layout (R4) and the first `passes` passes of floods (R14) of kernel game (seed, game).

    Calls the kernel's own deal and pile shuffles on its own streams, so the flood order does not
    depend on how the game is played: each pass draws the same numbers whatever happened before.
    """
    rng = np.empty(3, dtype=np.uint64)
    L.seed_streams(rng, seed, game)
    cards = np.empty(25, dtype=np.int64)
    deal_layout(rng, cards)
    layout = {(i % 5 + 1, i // 5 + 1): card_code(int(c)) for i, c in enumerate(cards)}
    s = np.zeros(L.NSTATE, dtype=np.int32)
    floods: list[Place] = []
    for _ in range(passes):
        shuffle_piles(s, rng)
        floods += [(int(s[L.COLP + k]), int(s[L.ROWP + k])) for k in range(5)]
    return layout, floods


class _NeedEscape(Exception):
    def __init__(self, pawn: int, options: list[Place]):
        self.pawn, self.options = pawn, options


def action_place(action: Action, game: IslandEscapeEngine) -> Place | None:
    """The place an action is about: where a move or swim ends, what is shored or salvaged."""
    if action.kind in ("move", "swim"):
        here = game.pawns[game.current_pawn]
        return step(here, DIRECTIONS[action.direction], 1 if action.kind == "move" else 2)
    return action.place


def action_label(action: Action, game: IslandEscapeEngine) -> str:
    """What a button says: the action in words, with the place's card when it is public."""
    here = game.pawns[game.current_pawn]
    if action.kind in ("move", "swim"):
        target = action_place(action, game)
        tile = game.board[target]
        what = "face down" if tile.state == DOWN else pretty(tile.card)
        verb = "Move" if action.kind == "move" else f"Swim ({counted(game.rules.swim_cost, 'action')})"
        return f"{verb} {action.direction} to {target[0]},{target[1]} ({what})"
    if action.kind in ("shore", "salvage"):
        card = pretty(game.board[action.place].card)
        verb = "Shore up" if action.kind == "shore" else "Salvage"
        return f"{verb} {card} at {action.place[0]},{action.place[1]}"
    if action.kind == "give":
        return f"Give {' '.join(pretty(c) for c in action.cards)} to pawn {action.to}"
    if action.kind == "raise":
        suit = SUIT_SYMBOL[game.board[here].card[-1]]
        return f"Raise the {suit} treasure with {' '.join(pretty(c) for c in action.cards)}"
    return "Take off - escape the island!"


@dataclass
class Session:
    """A game in progress. Every method that changes it checks first and changes nothing on refusal."""

    id: str
    rules: Rules
    seed: int
    records_dir: Path
    level: str | None = None
    game: IslandEscapeEngine = field(init=False)
    turns: list[list[str]] = field(default_factory=list)
    story: list[str] = field(default_factory=list)
    escape_choices: dict[int, Place] = field(default_factory=dict)
    pending: dict | None = None  # an escape waiting for the players' choice (R15)
    seed_chosen: bool = False  # typed in by the players, who then know the island in advance
    record_name: str | None = None  # the saved record's file name in records_dir
    record_problem: str | None = None  # why the finished game's record could not be saved
    bots: dict[str, dict | None] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        layout, floods = kernel_island(self.seed, 0, len(self.rules.gauge))
        self.layout = layout
        self.game = IslandEscapeEngine(self.rules, layout, PileSource(self.seed, floods))
        self.narrator = Narrator()
        self._seen_events = 0
        self._begin_turn()

    # -- phases --

    @property
    def phase(self) -> str:
        if self.game.over:
            return "over"
        if self.pending:
            return "escape"
        if self.game.floods_left:
            return "flood"
        return "actions"

    def _begin_turn(self) -> None:
        self.game.begin_turn()
        self.turns.append([])
        self.story.append(f"Turn {self.game.turn}: pawn {self.game.current_pawn} plays")

    def _narrate(self) -> None:
        for e in self.game.events[self._seen_events:]:
            who = f"pawn {e.pawn} " if e.kind in ("move", "swim", "shore", "salvage", "give", "raise",
                                                  "takeoff") else ""
            self.story.append("  " + who + self.narrator.describe(e).strip())
        self._seen_events = len(self.game.events)

    # -- the actions phase --

    def offered_actions(self) -> list[Action]:
        """The engine's legal actions, plus each single card of a give (R11 lets any cards go)."""
        game = self.game
        if self.phase != "actions":
            return []
        out = game.legal_actions()
        for a in list(out):
            if a.kind == "give" and len(a.cards) > 1:
                out += [Action("give", to=a.to, cards=(c,)) for c in a.cards]
        return [a for a in out if game.check(a) is None]

    def act(self, pawn: object, entry: object) -> None:
        """Play one action (a RECORD-FORMAT entry, or `end` to end the turn) for `pawn`."""
        if not isinstance(pawn, int) or isinstance(pawn, bool):
            raise PlayError("'pawn' must be the number of the pawn whose turn it is", 400)
        if not isinstance(entry, str):
            raise PlayError("'action' must be a text entry such as 'move up' or 'end'", 400)
        if self.phase != "actions":
            raise PlayError(f"no action now: the game is in its {self.phase} phase")
        if pawn != self.game.current_pawn:
            raise PlayError(f"it is pawn {self.game.current_pawn}'s turn, not pawn {pawn}'s")
        if entry.strip() == "end":
            self._start_floods()
            return
        try:
            action = Action.parse(entry)
        except ValueError as exc:
            raise PlayError(f"{clip(entry)} is not an action: {shorten(str(exc), 2 * ECHO_LIMIT)}", 400) from None
        if action not in self.offered_actions():
            reason = self.game.check(action) or "the page offers no such action"
            raise PlayError(f"{clip(entry)} is not legal now: {reason}")
        self.game.apply(action)
        self.turns[-1].append(str(action))
        self._narrate()
        if self.game.over:
            self._finish()
        elif self.game.actions_left == 0:
            self._start_floods()

    def _start_floods(self) -> None:
        self.game.start_flood_phase()
        self.story.append(f"  the flood phase: {counted(self.game.floods_left, 'flood')}")

    # -- the flood phase, one flood at a time --

    def _chooser(self, game: IslandEscapeEngine, pawn: int, options: list[Place]) -> Place:
        if len(options) == 1:
            return options[0]
        if pawn in self.escape_choices:
            return self.escape_choices[pawn]
        raise _NeedEscape(pawn, options)

    def flood(self) -> None:
        """Resolve the next flood; when a pawn must choose where to swim (R15), wait for it."""
        if self.phase != "flood":
            raise PlayError(f"no flood is due: the game is in its {self.phase} phase")
        # Try the flood on a copy: if a pawn has to choose its escape, the real game is left
        # untouched until the choice is made.
        trial = copy.deepcopy(self.game)
        try:
            trial.flood(self._chooser)
        except _NeedEscape as need:
            place = (self.game.col_pile[0], self.game.row_pile[0])
            self.pending = {"pawn": need.pawn, "options": need.options, "place": place,
                            "card": self.game.board[place].card}
            return
        self.game.flood(self._chooser)
        for e in self.game.events[self._seen_events:]:
            if e.kind == "escape":
                self.turns[-1].append(f"escape {e.pawn} {e.at[0]},{e.at[1]}")
        self.escape_choices = {}
        self._narrate()
        if self.game.over:
            self._finish()
        elif not self.game.floods_left:
            self._begin_turn()

    def escape(self, pawn: object, place: object) -> None:
        if self.phase != "escape":
            raise PlayError(f"no pawn is escaping: the game is in its {self.phase} phase")
        if not isinstance(pawn, int) or isinstance(pawn, bool):
            raise PlayError("'pawn' must be the number of the escaping pawn", 400)
        ok = isinstance(place, list) and len(place) == 2 and all(
            isinstance(v, int) and not isinstance(v, bool) for v in place)
        if not ok:
            raise PlayError("'place' must be [column, row]", 400)
        if pawn != self.pending["pawn"]:
            raise PlayError(f"pawn {self.pending['pawn']} is the one escaping, not pawn {pawn}")
        target = (place[0], place[1])
        if target not in self.pending["options"]:
            where = " ".join(f"{c},{r}" for c, r in self.pending["options"])
            raise PlayError(f"pawn {pawn} can swim only to {where} (R15), not {target[0]},{target[1]}")
        self.escape_choices[pawn] = target
        self.pending = None
        self.flood()

    # -- the end --

    def record(self) -> Record:
        floods = list(zip(self._drawn_columns(), self._drawn_rows(), strict=True))
        result = None
        if self.game.over:
            cause = self.game.outcome
            result = {"outcome": "win" if cause == "win" else "loss", "cause": cause,
                      "turns": self.game.turn, "floods": self.game.floods, "played_by": "people"}
        turns = [list(t) for t in self.turns]
        return Record(self.rules, layout_grid(self.layout), self.seed, floods, turns, result)

    def _drawn_columns(self) -> list[int]:
        return [c for c, _ in self.game.pile_source.script[: self.game.floods]]

    def _drawn_rows(self) -> list[int]:
        return [r for _, r in self.game.pile_source.script[: self.game.floods]]

    def _finish(self) -> None:
        self.story.append(ending_text(self.game))
        self.save_record()

    def save_record(self) -> bool:
        """Write the finished game's record, whole or not at all: into a temporary file of the
        same folder, then renamed over the final name. A failure keeps the game (it is over
        either way) and says why, so the page can ask again."""
        if not self.game.over:
            raise PlayError(f"the game is not over: it is in its {self.phase} phase")
        if self.record_name:
            return True
        stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%d-%H%M%S")
        name = f"playtest-{stamp}-seed{self.seed}-{self.id[:8]}.json"
        try:
            self.records_dir.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(prefix=".playtest-", suffix=".tmp", dir=self.records_dir)
            os.close(handle)
            try:
                write_record(temporary, self.record())
                os.replace(temporary, self.records_dir / name)
            except BaseException:
                Path(temporary).unlink(missing_ok=True)
                raise
        except OSError as exc:
            self.record_problem = f"the record could not be saved ({exc.strerror or type(exc).__name__})"
            return False
        self.record_name, self.record_problem = name, None
        return True

    # -- what the page may see (R19) --

    def public_state(self) -> dict:
        view = self.game.public_view()
        game = self.game
        board = [[{"card": view.board[(c, r)][0], "state": view.board[(c, r)][1]} for c in range(1, 6)]
                 for r in range(1, 6)]
        actions = []
        for a in self.offered_actions():
            item = {"entry": str(a), "kind": a.kind, "label": action_label(a, game)}
            place = action_place(a, game)
            if place:
                item["place"] = list(place)
            actions.append(item)
        pending = None
        if self.pending:
            pending = {"pawn": self.pending["pawn"], "place": list(self.pending["place"]),
                       "card": self.pending["card"], "card_label": pretty(self.pending["card"]),
                       "options": [{"place": list(p), "card": view.board[p][0],
                                    "label": pretty(view.board[p][0]) if view.board[p][0] else "face down"}
                                   for p in self.pending["options"]]}
        end = None
        if game.over:
            end = {"outcome": "win" if game.outcome == "win" else "loss", "cause": game.outcome,
                   "text": ending_text(game), "turns": game.turn, "floods": game.floods,
                   "record": self.record_name, "record_problem": self.record_problem}
        return {
            # the seed decides every card still face down and every flood to come: only once it is
            # over, and as digits (a 63-bit number is beyond a JavaScript number)
            "id": self.id, "seed": str(self.seed) if game.over else None, "seed_chosen": self.seed_chosen,
            "level": self.level, "rules": self.rules.as_record(),
            "phase": self.phase, "turn": view.turn, "pawn": view.pawn, "actions_left": view.actions_left,
            "floods_left": game.floods_left, "floods": view.floods, "board": board,
            "pawns": [list(p) for p in view.pawns], "salvage": [list(h) for h in view.salvage],
            "raised": list(view.raised), "gauge": list(view.gauge),
            "drawn": [[c, r] for c, r in zip(view.columns_drawn, view.rows_drawn, strict=True)],
            "actions": actions, "escape": pending, "end": end, "story": self.story[-14:],
            "bots": self.bots if game.over else None,
        }

    def public_game(self) -> IslandEscapeEngine:
        """A copy of the game with the hidden parts removed, for the board drawer (R19)."""
        g = copy.copy(self.game)
        g.board = {p: copy.copy(t) for p, t in self.game.board.items()}
        for t in g.board.values():
            if t.state == DOWN:
                t.card = None
        g.layout, g.pile_source, g.col_pile, g.row_pile = {}, None, [], []
        g.events = []
        return g


def board_svg(session: Session) -> str:
    """The island as the players see it (R19: face-down cards stay hidden), as SVG text headed
    by whose turn it is or how the game ended."""
    from sim.island_escape.boards import board_svg as drawn

    game = session.public_game()
    if game.over:
        title = "The team escapes!" if game.outcome == "win" else f"Lost: {game.outcome}"
    else:
        title = f"Turn {game.turn}: pawn {game.current_pawn}"
    return drawn(game, title)


def bot_result(rules_json: dict, seed: int, policy: str) -> dict:
    """How `policy` fares on kernel game (seed, 0): the same island and flood order as the people.

    Runs in a worker process (see server.py): compiling a policy's kernel holds the GIL for
    seconds, which would freeze the page if it ran in a thread of the server.
    """
    from policies.runner import run_games

    raw = run_games(Rules(**rules_json), policy, 1, seed, threads=1)
    row = dict(zip(L.RESULT_FIELDS, (int(v) for v in raw[0]), strict=True))
    cause = L.CAUSES[row["cause"]]
    return {"outcome": "win" if cause == "win" else "loss", "cause": cause,
            "turns": row["turns"], "treasures_raised": row["treasures_raised"]}


__all__ = ["BOT_POLICIES", "LEVELS", "LEVEL_REPORTS", "PlayError", "Session", "board_svg", "bot_result",
           "kernel_island", "rules_of_request"]
