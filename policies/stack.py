"""Scratch arrays and borrowed views for the compiled play loops, through numba's extension API.

numba counts references to every array a compiled function receives or creates (its runtime,
NRT), with an atomic increment and decrement per function that holds one. In the game loops that
is most of the work: the policies' helpers are many small functions that each take the state,
the rules and the policy's parameters. An array whose reference slot (its "meminfo") is empty
is not counted, so the loops run on such arrays:

- `stack_empty(n, dtype)` and `stack_empty_2d(rows, cols, dtype)`: scratch on the stack of the
  function that calls them (`np.empty` would allocate on the heap and count);
- `borrowed(a)`: a view of an array the caller owns, with no reference slot. The entries
  borrow what Python passed in once, and everything below works on the views.

Both are intrinsics written with `numba.extending`, numba's types and `cgutils`; they fill the
fields of numba's array model (meminfo, parent, nitems, itemsize, data, shape, strides), which is
not documented, so tests/test_stack.py checks each against its plain version (`np.empty`, the
array itself): a renamed field fails at compile time, a changed meaning in that test. A module of its
own, importing nothing of the game, so that the play loops load it without the search helpers.

A borrowed view and a stack array live only as long as what they came from: pass them down,
never return or keep them. numba frees a heap array right after its last use, so borrow only
an argument of a function that is really called (the caller holds it until the call returns) or
an array the function uses again after the view's last use; inside an `inline="always"` function
the arguments are the caller's variables, so borrow there only what the callers pass from Python
or from the stack. A call site inside a loop reuses the same stack memory every pass (numba puts
the allocation in the function's entry block).
"""

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic


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


def _on_stack(dtype, shape: tuple[int, ...]):
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
    arrty, codegen = _on_stack(dtype, (n.literal_value,))
    return arrty(n, dtype), codegen


@intrinsic
def stack_empty_2d(typingctx, rows, cols, dtype):
    """`np.empty((rows, cols), dtype)` on the calling function's stack, both sizes constants."""
    if not (isinstance(rows, types.IntegerLiteral) and isinstance(cols, types.IntegerLiteral) and _is_dtype(dtype)):
        return None
    arrty, codegen = _on_stack(dtype, (rows.literal_value, cols.literal_value))
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
