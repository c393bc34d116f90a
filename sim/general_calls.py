"""How compiled code calls the Island Escape helpers: each helper typed and lowered once, into
LLVM IR that only the outermost compiled function optimises and turns into machine code (cold
compile, issue 12).

Two things made a cold compile slow, and both come from numba compiling every function called
from compiled code as a function of its own, the same way as one called from Python:

- it compiles a function once per distinct tuple of argument types, and types a constant
  argument as a literal of that very value: `_w(pp, W_RAISE)` and `_w(pp, W_SAVE)` were two
  compilations, and so was every helper handed an int32 read from the state in one place and
  an int64 in another (about 40 of the 125 functions compiled for expert);
- each of those functions got a Python wrapper, a C wrapper, a pass of LLVM's module
  optimisation over itself and everything it calls, machine code, and a file in the cache,
  although only the entries (`policies/entries.py`) are ever called from Python and each of
  them optimises the whole game again once it has linked the helpers in: expert's `choose`
  was optimised and machine-coded twice, and the small helpers dozens of times over inside the
  larger ones (LLVM took over half of the cold compile).

Here a call from compiled code into the Island Escape modules (`sim.kernel`, `sim.layout` and
the top-level `policies.*`) is typed with literals replaced by their plain type and signed
integers narrower than 64 bits widened to int64; numba converts each argument at the call
site, as it does whenever a call matches a wider signature. The values the callee sees are
the same (an int32 fits an int64; numba's arithmetic on int32 yields int64 anyway), so play is
unchanged: tests/test_fingerprints.py pins every policy's games. The helper is then compiled
through numba's own pipeline with the flags its decorator asks for, but as numba compiles its
internal subroutines: no wrappers, and its IR kept unoptimised (beyond numba's per-function
passes) in a library that its callers link, until an entry links them all and optimises and
machine-codes the whole at once. The constants still reach the machine code, since LLVM
inlines the small helpers (`forceinline`) and folds them there. A helper called from Python
(tests do) is compiled by numba as usual, separately.

Functions whose arguments must stay literals (the policy id the play loop dispatches on) are
marked with `keeps_literals`; a call that cannot be typed with plain arguments falls back to
its own arguments. A function that calls itself must be marked `left_to_numba` (numba's own
way types the recursion; none does today). Forbidden Island's modules are left to numba's default. numba is pinned
(tests/test_numba_pin.py): this wraps two methods of its dispatcher type and subclasses its
JIT code library.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future, ThreadPoolExecutor

from llvmlite import binding as llvm
from llvmlite.binding import ffi
from numba.core import cgutils, codegen, compiler, config, errors, event, types, typing
from numba.core.llvm_bindings import create_pass_builder
from numba.core.types import functions

_MODULES = ("sim.kernel", "sim.layout")
_KEEP: set[object] = set()


def keeps_literals(dispatcher):
    """Mark a numba function whose callers' literal arguments must reach it as literals."""
    _KEEP.add(dispatcher.py_func)
    return dispatcher


_NUMBA_WAY: set[object] = set()


def left_to_numba(dispatcher):
    """Mark a numba function that compiled code must call the way numba does by default (a
    function that calls itself: numba's own way types the recursion)."""
    _NUMBA_WAY.add(dispatcher.py_func)
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


class _LinkedLibrary(codegen.JITCodeLibrary):
    """A helper's code kept as LLVM IR for its callers to link: finalising it neither optimises
    its module nor makes machine code. The compiled function that is called from Python links
    it, and optimises and machine-codes everything once.

    A helper's IR is printed here, in the compiling thread, and its parsing, checking and LLVM
    per-function passes (numba's `add_ir_module`) run on a thread of their own (`_HelperPasses`)
    while numba types and lowers the next function. The optimised module comes back as bitcode,
    which is read and linked into the helper's module when something first reads that module:
    the same code as when it was all done in line (tests/test_compile.py). `BACKGROUND_LLVM =
    False` does it in line (experiments/compile_stages.py, whose clocks charge one thread's CPU
    time to stages)."""

    def __init__(self, codegen, name):
        self._llvm_work: list[tuple[str, Future]] = []
        super().__init__(codegen, name)

    @property
    def _final_module(self):
        if self._llvm_work:
            self.wait_for_llvm()
        return self._module

    @_final_module.setter
    def _final_module(self, module):
        self._module = module

    def wait_for_llvm(self) -> None:
        """Link in this helper's modules that came back from the background (raising what the
        work there raised), in the order numba added them."""
        while self._llvm_work:
            name, work = self._llvm_work.pop(0)
            module = llvm.parse_bitcode(work.result())
            module.name = name
            # the rest of numba's add_llvm_module, its per-function passes done
            if not config.LLVM_REFPRUNE_PASS:
                module = codegen.remove_redundant_nrt_refct(module)
            self._module.link_in(module)

    def add_ir_module(self, ir_module):
        if not BACKGROUND_LLVM:
            return super().add_ir_module(ir_module)
        self._raise_if_finalized()
        text = cgutils.normalize_ir_text(str(ir_module))  # Python: keeps the GIL, done here
        self._llvm_work.append((ir_module.name, _HelperPasses.submit(self._codegen, text)))

    def finalize(self):
        self._raise_if_finalized()
        for needed in self._linking_libraries:
            self._reload_init.update(needed._reload_init)
        self._finalized = True

    def _get_module_for_linking(self):
        """This helper with every function it calls (as numba's own libraries are: LLVM's linker
        copies a shared definition only into a module that already refers to it)."""
        if self._shared_module is None:
            module = self._final_module.clone()
            for needed in dict.fromkeys(self._linking_libraries):
                module.link_in(needed._get_module_for_linking(), preserve=True)
            for fn in module.functions:  # one copy in the final module, whoever links it
                if not fn.is_declaration and fn.linkage == llvm.Linkage.external:
                    fn.linkage = "linkonce_odr"
            self._shared_module = module
        return self._shared_module


BACKGROUND_LLVM = True


class _HelperPasses:
    """One thread that parses helpers' IR, checks it and runs LLVM's per-function passes over it
    (what numba's `add_ir_module` does), returning the module as bitcode.

    It works in an LLVM context and with a target machine of its own, which LLVM allows one
    thread to use while others use theirs. llvmlite serialises every call into LLVM with one
    lock, for the global context that all of numba's modules share; calls from this thread
    touch nothing of that context, so they skip the lock (`_skip_llvmlite_lock`), and the
    passes run while the compiling thread goes on, even when it calls into LLVM itself. Its
    objects are closed here, never left to the collector on another thread."""

    _pool: ThreadPoolExecutor | None = None
    _local = threading.local()

    @classmethod
    def submit(cls, codegen_, text: str) -> Future:
        if cls._pool is None:
            _skip_llvmlite_lock.install()
            cls._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="numba-llvm-helpers")
        return cls._pool.submit(cls._optimised_bitcode, codegen_, text)

    @classmethod
    def _optimised_bitcode(cls, codegen_, text: str) -> bytes:
        local = cls._local
        if not hasattr(local, "context"):
            options = dict(opt=config.OPT)
            codegen_._customize_tm_options(options)  # the options of numba's own target machine
            local.target_machine = llvm.Target.from_triple(llvm.get_process_triple()).create_target_machine(**options)
            local.context = llvm.create_context()
            _skip_llvmlite_lock.on()
        module = llvm.parse_assembly(text, context=local.context)
        try:
            module.verify()
            module.data_layout = codegen_._data_layout
            for fn in module.functions:
                if fn.is_declaration:  # nothing for a function pass to do
                    continue
                pb = create_pass_builder(local.target_machine, opt=config.OPT, loop_vectorize=config.LOOP_VECTORIZE,
                                         slp_vectorize=config.SLP_VECTORIZE)
                fpm = pb.getFunctionPassManager()
                if config.LLVM_REFPRUNE_PASS:
                    fpm.add_refprune_pass(codegen._parse_refprune_flags())
                fpm.run(fn, pb)
                fpm.close()
                pb.close()
            return module.as_bitcode()
        finally:
            module.close()


class _SkipLlvmliteLock:
    """llvmlite's lock around calls into LLVM, skipped by the threads that called `on()`."""

    def __init__(self):
        self._threads = threading.local()
        self._installed = False

    def on(self) -> None:
        self._threads.skip = True

    def install(self) -> None:
        if self._installed:
            return
        lock_type = type(ffi.lib._lock)
        take, give_back = lock_type.__enter__, lock_type.__exit__
        threads = self._threads

        def __enter__(lock):
            if not getattr(threads, "skip", False):
                take(lock)

        def __exit__(lock, *exc):
            if not getattr(threads, "skip", False):
                give_back(lock, *exc)

        lock_type.__enter__, lock_type.__exit__ = __enter__, __exit__
        self._installed = True


_skip_llvmlite_lock = _SkipLlvmliteLock()


_COMPILED: dict[tuple, tuple] = {}  # (py_func, argument types) -> (signature, lowering key)
_COMPILING: set[tuple] = set()  # under way


class _Recursive(Exception):
    """A function reached again while it compiles: it calls itself (see `left_to_numba`)."""


def _compile_linked(dispatcher, args: tuple):
    """Compile numba function `dispatcher` for `args` into a `_LinkedLibrary` (once a process)
    and register its lowering; returns (signature, lowering key)."""
    key = (dispatcher.py_func, args)
    if key in _COMPILED:
        return _COMPILED[key]
    if key in _COMPILING:
        raise _Recursive
    compiling = dispatcher._compiler
    flags = compiler.Flags()
    compiling.targetdescr.options.parse_as_flags(flags, compiling.targetoptions)
    flags = compiling._customize_flags(flags)
    flags.no_cpython_wrapper = True  # never called from Python
    flags.no_cfunc_wrapper = True
    flags.no_compile = True  # no machine code of its own
    context = compiling.targetdescr.target_context
    library = _LinkedLibrary(context.codegen(), dispatcher.py_func.__qualname__)
    _COMPILING.add(key)
    try:  # the same event as numba's own compiles, for listeners (tests/test_compile.py)
        with event.trigger_event("numba:compile", data={"dispatcher": dispatcher, "args": args, "return_type": None}):
            cres = compiler.compile_extra(compiling.targetdescr.typing_context, context, dispatcher.py_func,
                                          args=args, return_type=None, flags=flags, locals=compiling.locals,
                                          library=library, pipeline_class=compiling.pipeline_class)
    finally:
        _COMPILING.discard(key)
    lowering = object()
    context.insert_user_function(lowering, cres.fndesc, [library])
    _COMPILED[key] = (typing.signature(cres.signature.return_type, *args), lowering)
    return _COMPILED[key]


def _typed_call(fnty, context, args, kws):
    dispatcher = fnty.dispatcher
    pysig, folded = dispatcher._compiler.fold_argument_types(args, kws)
    sig, _ = _compile_linked(dispatcher, tuple(folded))
    template = typing.templates.make_concrete_template(f"CallTemplate({dispatcher.py_func.__name__})",
                                                      key=dispatcher.py_func.__name__, signatures=[sig])
    found = template(context).apply(tuple(folded), {})
    return found.replace(pysig=pysig) if found is not None else None


_numba_get_call_type = functions.Dispatcher.get_call_type
_numba_get_impl_key = functions.Dispatcher.get_impl_key


def _get_call_type(self, context, args, kws):
    py_func = self.dispatcher.py_func
    if not _ours(py_func) or py_func in _NUMBA_WAY or not self.dispatcher._can_compile:
        return _numba_get_call_type(self, context, args, kws)
    try:
        if py_func not in _KEEP:
            plain = tuple(_plain(a) for a in args)
            plain_kws = {k: _plain(v) for k, v in kws.items()}
            try:
                return _typed_call(self, context, plain, plain_kws)
            except errors.TypingError:
                pass  # needs its literals after all: compile it for them
        return _typed_call(self, context, tuple(args), kws)
    except _Recursive:
        raise errors.TypingError(f"{py_func.__qualname__} calls itself: mark it with "
                                 "sim.general_calls.left_to_numba") from None


def _get_impl_key(self, sig):
    found = _COMPILED.get((self.dispatcher.py_func, tuple(sig.args)))
    return found[1] if found is not None else _numba_get_impl_key(self, sig)


def install() -> None:
    """Compile calls to the Island Escape modules as described above (idempotent)."""
    functions.Dispatcher.get_call_type = _get_call_type
    functions.Dispatcher.get_impl_key = _get_impl_key


install()
