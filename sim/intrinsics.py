"""Everything the lab writes with numba's extension API (`numba.extending.intrinsic`, numba's
types and `cgutils`), each beside the plain version tests/test_intrinsics.py checks it against.

Bit instructions: `popcount`, `kth_set_bit` and `extract_bits` (POPCNT, and PDEP/PEXT where the
target has BMI2). Arrays that numba does not reference-count:

- `stack_empty(n, dtype)` and `stack_empty_2d(rows, cols, dtype)`: scratch on the stack of the
  function that calls them (`np.empty` would allocate on the heap and count);
- `borrowed(a)`: a view of an array the caller owns, with no reference slot.

numba counts the references of every array a function holds, with calls to NRT_incref and
NRT_decref that it keeps out of line, and its pruning of them gives up in a function with
branches and loops (a helper it inlines keeps its own, inside its caller). Where the compiler
can see that an array's reference slot is empty (a borrowed view, a stack array, or a slice or
`.view()` of either) every count of it folds away. It cannot see that of a function's
arguments, so each kernel and policy function that numba compiles as a function of its own
(not `inline="always"`) borrows its array arguments on entry; the helpers it inlines then work
on its views, and it counts nothing. An array a called function returns is one the caller
cannot see into either: fill scratch in place (`fill(a, 0)` as a statement, not a value).

These fill the fields of numba's array model (meminfo, parent, nitems, itemsize, data, shape,
strides), which is not documented, so each is checked against its plain version (`np.empty`, the
array itself): a renamed field fails at compile time, a changed meaning in the test.

A borrowed view and a stack array live only as long as what they came from: pass them down,
never return or keep them. numba frees a heap array right after its last use, so borrow only
an argument of a function that is really called (the caller holds it until the call returns) or
an array the function uses again after the view's last use; inside an `inline="always"` function
the arguments are the caller's variables, so borrow there only what the callers pass from Python
or from the stack. A call site inside a loop reuses the same stack memory every pass (numba puts
the allocation in the function's entry block).
"""

import numpy as np
from llvmlite import ir as llvmir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

# --- bits ----------------------------------------------------------------------------------------


@intrinsic
def _ctpop(typingctx, x):
    """LLVM's ctpop of the integer `x` widened to 64 bits: one POPCNT instruction."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(context.cast(builder, args[0], x, types.int64))

    return types.int64(x), codegen


def _target_has_bmi2() -> bool:
    """Whether the CPU numba compiles for has BMI2: numba's documented target settings
    (NUMBA_CPU_FEATURES, NUMBA_CPU_NAME), else the host's own flags (Linux's /proc/cpuinfo; the
    plain loop where they cannot be read)."""
    import os

    features = os.environ.get("NUMBA_CPU_FEATURES")
    if features:
        return "+bmi2" in features.split(",")
    if os.environ.get("NUMBA_CPU_NAME", "host") != "host":
        return False  # a named CPU without its feature list: the plain loop is right anywhere
    return "bmi2" in host_cpu_flags()


def host_cpu_flags() -> set[str]:
    """The host CPU's feature flags as Linux lists them ("flags" in /proc/cpuinfo), empty elsewhere."""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as info:
            for line in info:
                if line.startswith("flags"):
                    return set(line.partition(":")[2].split())
    except OSError:
        pass
    return set()


def _bmi2_or_loop(name: str, doc: str, emit_bmi2, by_loop):
    """An intrinsic `name(x, y) -> int64` of two integers: the instructions `emit_bmi2(builder,
    x, y)` writes where the CPU numba compiles for has BMI2 (x86), and the plain numba function
    `by_loop(x, y)` elsewhere. The target's features come from `_target_has_bmi2`."""

    def typer(typingctx, x, y):
        if not isinstance(x, types.Integer) or not isinstance(y, types.Integer):
            return None
        sig = types.int64(types.int64, types.int64)

        def codegen(context, builder, signature, args):
            x64, y64 = (context.cast(builder, v, t, types.int64) for v, t in zip(args, (x, y), strict=True))
            if not _target_has_bmi2():
                return context.compile_internal(builder, by_loop, sig, [x64, y64])
            return emit_bmi2(builder, x64, y64)

        return types.int64(x, y), codegen

    typer.__name__ = typer.__qualname__ = name
    typer.__doc__ = doc
    return intrinsic(typer)


def _bmi2_instruction(builder, name: str, a, b):
    i64 = llvmir.IntType(64)
    fn = cgutils.get_or_insert_function(builder.module, llvmir.FunctionType(i64, [i64, i64]), f"llvm.x86.bmi.{name}.64")
    return builder.call(fn, [a, b])


def _kth_set_bit_by_clearing(x, k):
    """`kth_set_bit` where the CPU has no PDEP: clear the k lowest set bits, then find the lowest."""
    for _ in range(k):
        x &= x - 1
    return _ctpop((x & -x) - 1)


def _kth_set_bit_by_pdep(builder, x, k):
    bit = _bmi2_instruction(builder, "pdep", builder.shl(llvmir.Constant(llvmir.IntType(64), 1), k), x)
    return builder.cttz(bit, llvmir.Constant(llvmir.IntType(1), 0))


kth_set_bit = _bmi2_or_loop(
    "kth_set_bit",
    """The index of the k-th lowest set bit of the mask `x` (k from 0; `x` must have more than k
    set bits). With BMI2 (x86), one PDEP deposits bit k at that set bit and one TZCNT reads its
    index; a random player's choice spent a loop of k data-dependent steps here. Elsewhere the
    loop itself.""",
    _kth_set_bit_by_pdep, _kth_set_bit_by_clearing)


def _extract_bits_by_loop(x, mask):
    """`extract_bits` where the CPU has no PEXT: one mask bit at a time, lowest first."""
    out = 0
    k = 0
    while mask:
        low = mask & -mask
        out |= np.int64((x & low) != 0) << k
        mask ^= low
        k += 1
    return out


extract_bits = _bmi2_or_loop(
    "extract_bits",
    """The bits of `x` at the set bits of `mask`, packed into the low bits in order (bit i of the
    result: the i-th lowest set bit of `mask`). With BMI2 (x86) one PEXT; the legal-action mask
    gathers the four neighbours of a place with it. Elsewhere a loop over the mask's bits.""",
    lambda builder, x, mask: _bmi2_instruction(builder, "pext", x, mask), _extract_bits_by_loop)


@njit(cache=True, forceinline=True)
def popcount(x):
    """Set bits of a non-negative mask (the policies count cards and places with it in every
    decision: one instruction, where the bit tricks it replaced took a dozen)."""
    return _ctpop(x)



# --- arrays without a reference count -----------------------------------------------------------


def _array_value(context, builder, arrty, data, shape):
    """An array of type `arrty` over `data` (C order), counted by nobody."""
    itemsize = context.get_abi_sizeof(context.get_data_type(arrty.dtype))
    strides, step = [], itemsize
    for extent in reversed(shape):
        strides.insert(0, step)
        step *= extent
    nitems = 1
    for extent in shape:
        nitems *= extent
    intp = lambda v: context.get_constant(types.intp, v)  # noqa: E731
    ary = cgutils.create_struct_proxy(arrty)(context, builder)
    ary.meminfo = context.get_constant_null(types.MemInfoPointer(arrty.dtype))
    ary.parent = context.get_constant_null(types.pyobject)
    ary.nitems = intp(nitems)
    ary.itemsize = intp(itemsize)
    ary.data = data
    ary.shape = cgutils.pack_array(builder, [intp(e) for e in shape])
    ary.strides = cgutils.pack_array(builder, [intp(s) for s in strides])
    return ary._getvalue()


def on_stack(dtype, shape: tuple[int, ...]):
    """The type and code of an intrinsic giving an uncounted array of `dtype` (a numba number
    class such as `types.int32`, or a dtype) and constant `shape` on the calling function's stack."""
    arrty = types.Array(dtype.dtype, len(shape), "C")

    def codegen(context, builder, signature, args):
        size = 1
        for extent in shape:
            size *= extent
        data = cgutils.alloca_once(builder, context.get_data_type(arrty.dtype), size=size)
        return _array_value(context, builder, arrty, data, shape)

    return arrty, codegen


def _is_dtype(dtype) -> bool:
    return isinstance(dtype, types.NumberClass | types.DType)


@intrinsic
def stack_empty(typingctx, n, dtype):
    """`np.empty(n, dtype)` on the calling function's stack, `n` a constant."""
    if not isinstance(n, types.IntegerLiteral) or not _is_dtype(dtype):
        return None
    arrty, codegen = on_stack(dtype, (n.literal_value,))
    return arrty(n, dtype), codegen


@intrinsic
def stack_empty_2d(typingctx, rows, cols, dtype):
    """`np.empty((rows, cols), dtype)` on the calling function's stack, both sizes constants."""
    if not (isinstance(rows, types.IntegerLiteral) and isinstance(cols, types.IntegerLiteral) and _is_dtype(dtype)):
        return None
    arrty, codegen = on_stack(dtype, (rows.literal_value, cols.literal_value))
    return arrty(rows, cols, dtype), codegen


@intrinsic
def borrowed(typingctx, a):
    """The array `a` itself (same data, shape and strides) with an empty reference slot, so that
    passing it around counts nothing. The caller keeps `a` alive while the view is used."""
    if not isinstance(a, types.Array):
        return None

    def codegen(context, builder, signature, args):
        view = cgutils.create_struct_proxy(a)(context, builder, value=args[0])
        view.meminfo = context.get_constant_null(types.MemInfoPointer(a.dtype))
        view.parent = context.get_constant_null(types.pyobject)
        return view._getvalue()

    return a(a), codegen


@njit(cache=True)
def borrowed_plain(a):
    """What `borrowed` stands for: the array itself."""
    return a


@njit(cache=True)
def stack_empty_plain(n, dtype):
    """What `stack_empty` stands for."""
    return np.empty(n, dtype)
