"""Array layouts declared field by field: a kernel's state, a player's scratch arrays.

A layout hands out consecutive offsets in the order its fields are declared and records each
one's name, start and size, so that a test can check that no two fields overlap and that every
field lies inside the array. The offsets it returns are plain ints, bound to module-level
names: numba reads such globals as compile-time constants, as it did the hand-numbered ones.
"""

from __future__ import annotations


class Layout:
    """The fields of one flat array, in declaration order."""

    def __init__(self, name: str):
        self.name = name
        self.fields: dict[str, tuple[int, int]] = {}  # name -> (start, size)
        self.size = 0

    def field(self, name: str, size: int = 1) -> int:
        """The next `size` entries for field `name`; returns its start."""
        if name in self.fields:
            raise ValueError(f"{self.name}: field {name} declared twice")
        if size < 1:
            raise ValueError(f"{self.name}: field {name} has size {size}")
        start = self.size
        self.fields[name] = (start, size)
        self.size += size
        return start

    def unused(self, size: int) -> None:
        """Entries no field uses, kept so that the fields after them keep their offsets."""
        self.size += size

    def overlaps(self, size: int | None = None) -> list[str]:
        """Every pair of fields that share an entry and every field outside the array's first
        `size` entries (the layout's own size by default), each as a sentence; none when sound."""
        size = self.size if size is None else size
        problems = []
        spans = sorted((start, start + n, name) for name, (start, n) in self.fields.items())
        for (a0, a1, a), (b0, b1, b) in zip(spans, spans[1:], strict=False):
            if b0 < a1:
                problems.append(f"{self.name}: {a} [{a0}, {a1}) overlaps {b} [{b0}, {b1})")
        for start, end, name in spans:
            if start < 0 or end > size:
                problems.append(f"{self.name}: {name} [{start}, {end}) lies outside [0, {size})")
        return problems
