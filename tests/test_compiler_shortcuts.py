"""sim/compiler_shortcuts.py: each shortcut through numba's compiler gives what numba's own code
gives (the cold compile is faster, the compiled code the same: tests/test_fingerprints.py)."""

from __future__ import annotations

import copy
import operator

import numpy as np
from numba.core import compiler, ir, types
from numba.core.compiler import run_frontend
from numba.core.registry import cpu_target
from numba.core.typing import npydecl

from sim import compiler_shortcuts as S

S.install()  # as numba's first compile in a process does

SCALARS = [types.int64, types.int32, types.uint64, types.float64, types.boolean, types.IntegerLiteral(3)]
ARRAYS = [types.Array(types.int32, 1, "C"), types.Array(types.float64, 2, "A")]


def test_scalar_operators_are_declined_as_numba_declines_them():
    context = cpu_target.typing_context
    for op in (operator.and_, operator.lshift, operator.add, operator.lt, operator.truediv):
        installed = npydecl.NumpyRulesArrayOperator.__subclasses__()  # one class per operator
        (cls,) = [t for t in installed if t.__dict__.get("key") is op]
        for a in SCALARS + ARRAYS:
            for b in SCALARS + ARRAYS + [types.Optional(ARRAYS[0])]:
                ours = cls(context).generic((a, b), {})
                numbas = S._numba["operator_generic"](cls(context), (a, b), {})
                assert ours == numbas, (op, a, b)


def test_flag_values_are_every_option_with_its_value():
    flags = compiler.Flags()
    flags.nrt = True
    flags.no_cpython_wrapper = True
    want = {name: getattr(flags, name) for name in flags.options}
    assert flags.values() == want
    other = compiler.Flags()
    assert other != flags and other.values() == {name: getattr(other, name) for name in other.options}
    other.nrt = True
    other.no_cpython_wrapper = True
    assert other == flags and hash(other) == hash(flags)


def _branchy(n):
    total = 0
    for i in range(n):
        if i % 3 == 0:
            total += i
        elif i % 3 == 1:
            total -= 1
        else:
            total ^= i
    return total


def test_an_ir_copied_for_inlining_keeps_one_scope_and_equals_the_original():
    func_ir = run_frontend(_branchy)
    assert len(func_ir.blocks) > 3
    scope = next(iter(func_ir.blocks.values())).scope
    S._memo_of_copy.append({})  # as within numba's inliner
    try:
        copied = {label: copy.deepcopy(block) for label, block in func_ir.blocks.items()}
    finally:
        S._memo_of_copy.pop()
    scopes = {id(block.scope) for block in copied.values()}
    assert len(scopes) == 1 and id(scope) not in scopes  # one new scope, shared as in the original
    for label, block in func_ir.blocks.items():
        assert copied[label] == block and copied[label] is not block
        assert [str(s) for s in copied[label].body] == [str(s) for s in block.body]
    # outside the inliner a block is copied as numba copies it: with its own scope
    alone = copy.deepcopy(next(iter(func_ir.blocks.values())))
    assert alone.scope is not scope and alone.scope == scope and isinstance(alone, ir.Block)


def test_compiled_code_still_runs():
    from numba import njit

    assert njit(_branchy)(50) == _branchy(50)
    assert int(np.int64(_branchy(7))) == _branchy(7)
