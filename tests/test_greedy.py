"""The `greedy` policy: its games replay in the reference engine, it beats `random`, and it is
fair (R19): hidden information (face-down cards, undrawn pile order) never changes its choice.
"""

from __future__ import annotations

import numpy as np
import pytest

from experiments.runner import wilson_interval
from policies.island_escape import greedy
from policies.island_escape.checks import escape_options, hide_differently, kernel_decisions
from policies.island_escape.registry import REGISTRY
from policies.runner import export_records, simulate
from sim.island_escape import layout as L
from sim.island_escape.convert import params_of as rules_to_params
from sim.island_escape.records import parse_record, replay, result_json
from sim.island_escape.rules import Rules

SETTINGS = [
    Rules(), Rules(players=1), Rules(players=3, cards_per_treasure=1),
    Rules(players=4, cards_per_treasure=3), Rules().with_variant("divers"),
    Rules(players=3).with_variant("short"),
]


def test_registered_with_its_fixed_id():
    # greedy is registered under its fixed id; the default player is the report's judge (expert),
    # with greedy the judge only where expert is missing

    assert REGISTRY.policy_id("greedy") == 2
    assert REGISTRY.default_policy == REGISTRY.judges[0] and "greedy" in REGISTRY.judges


def _ids(rules: Rules) -> str:
    return f"p{rules.players}-c{rules.cards_per_treasure}-s{rules.swim_cost}-g{len(rules.gauge)}"


@pytest.mark.parametrize("rules", SETTINGS, ids=_ids)
def test_greedy_games_replay_identically_in_the_engine(rules):
    causes = set()
    for rec in export_records(rules, "greedy", 21, range(60)):
        res = result_json(replay(parse_record(rec.to_json())))
        got = {k: res[k] for k in ("outcome", "cause", "turns", "floods")}
        assert got == rec.result
        causes.add(got["cause"])
    if rules == Rules():
        assert "win" in causes  # the records exercise take-offs, raises and gives


def test_greedy_beats_random_on_normal():
    # A stale numba cache of the kernel would send id 2 to the fallback `A_END` (idle): this
    # catches that too.
    rates = {}
    for policy in ("greedy", "random"):
        df = simulate(Rules(), policy, 5000, seed=5, progress=False)
        wins = int(df["won"].sum())
        rates[policy] = wilson_interval(wins, len(df))
    assert rates["greedy"][0] > rates["random"][1]
    # The ladder's 91.7% (20,000 games of seed 77, tests/test_policies.py) lies in this run's interval (91.4-92.9%): a
    # change that costs greedy a point and a half of win rate fails here.
    assert rates["greedy"][0] <= 0.917 <= rates["greedy"][1]


# --- R19: honesty ------------------------------------------------------------------------------


def _check_honest(s, p, pp, legal, rng, gen, tries=4):
    me = int(s[L.CUR])
    a = greedy.action(s.copy(), p, pp, legal, rng.copy())
    opts, n = escape_options(s, me)
    e = greedy.escape(s.copy(), p, pp, me, opts, n, rng.copy()) if n else -1
    changed = 0
    for _ in range(tries):
        t = hide_differently(s, gen)
        changed += not np.array_equal(t, s)
        assert greedy.action(t, p, pp, legal, rng.copy()) == a
        if n:
            assert greedy.escape(t, p, pp, me, opts, n, rng.copy()) == e
    return changed


@pytest.mark.parametrize("rules", [Rules(), Rules(players=3, cards_per_treasure=3)],
                         ids=["normal", "p3-c3"])
def test_hidden_information_never_changes_the_choice(rules):
    """Play greedy games in Python with the kernel's own functions; at every decision the
    choice must not depend on what the table cannot see (R19)."""
    p = rules_to_params(rules)
    pp = np.zeros(8)
    s = np.zeros(L.NSTATE, dtype=np.int32)
    rng = np.zeros(3, dtype=np.uint64)
    gen = np.random.default_rng(19)
    decisions = changed = 0
    for game in range(12):
        for legal in kernel_decisions(s, p, rng, 3, game, "greedy", pp,
                                      lambda legal: greedy.action(s, p, pp, legal, rng)):
            changed += _check_honest(s, p, pp, legal, rng, gen)
            decisions += 1
    assert decisions > 300
    assert changed > decisions  # the permutations really did hide things differently
