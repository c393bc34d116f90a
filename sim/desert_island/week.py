"""The parts of a Desert Island week that read the fate cards: the lookout (part 3), the week's
event and whom it strikes (part 4), as the rulebook states them; D9 in docs/RULES-DI.md decides
the one case it leaves open (how far a storm reaches when fate strikes several characters).
"""

from __future__ import annotations

from collections.abc import Sequence

NOTHING, FIRE, SHIP = "nothing", "fire", "ship"  # what a lookout sees


def lookout(markers: Sequence[str | None]) -> str:
    """What the cards turned up at the lookout show: wood, a torch and a ship bring a ship (one
    ship token, however many ships); wood and a torch without a ship light a fire no ship sees;
    anything less leaves the fire's tokens for next week."""
    seen = set(markers)
    if "wood" in seen and "torch" in seen:
        return SHIP if "ship" in seen else FIRE
    return NOTHING


def week_event(played: Sequence[str]) -> str:
    """The week's event from the events of the fate cards played, in the order they were played:
    the most frequent one, and among equally frequent ones the one that reached that count first
    (the rulebook's example: rats, boar, boar, malaria, rats, storm is a boar's week)."""
    best = max(played.count(event) for event in played)
    seen: dict[str, int] = {}
    for event in played:
        seen[event] = seen.get(event, 0) + 1
        if seen[event] == best:
            return event
    raise ValueError("no fate card was played")


def struck(tokens: dict[str, int]) -> list[str]:
    """Whom fate strikes: the living characters with the most fate tokens on their card and their
    place together (`tokens`: character -> that total), all of them where several tie."""
    most = max(tokens.values())
    return [who for who, n in tokens.items() if n == most]


def storm_reach(struck_places: Sequence[int]) -> int:
    """How far a storm reaches (D9): from the Beach (place 1) up to the place of the character
    fate strikes; where it strikes several, up to the furthest of their places."""
    return max(struck_places)
