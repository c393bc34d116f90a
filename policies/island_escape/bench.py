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

from policies.island_escape.checks import kernel_decisions
from policies.island_escape.registry import REGISTRY
from policies.runner import export_records
from sim.island_escape import layout as L
from sim.island_escape.convert import params_of
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
    (the kernel's own steps, called from Python)."""
    p = params_of(rules)
    pp = REGISTRY.default_params(policy)
    action = REGISTRY.module(policy).action
    s = np.zeros(L.NSTATE, dtype=np.int32)
    rng = np.zeros(3, dtype=np.uint64)
    out = []

    def choose(legal: int) -> int:
        out.append((s.copy(), legal))
        return action(s, p, pp, legal, rng)

    for _ in kernel_decisions(s, p, rng, seed, game, policy, pp, choose):
        pass
    return out


def engine_rate(rules: Rules, policy: str, games: int, seed: int = 7) -> float:
    """Engine games/s on the kernel's games, charged for the policy's decisions (see above)."""
    records = export_records(rules, policy, seed, range(games))
    states = [decision_states(rules, policy, seed, g) for g in range(games)]
    p = params_of(rules)
    pp = REGISTRY.default_params(policy)
    choose = REGISTRY.module(policy).action
    rng = np.zeros(3, dtype=np.uint64)
    choose(states[0][0][0], p, pp, states[0][0][1], rng)  # compiled before the clock starts
    start = time.perf_counter()
    for record, game_states in zip(records, states, strict=True):
        for s, legal in game_states:
            choose(s, p, pp, legal, rng)
        replay(record)
    return games / (time.perf_counter() - start)
