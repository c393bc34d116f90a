"""How a game of Desert Island is scored at its end, and who wins (rulings D7, D8 in
docs/RULES-DI.md): one place for the reference engine, the kernel's check and the reports.

A player scores for its own character (alive: its survival points), its best friend (alive: the
friend's survival points, even when the friend is itself), its sworn enemy (dead: the enemy's
strength; when the enemy is itself, the player is a psychopath and scores 2 for every dead
character but itself and its best friend instead) and its treasures (their points, alive or dead).
"""

from __future__ import annotations

from sim.desert_island.rules import CHARACTERS

STRENGTH = {name: strength for name, strength, _ in CHARACTERS}
SURVIVAL = {name: survival for name, _, survival in CHARACTERS}
PSYCHOPATH_POINTS = 2  # a dead character's worth to a player whose sworn enemy is itself


def score(character: str, friend: str, enemy: str, alive: dict[str, bool], treasure: int = 0) -> int:
    """The points of the player of `character` with best friend `friend` and sworn enemy `enemy`,
    `alive` naming every character in play (True while alive), `treasure` the points of the
    treasures it holds."""
    points = treasure
    if alive[character]:
        points += SURVIVAL[character]
    if alive[friend]:
        points += SURVIVAL[friend]
    if enemy == character:  # a psychopath: every other death pays, but the friend's
        points += PSYCHOPATH_POINTS * sum(not up for who, up in alive.items() if who not in (character, friend))
    elif not alive[enemy]:
        points += STRENGTH[enemy]
    return points


def win_shares(scores: list[int], alive: dict[str, bool]) -> list[float]:
    """Each seat's share of the win (D8): the highest score wins, tied seats share the win; when
    every character is dead the game is lost by all and no seat wins."""
    if not any(alive.values()):
        return [0.0] * len(scores)
    best = max(scores)
    winners = scores.count(best)
    return [1 / winners if s == best else 0.0 for s in scores]
