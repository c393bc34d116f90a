"""The numba expert's shortcuts (policies/forbidden_island/expert.py) answer exactly as the long
way would. The fingerprints and the port test pin whole games; these tests say which shortcut
broke, and that each one is taken often enough to matter."""

from __future__ import annotations

import numpy as np

from policies.forbidden_island import expert as E
from policies.runner import logged_games
from sim.forbidden_island import kernel as K
from sim.forbidden_island import layout as L
from sim.forbidden_island.convert import params_of
from sim.forbidden_island.rules import Rules
from sim.streams import seed_streams


def _expert_states(rules: Rules, games: int, seed: int):
    """Every state at which expert decided in `games` games, in order."""
    p = params_of(rules)
    for game, log, _, _ in logged_games(rules, "expert", seed, range(games)):
        s = np.zeros(L.NSTATE, dtype=np.int32)
        rng = np.zeros(3, dtype=np.uint64)
        seed_streams(rng, seed, game)
        K.deal(s, p, rng)
        K.set_up(s, p, rng)
        for code in log:
            yield p, s.copy()
            K.play_action(s, p, int(code), rng)


def _holds_special(s, p) -> bool:
    return any(s[L.HAND + L.HAND_STRIDE * seat + card] for seat in range(p[L.P_PLAYERS])
               for card in (L.C_LIFT, L.C_SANDBAGS))


def test_a_draw_skips_the_board_only_when_no_special_card_would_be_played():
    """At a treasure or flood draw with a Lift or Sandbags in some hand, `_draw_needs_no_card`
    (checked before any board is built) may answer True only where the board and
    `_special_card` (F9: Sandbags and Helicopter Lift out of turn) play nothing."""
    b, bi = E.scratch()
    shortcut = full = saved = 0
    for players, level, seed in ((2, "novice", 3), (4, "elite", 4), (3, "legendary", 5)):
        for p, s in _expert_states(Rules(players=players, difficulty=level), 40, seed):
            ph = K.phase(s, p)
            if ph not in (L.PH_TREASURE, L.PH_FLOOD) or not _holds_special(s, p) or E._liftoff(s, p, 0, players) >= 0:
                continue
            E._board(s, p, b, bi)
            played = E._special_card(s, p, b, bi, ph)
            if E._draw_needs_no_card(s, p, b, ph):
                shortcut += 1
                assert played < 0, f"{players}p {level}: the shortcut skipped {played} at phase {ph}"
            else:
                full += 1
                saved += played >= 0
    # taken at most such draws (6,757 of 7,928 when written), and the games hold draws where a
    # card is played, which a shortcut taken too eagerly would skip
    assert shortcut > 3 * full and saved > 0


def _analysed_states(games, every):
    """Every `every`-th live state of expert's games at 2p Novice and 4p Elite, with the board
    and threats the expert builds for it: (players, index, rules array, state, board arrays,
    standing places)."""
    b, bi = E.scratch()
    for players, level, seed in ((2, "novice", 6), (4, "elite", 7)):
        for i, (p, s) in enumerate(_expert_states(Rules(players=players, difficulty=level), games, seed)):
            if i % every or K.phase(s, p) == L.PH_OVER:
                continue
            E._board(s, p, b, bi)
            E._threats(s, p, b, bi)
            yield players, i, p, s, b, bi, int(K.standing(s))


def test_a_sweep_of_the_island_scores_every_place_as_place_score_does():
    """`_place_scores` (one pass for all 24 places; a Lift's or a safe spot's search) must give
    exactly `_place_score` at every standing place, for every seat and action budget: the
    expert compares these scores, so a rounding apart would change its play."""
    compared = 0
    for players, i, p, s, b, bi, stand in _analysed_states(games=6, every=7):
        for seat in range(players):
            for actions in (0, 1, 3):
                E._place_scores(s, p, b, bi, seat, actions)
                swept = b[E.B_ALL:E.B_ALL + 24].copy()
                for q in range(24):
                    if (stand >> q) & 1:
                        assert swept[q] == E._place_score(s, p, b, bi, seat, q, actions, 0), (players, i, seat, q)
                        compared += 1
    assert compared > 10_000


def test_the_score_bound_is_above_every_place_score_and_often_ends_a_search():
    """`_score_bound` lets `_lift_freely` and `_lift_instead` skip the sweep of the island when
    no place could gain enough: it must be at least the score of every place, for every seat and
    action budget, and it must be low enough often enough to be worth its cost."""
    compared = skipped = asked = 0
    for players, i, p, s, b, bi, stand in _analysed_states(games=8, every=5):
        for seat in range(players):
            for actions in (0, 1, 3):
                bound = E._score_bound(s, p, b, bi, seat, actions)
                scores = [E._place_score(s, p, b, bi, seat, q, actions, 0) for q in range(24) if (stand >> q) & 1]
                assert max(scores) <= bound, (players, i, seat, actions)
                compared += len(scores)
                here = E._place_score(s, p, b, bi, seat, int(s[L.PAWN + seat]), actions, 0)
                asked += 1
                skipped += bool(E._gain_below(here, bound, E.LIFT_FREELY))
    assert compared > 10_000 and skipped > asked // 4


def test_the_kept_threats_and_goals_are_those_found_afresh():
    """`_find_threats` keeps its list of threats, and `_list_goals` each seat's goals, from one
    decision to the next while what they are found from stays the same (a move or a give leaves
    them). At every state of expert's games, taken in order through one scratch array (from one
    setting to the other too, so the island's layout and the roles change), they must be
    exactly those a fresh scratch array finds; and the lists must have been kept often."""
    kept = listed = states = 0
    last_key = None
    for players, i, p, s, b, bi, _stand in _analysed_states(games=4, every=1):
        states += 1
        key = bi[E.BI_THREATS_KEY:E.BI_THREATS_KEY + 7].copy()
        kept += last_key is not None and (key == last_key).all()
        last_key = key
        fb, fbi = E.scratch()
        E._board(s, p, fb, fbi)
        E._threats(s, p, fb, fbi)
        n = int(fbi[E.BI_NTHR])
        assert bi[E.BI_NTHR] == n, (players, i)
        assert (bi[E.BI_THR:E.BI_THR + n] == fbi[E.BI_THR:E.BI_THR + n]).all(), (players, i)
        assert (b[E.B_THRW:E.B_THRW + n] == fb[E.B_THRW:E.B_THRW + n]).all(), (players, i)
        for tile in bi[E.BI_THR:E.BI_THR + n]:
            assert b[E.B_VALUE + tile] == fb[E.B_VALUE + tile], (players, i, tile)
        for seat in range(players):
            E._goals(s, p, b, bi, seat)
            E._goals(s, p, fb, fbi, seat)
            g = int(fbi[E.BI_NGOAL + seat])
            lo = E.BI_GOAL + seat * E.MAX_GOALS
            assert bi[E.BI_NGOAL + seat] == g, (players, i, seat)
            assert (bi[lo:lo + g] == fbi[lo:lo + g]).all(), (players, i, seat)
            wlo = E.B_GOALW + seat * E.MAX_GOALS
            assert (b[wlo:wlo + g] == fb[wlo:wlo + g]).all(), (players, i, seat)
            listed += 1
    assert kept > states // 10 and listed > 2 * states, (kept, listed, states)  # 207 of 1,301 when written
