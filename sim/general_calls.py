"""One compiled copy of each Island Escape helper, whatever constants and integer widths it is
called with (cold compile, issue 12).

numba compiles a function called from compiled code once per distinct tuple of argument types,
and it types a constant argument as a literal of that very value: `_w(pp, W_RAISE)` and
`_w(pp, W_SAVE)` were two compilations, and expert's cold compile built `_w` thirteen times,
`step(place, d, 1)` and `step(place, d, 2)` twice, and every helper passed both an int32 read
from the state and an int64 computed from it twice more: about 40 of the 125 functions compiled
for expert. Each is a full pass through numba's pipeline and LLVM (a tenth to a quarter of a
second apiece on this machine).

Here calls from compiled code to the Island Escape modules (`sim.kernel`, `sim.layout` and the
top-level `policies.*`) are typed with literals replaced by their plain type and signed integers
narrower than 64 bits widened to int64; numba then converts each argument at the call site, as
it does whenever a call matches an existing signature by a safe conversion. The values the
callee sees are the same (an int32 fits an int64; numba's arithmetic on int32 yields int64
anyway), so play is unchanged: tests/test_fingerprints.py pins every policy's games. The
constants still reach the machine code, since LLVM inlines the small helpers (`forceinline`)
and folds them there.

Functions whose arguments must stay literals (the policy id the play loop dispatches on) are
marked with `keeps_literals`; a call that cannot be typed with plain arguments falls back to
numba's own way. Forbidden Island's modules are left to numba's default. numba is pinned
(tests/test_numba_pin.py): this wraps one method of its dispatcher type.
"""

from __future__ import annotations

from numba.core import errors, types
from numba.core.types import functions

_MODULES = ("sim.kernel", "sim.layout")
_KEEP: set[object] = set()


def keeps_literals(dispatcher):
    """Mark a numba function whose callers' literal arguments must reach it as literals."""
    _KEEP.add(dispatcher.py_func)
    return dispatcher


def _ours(py_func) -> bool:
    module = getattr(py_func, "__module__", "") or ""
    if module in _MODULES:
        return True
    return module.startswith("policies.") and module.count(".") == 1


def _plain(ty):
    ty = types.unliteral(ty)
    if isinstance(ty, types.Integer) and ty.signed and ty.bitwidth < 64:
        return types.int64
    return ty


_numba_get_call_type = functions.Dispatcher.get_call_type


def _get_call_type(self, context, args, kws):
    py_func = self.dispatcher.py_func
    if _ours(py_func) and py_func not in _KEEP:
        plain = tuple(_plain(a) for a in args)
        plain_kws = {k: _plain(v) for k, v in kws.items()}
        if plain != tuple(args) or plain_kws != kws:
            try:
                return _numba_get_call_type(self, context, plain, plain_kws)
            except errors.TypingError:
                pass  # needs its literals after all: compile it for them
    return _numba_get_call_type(self, context, args, kws)


def install() -> None:
    """Type calls to the Island Escape modules with plain arguments (idempotent)."""
    functions.Dispatcher.get_call_type = _get_call_type


install()
