"""sim/compiler_shortcuts.py: each shortcut through numba's compiler gives what numba's own code
gives (the cold compile is faster, the compiled code the same: tests/test_fingerprints.py)."""

from __future__ import annotations

import copy
import operator

import numpy as np
import pytest
from numba.core import compiler, ir, types, typing
from numba.core.compiler import run_frontend
from numba.core.errors import TypingError
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


def test_a_refresh_is_skipped_only_while_no_registry_has_grown(monkeypatch):
    from numba.core import typing
    from numba.core.imputils import lower_builtin

    context = cpu_target.target_context
    context.refresh()  # in full or skipped: either way, up to date now
    full = []
    numbas = S._numba["refresh"]
    monkeypatch.setitem(S._numba, "refresh", lambda self: (full.append(self), numbas(self))[1])
    context.refresh()
    assert full == []  # nothing new to install: skipped

    def key(x):  # a function of this test's own, with a lowering and a typing of its own
        return x

    sig = typing.signature(types.int64, types.int64)
    lower_builtin(key, types.int64)(lambda context, builder, sig, args: args[0])
    # numba finds a lowering registered after its last refresh by refreshing on the miss
    impl = context.get_function(key, sig)
    assert full == [context] and impl is not None
    context.refresh()
    assert full == [context]


def test_abi_sizes_are_numbas_and_named_structs_are_asked_each_time(monkeypatch):
    from llvmlite import ir as llvmir

    context = cpu_target.target_context
    i8, i32, i64, f64 = llvmir.IntType(8), llvmir.IntType(32), llvmir.IntType(64), llvmir.DoubleType()
    kinds = [i8, i32, i64, f64, llvmir.IntType(1), i8.as_pointer(), llvmir.ArrayType(i32, 7),
             llvmir.LiteralStructType([i8, i64, i32]), llvmir.LiteralStructType([i8, llvmir.ArrayType(f64, 3)]),
             llvmir.VectorType(i32, 4), llvmir.LiteralStructType([llvmir.LiteralStructType([i8, i32]), i8])]
    for ty in kinds + kinds:  # the second time from memory
        assert S._get_abi_sizeof(context, ty) == S._numba["get_abi_sizeof"](context, ty), ty
    # a named struct's text is its name alone (two bodies could share it): numba is asked each time
    asked = []
    numbas = S._numba["get_abi_sizeof"]
    monkeypatch.setitem(S._numba, "get_abi_sizeof", lambda self, ty: (asked.append(ty), numbas(self, ty))[1])
    named = llvmir.global_context.get_identified_type("compiler_shortcuts_probe")
    if named.is_opaque:
        named.set_body(i8, i64)
    pair = llvmir.LiteralStructType([named, i8])
    for ty in (named, pair, named, pair):
        assert S._get_abi_sizeof(context, ty) == numbas(context, ty)
    assert asked == [named, pair, named, pair]
    assert S._get_abi_sizeof(context, i64) == 8 and len(asked) == 4  # remembered


def test_the_cycle_collector_is_paused_while_numba_compiles_and_resumed_after():
    import gc

    from numba import njit
    from numba.extending import intrinsic

    seen = []

    @intrinsic
    def collector_state(typingctx):
        seen.append(gc.isenabled())  # typing runs inside the compile
        return types.none(), lambda context, builder, sig, args: context.get_dummy_value()

    @njit
    def compiled():
        collector_state()
        return 1

    assert gc.isenabled()
    assert compiled() == 1
    assert seen and not any(seen)
    assert gc.isenabled()

    @njit
    def again():
        collector_state()
        return 2

    gc.disable()  # paused by the caller: it stays paused
    try:
        assert again() == 2
        assert not gc.isenabled()
    finally:
        gc.enable()


def _project_irs():
    """numba's IR of some of the project's larger compiled functions, before and after numba's
    untyped passes (which inline, rewrite and add nested expressions)."""
    from numba.core import compiler as numba_compiler

    from policies import expert
    from sim import kernel

    irs = []
    for fn in (expert.choose, kernel.apply_action, kernel.legal_actions, _branchy):
        py_func = getattr(fn, "py_func", fn)
        irs.append(run_frontend(py_func))
    irs.append(numba_compiler.run_frontend(kernel.draw_flood.py_func, inline_closures=True))
    return irs


def test_the_variables_an_instruction_uses_are_listed_as_numba_lists_them():
    checked = 0
    for func_ir in _project_irs():
        for block in func_ir.blocks.values():
            for stmt in block.body:
                nested = [stmt] + [v for v in stmt.__dict__.values() if isinstance(v, ir.Inst)]
                for inst in nested:
                    ours = inst._rec_list_vars(inst.__dict__)
                    numbas = S._numba["rec_list_vars"](inst, inst.__dict__)
                    assert [id(v) for v in ours] == [id(v) for v in numbas], inst
                    assert ours == numbas
                    checked += 1
    assert checked > 1000
    # the shapes numba's walk handles, nested: lists, tuples, dicts, instructions, plain values
    scope = ir.Scope(None, ir.Loc("probe", 1))
    loc = ir.Loc("probe", 2)
    a, b, c = (scope.redefine(name, loc) for name in "abc")
    call = ir.Expr.call(a, [b, (c, 3)], (("k", a),), loc)
    value = {"x": [a, (b, {"y": call})], "z": "text", "n": None, "loc": loc, "s": {c}}  # a set: not looked into
    got = S._rec_list_vars(call, value)
    assert got == S._numba["rec_list_vars"](call, value) == [a, b, a, b, c, a]


def test_an_error_context_adds_numbas_line_and_records_locations_as_numba_does():
    from numba.core import errors

    ours, numbas = S._ErrorContext, S._numba["new_error_context"]
    for context in (ours, numbas):
        with pytest.raises(errors.TypingError) as raised:
            with context("typing of {what} at {loc}", what="call", loc=ir.Loc("/somewhere/user.py", 7)):
                raise errors.TypingError("no match")
        assert errors.loc_info["loc"].filename == "/somewhere/user.py"
        errors.loc_info.clear()
        with pytest.raises(ValueError) as other:  # not a numba error: passed on untouched
            with context("lowering {0}", "x"):
                raise ValueError("plain")
        assert str(other.value) == "plain"
        with context("Pass {name}", name="nothing raised"):
            pass
        if context is ours:
            mine = str(raised.value)
        else:
            assert str(raised.value) == mine and "typing of call at" in mine
    numba_file = ir.Loc(errors.__file__, 3)  # numba's own files are not recorded
    with ours("x", loc=numba_file):
        pass
    assert "loc" not in errors.loc_info


def _function_types(context):
    return {name: context.resolve_value_type(value) for name, value in
            (("add", operator.add), ("getitem", operator.getitem), ("min", min), ("bool", bool), ("abs", abs),
             ("lt", operator.lt), ("sqrt", np.sqrt))}


CALLS = [("add", (types.int64, types.int64)), ("add", (types.int32, types.float64)),
         ("add", (types.IntegerLiteral(3), types.int64)), ("lt", (types.uint64, types.int64)),
         ("getitem", (types.Array(types.int32, 1, "C"), types.int64)),
         ("getitem", (types.UniTuple(types.int64, 3), types.IntegerLiteral(1))),
         ("min", (types.int64, types.int32)), ("bool", (types.int64,)), ("abs", (types.float64,)),
         ("sqrt", (types.float64,))]


def test_a_call_is_typed_as_numba_types_it_the_first_time_and_every_time_after(monkeypatch):
    context = cpu_target.typing_context
    context.refresh()
    fns = _function_types(context)
    assert all(type(f) is types.Function for f in fns.values())
    numbas = S._numba["function_call_type"]
    asked = []
    monkeypatch.setitem(S._numba, "function_call_type",
                        lambda self, ctx, args, kws: (asked.append(args), numbas(self, ctx, args, kws))[1])
    expected = {}
    for name, args in CALLS:
        fn = fns[name]
        sig = numbas(fn, context, args, {})  # numba's own typing, once
        expected[name, args] = (sig, fn._impl_keys[sig.args])
    for round in range(3):
        if round == 2:
            asked.clear()
        for name, args in CALLS:
            fn = fns[name]
            ours = S._function_call_type(fn, context, args, {})
            assert (ours, fn._impl_keys[ours.args]) == expected[name, args], (name, args)
    assert asked == []  # from memory once the context has settled (typing min compiles numba's min)
    # a change to the typing context starts afresh
    context.insert_function(type("NothingTemplate", (), {"key": object()}))
    S._function_call_type(fns["add"], context, (types.int64, types.int64), {})
    assert len(asked) == 1
    # a call numba cannot type is tried anew each time
    for _ in range(2):
        with pytest.raises(TypingError):
            S._function_call_type(fns["add"], context, (types.none, types.unicode_type), {})
    assert len(asked) == 3


def test_the_implementation_key_numba_records_is_recorded_on_each_call():
    context = cpu_target.typing_context
    fn = _function_types(context)["add"]
    sig = S._function_call_type(fn, context, (types.int64, types.int64), {})
    right = fn._impl_keys[sig.args]
    fn._impl_keys[sig.args] = "another template's key"  # as another call with these plain types would
    assert S._function_call_type(fn, context, (types.int64, types.int64), {}) == sig
    assert fn._impl_keys[sig.args] == right


def test_installing_a_registry_counts_as_a_change_only_when_it_has_grown():
    from numba.core.typing import templates

    context = cpu_target.typing_context
    registry = templates.Registry()
    before = context.__dict__.get("_changes", 0)
    context.install_registry(registry)
    after_first = context.__dict__.get("_changes", 0)
    assert after_first == before + 1
    context.install_registry(registry)
    assert context.__dict__.get("_changes", 0) == after_first

    @registry.register_global(_registered_later)
    class ProbeTemplate(templates.ConcreteTemplate):
        cases = [typing.signature(types.int64, types.int64)]

    context.install_registry(registry)
    assert context.__dict__.get("_changes", 0) > after_first
    fn = context.resolve_value_type(_registered_later)
    assert context.resolve_function_type(fn, (types.int64,), {}).return_type == types.int64


def _registered_later(x):  # typed only by the registry the test above installs
    return x
