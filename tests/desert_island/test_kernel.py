"""Desert Island's numba kernel (sim/desert_island/kernel.py) against its reference engine: the
same deal, the same legal codes before every decision, the same state after every step and the
same results row, over random games of every player count and of settings a sweep varies; and
proof that the check fails when the kernel plays another game."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from sim.desert_island import kernel as K
from sim.desert_island import layout as L
from sim.desert_island.actions import decode
from sim.desert_island.engine import DECISIONS, ENDINGS, MAX_WEEKS
from sim.desert_island.lockstep import RULE_GRID, Lockstep, Mismatch, check_result, lockstep_games, play_lockstep
from sim.desert_island.rules import Rules

GAMES = 300  # random games in lockstep for each setting

# a decks file unlike the standard one: other counts and markers, a weapon that stays in the hand,
# two entries of one name with different strengths, stronger lenses and medicine, two gardens
OTHER_DECKS = """
[fate]
characters = ["Kid", "Milady", "Snob", "Ladle", "Cap", "Bosun"]
events = ["storm", "rats", "malaria", "monkey", "boar"]
numbers = [6, 2, 4, 1, 3, 5]
markers = {wood = 12, torch = 12, ship = 6}

[items]
cards = [
    {name = "ration", kind = "food", value = 2, uses = "once", count = 6},
    {name = "feast", kind = "food", value = 6, uses = "once", count = 2},
    {name = "club", kind = "weapon", value = 1, uses = "held", count = 3},
    {name = "knife", kind = "weapon", value = 1, uses = "kept", count = 3},
    {name = "rock", kind = "weapon", value = 2, uses = "once", count = 3},
    {name = "rock", kind = "weapon", value = 3, uses = "once", count = 1},
    {name = "flare gun", kind = "weapon", value = 5, uses = "once", count = 2},
    {name = "medicine", kind = "medicine", value = 2, uses = "once", count = 4},
    {name = "gold coin", kind = "treasure", value = 1, uses = "held", count = 3},
    {name = "jewel", kind = "treasure", value = 4, uses = "held", count = 2},
    {name = "trap", kind = "trap", value = 0, uses = "once", count = 4},
    {name = "shovel", kind = "shovel", value = 3, uses = "kept", count = 2},
    {name = "spade", kind = "shovel", value = 1, uses = "kept", count = 1},
    {name = "monocle", kind = "lens", value = 2, uses = "kept", count = 1},
    {name = "spyglass", kind = "lens", value = 1, uses = "kept", count = 1},
    {name = "vegetable garden", kind = "garden", value = 3, uses = "face_up", count = 2},
]
"""


@pytest.fixture(scope="module")
def other_decks(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("decks") / "other.toml"
    path.write_text(OTHER_DECKS)
    return str(path)


def test_the_layouts_fields_do_not_overlap_and_the_legal_buffer_holds_every_offer():
    assert L.STATE.overlaps() == [] and L.PARAMS.overlaps() == []
    assert L.MAX_LEGAL >= 5 * 44 * 44 + 1  # five others, 44 goods each way, and pass (D16)
    assert L.PHASES[:-1] == DECISIONS and L.CAUSES == ENDINGS


@pytest.mark.parametrize("rules", RULE_GRID, ids=str)
def test_random_games_play_the_same_in_kernel_and_engine(rules):
    seen = lockstep_games(rules, seed=11, games=GAMES)
    assert seen["games"] == GAMES and seen["decisions"] > 50 * GAMES
    assert seen["lost"] > 0


def test_a_sweep_over_other_decks_plays_the_same_in_kernel_and_engine(other_decks):
    for players, ships, food in ((4, 3, 6), (6, 2, 10)):
        seen = lockstep_games(Rules(players=players, ships_to_rescue=ships, start_food=food, decks=other_decks),
                              seed=5, games=GAMES // 2)
        assert seen["games"] == GAMES // 2


def calm(rng: random.Random):
    """Mostly the choices that keep castaways alive and trading, so that games reach every part of
    the week (trades accepted, Ladle's flight, weapons, rescues)."""
    def choose(codes: list[int]) -> int:
        kinds = [c for c in codes if decode(c)[0] in ("food", "fire", "pass", "yield", "accept", "offer",
                                                     "flee", "weapon", "join_defender")]
        return rng.choice(kinds) if kinds and rng.random() < 0.8 else rng.choice(codes)
    return choose


def test_calm_games_reach_every_decision_a_rescue_and_a_loss_and_play_the_same():
    phases, endings = Counter(), Counter()
    for players in (4, 5, 6):
        for game in range(25):
            rules = Rules(players=players, ships_to_rescue=1 + game % 3, start_food=4 + 4 * (game % 3))
            both = Lockstep(rules, 23, game)
            choose = calm(random.Random(game))

            def count(codes, both=both, choose=choose):
                phases[both.engine.phase] += 1
                return choose(codes)

            both.play(count, L.MAX_STEPS)
            check_result(both)
            endings[both.engine.ending] += 1
    assert set(phases) == set(DECISIONS)
    assert endings["rescued"] > 0 and endings["lost"] > 0


@pytest.mark.parametrize("players", [4, 5, 6])
def test_games_moved_to_the_last_week_end_stranded_the_same(players):
    """Random play rarely outlives a few weeks, so both sides are moved to the last week (D22) at the
    same decision and played on: the game ends stranded, scored with its survivors alive."""
    stranded = 0
    for game in range(10):
        both = Lockstep(Rules(players=players, start_food=20, ships_to_rescue=9), 31, game)
        choose = calm(random.Random(game))
        both.engine.week = both.s[L.WEEK] = MAX_WEEKS
        both.compare("moved to the last week")
        both.play(choose, L.MAX_STEPS)
        check_result(both)
        stranded += both.engine.ending == "stranded"
    assert stranded >= 5


def test_play_random_plays_the_games_the_lockstep_checked():
    """The kernel's whole-game driver and the lockstep choose from the same policy stream: the same
    seed and games give the same results rows, so the driver's games are games the engine played."""
    rules = Rules(players=5)
    rows = np.zeros((12, L.NRESULT), dtype=np.int32)
    decisions = K.play_random(L.params_of(rules), 4, 30, 12, rows)
    checked = [play_lockstep(rules, 4, 30 + g) for g in range(12)]
    assert [list(row) for row in rows] == [both.result_row() for both in checked]
    assert decisions == sum(both.steps for both in checked)


def test_the_shared_entry_points_answer_as_the_engine():
    rules = Rules(players=6)
    both = Lockstep(rules, 2, 0)
    out = np.zeros(6, dtype=np.int64)
    assert K.seat_outcomes(both.s, both.p, out) == 6 and list(out) == [-1] * 6
    assert not K.is_over(both.s, both.p) and K.turn_number(both.s, both.p) == 1
    both.play(random.Random(1).choice, L.MAX_STEPS)
    assert K.is_over(both.s, both.p) and K.decider(both.s) == -1
    K.seat_outcomes(both.s, both.p, out)
    assert [share > 0 for share in both.engine.win_shares()] == [bool(x) for x in out]


def test_the_lockstep_catches_a_kernel_with_other_food_cards():
    """A kernel whose rations give one portion more plays another game: the lockstep says where."""
    with pytest.raises(Mismatch, match=r"seed 3, game \d+, step \d+ .*: \w+ differs: "):
        for game in range(20):
            both = Lockstep(Rules(players=4), 3, game)
            both.p[L.P_ITEM_VALUE:L.P_ITEM_VALUE + 4] += 1  # the four rations (decks.toml)
            both.play(random.Random(game).choice, L.MAX_STEPS)


class LegalListMissingTheLast:
    """A kernel that forgets the last legal code of a long list."""

    def __getattr__(self, name):
        return getattr(K, name)

    @staticmethod
    def legal_actions(s, p, out):
        n = K.legal_actions(s, p, out)
        return n - 1 if n > 3 else n


def test_the_lockstep_catches_a_kernel_that_lists_other_actions():
    both = Lockstep(Rules(players=4), 3, 0)
    both.kernel = LegalListMissingTheLast()
    with pytest.raises(Mismatch, match="legal actions differ"):
        both.play(random.Random(0).choice, L.MAX_STEPS)
