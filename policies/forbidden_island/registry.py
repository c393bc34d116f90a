"""Forbidden Island's players (policies/registry.py says what a policy module gives).

A policy decides for the whole team, so it may pick any player's out-of-turn special card. A fair
policy reads no order of the draw piles (Forbidden Island's counterpart of R19).
"""

from policies.registry import Registry

# name -> (kernel id, module); the ids are fixed
POLICIES = {"random": (0, "uniform_random"), "expert": (1, "expert"), "lookahead": (2, "lookahead"),
            "skilled": (3, "skilled"), "clairvoyant": (4, "clairvoyant")}
REGISTRY = Registry(__package__, "Forbidden Island", POLICIES, rollout={"lookahead": "expert", "clairvoyant": "expert"},
                    slow=frozenset({"lookahead", "clairvoyant"}), unfair=frozenset({"clairvoyant"}),
                    judges=("expert", "random"), weighted={"tuned": "expert"})
