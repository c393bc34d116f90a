"""Random legal play over 2-4 players and every level keeps Forbidden Island's invariants,
and random play almost never wins (the published random player's figure is near 0%)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.forbidden_island.engine import ACTION_KINDS, NAMED_KINDS, SUNK, Action, ForbiddenIslandEngine, new_game
from sim.forbidden_island.rules import CARD_COUNTS, DIFFICULTIES, PLACES, SKULL, TILE_CODES, TREASURE_DECK, Rules

from .support import random_play, scout_choice


class Invariants:
    """Checked after every decision of a random game."""

    def before(self, game: ForbiddenIslandEngine):
        return game.mark, game.turn

    def after(self, game: ForbiddenIslandEngine, before) -> None:
        mark, turn = before
        # all 28 treasure cards and all 24 flood cards, each exactly once
        assert Counter(game.treasure_cards()) == Counter(TREASURE_DECK)
        assert Counter(game.flood_cards()) == Counter(TILE_CODES)
        # a flood card is out of the game exactly when its tile has sunk (F7)
        assert set(game.flood_out) == {t for t in TILE_CODES if game.state[t] == SUNK}
        assert game.flood_pile or game.over, "an empty flood pile is refilled at once (F7)"
        assert game.treasure_pile, "an empty treasure pile is refilled at once (F7)"
        # the public layers of the flood pile cover it exactly
        assert sum(game.flood_layers) == len(game.flood_pile) and all(n > 0 for n in game.flood_layers)
        view = game.public_view()
        assert Counter(view.treasure_pile_cards()) == Counter(game.treasure_pile)
        # the meter only rises, one mark a card, and stops at the skull
        assert mark <= game.mark <= min(mark + 1, SKULL)
        assert game.turn in (turn, turn + 1)
        # no pawn stands on a sunk tile once it has had its swim; only a pawn whose sinking
        # ended the game (it drowned, or its tile was the last hope) stays where its tile was
        for seat, place in enumerate(game.pawns):
            if not game.standing(place):
                if game.over:  # the last flood card sank it (a reshuffle may follow the sinking)
                    tail = [e["kind"] for e in game.events[-3:]]
                    sink = next(e for e in reversed(game.events) if e["kind"] == "sink")
                    assert sink["place"] == place and tail[-1] == "loss" and "sink" in tail
                else:
                    assert seat in game.swimmers
        # the hand limit holds except while its discard is being decided (F8)
        for hand in game.hands:
            assert len(hand) <= game.rules.hand_limit + (game.phase == "discard")
        assert len(set(game.captured)) == len(game.captured)


@settings(max_examples=90, deadline=None)
@given(players=st.integers(2, 4), difficulty=st.sampled_from(list(DIFFICULTIES)),
       seed=st.integers(0, 2**32), choice_seed=st.integers(0, 2**32),
       player=st.sampled_from(["uniform", "kind_first", "scout"]))
def test_random_legal_play_keeps_the_invariants(players, difficulty, seed, choice_seed, player):
    """Uniform random play, random by kind, and a crude goal-seeker that reaches captures."""
    game = new_game(Rules(players=players, difficulty=difficulty), seed)
    rng = random.Random(choice_seed)
    invariants = Invariants()
    invariants.after(game, invariants.before(game))
    random_play(game, rng, invariants, kind_first=player == "kind_first",
                chooser=scout_choice if player == "scout" else None)
    assert game.over


def test_every_legal_action_checks_legal_and_random_play_ends():
    for seed in range(20):
        game = new_game(Rules(players=2 + seed % 3, difficulty=list(DIFFICULTIES)[seed % 4]), seed)
        rng = random.Random(seed)
        while not game.over:
            legal = game.legal_actions()
            assert legal and all(game.check(a) is None for a in legal)
            game.apply(rng.choice(legal))


def test_random_play_wins_almost_never():
    """Uniformly random legal decisions, 400 games over 2-4 players and all four levels."""
    outcomes = Counter()
    for seed in range(400):
        rules = Rules(players=2 + seed % 3, difficulty=list(DIFFICULTIES)[seed // 3 % 4])
        game = random_play(new_game(rules, seed), random.Random(f"choices/{seed}"))
        outcomes[game.outcome] += 1
    assert sum(outcomes.values()) == 400
    assert outcomes["win"] <= 2, outcomes
    assert set(outcomes) <= {"win", "water", "drowned", "treasure", "fools_landing"}


def test_the_scout_reaches_captures():
    """The property test's goal-seeker does take the capture paths (else it proves nothing)."""
    captures = 0
    for seed in range(40):
        game = random_play(new_game(Rules(players=2 + seed % 3), seed), random.Random(seed), chooser=scout_choice)
        captures += len(game.captured)
    assert captures >= 2


def random_candidate(game: ForbiddenIslandEngine, rng: random.Random) -> Action:
    """Any well-formed action, legal or not: a kind with random players, places and cards."""
    kind = rng.choice(ACTION_KINDS)
    players = range(-1, game.rules.players + 1)
    place = rng.choice(PLACES)
    return Action(
        kind,
        by=rng.choice(players) if kind in NAMED_KINDS else None,
        place=place if kind in ("move", "fly", "navigate", "shore", "swim", "sandbags", "lift") else None,
        place2=rng.choice([None, rng.choice(PLACES)]) if kind == "shore" else None,
        pawn=rng.choice(players) if kind in ("navigate", "give") else None,
        pawns=tuple(sorted(rng.sample(range(game.rules.players), rng.randint(1, game.rules.players))))
        if kind == "lift" else (),
        card=rng.choice(sorted(CARD_COUNTS)) if kind in ("give", "discard") else None,
    )


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 4), difficulty=st.sampled_from(list(DIFFICULTIES)),
       seed=st.integers(0, 2**32), choice_seed=st.integers(0, 2**32))
def test_check_agrees_with_legal_actions(players, difficulty, seed, choice_seed):
    """`check` (what replay and apply use) accepts exactly the listed legal actions: every
    listed one passes, and a random well-formed action passes only if it is listed."""
    game = new_game(Rules(players=players, difficulty=difficulty), seed)
    rng = random.Random(choice_seed)
    while not game.over:
        legal = game.legal_actions()
        listed = set(legal)
        for action in legal:
            assert game.check(action) is None, action
        for _ in range(25):
            action = random_candidate(game, rng)
            assert (game.check(action) is None) == (action in listed), (str(action), game.check(action))
        game.apply(scout_choice(game, rng) if rng.random() < 0.5 else rng.choice(legal))


@pytest.mark.slow
def test_many_random_games_per_cell():
    """500 uniformly random games in each of the 12 cells (players x level): no cell wins
    more than 1%, and every game keeps the invariants."""
    invariants = Invariants()
    for players in (2, 3, 4):
        for difficulty in DIFFICULTIES:
            wins = 0
            for seed in range(500):
                game = new_game(Rules(players=players, difficulty=difficulty), seed)
                random_play(game, random.Random(f"slow/{seed}"), invariants)
                wins += game.outcome == "win"
            assert wins <= 5, (players, difficulty, wins)
