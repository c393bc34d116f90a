"""Places where numba's compiler did work that changes nothing for this project's code, found by
profiling expert's cold compile (issue 12; `python -m experiments.compile_stages`). Each
shortcut returns what numba's own code returns; only the time differs.

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
- A lookup of a lowering that misses (every array's `__array__`, which plain arrays never
  have) makes numba refresh its contexts: run its imports again and install whatever its
  registries gained since the last refresh, about 1,200 times in expert's cold compile. A refresh
  is now skipped when no registry either context has installed has grown since the last one
  (it would install nothing), and done in full otherwise.
- The ABI size of an LLVM type (asked for every stack slot numba allocates) was found by
  printing a module holding a global of that type and having LLVM parse it, each time. Sizes are
  now remembered per target by the type's text, for types whose text says everything about them
  (no named struct, whose body the text does not show).
- numba lists the variables an IR instruction uses (for its use-def, liveness and variable
  deletion analyses, about 190,000 times) by walking the instruction's attributes recursively,
  testing each value against four classes and building a list at every level. The walk now
  decides once per Python type whether values of it are variables, instructions, sequences,
  mappings or nothing to look into, and appends to one list: the same variables in the same
  order.
- numba wraps the typing and lowering of each instruction (about 60,000 times) in a generator
  context manager that adds a line of context to a numba error passing through it. A plain
  class now does the same (the same lines added to the same errors, and the same bookkeeping of
  the user's source locations) at a third of the cost.
- numba types a call of one of its own functions (an operator, `min`, `bool`, a NumPy
  function) by trying each of its templates in turn, every time the call is met: about 6,700
  times in expert's cold compile, for 555 different calls (a function and its argument types),
  a second of CPU. The signature found is now remembered per typing context, function type,
  argument types and target, and given again, with the implementation key numba records beside
  it, while the typing context has not changed since: any registry installed or function,
  attribute or global inserted starts afresh. A call that fails is typed by numba every time.
- Python's cycle collector walked every live object seven times during expert's cold compile
  (0.5-0.8 s), while numba builds hundreds of thousands of objects. It is paused for the
  outermost compile and resumed (if it was running) when that compile ends, which collects what
  the compile left.

numba is pinned (tests/test_numba_pin.py); tests/test_compile.py checks that a cold start still
plays the same games. Installed when numba first compiles in a process (sim/layout.py imports
this module): a run of cached kernels does not import the parts of numba patched here.
"""

from __future__ import annotations

import copy
import gc

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


def _registry_sizes(context) -> tuple:
    """How many registrations each registry `context` (a target context) or its typing context
    has installed holds: a refresh installs nothing new while these stay the same."""
    sizes = []
    for ctx in (context, context.typing_context):
        for registry, loader in ctx._registries.items():
            sizes.append(id(registry))
            sizes.extend(len(getattr(registry, name)) for name in loader.registry_items)
    return tuple(sizes)


def _refresh(self):
    sizes = _registry_sizes(self)
    if self.__dict__.get("_registry_sizes_at_refresh") == sizes:
        return  # numba's refresh would install nothing: every registry is as it was
    _numba["refresh"](self)
    self._registry_sizes_at_refresh = _registry_sizes(self)


def _get_abi_sizeof(self, ty):
    text = str(ty)
    if "%" in text:  # a named struct: its text does not show its body
        return _numba["get_abi_sizeof"](self, ty)
    sizes = self.__dict__.get("_abi_sizes")
    if sizes is None or sizes[0] is not self.target_data:
        sizes = self._abi_sizes = (self.target_data, {})
    found = sizes[1].get(text)
    if found is None:
        found = sizes[1][text] = _numba["get_abi_sizeof"](self, ty)
    return found


_KIND_OF_TYPE: dict[type, int] = {}  # numba IR value type -> one of the kinds below
_NOTHING, _VARIABLE, _INSTRUCTION, _SEQUENCE, _MAPPING = range(5)


def _kind_of(cls) -> int:
    from numba.core import ir

    # the order of numba's own tests in Inst._rec_list_vars
    if issubclass(cls, ir.Var):
        kind = _VARIABLE
    elif issubclass(cls, ir.Inst):
        kind = _INSTRUCTION
    elif issubclass(cls, (list, tuple)):
        kind = _SEQUENCE
    elif issubclass(cls, dict):
        kind = _MAPPING
    else:
        kind = _NOTHING
    _KIND_OF_TYPE[cls] = kind
    return kind


def _collect_vars(val, found: list) -> None:
    kind = _KIND_OF_TYPE.get(type(val))
    if kind is None:
        kind = _kind_of(type(val))
    if kind == _NOTHING:
        return
    if kind == _VARIABLE:
        found.append(val)
    elif kind == _INSTRUCTION:
        found.extend(val.list_vars())
    elif kind == _SEQUENCE:
        for item in val:
            _collect_vars(item, found)
    else:
        for item in val.values():
            _collect_vars(item, found)


def _rec_list_vars(self, val):
    found: list = []
    _collect_vars(val, found)
    return found


class _ErrorContext:
    """numba's `new_error_context` as a class: a numba error raised inside gets the context line
    `fmt_.format(*args, **kwargs)`, and a `loc` outside numba's own files is recorded in
    `errors.loc_info` on entry, as numba's generator does."""

    __slots__ = ("fmt", "args", "kwargs")

    def __init__(self, fmt_, *args, **kwargs):
        self.fmt, self.args, self.kwargs = fmt_, args, kwargs

    def __enter__(self):
        loc = self.kwargs.get("loc")
        if loc is not None and not loc.filename.startswith(_numba["numba_path"]):
            _numba["loc_info"].update(self.kwargs)

    def __exit__(self, kind, error, traceback):
        if kind is not None and issubclass(kind, _numba["NumbaError"]):
            error.add_context(_numba["format_msg"](self.fmt, self.args, self.kwargs))
        return False


_MUTATORS = ("_insert_global", "_remove_global", "insert_global", "insert_attributes", "insert_function",
             "insert_user_function")  # what changes a typing context's answers, with installing a registry


def _counting_changes(method):
    def changed(self, *args, **kwargs):
        self._changes = self.__dict__.get("_changes", 0) + 1
        return method(self, *args, **kwargs)

    return changed


def _install_registry(self, registry):
    """numba's, counted as a change when the registry holds more than when it was last installed
    here (numba installs only what it has not installed before)."""
    sizes = (len(registry.functions), len(registry.attributes), len(registry.globals))
    installed = self.__dict__.setdefault("_installed_sizes", {})
    if installed.get(registry) != sizes:
        installed[registry] = sizes
        self._changes = self.__dict__.get("_changes", 0) + 1
    return _numba["install_registry"](self, registry)


def _function_call_type(self, context, args, kws):
    from numba.core import types
    from numba.core.target_extension import get_local_target

    numbas = _numba["function_call_type"]
    if type(self) is not types.Function:
        return numbas(self, context, args, kws)
    try:
        key = (self, tuple(args), tuple(kws.items()), get_local_target(context))
        memo = context.__dict__.get("_call_types")
        changes = context.__dict__.get("_changes", 0)
        if memo is None or memo[0] != changes:
            memo = context._call_types = (changes, {})
        found = memo[1].get(key)
    except TypeError:  # an argument type that cannot be hashed
        return numbas(self, context, args, kws)
    if found is not None and found[0] is self:
        self._impl_keys[found[1].args] = found[2]  # as numba sets it on each call
        return found[1]
    sig = numbas(self, context, args, kws)
    if sig is not None and context.__dict__.get("_changes", 0) == changes:
        memo[1][key] = (self, sig, self._impl_keys[sig.args])
    return sig


def install() -> None:
    """Install the shortcuts (idempotent)."""
    if _numba:
        return
    from numba.core import base, errors, inline_closurecall, ir, lowering, targetconfig, typeinfer
    from numba.core.types import functions
    from numba.core.typing import context as typing_context
    from numba.core.typing import npydecl

    _numba["operator_generic"] = npydecl.NumpyRulesArrayOperator.generic
    _numba["inline_ir"] = inline_closurecall.InlineWorker.inline_ir
    _numba["refresh"] = base.BaseContext.refresh
    _numba["get_abi_sizeof"] = base.BaseContext.get_abi_sizeof
    _numba["rec_list_vars"] = ir.Inst._rec_list_vars
    _numba["function_call_type"] = functions.BaseFunction.get_call_type
    _numba["install_registry"] = typing_context.BaseContext.install_registry
    _numba["new_error_context"] = errors.new_error_context
    _numba.update(numba_path=errors._numba_path, loc_info=errors.loc_info, NumbaError=errors.NumbaError,
                  format_msg=errors._format_msg)
    npydecl.NumpyRulesArrayOperator.generic = _operator_generic
    targetconfig.TargetConfig.values = _values
    ir.Block.__deepcopy__ = _block_deepcopy
    inline_closurecall.InlineWorker.inline_ir = _inline_ir
    base.BaseContext.refresh = _refresh
    base.BaseContext.get_abi_sizeof = _get_abi_sizeof
    ir.Inst._rec_list_vars = _rec_list_vars
    for name in _MUTATORS:
        setattr(typing_context.BaseContext, name, _counting_changes(getattr(typing_context.BaseContext, name)))
    typing_context.BaseContext.install_registry = _install_registry
    functions.Function.get_call_type = _function_call_type
    for module in (errors, lowering, typeinfer):  # the last two imported it by name
        module.new_error_context = _ErrorContext


class _InstallOnFirstCompile(event.Listener):
    def on_start(self, ev):
        install()

    def on_end(self, ev):
        pass


class CollectorPausedWhileCompiling(event.Listener):
    """Pauses Python's cycle collector from the start of the outermost numba compile to its end
    (compiles nest: a compile types its callees by compiling them), and resumes it then unless it
    was already paused."""

    def __init__(self) -> None:
        self.depth = 0
        self.resume = False

    def on_start(self, ev):
        self.depth += 1
        if self.depth == 1:
            self.resume = gc.isenabled()
            gc.disable()

    def on_end(self, ev):
        self.depth -= 1
        if self.depth == 0 and self.resume:
            gc.enable()


event.register("numba:compile", _InstallOnFirstCompile())
event.register("numba:compile", CollectorPausedWhileCompiling())
