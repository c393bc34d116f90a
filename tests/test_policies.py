"""The policy ladder: registry and dispatch, honesty (R19), legality, and the order of strength.

Fast checks run in the normal suite; the ladder's win-rate order is `slow` (make test-slow).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from experiments.runner import wilson_interval
from policies import entries, gen_entries
from policies.dispatch import game_folders
from policies.island_escape import lookahead
from policies.island_escape.registry import REGISTRY
from policies.runner import export_records, run_games
from sim.island_escape import layout as L
from sim.island_escape.records import parse_record, replay, result_json
from sim.island_escape.rules import Rules

POLICIES, UNFAIR = REGISTRY.policies, REGISTRY.unfair

# --- registry and dispatch ------------------------------------------------------------------------


def test_the_entries_are_generated_from_the_registries():
    """Adding a policy is one module plus one registry line; then `python -m policies.gen_entries`
    rewrites policies/entries.py. This fails while it is out of date."""
    assert gen_entries.PATH.read_text() == gen_entries.render(), "run: python -m policies.gen_entries"


def test_the_generated_entries_follow_a_changed_registry():
    """A policy added to a registry gets its entry functions and a line in every table, with its
    game's id and its own."""
    tables = gen_entries.registries()
    tables["forbidden_island"] = {**tables["forbidden_island"], "newcomer": (99, "newcomer")}
    text = gen_entries.render(tables)
    gid = game_folders().index("forbidden_island")
    for _, prefix in gen_entries.TABLES:
        assert f"def {prefix}_forbidden_island_newcomer(" in text
        assert f"    ('forbidden_island', 'newcomer'): {prefix}_forbidden_island_newcomer,\n" in text
    assert f"play.play_chunk({gid}, 99, p, pp" in text
    assert text.count("_newcomer(") == len(gen_entries.TABLES)


def test_every_game_with_a_registry_has_its_entries():
    import policies

    found = {p.parent.name for p in Path(policies.__file__).parent.glob("*/registry.py")}
    assert found == set(game_folders())
    for folder in found:
        for name in gen_entries.registries()[folder]:
            assert (folder, name) in entries.PLAY_CHUNK


# In a fresh process with an empty numba cache: play idle games, then list every other policy whose
# functions numba compiled on the way (idle's own are inlined and never show).
_COMPILED_FOR_IDLE = """
from policies.island_escape.registry import REGISTRY
from sim.island_escape.rules import Rules
from policies.runner import export_records, run_games
run_games(Rules(), "idle", 2, threads=1)
export_records(Rules(), "idle", 0, [0])
print(sorted(name for name, (_, module) in REGISTRY.policies.items()
             if name != "idle" and (module.choose.signatures or module.action.signatures)))
"""


def test_the_kernel_compiles_only_the_policy_in_use(tmp_path):
    """The play loop is compiled per game and policy (policies/entries.py): playing idle games
    must not compile any other policy - compiling them all made every cold start cost ~40 s."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", _COMPILED_FOR_IDLE], capture_output=True, text=True, env=env,
                         cwd=Path(__file__).resolve().parent.parent, check=True)
    assert out.stdout.split("\n")[-2] == "[]"


_REGISTRY_IMPORTS = """
import sys
from policies.island_escape.registry import REGISTRY
POLICIES = REGISTRY.policies
names = list(POLICIES)
assert "expert" in POLICIES and "nobody" not in POLICIES and len(POLICIES) == len(names)
REGISTRY.policy_id("skilled@0.5")
print(sorted(m for m in sys.modules if m.startswith("policies.")
             and m not in ("policies.island_escape", "policies.island_escape.registry", "policies.registry")))
print(POLICIES["greedy"][1].__name__,
      sorted(m for m in sys.modules if m in ("policies.island_escape.greedy", "policies.island_escape.expert")))
"""


def test_the_registry_imports_a_policy_only_when_asked():
    """Start-up: naming, listing and checking policies imports none of them; asking for one
    imports that one alone."""
    out = subprocess.run([sys.executable, "-c", _REGISTRY_IMPORTS], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parent.parent, check=True)
    listed, asked = out.stdout.strip().splitlines()
    assert listed == "[]"
    assert asked == "policies.island_escape.greedy ['policies.island_escape.greedy']"


def test_every_policy_has_a_one_line_description_and_a_unique_id():
    ids = [pid for pid, _ in REGISTRY.table.values()]
    assert len(ids) == len(set(ids))
    for name, text in REGISTRY.describe():
        assert text and "\n" not in text and len(text) <= 110, name
    for name in UNFAIR:
        assert "CHEAT" in POLICIES[name][1].DESCRIPTION
    for name in ("random", "novice", "greedy", "expert", "oracle", "lookahead", "clairvoyant", "skilled"):
        assert name in POLICIES


def test_lookahead_rolls_out_with_the_expert():
    assert lookahead.EXPERT_ID == REGISTRY.policy_id("expert")


@pytest.mark.parametrize("name", ["island-escape", "forbidden-island"])
def test_a_weighted_player_is_its_policy_with_its_saved_weights(name):
    """`tuned` is played by the expert's compiled loop with the weights kept in the repository:
    the same games as the expert given those weights, other games than the expert's defaults."""
    import dataclasses

    from policies.game import game as game_named
    from policies.registry import UnknownPolicy

    game = game_named(name)
    registry = game.registry
    assert registry.policy_id("tuned") == registry.policy_id("expert") and "tuned" in game.policy_names()
    saved = registry.saved_weights("tuned")
    pp = registry.default_params("tuned")
    assert saved["weights"] and all(pp[int(k)] == v for k, v in saved["weights"].items())
    assert saved["holdout_tuned"]["games"] >= 2000 * len(saved["settings"])  # judged on held-out games
    rules = game.rules_from_options(players=3)
    tuned = game.run_games(rules, "tuned", 300, seed=3)
    assert (tuned == game.run_games(rules, "expert", 300, seed=3, policy_params=pp)).all()
    assert not (tuned == game.run_games(rules, "expert", 300, seed=3)).all()  # the weights change play
    wrong = dataclasses.replace(registry, weighted={"tuned": "random"})
    with pytest.raises(UnknownPolicy, match="holds weights of 'expert'"):
        wrong.default_params("tuned")


def test_python_policies_play_against_the_engine():
    """A Python policy decides every action of a game the engine referees to its end: it sees
    only the public view and the engine's legal actions, its choices are the ones played, the
    same seed plays the same game, and an illegal choice is refused."""
    from policies.island_escape.python import play_python, raise_or_wander
    from sim.island_escape.engine import Action, IllegalAction, PublicView

    chosen = []

    def watched(view, legal, rng):
        assert isinstance(view, PublicView)  # R19: never the Game itself
        assert all(card is None for card, state in view.board.values() if state == "down")
        action = raise_or_wander(view, legal, rng)
        kinds = {a.kind for a in legal}
        first = next((k for k in ("takeoff", "raise", "shore", "salvage", "move") if k in kinds), None)
        assert (action.kind if action else None) == first  # its stated priorities
        chosen.append(str(action) if action else None)
        return action

    games = [play_python(watched, Rules(), seed) for seed in range(6)]
    assert all(g.over and g.outcome in {"win", "treasure", "helicopter", "drowned", "water", "cut_off", "cards"}
               for g in games)
    played = [e for g in games for e in g.events if e.kind in ("move", "swim", "shore", "salvage", "give", "raise",
                                                                "takeoff")]
    assert len(played) == sum(c is not None for c in chosen) > 100  # every choice was played, nothing else
    kinds = {c.split()[0] for c in chosen if c}
    assert {"move", "shore", "salvage"} <= kinds
    again = play_python(raise_or_wander, Rules(), 3)
    assert [e.as_record() for e in again.events] == [e.as_record() for e in games[3].events]

    def off_the_island(view, legal, rng):
        return Action.parse("move left")  # pawns start in the centre: the third move leaves the island

    with pytest.raises(IllegalAction, match="off the island|sea"):
        play_python(off_the_island, Rules(), 0)


# --- legality: every policy's games replay in the reference engine --------------------------------

LEGALITY = [
    Rules(players=1), Rules(), Rules(players=3), Rules(players=4),
    Rules(players=3).with_variant("divers"), Rules(players=2).with_variant("short"),
    Rules(players=4, cards_per_treasure=3).with_variant("divers", "short"),
]


@pytest.mark.parametrize("name", [n for n in POLICIES if n != "idle"])
def test_games_replay_in_the_engine(name):
    """The engine refuses any illegal action or escape: every exported game must replay to the
    kernel's own result, for every player count and the divers and short variants."""
    games = 2 if name == "lookahead" else 15
    for rules in LEGALITY:
        for rec in export_records(rules, name, 8, range(games)):
            res = result_json(replay(parse_record(rec.to_json())))
            assert {k: res[k] for k in ("outcome", "cause", "turns", "floods")} == rec.result


# --- the ladder (slow) ----------------------------------------------------------------------------


def _rate(rules: Rules, name: str, games: int, seed: int = 77) -> tuple[float, float, float]:
    raw = run_games(rules, name, games, seed=seed)
    wins = int((raw[:, 0] == L.CAUSE_WIN).sum())
    lo, hi = wilson_interval(wins, games)
    return wins / games, lo, hi


@pytest.mark.slow
def test_ladder_on_normal():
    """Normal, 2 players: random < novice < greedy < expert < oracle with 95% Wilson intervals
    apart (greedy ~91.7%, expert ~92.9%, oracle ~94.9%); lookahead above expert (96.8% on 500
    games) and the clairvoyant bound at the top (100%)."""
    rules = Rules()
    r = {name: _rate(rules, name, 20_000) for name in ("random", "novice", "greedy", "expert", "oracle")}
    r["lookahead"] = _rate(rules, "lookahead", 500)
    r["clairvoyant"] = _rate(rules, "clairvoyant", 300)
    assert r["random"][2] < r["novice"][1]
    assert r["novice"][2] < r["greedy"][1]
    assert r["greedy"][2] < r["expert"][1]
    assert r["expert"][2] < r["oracle"][1]
    assert r["lookahead"][1] > r["greedy"][1]
    assert r["lookahead"][2] >= r["expert"][0]  # expert <= lookahead: not worse than expert
    assert r["clairvoyant"][2] >= r["lookahead"][0]  # nobody beats knowing every card


@pytest.mark.slow
def test_expert_beats_greedy_when_it_is_hard():
    """3 players, 3 cards a treasure (greedy ~12%): greedy < expert with intervals apart, and
    the oracle (a cheat) is at least as strong as the expert."""
    rules = Rules(players=3, cards_per_treasure=3)
    r = {name: _rate(rules, name, 40_000) for name in ("greedy", "expert", "oracle")}
    assert r["greedy"][2] < r["expert"][1]
    assert r["oracle"][0] >= r["expert"][1]
