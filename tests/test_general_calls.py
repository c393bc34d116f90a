"""sim/general_calls.py: calls from compiled code into the Island Escape modules are compiled
once per plain signature, into IR that only the outermost function optimises (cold compile,
issue 12), and still compute what numba's own way computes.

The helpers here live in a module named as a top-level `policies` module, which is what makes
calls to them sim/general_calls.py's to handle; tests/test_compile.py checks the real kernel's
shape on a cold start.
"""

from __future__ import annotations

import sys
import types

import numpy as np
import pytest
from numba import njit
from numba.core import codegen, event
from numba.core.errors import TypingError

_PROBE_SOURCE = '''
from numba import njit

from sim.general_calls import left_to_numba


@njit(forceinline=True)
def scaled(x, k):
    return x * k + 1


@left_to_numba
@njit
def factorial(n):
    return 1 if n <= 1 else n * factorial(n - 1)


@njit
def countdown(n):  # calls itself, unmarked
    return 0 if n <= 0 else countdown(n - 1)
'''


def _probe_module():
    name = "policies.general_calls_probe"
    if name not in sys.modules:
        module = types.ModuleType(name)
        sys.modules[name] = module  # numba finds a function's module by name
        exec(compile(_PROBE_SOURCE, "<general_calls_probe>", "exec"), module.__dict__)
    return sys.modules[name]


probe = _probe_module()


@njit
def _calls_with_mixed_widths_and_constants(a):
    total = 0
    for i in range(a.size):
        total += probe.scaled(a[i], 3) + probe.scaled(np.int64(a[i]), 5)  # int32 and int64, two constants
    return total


@njit
def _calls_recursive(n):
    return probe.factorial(n)


@njit
def _calls_unmarked_recursive(n):
    return probe.countdown(n)


def test_one_compile_for_every_width_and_constant_and_the_same_results():
    seen = []

    class Listener(event.Listener):
        def on_start(self, ev):
            seen.append(ev.data["dispatcher"].py_func.__name__)

        def on_end(self, ev):
            pass

    a = np.arange(-5, 6, dtype=np.int32)
    with event.install_listener("numba:compile", Listener()):
        got = _calls_with_mixed_widths_and_constants(a)
    assert got == sum(int(x) * 3 + 1 + int(x) * 5 + 1 for x in a)
    assert seen.count("scaled") == 1
    # compiled into its caller's code only: called from Python, numba compiles it as usual
    assert probe.scaled.signatures == []
    assert probe.scaled(np.int32(4), 2) == 9


def test_the_caller_alone_is_optimised_and_machine_coded(monkeypatch):
    optimised, machine_coded = [], []
    optimise, make_code = codegen.CPUCodeLibrary._optimize_final_module, codegen.JITCodeLibrary._finalize_specific
    monkeypatch.setattr(codegen.CPUCodeLibrary, "_optimize_final_module",
                        lambda lib: (optimised.append(lib.name), optimise(lib))[1])
    monkeypatch.setattr(codegen.JITCodeLibrary, "_finalize_specific",
                        lambda lib: (machine_coded.append(lib.name), make_code(lib))[1])

    @njit
    def caller(x):
        return probe.scaled(x, 7)

    assert caller(2.5) == 18.5  # scaled(float64, int64): compiled anew here
    assert [name.rsplit(".", 1)[-1] for name in optimised] == ["caller"]
    assert machine_coded == optimised


def test_a_helper_that_calls_itself_is_left_to_numba_or_named():
    assert _calls_recursive(10) == 3628800
    with pytest.raises(TypingError, match="countdown calls itself: mark it with sim.general_calls.left_to_numba"):
        _calls_unmarked_recursive(3)


def test_an_error_in_a_helpers_background_llvm_work_reaches_the_compiling_thread():
    from llvmlite import ir
    from numba.core.registry import cpu_target

    from sim.general_calls import _LinkedLibrary

    library = _LinkedLibrary(cpu_target.target_context.codegen(), "broken")
    module = ir.Module("broken")
    fn = ir.Function(module, ir.FunctionType(ir.IntType(32), []), "answer")
    ir.IRBuilder(fn.append_basic_block()).ret(ir.Constant(ir.IntType(64), 42))  # i64 from an i32 function
    library.add_ir_module(module)  # queued: the bad IR is found on the LLVM thread
    with pytest.raises(RuntimeError, match="i64"):
        library._get_module_for_linking()
