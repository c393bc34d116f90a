"""Property test: random legal play under random rule settings keeps the game's invariants, the
legal-action list misses no kind of legal action, and an illegal action changes nothing."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.island_escape.engine import SEA, Action, IllegalAction, IslandEscapeEngine, new_game
from sim.island_escape.rules import DIRECTIONS, GAUGE_CARDS, ISLAND_CARDS, SUITS, Rules, floods_per_turn, step, suit_of

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


def check_invariants(game: IslandEscapeEngine, gauge_before: list[str]) -> None:
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


def every_action(game: IslandEscapeEngine) -> list[Action]:
    """Every action a record could name for the current pawn, legal or not: moves and swims in
    the four directions, shore-ups and salvages of all 25 places, gives of each card and of each
    suit to each pawn, raises with every choice of cards_per_treasure or one more cards from a
    small enough salvage, and take-off."""
    out = [Action(kind, direction=d) for kind in ("move", "swim") for d in DIRECTIONS]
    places = [(c, r) for r in range(1, 6) for c in range(1, 6)]
    out += [Action(kind, place=place) for kind in ("shore", "salvage") for place in places]
    hand = game.salvage[game.current_pawn]
    for to in range(len(game.pawns)):
        out += [Action("give", to=to, cards=(card,)) for card in hand]
        out += [Action("give", to=to, cards=tuple(c for c in hand if suit_of(c) == s)) for s in SUITS
                if any(suit_of(c) == s for c in hand)]
    need = game.rules.cards_per_treasure
    if len(hand) <= 9:
        for k in (need, need + 1):
            out += [Action("raise", cards=cards) for cards in combinations(hand, k)]
    out.append(Action("takeoff"))
    return out


def snapshot(game: IslandEscapeEngine) -> tuple:
    return (repr(game.final_state()), game.actions_left, len(game.events), game.outcome, game.floods)


def check_decision(game: IslandEscapeEngine, rng: random.Random) -> list[Action]:
    """At one decision: `legal_actions` leaves out no kind of legal action (a legal give or raise
    means a give to that pawn or a raise is offered), and an illegal action is refused without
    changing anything. Returns every action `check` accepts."""
    legal = game.legal_actions()
    offered = {str(a) for a in legal}
    accepted, refused = [], []
    for action in every_action(game):
        (refused if game.check(action) else accepted).append(action)
    for action in accepted:
        if action.kind == "give":
            assert any(a.kind == "give" and a.to == action.to for a in legal), action
        elif action.kind == "raise":
            assert any(a.kind == "raise" for a in legal), action
        else:
            assert str(action) in offered, action
    for action in rng.sample(refused, min(3, len(refused))):
        before = snapshot(game)
        with pytest.raises(IllegalAction):
            game.apply(action)
        assert snapshot(game) == before
    return accepted


def check_effect(game: IslandEscapeEngine, action: Action, me: int, here: tuple[int, int], left: int,
                 card: str | None) -> None:
    """What the action did, from the rules (R7-R12), not from `check`."""
    cost = game.rules.swim_cost if action.kind == "swim" else 1
    if action.kind == "takeoff":
        assert game.outcome == "win"
        return
    assert game.actions_left == left - cost
    if action.kind in ("move", "swim"):
        assert game.pawns[me] == step(here, DIRECTIONS[action.direction], 1 if action.kind == "move" else 2)
        assert game.board[game.pawns[me]].state != SEA or game.over
    elif action.kind == "shore":
        assert game.board[action.place].state == "dry"
    elif action.kind == "salvage":
        assert game.board[action.place].state == SEA and game.salvage[me][-1] == card
    elif action.kind == "give":
        assert not set(action.cards) & set(game.salvage[me]) and set(action.cards) <= set(game.salvage[action.to])
    elif action.kind == "raise":
        assert not set(action.cards) & set(game.salvage[me]) and game.raised[-1] == suit_of(game.board[here].card)


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
            accepted = check_decision(game, rng)
            if not accepted:
                break
            gauge = list(game.gauge)
            action = rng.choice(accepted)  # any legal action, not only the canonical ones
            me, here, left = game.current_pawn, game.pawns[game.current_pawn], game.actions_left
            card = game.board[action.place].card if action.place else None
            game.apply(action)
            check_effect(game, action, me, here, left, card)
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
