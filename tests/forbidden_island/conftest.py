"""The kernel as a shadow of the engine in the focused ruling and role tests.

In `test_rulings.py` and `test_roles.py` every action the engine plays is also played by the
kernel (sim/forbidden_island/kernel.py) from the engine's state as it stands (convert.state_of),
and the two must agree: the same legal action codes before and after it, the same whole state
after it. So each situation those tests arrange by hand - a Diver cut off, a second Waters Rise!,
a lift-off out of turn - pins the kernel too, not only the random games of test_kernel.py. When
the step shuffled a pile, each side shuffled with its own randomness: that pile is compared as
a set of cards.
"""

from __future__ import annotations

import numpy as np
import pytest

SHADOWED = ("test_rulings", "test_roles")


class KernelDisagrees(AssertionError):
    pass


@pytest.fixture(autouse=True)
def kernel_shadow(request, monkeypatch):
    if request.module.__name__.rpartition(".")[2] not in SHADOWED:
        yield
        return
    from sim.forbidden_island import kernel as K
    from sim.forbidden_island import layout as L
    from sim.forbidden_island.convert import encode, engine_snapshot, kernel_snapshot, params_of, state_of
    from sim.forbidden_island.engine import ForbiddenIslandEngine

    original = ForbiddenIslandEngine.apply
    rng = np.zeros(3, dtype=np.uint64)
    out = np.zeros(L.MAX_LEGAL, dtype=np.int64)

    def same_legal(game, s, p, where):
        n = K.legal_actions(s, p, out)
        got = sorted(int(c) for c in out[:n])
        want = sorted(encode(a) for a in game.legal_actions())
        if got != want:
            raise KernelDisagrees(f"{where}: the kernel's legal actions differ from the engine's")

    def shadowed_apply(game, action):
        if game.check(action) is not None:
            return original(game, action)  # the engine refuses it, with its reason
        p = params_of(game.rules)
        s = state_of(game)
        same_legal(game, s, p, f"before {action}")
        tshuffles, fshuffles = int(s[L.N_TSHUFFLES]), int(s[L.N_FSHUFFLES])
        K.play_action(s, p, encode(action), rng)
        result = original(game, action)
        got, want = kernel_snapshot(s, p), engine_snapshot(game)
        for pile, counter in (("treasure_pile", L.N_TSHUFFLES), ("flood_pile", L.N_FSHUFFLES)):
            if s[counter] > (tshuffles if pile == "treasure_pile" else fshuffles):
                got[pile], want[pile] = sorted(got[pile]), sorted(want[pile])
        for key in want:
            if got[key] != want[key]:
                raise KernelDisagrees(f"after {action}: {key}: engine {want[key]!r}, kernel {got[key]!r}")
        same_legal(game, s, p, f"after {action}")
        return result

    monkeypatch.setattr(ForbiddenIslandEngine, "apply", shadowed_apply)
    yield
