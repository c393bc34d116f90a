"""Arrays on the stack of a numba function: scratch space with no heap allocation and no
reference count, for code compiled without numba's reference counting (`_nrt=False`), which
cannot call `np.empty`. Both the play loop (`policies/play.py`, a chunk's game state) and the
search helpers (`policies/_search.py`, per-decision distances) use it.

A module of its own, importing nothing of the game, so that the play loop can use it without
loading the search helpers (about 50 ms of start-up) for policies that never search.
"""

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


def _stack_array(dtype, shape: tuple[int, ...]):
    """The signature's array type and the codegen of a C-ordered array of `shape` on the stack."""
    arrty = types.Array(dtype.dtype, len(shape), "C")

    def codegen(context, builder, signature, args):
        # imported here, when compiling: it loads numba's array support, a tenth of a second of
        # start-up that a run of cached kernels does without
        from numba.np.arrayobj import populate_array

        elem = context.get_data_type(dtype.dtype)
        itemsize = context.get_abi_sizeof(elem)
        size = 1
        for extent in shape:
            size *= extent
        strides, step = [], itemsize
        for extent in reversed(shape):
            strides.insert(0, step)
            step *= extent
        ary = context.make_array(arrty)(context, builder)
        populate_array(ary, data=cgutils.alloca_once(builder, elem, size=size),
                       shape=[context.get_constant(types.intp, extent) for extent in shape],
                       strides=[context.get_constant(types.intp, stride) for stride in strides],
                       itemsize=context.get_constant(types.intp, itemsize), meminfo=None)
        return ary._getvalue()

    return arrty, codegen


@intrinsic
def stack_empty(typingctx, n, dtype):
    """`np.empty(n, dtype)` on the stack of the calling function: per-decision scratch with no
    heap allocation and no reference count. `n` must be a constant. The array lives until the
    function that called `stack_empty` returns: pass it down, never return it or keep it.
    A call site inside a loop reuses the same memory on every pass.
    """
    if not isinstance(n, types.IntegerLiteral) or not isinstance(dtype, (types.NumberClass, types.DType)):
        return None
    arrty, codegen = _stack_array(dtype, (n.literal_value,))
    return arrty(n, dtype), codegen


@intrinsic
def stack_empty_2d(typingctx, rows, cols, dtype):
    """`np.empty((rows, cols), dtype)` on the stack, as `stack_empty`; both sizes constants.
    (Reshaping a `stack_empty` array would do, but a cached kernel that reshapes makes numba
    import its whole array support when the kernel is loaded: 20-40 ms of every start-up.)"""
    if (not isinstance(rows, types.IntegerLiteral) or not isinstance(cols, types.IntegerLiteral)
            or not isinstance(dtype, (types.NumberClass, types.DType))):
        return None
    arrty, codegen = _stack_array(dtype, (rows.literal_value, cols.literal_value))
    return arrty(rows, cols, dtype), codegen
