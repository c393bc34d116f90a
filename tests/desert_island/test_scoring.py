"""Desert Island's scoring (docs/RULES-DI.md D7, D8): the rulebook's own cases, each as written."""

from __future__ import annotations

import pytest

from sim.desert_island.scoring import score, win_shares

SIX = ("Bosun", "Cap", "Ladle", "Snob", "Milady", "Kid")


def alive(*dead: str) -> dict[str, bool]:
    return {name: name not in dead for name in SIX}


def test_own_survival_a_living_friend_and_a_dead_enemy_each_pay():
    assert score("Cap", "Snob", "Bosun", alive()) == 5 + 7  # Cap survives (5), so does Snob (7)
    assert score("Cap", "Snob", "Bosun", alive("Bosun")) == 5 + 7 + 8  # Bosun's strength
    assert score("Cap", "Snob", "Bosun", alive("Cap", "Snob")) == 0
    assert score("Cap", "Snob", "Bosun", alive("Cap"), treasure=6) == 7 + 6  # treasures pay the dead too


def test_a_friend_who_is_oneself_pays_the_survival_twice():
    assert score("Ladle", "Ladle", "Kid", alive()) == 6 + 6
    assert score("Ladle", "Ladle", "Kid", alive("Ladle", "Kid")) == 4  # dead: only the enemy's strength


def test_a_psychopath_scores_every_death_but_its_own_and_its_friends():
    # Milady's sworn enemy is Milady; her friend Cap is dead, as are Bosun and Kid
    assert score("Milady", "Cap", "Milady", alive("Cap", "Bosun", "Kid")) == 8 + 2 * 2
    assert score("Milady", "Cap", "Milady", alive("Milady", "Bosun")) == 5 + 2  # dead herself: Cap lives, Bosun pays


def test_friend_and_enemy_both_oneself():
    """Survival if alive, the friend's (one's own) survival, and 2 for each dead character."""
    assert score("Snob", "Snob", "Snob", alive("Bosun", "Kid")) == 7 + 7 + 2 * 2
    assert score("Snob", "Snob", "Snob", alive("Snob", "Bosun")) == 2


def test_friend_and_enemy_the_same_character():
    """Survival points while that character lives, its strength once it is dead."""
    assert score("Kid", "Bosun", "Bosun", alive("Kid")) == 4
    assert score("Kid", "Bosun", "Bosun", alive("Kid", "Bosun")) == 8


@pytest.mark.parametrize("scores, dead, shares", [
    ([9, 4, 9, 1], (), [0.5, 0.0, 0.5, 0.0]),  # tied winners share the win (D8)
    ([3, 7, 2, 7, 8], ("Bosun",), [0.0, 0.0, 0.0, 0.0, 1.0]),
    ([5, 5, 5, 5, 5, 5], SIX, [0.0] * 6),  # everyone dead: a general loss, whatever the scores
])
def test_the_highest_score_wins_and_an_island_of_the_dead_is_lost(scores, dead, shares):
    assert win_shares(scores, alive(*dead)) == pytest.approx(shares)
