"""Desert Island's players (policies/registry.py says what a policy module gives).

A policy picks for the seat whose decision it is (the kernel's `decider`). A fair policy reads
only what that seat may see (D6, the engine's `known_to`): never another seat's best friend or
sworn enemy, another hand, the fate deck's order or a fist it did not close.
"""

from policies.registry import Registry

# name -> (kernel id, module); the ids are fixed
POLICIES = {"random": (0, "uniform_random")}
REGISTRY = Registry(__package__, "Desert Island", POLICIES, judges=("random",))
