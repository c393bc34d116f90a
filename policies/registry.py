"""Policies by name. A policy is a module with `DESCRIPTION` and two numba functions:

- `choose(s, p, pp, legal, rng) -> action id` given the state array, the rule parameters, the
  policy's own parameter array and the legal actions as a bit mask (bit a set: action a is
  legal; sim/layout.py names the actions);
- `escape(s, p, pp, pawn, opts, n, rng) -> index` into `opts[:n]`, the tiles its pawn may swim
  to when its place sinks (R15).

A fair policy reads only public fields of `s` (R19): not the cards of face-down places
(`s[CARD + i]` where `s[TSTATE + i] == DOWN`) nor the undrawn pile order (`s[COLP/ROWP + k]`
for k >= s[PILE_POS]), and draws randomness only from the policy stream.
"""

from policies import expert, greedy, idle, lookahead, novice, oracle, uniform_random

# name -> (id used by the kernel's dispatch, module); the order of ids is fixed.
POLICIES = {
    "idle": (0, idle),
    "random": (1, uniform_random),
    "greedy": (2, greedy),
    "novice": (3, novice),
    "expert": (4, expert),
    "oracle": (5, oracle),
    "lookahead": (6, lookahead),
}
# Policies that search (seconds per game): experiments give them a smaller share of games.
SLOW = {"lookahead"}
# Policies that read hidden information (R19): never used to judge difficulty.
UNFAIR = {"oracle"}

# The strongest fair policies first: the first one registered judges difficulty by default.
JUDGES = ("expert", "greedy")


def default_judge() -> str:
    return next(name for name in JUDGES if name in POLICIES)


# One default player everywhere: the policy the difficulty report judges with, so `simulate`,
# `sweep` and `compare` without --policy give the numbers the report gives.
DEFAULT_POLICY = default_judge()


class UnknownPolicy(ValueError):
    pass


def policy_id(name: str) -> int:
    try:
        return POLICIES[name][0]
    except KeyError:
        raise UnknownPolicy(f"unknown policy {name!r} (choose from {', '.join(POLICIES)})") from None


def describe() -> list[tuple[str, str]]:
    return [(name, module.DESCRIPTION) for name, (_, module) in POLICIES.items()]
