"""Property test: random legal play under random rule settings keeps the game's invariants."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from sim.engine import SEA, Game, new_game
from sim.rules import GAUGE_CARDS, ISLAND_CARDS, Rules, floods_per_turn

OUTCOMES = {"win", "treasure", "helicopter", "drowned", "water", "cut_off", "cards"}
ENDED_BY_A_SINKING = {"treasure", "helicopter", "drowned"}

rules_strategy = st.builds(
    Rules,
    players=st.integers(1, 4),
    cards_per_treasure=st.integers(1, 5),
    swim_cost=st.integers(1, 3),
    actions_per_turn=st.integers(1, 6),
    gauge=st.lists(st.sampled_from(GAUGE_CARDS), min_size=1, max_size=len(GAUGE_CARDS), unique=True),
)


def check_invariants(game: Game, gauge_before: list[str]) -> None:
    # The 24 island cards are all somewhere, each exactly once.
    assert Counter(game.all_cards()) == Counter(ISLAND_CARDS)
    # No pawn on sea, except one left on the place whose sinking ended the game (decision (a)).
    for place in game.pawns:
        if game.board[place].state == SEA:
            assert game.outcome in ENDED_BY_A_SINKING
            assert game.events[-1].kind == "sink" and game.events[-1].at == place
    # The gauge only loses its top card.
    assert game.gauge == gauge_before or game.gauge == gauge_before[1:]
    assert len(game.gauge) >= 1
    # Every pass hits every column and every row once (R14).
    floods = [e.at for e in game.events if e.kind == "flood"]
    for start in range(0, len(floods), 5):
        chunk = floods[start:start + 5]
        assert len({c for c, _ in chunk}) == len(chunk) == len({r for _, r in chunk})
    if game.floods % 5 == 0 and game.floods and not game.over:
        assert game.col_drawn == [] and game.row_drawn == []
    assert len(floods) == game.floods


@settings(max_examples=60, deadline=None)
@given(rules=rules_strategy, seed=st.integers(0, 2**32), choice_seed=st.integers(0, 2**32))
def test_random_legal_play_keeps_invariants(rules, seed, choice_seed):
    rng = random.Random(choice_seed)
    game = new_game(rules, seed)
    bound = len(floods_per_turn(rules.gauge))

    def choose_escape(g, pawn, options):
        assert options and all(g.is_tile(p) for p in options)
        return rng.choice(options)

    while not game.over:
        game.begin_turn()
        assert game.turn <= bound
        for _ in range(rng.randint(0, rules.actions_per_turn)):
            legal = game.legal_actions()
            if not legal:
                break
            assert all(game.check(a) is None for a in legal)
            gauge = list(game.gauge)
            game.apply(rng.choice(legal))
            check_invariants(game, gauge)
            if game.over:
                break
        if game.over:
            break
        game.start_flood_phase()
        assert game.floods_left == game.water_level
        while game.floods_left and not game.over:
            gauge = list(game.gauge)
            game.flood(choose_escape)
            check_invariants(game, gauge)

    assert game.outcome in OUTCOMES
    assert game.turn <= bound
    if game.outcome == "water":
        assert game.floods == rules.max_floods and game.turn == bound
        assert game.gauge == [rules.gauge[-1]]
    elif game.floods == rules.max_floods:
        # The last flood may sink a King, the helicopter or a drowning pawn's place: that cause
        # comes before the water (R18) and stops the rise (decision (a)).
        assert game.outcome in ENDED_BY_A_SINKING and game.events[-1].kind == "sink"
        assert game.gauge == [rules.gauge[-1]]
    else:
        assert game.floods < rules.max_floods
