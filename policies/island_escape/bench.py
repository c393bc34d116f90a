"""Island Escape's own benchmarks, as `island-escape bench` runs them (experiments/bench.py):
the policies and searches timed, the settings, the run sizes a user meets, and the reference
engine charged for a policy's decisions.

The engine is charged for the decisions too: it replays the kernel's record of each game (the
rules in plain Python), and for every decision of that game calls the policy's compiled `choose`
from Python on the kernel's state at that decision. A Python port of greedy or expert does not
exist (policies/island_escape/python.py holds prototypes only), and replaying the recorded
decisions alone would charge the engine nothing for the thinking; calling the compiled policy
from Python is what an engine-side player would do. The decision states are gathered before the
clock starts.
"""

from __future__ import annotations

import time

import numpy as np

from policies.island_escape.registry import POLICIES as REGISTERED
from policies.island_escape.registry import policy_id
from policies.island_escape.runner import default_policy_params, export_records, rules_to_params
from sim.island_escape import layout as L
from sim.island_escape.records import replay
from sim.island_escape.rules import Rules

POLICIES = ("random", "greedy", "expert")  # `expert` is also what every `lookahead` rollout plays
SEARCHES = ("lookahead",)  # the strongest fair player: what a judged study can afford
SETTINGS = {"normal-2p": {}, "hard-3p-3cards": {"players": 3, "cards_per_treasure": 3}}
# The `simulate --games N` run each policy is timed on as a whole process: a long study's
# million-game cells for `random`, a report cell's thousands for `greedy` and `expert`.
CLI_GAMES = {"random": 2_000_000, "greedy": 20_000, "expert": 500_000}


def decision_states(rules: Rules, policy: str, seed: int, game: int) -> list[tuple[np.ndarray, int]]:
    """The kernel's state and legal-action mask before every action the policy chose in one game
    (the kernel's own step functions, called from Python)."""
    from policies.island_escape.entries import FLOOD
    from sim.island_escape.kernel import apply_turn_action as apply_action
    from sim.island_escape.kernel import begin_turn, floods_due
    from sim.island_escape.kernel import deal_game as init_game
    from sim.island_escape.kernel import legal_mask as legal_actions

    p = rules_to_params(rules)
    pp = default_policy_params(policy)
    flood = FLOOD[policy_id(policy)]
    choose = REGISTERED[policy.partition("@")[0]][1].choose
    s = np.zeros(L.NSTATE, dtype=np.int32)
    rng = np.zeros(3, dtype=np.uint64)
    opts = np.zeros(8, dtype=np.int64)
    log = np.zeros((1, 4), dtype=np.int32)
    init_game(s, p, rng, seed, game)
    out = []
    while s[L.OUTCOME] < 0:
        begin_turn(s, p)
        while s[L.ACTS] > 0:
            legal = int(legal_actions(s, p))
            out.append((s.copy(), legal))
            apply_action(s, p, choose(s, p, pp, legal, rng), log, -1)
            if s[L.OUTCOME] >= 0:
                break
        if s[L.OUTCOME] >= 0:
            break
        for _ in range(int(floods_due(s, p))):
            flood(s, p, pp, rng, opts, log, -1)
            if s[L.OUTCOME] >= 0:
                break
    return out


def engine_rate(rules: Rules, policy: str, games: int, seed: int = 7) -> float:
    """Engine games/s on the kernel's games, charged for the policy's decisions (see above)."""
    records = export_records(rules, policy, seed, range(games))
    states = [decision_states(rules, policy, seed, g) for g in range(games)]
    p = rules_to_params(rules)
    pp = default_policy_params(policy)
    choose = REGISTERED[policy][1].choose
    rng = np.zeros(3, dtype=np.uint64)
    choose(states[0][0][0], p, pp, states[0][0][1], rng)  # compiled before the clock starts
    start = time.perf_counter()
    for record, game_states in zip(records, states, strict=True):
        for s, legal in game_states:
            choose(s, p, pp, legal, rng)
        replay(record)
    return games / (time.perf_counter() - start)
