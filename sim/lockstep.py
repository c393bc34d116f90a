"""A game's kernel played beside its reference engine, decision by decision: the check that the
fast implementation plays the readable one's game (the same legal actions before every decision,
the same state after every step), written once.

A game's `sim/<game>/lockstep.py` subclasses `Lockstep` with what only it knows: how its engine
starts from the kernel's deal, how the engine is handed what the kernel drew (cards, dice), its
snapshots of both sides and how an action code reads. The loop, the comparisons and the messages
that name the first difference are here. The kernel is entered through its shared entry points
(sim/kernel_api.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

NO_LOG = np.zeros(1, dtype=np.int32)  # the log `apply_action` is given when nothing is logged (nlog -1)


class Mismatch(AssertionError):
    """Kernel and engine differ: the message names where and what."""


def difference(want: Any, got: Any) -> str:
    """What differs between the engine's value and the kernel's, the first few items of a list."""
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        at = [i for i, (a, b) in enumerate(zip(want, got, strict=True)) if a != b]
        return "; ".join(f"[{i}] engine {want[i]!r}, kernel {got[i]!r}" for i in at[:5])
    return f"engine {want!r}, kernel {got!r}"


class Lockstep:
    """One game played by the kernel (`s`, `p`, `rng`) and the reference engine (`engine`)
    together. A subclass sets them up and calls `compare("at the start")`."""

    kernel: Any  # the game's sim/<game>/kernel module
    ordered = False  # whether the kernel must list its legal actions in the engine's order
    where = ""  # what game this is, heading every message

    def __init__(self, s: np.ndarray, p: np.ndarray, rng: np.ndarray, engine: Any, max_legal: int):
        self.s, self.p, self.rng, self.engine = s, p, rng, engine
        self.out = np.zeros(max_legal, dtype=np.int64)
        self.steps = 0

    # --- what a game gives ---------------------------------------------------------------------

    def snapshots(self) -> tuple[dict, dict]:
        """The engine's state and the kernel's, as dicts with the same keys."""
        raise NotImplementedError

    def engine_legal(self) -> list[int]:
        """The engine's legal actions as the kernel's codes."""
        raise NotImplementedError

    def drawn(self) -> Any:
        """What the kernel has drawn so far (a count), read before a step."""
        return None

    def follow(self, code: int, drawn_before: Any) -> None:
        """After the kernel played `code`: hand the engine what the kernel drew since
        `drawn_before`, and play `code` on the engine."""
        raise NotImplementedError

    def text(self, code: int) -> str:
        """An action code as a reader reads it."""
        return str(code)

    def situation(self) -> str:
        """Where the game stands, for a message."""
        return f"step {self.steps}"

    @property
    def over(self) -> bool:
        return bool(self.engine.over)

    # --- written once --------------------------------------------------------------------------

    def fail(self, what: str) -> Mismatch:
        return Mismatch(f"{self.where}, {what}" if self.where else what)

    def compare(self, when: str) -> None:
        want, got = self.snapshots()
        if set(want) != set(got):
            raise self.fail(f"{when}: the snapshots' keys differ: engine only {sorted(set(want) - set(got))}, "
                            f"kernel only {sorted(set(got) - set(want))}")
        for key in want:
            if want[key] != got[key]:
                raise self.fail(f"{when}: {key} differs: {difference(want[key], got[key])}")

    def legal_codes(self) -> list[int]:
        """The kernel's legal codes, checked against the engine's."""
        n = self.kernel.legal_actions(self.s, self.p, self.out)
        codes = [int(c) for c in self.out[:n]]
        want = self.engine_legal()
        if len(set(codes)) != len(codes):
            raise self.fail(f"{self.situation()}: the kernel lists an action twice")
        if sorted(codes) != sorted(want):
            listed = lambda cs: [self.text(c) for c in sorted(cs)][:6]  # noqa: E731
            raise self.fail(f"{self.situation()}: legal actions differ: kernel also {listed(set(codes) - set(want))}, "
                            f"kernel lacks {listed(set(want) - set(codes))}")
        if self.ordered and codes != want:
            raise self.fail(f"{self.situation()}: the kernel lists its legal actions out of order")
        return codes

    def step(self, code: int) -> None:
        """Play `code` on both sides and compare the states after it."""
        text = self.text(code)
        drawn = self.drawn()
        self.kernel.apply_action(self.s, self.p, code, self.rng, NO_LOG, -1)
        self.follow(code, drawn)
        self.steps += 1
        self.compare(f"{self.situation()} ({text})")

    def play(self, choose: Callable[[list[int]], int], limit: int) -> Lockstep:
        """On to the end, `choose(codes)` picking each decision; a game that has not ended after
        `limit` steps, or offers a decision once over, is a mismatch."""
        while not self.over and self.steps < limit:
            self.step(choose(self.legal_codes()))
        if not self.over:
            raise self.fail(f"no end after {limit} steps")
        if self.legal_codes():
            raise self.fail("actions are offered after the end")
        return self
