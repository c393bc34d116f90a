"""Island Escape's players (policies/registry.py says what a policy module gives).

Its policies decide on the legal-action mask (`legal_mask`, a bit a kernel action) and answer an
R15 escape apart; `decisions.py` turns the one signature's decision into either. A fair policy
reads only public fields of `s` (R19): not the cards of face-down places (`s[CARD + i]` where
`s[TSTATE + i] == DOWN`) nor the undrawn pile order (`s[COLP/ROWP + k]` for k >= s[PILE_POS]).
"""

from policies.registry import Registry

# name -> (kernel id, module); the ids are fixed
POLICIES = {"idle": (0, "idle"), "random": (1, "uniform_random"), "greedy": (2, "greedy"), "novice": (3, "novice"),
            "expert": (4, "expert"), "oracle": (5, "oracle"), "lookahead": (6, "lookahead"),
            "clairvoyant": (7, "clairvoyant"), "skilled": (8, "skilled")}
REGISTRY = Registry(__package__, "Island Escape", POLICIES, rollout={"lookahead": "expert", "clairvoyant": "expert"},
                    slow=frozenset({"lookahead", "clairvoyant"}), unfair=frozenset({"oracle", "clairvoyant"}),
                    judges=("expert", "greedy"), weighted={"tuned": "expert"})
