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


@intrinsic
def stack_empty(typingctx, n, dtype):
    """`np.empty(n, dtype)` on the stack of the calling function: per-decision scratch with no
    heap allocation and no reference count. `n` must be a constant. The array lives until the
    function that called `stack_empty` returns: pass it down, never return it or keep it.
    A call site inside a loop reuses the same memory on every pass.
    """
    if not isinstance(n, types.IntegerLiteral) or not isinstance(dtype, (types.NumberClass, types.DType)):
        return None
    size = n.literal_value
    arrty = types.Array(dtype.dtype, 1, "C")

    def codegen(context, builder, signature, args):
        # imported here, when compiling: it loads numba's array support, a tenth of a second of
        # start-up that a run of cached kernels does without
        from numba.np.arrayobj import populate_array

        elem = context.get_data_type(dtype.dtype)
        itemsize = context.get_abi_sizeof(elem)
        ary = context.make_array(arrty)(context, builder)
        populate_array(ary, data=cgutils.alloca_once(builder, elem, size=size),
                       shape=[context.get_constant(types.intp, size)],
                       strides=[context.get_constant(types.intp, itemsize)],
                       itemsize=context.get_constant(types.intp, itemsize), meminfo=None)
        return ary._getvalue()

    return arrty(n, dtype), codegen
