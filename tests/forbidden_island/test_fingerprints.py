"""Fingerprints of every registered Forbidden Island policy's per-game results (the kernel's raw
table), the twin of tests/test_fingerprints.py.

A speed change must not change play: these hashes pin, for two rule settings and seeds, exactly
which games each policy wins, how, when and with which actions. A deliberate change of play (a
stronger expert) updates its hash here in the same commit and says so in the message.
Regenerate with `python -m tests.forbidden_island.test_fingerprints`.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from policies.forbidden_island.registry import POLICIES, SLOW
from sim.forbidden_island.rules import Rules

# Two players at Novice (the most turns, the most decisions a game) and four at Elite (every
# seat's out-of-turn cards, more swims and lifts): between them every kind of decision is made.
SETTINGS = {
    "2p-novice": (Rules(players=2, difficulty="novice"), 7),
    "4p-elite": (Rules(players=4, difficulty="elite"), 8),
}
GAMES = 300
SLOW_GAMES = 12  # search policies: a game takes them a tenth of a second or more


def fingerprint(policy: str, setting: str) -> str:
    from experiments.forbidden_island import run_games

    rules, seed = SETTINGS[setting]
    raw = run_games(rules, policy, SLOW_GAMES if policy in SLOW else GAMES, seed=seed, threads=1)
    return hashlib.sha256(np.ascontiguousarray(raw, dtype=np.int32).tobytes()).hexdigest()[:16]


EXPECTED = {
    ('expert', '2p-novice'): '5fdca89174ec5a85',
    ('expert', '4p-elite'): '50a2ebb3bb841836',
    ('lookahead', '2p-novice'): '92360f3cb4182f4c',
    ('lookahead', '4p-elite'): 'df40e7d33d103406',
    ('random', '2p-novice'): 'ac72c3df7dc54391',
    ('random', '4p-elite'): '3c679e6fb4e7b6c3',
}


@pytest.mark.parametrize("policy", sorted(POLICIES))
@pytest.mark.parametrize("setting", sorted(SETTINGS))
def test_policy_tables_are_unchanged(policy, setting):
    assert (policy, setting) in EXPECTED, f"no fingerprint committed for {policy} on {setting}"
    assert fingerprint(policy, setting) == EXPECTED[(policy, setting)], (
        f"{policy} plays Forbidden Island differently on {setting}: if that is deliberate, update "
        "EXPECTED (python -m tests.forbidden_island.test_fingerprints) and say why in the commit")


if __name__ == "__main__":
    for policy in sorted(POLICIES):
        for setting in sorted(SETTINGS):
            print(f"    ({policy!r}, {setting!r}): {fingerprint(policy, setting)!r},")
