"""Cards, tiles, roles, the water meter and the rule parameters of Forbidden Island.

Plain data shared by the reference engine and the records module (and, later, a kernel).
Rulings are cited as ``F<n>`` (../shared/rules/FI-RULINGS.md; docs/RULES-FI.md says where each
one lives in the code).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

# --- Places (F1) -----------------------------------------------------------------------------
# A place is (column, row) on a 6x6 grid, both 1-6. The island has rows of 2, 4, 6, 6, 4, 2
# centred places: the grid without the three places nearest each corner.

ROW_SPANS = {1: (3, 4), 2: (2, 5), 3: (1, 6), 4: (1, 6), 5: (2, 5), 6: (3, 4)}
PLACES: tuple[tuple[int, int], ...] = tuple(
    (c, r) for r in range(1, 7) for c in range(ROW_SPANS[r][0], ROW_SPANS[r][1] + 1))  # row-major
PLACE_SET = frozenset(PLACES)

ORTHOGONAL = ((0, -1), (1, 0), (0, 1), (-1, 0))  # up, right, down, left
DIAGONAL = ((1, -1), (1, 1), (-1, 1), (-1, -1))
ALL_DIRECTIONS = ORTHOGONAL + DIAGONAL


def neighbours(place: tuple[int, int], diagonal: bool = False) -> list[tuple[int, int]]:
    """The island places next to `place`: sides only, or (the Explorer) corners too."""
    c, r = place
    deltas = ALL_DIRECTIONS if diagonal else ORTHOGONAL
    return [(c + dc, r + dr) for dc, dr in deltas if (c + dc, r + dr) in PLACE_SET]


def place_text(place: tuple[int, int] | None) -> str:
    return "-" if place is None else f"{place[0]},{place[1]}"


def parse_place(text: str) -> tuple[int, int]:
    """'C,R' -> (C, R); raises ValueError naming what is wrong."""
    parts = text.split(",")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise ValueError(f"{text!r} is not a place C,R")
    place = (int(parts[0]), int(parts[1]))
    if place not in PLACE_SET:
        raise ValueError(f"place {text} is not on the island (rows 1 and 6 hold columns 3-4, "
                         "rows 2 and 5 columns 2-5, rows 3 and 4 columns 1-6)")
    return place


# --- Treasures, tiles and roles (F1, F2) -------------------------------------------------------

TREASURES = ("earth", "fire", "chalice", "wind")
TREASURE_NAMES = {"earth": "the Earth Stone", "fire": "the Crystal of Fire",
                  "chalice": "the Ocean's Chalice", "wind": "the Statue of the Wind"}

ROLES = ("diver", "engineer", "explorer", "messenger", "navigator", "pilot")

FOOLS_LANDING = "fools_landing"

# code -> (name on the tile, treasure picked up there or None, role starting there or None).
# The pickup pairs follow the project's guide (caves fire, gardens earth, temples chalice,
# palaces wind); the printed game pairs them otherwise, which changes nothing (docs/RULES-FI.md).
TILES: dict[str, tuple[str, str | None, str | None]] = {
    "fools_landing": ("Fools' Landing", None, "pilot"),
    "bronze_gate": ("Bronze Gate", None, "engineer"),
    "copper_gate": ("Copper Gate", None, "explorer"),
    "gold_gate": ("Gold Gate", None, "navigator"),
    "iron_gate": ("Iron Gate", None, "diver"),
    "silver_gate": ("Silver Gate", None, "messenger"),
    "cave_of_embers": ("Cave of Embers", "fire", None),
    "cave_of_shadows": ("Cave of Shadows", "fire", None),
    "howling_garden": ("Howling Garden", "earth", None),
    "whispering_garden": ("Whispering Garden", "earth", None),
    "temple_of_the_moon": ("Temple of the Moon", "chalice", None),
    "temple_of_the_sun": ("Temple of the Sun", "chalice", None),
    "coral_palace": ("Coral Palace", "wind", None),
    "tidal_palace": ("Tidal Palace", "wind", None),
    "breakers_bridge": ("Breakers Bridge", None, None),
    "cliffs_of_abandon": ("Cliffs of Abandon", None, None),
    "crimson_forest": ("Crimson Forest", None, None),
    "dunes_of_deception": ("Dunes of Deception", None, None),
    "lost_lagoon": ("Lost Lagoon", None, None),
    "misty_marsh": ("Misty Marsh", None, None),
    "observatory": ("Observatory", None, None),
    "phantom_rock": ("Phantom Rock", None, None),
    "twilight_hollow": ("Twilight Hollow", None, None),
    "watchtower": ("Watchtower", None, None),
}
TILE_CODES = tuple(TILES)  # canonical order: the flood deck before any shuffle
assert len(TILE_CODES) == len(PLACES) == 24
START_TILE = {role: code for code, (_, _, role) in TILES.items() if role}
PICKUP_TILES = {t: tuple(code for code, (_, tr, _) in TILES.items() if tr == t) for t in TREASURES}


def tile_name(code: str) -> str:
    return TILES[code][0]


def pickup_treasure(code: str) -> str | None:
    return TILES[code][1]


# --- Treasure deck (F6, F7, F9) -------------------------------------------------------------------

LIFT = "lift"  # Helicopter Lift
SANDBAGS = "sandbags"
WATERS_RISE = "waters_rise"
SPECIALS = (LIFT, SANDBAGS)  # played from the hand, never given (F9)
CARD_COUNTS = {"earth": 5, "fire": 5, "chalice": 5, "wind": 5, LIFT: 3, SANDBAGS: 2, WATERS_RISE: 3}
TREASURE_DECK = tuple(card for card, n in CARD_COUNTS.items() for _ in range(n))  # canonical order
assert len(TREASURE_DECK) == 28
CARD_NAMES = {**{t: TREASURE_NAMES[t] for t in TREASURES}, LIFT: "Helicopter Lift", SANDBAGS: "Sandbags",
              WATERS_RISE: "Waters Rise!"}


def is_treasure_card(card: str) -> bool:
    return card in TREASURES


# --- Water meter and difficulty (F4) ----------------------------------------------------------------

SKULL = 10  # reaching this mark loses the game (F14)
FLOOD_DRAWS = {1: 2, 2: 2, 3: 3, 4: 3, 5: 3, 6: 4, 7: 4, 8: 5, 9: 5}  # mark -> flood cards a turn
DIFFICULTIES = {"novice": 1, "normal": 2, "elite": 3, "legendary": 4}  # starting mark


class RuleError(ValueError):
    """An impossible rule setting; the message names the setting and what is wrong."""


@dataclass(frozen=True)
class Rules:
    """The rule parameters of one game of Forbidden Island (F2, F3, F4, F5, F8, F12).

    Only `players` and `difficulty` vary in the published comparison; the others are the
    printed game's numbers, kept as parameters so that the rules live in one place.
    """

    players: int = 2
    difficulty: str = "novice"
    actions_per_turn: int = 3  # F5
    treasure_draws: int = 2  # F5
    hand_limit: int = 5  # F8
    setup_floods: int = 6  # F3
    setup_cards: int = 2  # F3, per player
    capture_cards: int = 4  # F12

    def __post_init__(self) -> None:
        self.validate()

    @property
    def start_mark(self) -> int:
        return DIFFICULTIES[self.difficulty]

    def validate(self) -> None:
        def whole(name: str, value: object, lo: int, hi: int) -> None:
            if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                raise RuleError(f"rules.{name} must be a whole number from {lo} to {hi}, not {value!r}")

        whole("players", self.players, 2, 4)
        if self.difficulty not in DIFFICULTIES:
            raise RuleError(f"rules.difficulty must be one of {', '.join(DIFFICULTIES)}, not {self.difficulty!r}")
        whole("actions_per_turn", self.actions_per_turn, 1, 12)
        whole("treasure_draws", self.treasure_draws, 1, 5)
        whole("hand_limit", self.hand_limit, 2, 20)
        whole("setup_floods", self.setup_floods, 0, 12)
        whole("setup_cards", self.setup_cards, 0, 5)
        whole("capture_cards", self.capture_cards, 1, 5)

    def as_record(self) -> dict:
        return asdict(self)
