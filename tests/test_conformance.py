"""The checks every game of the lab must pass, written once and run on each game in
policies/game.py's GAMES (OpenSpiel's `random_sim_test` is the model).

A new game gets them by filling in its `Game` object, its lockstep module (`Game.lockstep`,
sim/<game>/lockstep.py: RULE_GRID, lockstep_games), its checks module (`Game.checks`:
decision_states, rehide, hidden_redrawn, decide) and committing its
fingerprints in tests/fingerprints.json (`python -m tests.test_conformance` prints them):

- its engine and kernel play in lockstep: the same legal actions before every decision and the
  same state after every step, over the game's grid of rule settings;
- random play over that grid keeps the invariants of a results table (every game ends with one
  known cause; the same games whatever the threads or batch split; a game's deal independent of
  how many games are played);
- the kernel's records round-trip through their file format and replay to the kernel's result;
- every policy's games are pinned by a fingerprint, so a change of speed or structure that moves
  play fails here;
- every fair policy decides the same when what the table cannot see is drawn again (R19 and its
  Forbidden Island counterpart), and every cheat is caught by that same check.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from experiments.runner import summarize_raw
from policies.contracts import Benchmarks, Checks, Lockstep, Table, Tally
from policies.game import GAMES, Unsupported, every_game, with_seats, with_win_rates
from policies.game import game as game_named
from policies.outcomes import seats_summary

FINGERPRINTS = Path(__file__).with_name("fingerprints.json")
NAMES = list(GAMES)


def _grid(name: str) -> list[tuple[str, int]]:
    return [(name, k) for k in range(len(game_named(name).lockstep.RULE_GRID))]


GRID = [cell for name in NAMES for cell in _grid(name)]


# --- the game object is complete ------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_the_game_object_answers_every_command(name):
    game = game_named(name)
    assert game.name == name and game.title
    rules = game.rules_from_options()
    assert game.owns_rules(rules) and game.rules() == rules
    assert game.setting_line(rules) and set(game.grid_keys) <= set(game.setting(rules))
    assert game.default_policy in game.policy_names()
    assert game.search_policies() <= set(game.policy_names())
    assert game.unfair_policies() <= set(game.policy_names())
    assert set(game.registry.rollout) <= game.search_policies()
    with pytest.raises(ValueError):
        game.check_policy("no-such-player")
    # a cooperative game's first cause is the win; a competitive game's causes are how it ended
    assert (game.causes[0] == "win") != (game in with_seats()) and len(game.result_fields) == game.nresult
    assert (game in with_win_rates()) != (game in with_seats())
    assert set(game.rule_options) >= {"players"}
    assert game.players and all(p in game.players for p in (rules.players,))
    assert isinstance(game.checks, Checks), f"{name}'s checks lack a member of policies/contracts.py's Checks"
    assert isinstance(game.lockstep, Lockstep), f"{name}'s lockstep lacks a member of policies/contracts.py's Lockstep"
    assert all(game.owns_rules(r) for r in game.lockstep.RULE_GRID)
    assert isinstance(game.bench(), Benchmarks)
    assert isinstance(game.tally(rules, game.default_policy), Tally)
    try:
        assert isinstance(game.table(), Table)
    except Unsupported:
        pass


# --- engine and kernel --------------------------------------------------------------------------


@pytest.mark.parametrize("name,k", GRID)
def test_engine_and_kernel_play_in_lockstep(name, k):
    """Random games played by the kernel and the reference engine side by side: the checks
    raise at the first legal action or state that differs."""
    game = game_named(name)
    seen = game.lockstep.lockstep_games(game.lockstep.RULE_GRID[k], seed=40 + k, games=4)
    assert seen["decisions"] >= 4 and seen["steps"] >= 4  # something was compared in every game


# --- random play over the rule grid -------------------------------------------------------------


@pytest.mark.parametrize("name,k", GRID)
def test_random_play_keeps_the_invariants(name, k):
    game = game_named(name)
    rules = game.lockstep.RULE_GRID[k]
    raw = game.run_games(rules, "random", 300, seed=9, threads=1)
    assert raw.shape == (300, game.nresult) and raw.dtype == np.int32
    assert ((raw[:, 0] >= 0) & (raw[:, 0] < len(game.causes))).all(), "a game ended without a known cause"
    turns = raw[:, game.result_fields.index("turns")]
    assert (turns >= 1).all()
    # the same games whatever the threads and the split; a game's deal depends on (seed, game) only
    np.testing.assert_array_equal(game.run_games(rules, "random", 300, seed=9, threads=2), raw)
    np.testing.assert_array_equal(game.run_games(rules, "random", 100, seed=9, first_game=200, threads=1),
                                  raw[200:])
    df = game.results_frame(raw, rules, "random", 9)
    assert len(df) == 300
    if game in with_seats():  # every game's win is shared out among its seats, whatever the ending
        share, score = game.seat_results(raw, rules)
        assert share.shape == score.shape == (300, rules.players)
        # the shares sum to 1, or to 0 in a game the rules give no winner (Desert Island's D8)
        nobody = game.no_one_won(raw, rules)
        np.testing.assert_allclose(share.sum(axis=1), np.where(nobody, 0.0, 1.0))
        assert (score >= 0).all()
        winners = share > 0
        top = np.repeat(score.max(axis=1), winners.sum(axis=1))
        assert (score[winners] == top).all(), "a winner without the top score"
        summary = seats_summary(game, rules, "random", raw)
        assert sum(s["win_share"] for s in summary["seats"]) == pytest.approx(1.0 - nobody.mean())
        assert sum(summary["endings"].values()) == pytest.approx(1.0)
        assert list(df["ending"].cat.categories) == list(game.causes)
        return
    assert (df["won"] == (raw[:, 0] == 0)).all()
    assert list(df["cause"].cat.categories) == list(game.causes)
    summary = summarize_raw(raw, game.causes)
    assert summary["win_rate"] + sum(summary["loss_rates"].values()) == pytest.approx(1.0)


# --- records --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_records_round_trip_and_replay_to_the_kernels_result(name, tmp_path):
    game = game_named(name)
    checked = 0
    for k, rules in enumerate(game.lockstep.RULE_GRID[::3]):
        for i, record in enumerate(game.export(rules, "random", 3 + k, range(4))):
            path = tmp_path / f"{k}-{i}.json"
            game.records.write_record(path, record)
            again = game.records.load_record(path)
            second = tmp_path / f"{k}-{i}-again.json"
            game.records.write_record(second, again)
            assert second.read_text() == path.read_text(), "a record changes when read and written again"
            assert json.loads(path.read_text())["format"] == game.records.FORMAT
            replayed = game.records.result_json(game.records.replay(again))
            for key in ("outcome", "cause", "turns"):
                assert replayed[key] == record.result[key], (name, rules, i, key)
            checked += 1
    assert checked >= 8


# --- fingerprints of every policy ------------------------------------------------------------------


def _fingerprints() -> dict:
    return json.loads(FINGERPRINTS.read_text())


def _players(name: str) -> list[str]:
    return sorted(game_named(name).policy_names()) + list(_fingerprints().get(name, {}).get("players", []))


def fingerprint(name: str, player: str, setting: str) -> str:
    game = game_named(name)
    spec = _fingerprints()[name]
    cell = spec["settings"][setting]
    searches = player.partition("@")[0] in game.search_policies()
    raw = game.run_games(game.rules(**cell["rules"]), player, spec["search_games"] if searches else spec["games"],
                         seed=cell["seed"], threads=1)
    return hashlib.sha256(np.ascontiguousarray(raw, dtype=np.int32).tobytes()).hexdigest()[:16]


FINGERPRINTED = [(name, player, setting) for name in NAMES if name in _fingerprints()
                 for player in _players(name) for setting in sorted(_fingerprints()[name]["settings"])]


@pytest.mark.parametrize("name", NAMES)
def test_every_game_has_fingerprints(name):
    assert name in _fingerprints(), f"no fingerprints for {name}: python -m tests.test_conformance"
    expected = _fingerprints()[name]["expected"]
    missing = [p for p in _players(name) if p not in expected]
    assert not missing, f"no fingerprint committed for {missing}: python -m tests.test_conformance"


@pytest.mark.parametrize("name,player,setting", FINGERPRINTED)
def test_every_players_games_are_unchanged(name, player, setting):
    """A speed or structure change must not change play. A deliberate change of play updates
    the hash in tests/fingerprints.json in the same commit, saying why."""
    want = _fingerprints()[name]["expected"].get(player, {}).get(setting)
    assert want, f"no fingerprint committed for {player} on {setting}"
    assert fingerprint(name, player, setting) == want, (
        f"{player} plays {name} differently on {setting}: if that is deliberate, update "
        "tests/fingerprints.json (python -m tests.test_conformance) and say why in the commit")


# --- hidden information ---------------------------------------------------------------------------

# decisions per game: enough for the rare states (Island Escape's escapes, Forbidden Island's
# discards and swims), few enough for the searches
DECISIONS = {"island-escape": 1400, "forbidden-island": 150, "survive-the-island": 600}
_STATES: dict[str, list] = {}


def _states(name: str) -> list:
    if name not in _STATES:
        _STATES[name] = game_named(name).checks.decision_states(DECISIONS.get(name, 300), seed=100)
    return _STATES[name]


def _differences(name: str, policy: str, states, tries: int = 2) -> tuple[int, int, int]:
    """(decisions checked, redraws that changed what is hidden, choices that changed)."""
    checks = game_named(name).checks
    gen = np.random.default_rng(19)
    changed_state = changed_choice = 0
    for d in states:
        choice = checks.decide(policy, d)
        for _ in range(tries):
            other = checks.rehide(d, gen)
            changed_state += checks.hidden_redrawn(d, other)
            changed_choice += checks.decide(policy, other) != choice
    return len(states), changed_state, changed_choice


FAIR = [(g.name, p) for g in every_game() for p in g.policy_names() if p not in g.unfair_policies()]
CHEATS = [(g.name, p) for g in every_game() for p in sorted(g.unfair_policies())]


@pytest.mark.parametrize("name,policy", FAIR)
def test_fair_players_ignore_what_the_table_cannot_see(name, policy):
    """Drawing the hidden information again (Island Escape's face-down cards and pile orders,
    R19; Forbidden Island's draw-pile orders) never changes a fair player's choice, and a player
    draws from its own random stream only (`decide` checks that)."""
    states = _states(name)
    n, changed_state, changed_choice = _differences(name, policy, states)
    assert n >= DECISIONS.get(name, 300)
    assert changed_state > n  # the redraws really did hide things differently
    assert changed_choice == 0


@pytest.mark.parametrize("name,policy", CHEATS)
def test_the_honesty_check_catches_the_cheats(name, policy):
    """The check above can fail: a player that reads hidden information is caught by it."""
    _, _, changed_choice = _differences(name, policy, _states(name)[:400])
    assert changed_choice > 0


if __name__ == "__main__":  # print every game's fingerprints in tests/fingerprints.json's shape
    data = _fingerprints()
    for name in NAMES:
        spec = data[name]
        spec["expected"] = {player: {s: fingerprint(name, player, s) for s in sorted(spec["settings"])}
                            for player in _players(name)}
    print(json.dumps(data, indent=2))
