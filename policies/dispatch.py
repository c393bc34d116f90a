"""From a policy id to the policy's numba functions, for every game's play loop.

Only the policy in use is compiled. numba compiles every function a loop may call, and a chain
of `if pid == k:` is not pruned before typing even when `pid` is a constant, so such a chain
compiled all of a game's policies into every game loop (about 40 s of Island Escape's cold
compile, whichever policy played). Instead `pid` is always a numba literal (Literal[int]): each
game's entries.py passes constants and its play loop hands them on; a game's dispatch module
defines intrinsics with the helpers below, which read that literal while typing and emit a
direct call to the one policy's function. A policy module is imported only then, so a dispatch
module imports no policy: search policies can import the play loop, which imports the dispatch,
without a circle.

Intrinsics rather than `@overload`s: numba compiles an overload's implementation as a function
of its own before inlining it, and that function, linking the whole policy, was optimised and
turned into machine code once more for nothing (about 4 s of Island Escape's expert's cold
compile).
"""

import importlib

from numba import types
from numba.core.errors import TypingError


def policy_module(package: str, modules: dict[int, str], pid, entries: str):
    """The module of literal policy id `pid` in `package` (imported now, while numba types the
    loop); `entries` names where constant ids come from, for the error."""
    if not isinstance(pid, types.IntegerLiteral):
        raise TypingError(f"the policy id must be a compile-time constant: enter through {entries}")
    return importlib.import_module(f"{package}.{modules[pid.literal_value]}")


def direct_call(typingctx, function, pid, args):
    """The signature and code of a call to numba function `function` with argument types `args`,
    for an intrinsic whose first argument is the policy id (typing compiles `function`)."""
    fnty = typingctx.resolve_value_type(function)
    sig = typingctx.resolve_function_type(fnty, args, {})

    def codegen(context, builder, signature, values):
        # convert each argument to the type the policy was compiled for, as numba does at any call
        own = [context.cast(builder, v, have, want) for v, have, want in zip(values[1:], args, sig.args, strict=True)]
        return context.get_function(fnty, sig)(builder, own)

    return sig.return_type(pid, *args), codegen


def constant_flag(pid, value: bool):
    """The signature and code of an intrinsic of the policy id that is the constant `value`."""

    def codegen(context, builder, signature, values):
        return context.get_constant(types.boolean, value)

    return types.boolean(pid), codegen


def uses_legal_flag(module) -> bool:
    """A policy module's USES_LEGAL (default True): False for a policy that decides without the
    legal actions, sparing the loop computing them."""
    return bool(getattr(module, "USES_LEGAL", True))
