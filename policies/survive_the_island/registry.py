"""Survive the Island's players (policies/registry.py says what a policy module gives).

A policy picks for the seat whose decision it is (`kernel.decider(s)`: the seat asked about a
repellent, S15, else `s[layout.SEAT]`). A fair policy (S16) reads only public state and the
deciding seat's own adventurers' values (never the backs of unflooded tiles, never another
seat's values). A player string names one policy for every seat ("expert")
or one per seat, in seat order ("expert,random,random,random"): the hidden `seats` policy plays
such a table.
"""

from policies.registry import Registry

# name -> (kernel id, module); the ids are fixed
POLICIES = {"random": (0, "uniform_random"), "expert": (1, "expert"), "lookahead": (2, "lookahead"),
            "seats": (3, "seats")}
REGISTRY = Registry(__package__, "Survive the Island", POLICIES, rollout={"lookahead": "expert"},
                    slow=frozenset({"lookahead"}), judges=("expert", "random"), hidden=frozenset({"seats"}),
                    seat_table="seats", seat_choices=("random", "expert", "lookahead"))
