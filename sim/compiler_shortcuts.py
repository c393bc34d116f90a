"""Three places where numba's compiler did work that changes nothing for this project's code,
found by profiling expert's cold compile (issue 12; `python -m experiments.compile_stages`).
Each shortcut returns what numba's own code returns; only the time differs.

- Typing a binary operator on scalars (`a & b`, `x << 5`) asked numba's NumPy operator template
  first, which looked up the ufunc loop for the argument types before checking that an argument
  is an array, and then declined: about 6,000 loop searches in expert's cold compile. The
  template now declines at once when no argument is an array (nor an optional array), as it
  would after the search.
- Comparing or hashing compile flags built a dictionary of every option through its property,
  and numba's overload templates compare flags at every lookup of their cache (16,000 times).
  `TargetConfig.values()` now merges the options set on the flags into the class's defaults,
  the same dictionary.
- numba's inliner (`inline="always"`, which the play loop and expert's decision use) copies the
  callee's IR block by block, and each block's copy copied the function's whole scope with
  every variable in it: blocks times variables. The blocks of one copy now share one copy of
  the scope, as the blocks of the IR copied share one scope.

numba is pinned (tests/test_numba_pin.py); tests/test_compile.py checks that a cold start still
plays the same games. Installed when numba first compiles in a process (sim/layout.py imports
this module): a run of cached kernels does not import the parts of numba patched here.
"""

from __future__ import annotations

import copy

from numba.core import event

_numba: dict[str, object] = {}  # numba's own functions, once installed


def _may_be_array(ty) -> bool:
    from numba.core import types

    return isinstance(ty.type if isinstance(ty, types.Optional) else ty, types.ArrayCompatible)


def _operator_generic(self, args, kws):
    if not kws and not any(_may_be_array(a) for a in args):
        return None  # what numba returns for operators without an array argument, after the search
    return _numba["operator_generic"](self, args, kws)


def _values(self):
    defaults = type(self).__dict__.get("_defaults_of_options")
    if defaults is None:
        defaults = {name: option.default for name, option in self.options.items()}
        type(self)._defaults_of_options = defaults
    return {**defaults, **self._values}


_memo_of_copy: list[dict] = []  # one memo while numba's inliner copies an IR (innermost last)


def _block_deepcopy(self, memo):
    """A block copied within one `inline_ir` call shares the memo of that call, so the scope
    (and each variable) its blocks have in common is copied once."""
    shared = _memo_of_copy[-1] if _memo_of_copy else memo
    if id(self) in shared:
        return shared[id(self)]
    out = type(self).__new__(type(self))
    shared[id(self)] = out
    out.__dict__.update(copy.deepcopy(self.__dict__, shared))
    return out


def _inline_ir(self, *args, **kwargs):
    _memo_of_copy.append({})
    try:
        return _numba["inline_ir"](self, *args, **kwargs)
    finally:
        _memo_of_copy.pop()


def install() -> None:
    """Install the shortcuts (idempotent)."""
    if _numba:
        return
    from numba.core import inline_closurecall, ir, targetconfig
    from numba.core.typing import npydecl

    _numba["operator_generic"] = npydecl.NumpyRulesArrayOperator.generic
    _numba["inline_ir"] = inline_closurecall.InlineWorker.inline_ir
    npydecl.NumpyRulesArrayOperator.generic = _operator_generic
    targetconfig.TargetConfig.values = _values
    ir.Block.__deepcopy__ = _block_deepcopy
    inline_closurecall.InlineWorker.inline_ir = _inline_ir


class _InstallOnFirstCompile(event.Listener):
    def on_start(self, ev):
        install()

    def on_end(self, ev):
        pass


event.register("numba:compile", _InstallOnFirstCompile())
