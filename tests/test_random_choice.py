"""`random`'s choice: the k-th legal action, k uniform, found by `sim.intrinsics.kth_set_bit`; and
`sim.intrinsics.extract_bits`, with which the legal-action mask gathers a place's neighbours.

The bit tricks (PDEP and TZCNT, PEXT, where the CPU has BMI2; loops elsewhere) must give what
counting bits one by one gives, on either path: `random`'s games are the same draws as before
them (tests/fingerprints.json pins them)."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

import sim.intrinsics
from sim.intrinsics import extract_bits, kth_set_bit


def _reference(x: int, k: int) -> int:
    return [i for i in range(64) if (x >> i) & 1][k]


def _masks():
    gen = np.random.default_rng(12)
    masks = [1, 2, 3, 1 << 40, (1 << 62) | 1, (1 << 45) - 1, *map(int, gen.integers(1, 1 << 62, 300))]
    return [(m, k) for m in masks for k in sorted({0, bin(m).count("1") - 1, int(gen.integers(bin(m).count("1")))})]


def _compile_for(features, monkeypatch):
    """Whether the next numba compile in this test emits BMI2: the host's answer, or none."""
    if features == "without BMI2":
        monkeypatch.setattr(sim.intrinsics, "_target_has_bmi2", lambda: False)
        return False
    host = "bmi2" in open("/proc/cpuinfo").read().split()  # the host's flags, read here on their own
    assert sim.intrinsics._target_has_bmi2() == host  # NUMBA_CPU_NAME and NUMBA_CPU_FEATURES unset here
    return host


@pytest.mark.parametrize("features", ["host", "without BMI2"])
def test_kth_set_bit_names_the_kth_lowest_set_bit(features, monkeypatch):
    bmi2 = _compile_for(features, monkeypatch)

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
    assert bmi2 == ("llvm.x86.bmi.pdep" in kth.inspect_llvm(kth.signatures[0]))


def _extract_reference(x: int, mask: int) -> int:
    return sum(((x >> i) & 1) << k for k, i in enumerate(i for i in range(64) if (mask >> i) & 1))


@pytest.mark.parametrize("features", ["host", "without BMI2"])
def test_extract_bits_packs_the_bits_under_the_mask(features, monkeypatch):
    bmi2 = _compile_for(features, monkeypatch)

    @njit
    def extract(xs, masks, out):
        for i in range(xs.size):
            out[i] = extract_bits(xs[i], masks[i])

    gen = np.random.default_rng(13)
    neighbours = (1 << 0) | (1 << 4) | (1 << 6) | (1 << 10)  # the legal-action mask's own mask
    masks = [0, 1, neighbours, (1 << 62) | 1, *map(int, gen.integers(1, 1 << 62, 300))]
    xs = np.array([int(gen.integers(0, 1 << 62)) for _ in masks], dtype=np.int64)
    out = np.empty(len(masks), dtype=np.int64)
    extract(xs, np.array(masks, dtype=np.int64), out)
    assert out.tolist() == [_extract_reference(int(x), m) for x, m in zip(xs, masks, strict=True)]
    with_pext = "llvm.x86.bmi.pext" in extract.inspect_llvm(extract.signatures[0])
    assert bmi2 == with_pext
