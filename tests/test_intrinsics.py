"""sim/intrinsics.py: each array intrinsic against its plain version (the bit intrinsics are
tests/test_random_choice.py's)."""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.intrinsics import borrowed, borrowed_plain, stack_empty, stack_empty_2d, stack_empty_plain


@njit(cache=True)
def _write_and_sum(v):
    v[1] = 7
    total = 0
    for i in range(v.size):
        total += v[i]
    return total, v.shape[0], v.strides[0]


@njit(cache=True)
def _through_borrowed(a):
    return _write_and_sum(borrowed(a))


@njit(cache=True)
def _through_plain(a):
    return _write_and_sum(borrowed_plain(a))


def test_a_borrowed_view_is_the_array_itself():
    a, b = np.arange(5, dtype=np.int64), np.arange(5, dtype=np.int64)
    assert _through_borrowed(a) == _through_plain(b) == (0 + 7 + 2 + 3 + 4, 5, 8)
    assert list(a) == list(b) == [0, 7, 2, 3, 4]  # written through to the caller's array


@njit(cache=True)
def _filled_on_stack():
    a = stack_empty(6, np.int32)
    m = stack_empty_2d(2, 3, np.float64)
    for i in range(6):
        a[i] = i * i
        m[i // 3, i % 3] = i / 2
    return a.sum(), a.shape[0], a.strides[0], m.sum(), m.shape[0], m.shape[1], m.strides[0], m.strides[1], m[1, 2]


@njit(cache=True)
def _filled_plain():
    a = stack_empty_plain(6, np.int32)
    m = np.empty((2, 3), np.float64)
    for i in range(6):
        a[i] = i * i
        m[i // 3, i % 3] = i / 2
    return a.sum(), a.shape[0], a.strides[0], m.sum(), m.shape[0], m.shape[1], m.strides[0], m.strides[1], m[1, 2]


def test_stack_arrays_behave_as_np_empty():
    assert _filled_on_stack() == _filled_plain() == (55, 6, 4, 7.5, 2, 3, 24, 8, 2.5)


@njit(cache=True)
def _every_other_borrowed(a):
    v = borrowed(a[::2])
    return v.sum(), v.shape[0], v.strides[0]


def test_a_borrowed_view_keeps_the_strides_of_what_it_views():
    a = np.arange(10, dtype=np.int64)
    assert _every_other_borrowed(a) == (0 + 2 + 4 + 6 + 8, 5, 16)


@njit(cache=True)
def _two_stack_arrays_in_a_long_loop(passes):
    total = 0
    for k in range(passes):
        a = stack_empty(4, np.int64)
        b = stack_empty(4, np.int64)
        m = stack_empty_2d(3, 4, np.int64)
        for i in range(4):
            a[i] = k
            b[i] = -1
        for i in range(12):
            m[i // 4, i % 4] = 1
        total += a.sum() + b.sum() + m.sum()
    return total


def test_stack_arrays_are_separate_and_reused_not_grown():
    """Two arrays of one dtype do not share memory, a 2-D one holds rows x cols entries, and a
    million passes of a loop do not exhaust the stack (the allocation sits in the entry block)."""
    passes = 1_000_000
    assert _two_stack_arrays_in_a_long_loop(passes) == 4 * passes * (passes - 1) // 2 - 4 * passes + 12 * passes
