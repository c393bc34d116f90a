"""`random`'s choice: the k-th legal action, k uniform, found by `sim.layout.kth_set_bit`.

The bit trick (PDEP and TZCNT where the CPU has BMI2, a loop elsewhere) must name the same
action as counting set bits up from the lowest does, on either path: `random`'s games are the
same draws as before it (tests/test_fingerprints.py pins them)."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from numba.core.registry import cpu_target

from sim.layout import kth_set_bit


def _reference(x: int, k: int) -> int:
    return [i for i in range(64) if (x >> i) & 1][k]


def _masks():
    gen = np.random.default_rng(12)
    masks = [1, 2, 3, 1 << 40, (1 << 62) | 1, (1 << 45) - 1, *map(int, gen.integers(1, 1 << 62, 300))]
    return [(m, k) for m in masks for k in sorted({0, bin(m).count("1") - 1, int(gen.integers(bin(m).count("1")))})]


@pytest.mark.parametrize("features", ["host", "without BMI2"])
def test_kth_set_bit_names_the_kth_lowest_set_bit(features, monkeypatch):
    codegen = cpu_target.target_context.codegen()
    if features == "without BMI2":
        kept = [f for f in codegen._tm_features.split(",") if f != "+bmi2"]
        monkeypatch.setattr(codegen, "_tm_features", ",".join(kept))

    @njit
    def kth(xs, ks, out):  # compiled here, under the features above
        for i in range(xs.size):
            out[i] = kth_set_bit(xs[i], ks[i])

    pairs = _masks()
    xs = np.array([m for m, _ in pairs], dtype=np.int64)
    ks = np.array([k for _, k in pairs], dtype=np.int64)
    out = np.empty(len(pairs), dtype=np.int64)
    kth(xs, ks, out)
    assert out.tolist() == [_reference(m, k) for m, k in pairs]
    assert ("+bmi2" in codegen._tm_features.split(",")) == ("llvm.x86.bmi.pdep" in kth.inspect_llvm(kth.signatures[0]))
