"""Fingerprints of every registered policy's per-game results (the kernel's raw table).

A speed change must not change play: these hashes pin, for two fixed rule settings and seeds,
exactly which games each policy wins, how and when. A deliberate change of play (a stronger
policy, a fixed defect) updates its hash here, in the same commit, and says so in the message.
Regenerate with `python -m tests.test_fingerprints`.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from policies.registry import POLICIES, SLOW
from sim.rules import Rules

SETTINGS = {
    "normal-2p": (Rules(), 7),
    "3p-3cards-divers": (Rules(players=3, cards_per_treasure=3, swim_cost=1), 8),
}
GAMES = 300
SLOW_GAMES = 6  # search policies: seconds per game
# the skill axis between its ends (novice is skill 0.25, skilled at 1 is expert): misjudged goals,
# forgotten floods and wandering steps all drawn from the policy stream, so a speed change that
# skips work on the expert's path must not skip a draw here
PLAYERS = sorted(POLICIES) + ["skilled@0.7"]


def fingerprint(policy: str, setting: str) -> str:
    from experiments.runner import run_games

    rules, seed = SETTINGS[setting]
    games = SLOW_GAMES if policy.partition("@")[0] in SLOW else GAMES
    raw = run_games(rules, policy, games, seed=seed, threads=1)
    return hashlib.sha256(np.ascontiguousarray(raw, dtype=np.int32).tobytes()).hexdigest()[:16]


EXPECTED = {
    ('clairvoyant', '3p-3cards-divers'): 'c537a409d8faa826',
    ('clairvoyant', 'normal-2p'): 'a2d5044625d278b6',
    ('expert', '3p-3cards-divers'): '778b83e665b68eee',
    ('expert', 'normal-2p'): 'a6d729690c97ef01',
    ('greedy', '3p-3cards-divers'): '5754748326735cd6',
    ('greedy', 'normal-2p'): '59ecf7c97818d429',
    ('idle', '3p-3cards-divers'): '54bb5c03981c8318',
    ('idle', 'normal-2p'): '84161b823da088c4',
    ('lookahead', '3p-3cards-divers'): '45c5fdb37661d99f',
    ('lookahead', 'normal-2p'): 'c1cd43527dbe30e3',
    ('novice', '3p-3cards-divers'): '82e438bd76df2acb',
    ('novice', 'normal-2p'): '69c8e3ec1083b4c2',
    ('oracle', '3p-3cards-divers'): '4de7fbfceca4041b',
    ('oracle', 'normal-2p'): '2e12fe8dd89eb51a',
    ('random', '3p-3cards-divers'): 'a54dbfe26f4eedea',
    ('random', 'normal-2p'): 'c2b2ac3be7d4234b',
    ('skilled', '3p-3cards-divers'): '778b83e665b68eee',
    ('skilled', 'normal-2p'): 'a6d729690c97ef01',
    ('skilled@0.7', '3p-3cards-divers'): '98a83e5d5d8a9ad8',
    ('skilled@0.7', 'normal-2p'): 'a54048f54ee860b8',
}


@pytest.mark.parametrize("policy", PLAYERS)
@pytest.mark.parametrize("setting", sorted(SETTINGS))
def test_policy_tables_are_unchanged(policy, setting):
    assert (policy, setting) in EXPECTED, f"no fingerprint committed for {policy} on {setting}"
    assert fingerprint(policy, setting) == EXPECTED[(policy, setting)], (
        f"{policy} plays differently on {setting}: if that is deliberate, update EXPECTED "
        "(python -m tests.test_fingerprints) and say why in the commit")


if __name__ == "__main__":
    for policy in PLAYERS:
        for setting in sorted(SETTINGS):
            print(f"    ({policy!r}, {setting!r}): {fingerprint(policy, setting)!r},")
