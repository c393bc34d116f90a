"""Survive the Island's board, tiles, creatures, rule parameters and action codes.

Plain data shared by the reference engine, the kernel, the records and the players, so that
all of them agree. Rulings are cited as ``S<n>``; docs/RULES-STI.md states each one and why.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path

# --- the board (S1) ------------------------------------------------------------------------------

BOARD_FOLDER = Path(__file__).resolve().parent
STANDARD_BOARD = "standard"  # sim/survive_the_island/standard-board.txt
MAX_SPACES = 256  # a space fits a byte; action codes leave room for this many (S17)
MAX_RESCUE = 8  # rescue islands a board may have

SEA, LAND, RESCUE = 0, 1, 2  # a space's kind on the printed board
KIND_CHARS = {"~": SEA, "S": SEA, "#": LAND, "R": RESCUE}
# The six neighbours of a hex in "odd-r" offset rows, in the lab's fixed order (S12 uses it):
# east, north-east, north-west, west, south-west, south-east.
DIRECTIONS = ("E", "NE", "NW", "W", "SW", "SE")
_EVEN_ROW = ((0, 1), (-1, 0), (-1, -1), (0, -1), (1, -1), (1, 0))  # (row, column) steps
_ODD_ROW = ((0, 1), (-1, 1), (-1, 0), (0, -1), (1, 0), (1, 1))


class BoardError(ValueError):
    """A board file that is not a board: the message names the file and the line."""


@dataclass(frozen=True)
class Board:
    """A hex board: its spaces row by row (top first, each row from the left), their kinds, the
    sea serpents' start spaces and each space's neighbour in each direction (-1: off the board)."""

    name: str
    cells: tuple[tuple[int, int], ...]  # (row, column) of each space
    kinds: tuple[int, ...]  # SEA, LAND or RESCUE of each space
    serpent_starts: tuple[int, ...]  # spaces, in board order
    neighbours: tuple[tuple[int, ...], ...]  # neighbours[space][direction]
    width: int  # hexes in an even row (odd rows hold one fewer)

    @property
    def spaces(self) -> int:
        return len(self.cells)

    @property
    def land(self) -> tuple[int, ...]:
        """The spaces the island tiles are shuffled onto, in board order (S3)."""
        return tuple(q for q, k in enumerate(self.kinds) if k == LAND)

    @property
    def rescue(self) -> tuple[int, ...]:
        return tuple(q for q, k in enumerate(self.kinds) if k == RESCUE)

    def space_text(self, space: int) -> str:
        """A space as records and stories name it: row and column, both from 1 (`r4c7`)."""
        r, c = self.cells[space]
        return f"r{r + 1}c{c + 1}"

    def parse_space(self, text: str) -> int:
        try:
            return self.cells.index(_parse_cell(text))
        except ValueError:
            raise ValueError(f"no space {text!r} on the board (spaces are written r<row>c<column>)") from None


def _parse_cell(text: str) -> tuple[int, int]:
    text = text.strip().lower()
    if not text.startswith("r") or "c" not in text:
        raise ValueError(text)
    row, _, col = text[1:].partition("c")
    if not (row.isdigit() and col.isdigit()):
        raise ValueError(text)
    return int(row) - 1, int(col) - 1


def board_path(name: str) -> Path:
    """The file of a board: the standard one by name, any other as a path."""
    return BOARD_FOLDER / "standard-board.txt" if name == STANDARD_BOARD else Path(name)


@lru_cache(maxsize=8)
def load_board(name: str = STANDARD_BOARD) -> Board:
    """The board in a board file (`standard` for the printed one). Raises BoardError naming the
    file and the line of the first thing wrong: an unknown character, a row with a hex missing
    (a hole), the wrong number of island spaces, an island or a sea in pieces, a rescue island
    that touches no sea."""
    path = board_path(name)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BoardError(f"board {name}: cannot be read ({exc.__class__.__name__})") from None
    rows: list[tuple[int, list[str]]] = []  # (line number, characters)
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith(";"):
            continue
        rows.append((number, line.split()))
    if len(rows) < 3:
        raise BoardError(f"{path}: a board needs at least 3 rows of hexes, it has {len(rows)}")
    width = len(rows[0][1])
    cells, kinds, serpents = [], [], []
    for r, (number, chars) in enumerate(rows):
        due = width if r % 2 == 0 else width - 1
        if len(chars) != due:
            raise BoardError(f"{path}, line {number}: {len(chars)} hexes where {due} are due "
                             "(a hole in the board, or a row too long)")
        for c, ch in enumerate(chars):
            if ch not in KIND_CHARS:
                raise BoardError(f"{path}, line {number}: {ch!r} is no hex (use ~ S # R)")
            if ch == "S":
                serpents.append(len(cells))
            cells.append((r, c))
            kinds.append(KIND_CHARS[ch])
    if len(cells) > MAX_SPACES:
        raise BoardError(f"{path}: {len(cells)} spaces, more than the {MAX_SPACES} a board may have")
    index = {cell: q for q, cell in enumerate(cells)}
    neighbours = []
    for r, c in cells:
        steps = _ODD_ROW if r % 2 else _EVEN_ROW
        neighbours.append(tuple(index.get((r + dr, c + dc), -1) for dr, dc in steps))
    board = Board(path.stem if name != STANDARD_BOARD else STANDARD_BOARD, tuple(cells), tuple(kinds),
                  tuple(serpents), tuple(neighbours), width)
    _check_board(board, path)
    return board


def _connected(board: Board, members: set[int]) -> bool:
    return bool(members) and _body(board, members, min(members)) == members


def _body(board: Board, members: set[int], start: int) -> set[int]:
    """The spaces of `members` reachable from `start` through `members`."""
    seen, todo = {start}, [start]
    while todo:
        q = todo.pop()
        for n in board.neighbours[q]:
            if n in members and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def _check_board(board: Board, path: Path) -> None:
    land = set(board.land)
    sea = {q for q, k in enumerate(board.kinds) if k == SEA}
    if len(land) != TILES_TOTAL:
        raise BoardError(f"{path}: {len(land)} island spaces (#), where the {TILES_TOTAL} tiles need {TILES_TOTAL}")
    if not _connected(board, land):
        raise BoardError(f"{path}: the island (#) is in pieces")
    if not board.rescue:
        raise BoardError(f"{path}: no rescue island (R)")
    if len(board.rescue) > MAX_RESCUE:
        raise BoardError(f"{path}: {len(board.rescue)} rescue islands (R), more than the {MAX_RESCUE} a board may have")
    for q in board.rescue:
        if not any(n >= 0 and board.kinds[n] == SEA for n in board.neighbours[q]):
            raise BoardError(f"{path}: the rescue island at {board.space_text(q)} touches no sea")
    # A lake inside the island is allowed (the printed board's centre); the open sea that leads to
    # the rescue islands must be one body, or some of them could never be reached by raft.
    shore = {n for q in board.rescue for n in board.neighbours[q] if n >= 0 and board.kinds[n] == SEA}
    if not shore <= _body(board, sea, min(shore)):
        raise BoardError(f"{path}: the sea is in pieces: some rescue islands cannot be reached from the others")
    if not any(board.kinds[n] == SEA for q in land for n in board.neighbours[q] if n >= 0):
        raise BoardError(f"{path}: the island touches no sea")


# --- tiles (S3, S4) ---------------------------------------------------------------------------

TERRAINS = ("beach", "forest", "mountain")  # the order they sink in
BEACH, FOREST, MOUNTAIN = range(3)
# A tile's back: five effects applied at once, five abilities kept face down (S4).
BACKS = ("shark", "kaiju", "raft", "whirlpool", "volcano", "oars", "dolphin", "repellent", "dive", "die")
SHARK_TILE, KAIJU_TILE, RAFT_TILE, WHIRLPOOL, VOLCANO, OARS, DOLPHIN, REPELLENT, DIVE, DIE = range(10)
EFFECTS = BACKS[:5]
ABILITIES = BACKS[5:]
FIRST_ABILITY = OARS
# How many tiles of each terrain carry each back. The effects are as described for the 2024
# edition; the abilities fill each terrain up to the earlier edition's 16/16/8 (S4).
TILE_COUNTS: dict[str, dict[str, int]] = {
    "beach": {"shark": 3, "kaiju": 3, "raft": 1, "oars": 3, "dolphin": 2, "repellent": 2, "dive": 1, "die": 1},
    "forest": {"shark": 3, "kaiju": 2, "raft": 3, "whirlpool": 2,
               "oars": 1, "dolphin": 1, "repellent": 1, "dive": 2, "die": 1},
    "mountain": {"whirlpool": 3, "volcano": 4, "dive": 1},
}
# Every tile, in the canonical order the deal shuffles (S3): (terrain, back) by terrain, then by
# back in BACKS order.
TILES: tuple[tuple[int, int], ...] = tuple(
    (TERRAINS.index(t), BACKS.index(b)) for t in TERRAINS for b in BACKS for _ in range(TILE_COUNTS[t].get(b, 0)))
TILES_TOTAL = len(TILES)
VOLCANO_TILES = sum(1 for _, b in TILES if b == VOLCANO)
assert TILES_TOTAL == 40 and VOLCANO_TILES == 4

# --- creatures (S2, S5) -----------------------------------------------------------------------

CREATURES = ("serpent", "shark", "kaiju")
SERPENT, SHARK, KAIJU = range(3)
# Creature slots: serpents first, then sharks, then kaijus, each kind up to its maximum; a slot
# past a kind's count is never used.
MAX_SERPENTS, MAX_SHARKS, MAX_KAIJUS = 5, 8, 4
CREATURE_BASE = (0, MAX_SERPENTS, MAX_SERPENTS + MAX_SHARKS)
MAX_CREATURES = MAX_SERPENTS + MAX_SHARKS + MAX_KAIJUS


def creature_kind(slot: int) -> int:
    return SERPENT if slot < CREATURE_BASE[SHARK] else SHARK if slot < CREATURE_BASE[KAIJU] else KAIJU


# --- pieces (S6) ------------------------------------------------------------------------------

VALUES = (1, 2, 3, 4, 5)  # treasure values of a colour's adventurers: two of each
COLOUR_ADVENTURERS = 10
MAX_PLAYERS = 5
MAX_ADVENTURERS = 50
MAX_RAFTS = 24


# --- rule parameters ----------------------------------------------------------------------------

# S7: the order of the set-up's placements. "round": seat 0, 1, ..., n-1, then seat 0 again (the
# printed rule); "snake": every second round runs backwards (0 ... n-1, n-1 ... 0, 0 ...), so that
# the seat that places last in one round places first in the next.
SETUP_ORDERS = ("round", "snake")


def placing_seat(placed: int, players: int, setup: str) -> int:
    """The seat that makes set-up placement number `placed` (from 0) of one kind (adventurers, or
    rafts: each kind starts again from seat 0), S7."""
    turn, seat = divmod(placed, players)
    return players - 1 - seat if setup == "snake" and turn % 2 else seat


class RuleError(ValueError):
    pass


@dataclass(frozen=True)
class Rules:
    """The rule parameters a sweep varies; everything else is the printed game."""

    players: int = 4
    moves: int = 3  # moves a turn, shared by one's adventurers and rafts (S7)
    sharks: int = 6  # S5
    kaijus: int = 2
    serpents: int = 5  # on the board's first serpent spaces (S2)
    rafts: int = 12  # every raft, the players' own and the supply (S6)
    raft_capacity: int = 3
    volcanoes_to_end: int = 3  # the volcano that ends the game (S14)
    die: tuple[int, int, int] = (2, 2, 2)  # faces of the creature die per creature (S5)
    board: str = STANDARD_BOARD  # a board file (S1)
    setup: str = "round"  # the order the seats place their pieces in (S7): "round" or "snake"

    def __post_init__(self):
        object.__setattr__(self, "die", tuple(int(x) for x in self.die))
        checks = [
            ("players", 2, MAX_PLAYERS), ("moves", 1, 9), ("sharks", 1, MAX_SHARKS), ("kaijus", 1, MAX_KAIJUS),
            ("raft_capacity", 1, 5), ("volcanoes_to_end", 1, VOLCANO_TILES),
        ]
        for name, low, high in checks:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise RuleError(f"rules.{name} must be a whole number {low}-{high}, not {value!r}")
        try:
            board = load_board(self.board)
        except BoardError as exc:
            raise RuleError(str(exc)) from None
        top = min(MAX_SERPENTS, len(board.serpent_starts))
        if isinstance(self.serpents, bool) or not isinstance(self.serpents, int) or not 0 <= self.serpents <= top:
            raise RuleError(f"rules.serpents must be a whole number 0-{top} (the board's serpent spaces), "
                            f"not {self.serpents!r}")
        own = self.players * self.rafts_each
        if isinstance(self.rafts, bool) or not isinstance(self.rafts, int) or not own <= self.rafts <= MAX_RAFTS:
            raise RuleError(f"rules.rafts must be a whole number {own}-{MAX_RAFTS} (each player places "
                            f"{self.rafts_each}), not {self.rafts!r}")
        if self.setup not in SETUP_ORDERS:
            raise RuleError(f"rules.setup must be one of {', '.join(SETUP_ORDERS)}, not {self.setup!r}")
        if len(self.die) != 3 or min(self.die) < 0 or sum(self.die) < 1 or max(self.die) > 6:
            raise RuleError(f"rules.die must be three face counts 0-6 (serpent, shark, kaiju), not {self.die!r}")

    @property
    def colours_each(self) -> int:
        """Colours a player plays: two in a game of two (S6)."""
        return 2 if self.players == 2 else 1

    @property
    def adventurers_each(self) -> int:
        return COLOUR_ADVENTURERS * self.colours_each

    @property
    def adventurers(self) -> int:
        return self.players * self.adventurers_each

    @property
    def rafts_each(self) -> int:
        return 2 * self.colours_each

    @property
    def board_data(self) -> Board:
        return load_board(self.board)

    def as_record(self) -> dict:
        """The rules as a record and `simulate --json` write them."""
        return self.as_dict()

    def as_dict(self) -> dict:
        data = asdict(self)
        data["die"] = list(self.die)
        return data

    @classmethod
    def from_dict(cls, data: dict) -> Rules:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        if "die" in known:
            known["die"] = tuple(known["die"])
        return cls(**known)


def seat_values(rules: Rules) -> tuple[int, ...]:
    """A seat's adventurers' values before the deal shuffles them: two of each value a colour."""
    return tuple(v for v in VALUES for _ in range(2 * rules.colours_each))


def first_adventurer(rules: Rules, seat: int) -> int:
    """Adventurers are numbered seat by seat: seat k's are k*E ... k*E + E-1 (E a seat's count)."""
    return seat * rules.adventurers_each


# --- action codes (S17) ----------------------------------------------------------------------

END = 0  # end the action phase
PLACE = 1  # + space: place a raft during set-up
MOVE_ADVENTURER = 300  # + 6 * adventurer + direction
MOVE_RAFT = 600  # + 6 * raft + direction
FLOOD = 800  # + space: the tile to remove
PUSH = 1100  # + direction: where a kaiju pushes the adventurers of its space
USE_DIE = 1110  # play a creature-die ability: roll, then move that creature
KEEP_REPELLENT = 1111  # S15: let the shark or kaiju act, the repellent kept
USE_REPELLENT = 1112  # S15: spend a repellent, the creature leaves the board
OARS_MOVE = 1200  # + 12 * raft + 2 * direction + (distance - 1)
DOLPHIN_MOVE = 1500  # + 12 * adventurer + 2 * direction + (distance - 1)
CREATURE_MOVE = 2200  # + MAX_SPACES * creature slot + space
DIVE_MOVE = 7000  # + MAX_SPACES * creature slot + space
# S7: + MAX_SPACES * (value - 1) + space: place one of one's own adventurers of that treasure value
# (adventurers of one value are alike, so the value is the choice, not the adventurer's number)
PLACE_ADVENTURER = 12000
ACTION_LIMIT = PLACE_ADVENTURER + MAX_SPACES * max(VALUES)


def decode(code: int) -> tuple:
    """An action code as (kind, fields...): ("end",), ("place", space) (a raft),
    ("adventurer", value, space) (its placement), ("move", adventurer, direction), ("raft", raft,
    direction), ("flood", space), ("push", direction), ("die",), ("keep",), ("repel",), ("oars", raft, direction,
    distance), ("dolphin", adventurer, direction, distance), ("creature", slot, space),
    ("dive", slot, space)."""
    if code == END:
        return ("end",)
    if PLACE <= code < PLACE + MAX_SPACES:
        return ("place", code - PLACE)
    if MOVE_ADVENTURER <= code < MOVE_RAFT:
        return ("move", *divmod(code - MOVE_ADVENTURER, 6))
    if MOVE_RAFT <= code < FLOOD:
        return ("raft", *divmod(code - MOVE_RAFT, 6))
    if FLOOD <= code < FLOOD + MAX_SPACES:
        return ("flood", code - FLOOD)
    if PUSH <= code < PUSH + 6:
        return ("push", code - PUSH)
    if code == USE_DIE:
        return ("die",)
    if code == KEEP_REPELLENT:
        return ("keep",)
    if code == USE_REPELLENT:
        return ("repel",)
    if OARS_MOVE <= code < DOLPHIN_MOVE:
        raft, rest = divmod(code - OARS_MOVE, 12)
        return ("oars", raft, rest // 2, rest % 2 + 1)
    if DOLPHIN_MOVE <= code < CREATURE_MOVE:
        adventurer, rest = divmod(code - DOLPHIN_MOVE, 12)
        return ("dolphin", adventurer, rest // 2, rest % 2 + 1)
    if CREATURE_MOVE <= code < DIVE_MOVE:
        return ("creature", *divmod(code - CREATURE_MOVE, MAX_SPACES))
    if DIVE_MOVE <= code < DIVE_MOVE + MAX_SPACES * MAX_CREATURES:
        return ("dive", *divmod(code - DIVE_MOVE, MAX_SPACES))
    if PLACE_ADVENTURER <= code < ACTION_LIMIT:
        value, space = divmod(code - PLACE_ADVENTURER, MAX_SPACES)
        return ("adventurer", value + 1, space)
    raise ValueError(f"{code} is no Survive the Island action code")


def encode(action: tuple) -> int:
    """The code of a decoded action (decode's inverse)."""
    kind, *rest = action
    if kind == "end":
        return END
    if kind == "place":
        return PLACE + rest[0]
    if kind == "move":
        return MOVE_ADVENTURER + 6 * rest[0] + rest[1]
    if kind == "raft":
        return MOVE_RAFT + 6 * rest[0] + rest[1]
    if kind == "flood":
        return FLOOD + rest[0]
    if kind == "push":
        return PUSH + rest[0]
    if kind == "die":
        return USE_DIE
    if kind == "keep":
        return KEEP_REPELLENT
    if kind == "repel":
        return USE_REPELLENT
    if kind == "oars":
        return OARS_MOVE + 12 * rest[0] + 2 * rest[1] + rest[2] - 1
    if kind == "dolphin":
        return DOLPHIN_MOVE + 12 * rest[0] + 2 * rest[1] + rest[2] - 1
    if kind == "creature":
        return CREATURE_MOVE + MAX_SPACES * rest[0] + rest[1]
    if kind == "dive":
        return DIVE_MOVE + MAX_SPACES * rest[0] + rest[1]
    if kind == "adventurer" and rest[0] in VALUES:
        return PLACE_ADVENTURER + MAX_SPACES * (rest[0] - 1) + rest[1]
    raise ValueError(f"{action!r} is no Survive the Island action")


def action_text(code: int, board: Board) -> str:
    """An action as records write it: `move 12 NE`, `flood r4c7`, `creature 6 r2c3`; an
    adventurer's placement names its value and space, `place 5 r4c7`, a raft's its space alone."""
    kind, *rest = decode(code)
    if kind == "adventurer":
        return f"place {rest[0]} {board.space_text(rest[1])}"
    if kind in ("place", "flood"):
        return f"{kind} {board.space_text(rest[0])}"
    if kind in ("move", "raft"):
        return f"{kind} {rest[0]} {DIRECTIONS[rest[1]]}"
    if kind == "push":
        return f"push {DIRECTIONS[rest[0]]}"
    if kind in ("oars", "dolphin"):
        return f"{kind} {rest[0]} {DIRECTIONS[rest[1]]} {rest[2]}"
    if kind in ("creature", "dive"):
        return f"{kind} {rest[0]} {board.space_text(rest[1])}"
    return kind


def parse_action(text: str, board: Board) -> int:
    """`action_text`'s inverse; ValueError naming what is wrong."""
    words = text.split()
    if not words:
        raise ValueError("an empty action")
    kind, rest = words[0], words[1:]
    try:
        if kind in ("end", "die", "keep", "repel") and not rest:
            return encode((kind,))
        if kind in ("place", "flood") and len(rest) == 1:
            return encode((kind, board.parse_space(rest[0])))
        if kind == "place" and len(rest) == 2:
            return encode(("adventurer", int(rest[0]), board.parse_space(rest[1])))
        if kind in ("move", "raft") and len(rest) == 2:
            return encode((kind, int(rest[0]), DIRECTIONS.index(rest[1])))
        if kind == "push" and len(rest) == 1:
            return encode((kind, DIRECTIONS.index(rest[0])))
        if kind in ("oars", "dolphin") and len(rest) == 3 and rest[2] in ("1", "2"):
            return encode((kind, int(rest[0]), DIRECTIONS.index(rest[1]), int(rest[2])))
        if kind in ("creature", "dive") and len(rest) == 2:
            return encode((kind, int(rest[0]), board.parse_space(rest[1])))
    except ValueError:
        pass
    raise ValueError(f"{text!r} is no Survive the Island action")
