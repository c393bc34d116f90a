"""lookahead's estimate of an unfinished game (policies/forbidden_island/lookahead_value.py):
public facts only, and it tells the states of games expert goes on to win from those it loses."""

from __future__ import annotations

import numpy as np
import pytest

from policies.forbidden_island import lookahead_value as V
from policies.forbidden_island.value_fit import fit_logistic, log_loss, turn_states
from sim.forbidden_island import layout as L
from sim.forbidden_island.rules import Rules
from tests.forbidden_island.test_lookahead import _reshuffle_hidden, _states_of_expert_games


def test_the_fit_recovers_the_weights_that_made_the_outcomes():
    rng = np.random.default_rng(3)
    x = np.column_stack([np.ones(20000), rng.normal(size=(20000, 2))])
    truth = np.array([-0.5, 1.5, -2.0])
    y = (rng.random(20000) < 1 / (1 + np.exp(-(x @ truth)))).astype(float)
    w = fit_logistic(x, y)
    assert np.abs(w - truth).max() < 0.1
    assert log_loss(x, y, w) < log_loss(x, y, np.zeros(3))


def test_the_estimate_reads_no_draw_pile_order():
    """Reordering the hidden piles (and the shuffle stream) leaves every feature as it was."""
    shuffle = np.random.default_rng(8)
    a, b = np.zeros(V.NFEATURES), np.zeros(V.NFEATURES)
    checked = 0
    for s, p, _ in _states_of_expert_games(Rules(players=2, difficulty="normal"), 3, 12):
        t, _ = _reshuffle_hidden(s, np.zeros(3, dtype=np.uint64), shuffle)
        V.features(s, p, a)
        V.features(t, p, b)
        assert (a == b).all()
        checked += 1
    assert checked > 100


def test_the_estimate_tells_games_expert_wins_from_those_it_loses():
    """On games the weights were not fitted on (another seed), the states of won games score
    higher: the estimate ranks a random won-game state above a random lost-game state at least
    70% of the time (the area under the ROC curve: 0.74 when written, 0.5 for a guess), and
    beats the base rate's log loss."""
    x, y, _ = turn_states(Rules(players=2, difficulty="novice"), 120, seed=5)
    q = 1 / (1 + np.exp(-(x @ V.WEIGHTS)))
    won, lost = q[y == 1], q[y == 0]
    assert len(won) > 100 and len(lost) > 100
    ranks = np.argsort(np.argsort(np.concatenate([won, lost])))
    auc = (ranks[:len(won)].sum() - len(won) * (len(won) - 1) / 2) / (len(won) * len(lost))
    assert auc > 0.7, auc
    base = np.zeros(V.NFEATURES)
    base[0] = np.log(y.mean() / (1 - y.mean()))
    assert log_loss(x, y, V.WEIGHTS) < log_loss(x, y, base)
    s, p, _ = next(_states_of_expert_games(Rules(players=2, difficulty="novice"), 1, 5))
    f = np.zeros(V.NFEATURES)
    V.features(s, p, f)
    assert V.win_chance(s, p, V.WEIGHTS, np.zeros(V.NFEATURES)) == pytest.approx(1 / (1 + np.exp(-(f @ V.WEIGHTS))))


def test_a_helicopter_lift_is_worth_more_once_all_four_treasures_are_captured():
    """The escape needs a Lift on Fools' Landing once the treasures are held: the estimate's two
    late-game features (Lifts times treasures captured, all four captured with no Lift) make a
    Lift in hand raise the odds more with four treasures captured than with none (compared as
    log odds, since a chance near 1 can rise only a little)."""
    s, p, _ = next(_states_of_expert_games(Rules(players=2, difficulty="novice"), 1, 5))
    scratch = np.zeros(V.NFEATURES)

    def log_odds(captured: int, lifts: int) -> float:
        t = s.copy()
        t[L.CAPTURED] = captured
        for seat in range(p[L.P_PLAYERS]):
            t[L.HAND + L.HAND_STRIDE * seat + L.C_LIFT] = lifts if seat == 0 else 0
        q = V.win_chance(t, p, V.WEIGHTS, scratch)
        return float(np.log(q / (1 - q)))

    late = log_odds(0b1111, 1) - log_odds(0b1111, 0)
    early = log_odds(0, 1) - log_odds(0, 0)
    assert late > 0.0 and late > early, (late, early)
