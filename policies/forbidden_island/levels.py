"""Forbidden Island's printed levels as a yardstick: its ladder, and the published bot's numbers on it.

Its four levels (the starting water mark, F4: Novice, Normal, Elite, Legendary) were playtested by
people and printed on its water meter, so their win rates under one kind of player are reference
points that another game's ladder can borrow (experiments/anchor.py measures them). The
open-source simulator GrahamLea/forbidden-island-kotlin published its rule-based bot's rates
(100,000 games a cell); rulings F1-F14 follow its reading of the rules so that the comparison is
like for like.

Every name here is what a report of a printed ladder asks of a game (experiments/anchor.py).
"""

from __future__ import annotations

# The published rule-based bot (its RuleBasedGamePlayer's results, 100,000 games a cell; 1.2
# million games in 2,763.7 s, about 434 games/s).
PUBLISHED_GAMES = 100_000
PUBLISHED_GAMES_PER_S = 1_200_000 / 2763.7
PUBLISHED_WIN = {
    2: {"novice": 0.2019, "normal": 0.0891, "elite": 0.0230, "legendary": 0.0078},
    3: {"novice": 0.1847, "normal": 0.0846, "elite": 0.0272, "legendary": 0.0081},
    4: {"novice": 0.0869, "normal": 0.0393, "elite": 0.0124, "legendary": 0.0021},
}
# Outcomes pooled over 2-4 players (equal games per player count), per level, as published; the
# published names map onto F14's causes.
PUBLISHED_CAUSES = {
    "win": {"novice": 0.158, "normal": 0.071, "elite": 0.021, "legendary": 0.006},
    "treasure": {"novice": 0.346, "normal": 0.420, "elite": 0.493, "legendary": 0.418},
    "fools_landing": {"novice": 0.201, "normal": 0.210, "elite": 0.213, "legendary": 0.172},
    "water": {"novice": 0.162, "normal": 0.168, "elite": 0.146, "legendary": 0.323},
    "drowned": {"novice": 0.133, "normal": 0.131, "elite": 0.126, "legendary": 0.080},
}
PUBLISHED_TREASURES = {"novice": 2.44, "normal": 2.05, "elite": 1.65, "legendary": 1.37}
CAUSE_TEXT = {"win": "won", "treasure": "both pickup tiles of a treasure sank", "fools_landing": "Fools' Landing sank",
              "water": "the water reached the skull", "drowned": "a pawn drowned"}
STRONGEST_SEARCH = "lookahead"  # the strongest fair search, whose one budget the ladder page names


def search_budget_note() -> str:
    """The one budget `lookahead` searches with, at every level and player count."""
    from policies.forbidden_island import lookahead as LA

    worlds, horizon, rounds = int(LA.SCREEN), int(LA.HORIZON), int(LA.ROUNDS)
    searched = "every decision" if LA.SHARE >= 1 else f"{LA.SHARE:.0%} of its decisions"
    return (f"`lookahead` searches with one budget at every level and player count ({worlds} screening "
            f"world{'s' * (worlds > 1)}, {horizon} turns ahead, {rounds} confirmation round"
            f"{'s' * (rounds > 1)} of {int(LA.CONFIRM)} worlds, {searched}): one fixed player, so its column "
            "compares levels as the other players' do.")


# --- the ladder's page (reports/forbidden-island.md): what it says of this game ---------------------

PAGE_INTRO = (
    "Forbidden Island's levels are the starting mark on its water meter: Novice, Normal, Elite, "
    "Legendary. People playtested them; this page measures them with the lab's players on the "
    "rules of `docs/RULES-FI.md` (rulings F1-F14, which follow the published simulator "
    "GrahamLea/forbidden-island-kotlin where the rulebook is open), beside that simulator's "
    f"rule-based bot ({PUBLISHED_GAMES:,} games a cell). Every level and player count plays the same "
    "deals (game g of the seed). Intervals are 95% Wilson intervals.")
TREASURES_TEXT = "Mean treasures captured per game:"
PUBLISHED_SPEED_TEXT = "its 1.2 million games took 2,763.7 s on its author's machine"
LEVEL_AXIS = "level (starting water mark)"  # a figure's axis of the levels


def page_method(seed: int) -> list[str]:
    """The page's "How this was made": where the rules and players are, and one cell to play again."""
    return ["- Rules: `docs/RULES-FI.md`; the kernel (`sim/forbidden_island/kernel.py`) is checked decision by "
            "decision against the readable engine (`sim/forbidden_island/engine.py`).",
            "- Players (`island-escape policies --game forbidden-island`): fair ones see only what the table "
            "sees (the draw piles stay hidden; the flood discard pile is public).",
            "- Reproduce: `make report`; one cell: `island-escape simulate --game forbidden-island "
            "--players 2 --difficulty novice --policy expert --games 20000 --seed "
            f"{seed}`."]
