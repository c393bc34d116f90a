"""What numba compiles on a cold start: the shape that keeps the cold compile short.

Every numba function compiled on its own is optimised and turned into machine code together
with everything it calls, so a chain of wrappers around the game loop compiled the whole game
(and the whole policy) once per link. The generated entry inlines the play loop
(policies/play.py) and calls the policy through an intrinsic (policies/dispatch.py), so none of
those links is compiled as a function of its own. Checked in a fresh process on an empty numba
cache with `random`, the cheapest policy to compile (timing lives in `make bench`, not here).

Every helper is compiled once, whatever constants and integer widths its callers pass, and
only as LLVM IR that the entry links: LLVM optimises and machine-codes the entry alone, once,
with everything it calls (sim/general_calls.py), whose per-function passes run on a thread of
their own beside the compile.

A second process then loads the compiled kernel from that cache: it must play the same games
without readying numba's compiler (experiments/runner.py explains why that saves start-up).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_CHILD = """
import hashlib
import json
import sys

from numba.core import codegen, event

import sim.general_calls

sim.general_calls.BACKGROUND_LLVM = sys.argv[1:] != ["in-line"]
compiled = []
optimised = []  # the code libraries LLVM optimised as a whole module
entry_code = []  # the entry's optimised IR (a digest): what its machine code is made from
helper_pass_threads = set()  # where the helpers' per-function passes ran
_optimise = codegen.CPUCodeLibrary._optimize_final_module
_function_passes = codegen.CPUCodeLibrary._optimize_functions


def optimise(library):
    optimised.append(library.name)
    _optimise(library)
    entry_code.append(hashlib.sha256(str(library._final_module).encode()).hexdigest())


def thread_name():
    import threading

    return threading.current_thread().name.rsplit("_", 1)[0]


def function_passes(library, module):  # numba's, in line
    if isinstance(library, sim.general_calls._LinkedLibrary):
        helper_pass_threads.add(thread_name())
    return _function_passes(library, module)


_in_background = sim.general_calls._HelperPasses._optimised_bitcode


def in_background(codegen_, text):
    helper_pass_threads.add(thread_name())
    return _in_background(codegen_, text)


codegen.CPUCodeLibrary._optimize_final_module = optimise
codegen.CPUCodeLibrary._optimize_functions = function_passes
sim.general_calls._HelperPasses._optimised_bitcode = staticmethod(in_background)


class Listener(event.Listener):
    def on_start(self, ev):
        fn = ev.data["dispatcher"].py_func
        compiled.append(f"{fn.__module__}.{fn.__qualname__}")

    def on_end(self, ev):
        pass


event.register("numba:compile", Listener())
from experiments.runner import run_games
from sim.rules import Rules

raw = run_games(Rules(), "random", 200, seed=0, threads=1)
print(json.dumps({"compiled": compiled, "optimised": optimised, "games": len(raw), "entry_code": entry_code,
                  "helper_pass_threads": sorted(helper_pass_threads),
                  "table": hashlib.sha256(raw.tobytes()).hexdigest(),
                  "compiler_readied": "numba.typed.typeddict" in sys.modules,
                  "numpy_support": "numba.np.arraymath" in sys.modules, "scipy": "scipy.linalg" in sys.modules,
                  "array_support": "numba.np.arrayobj" in sys.modules,
                  "runtime": __import__("numba.core.runtime", fromlist=["rtsys"]).rtsys._init}))
"""


def _run_child(cache: Path, *args: str) -> dict:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    out = subprocess.run([sys.executable, "-c", _CHILD, *args], capture_output=True, text=True, env=env, cwd=ROOT,
                         check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_cold_start_compiles_the_game_loop_once_and_a_warm_start_only_loads_it(tmp_path):
    cold = _run_child(tmp_path)
    compiled = cold["compiled"]
    assert cold["games"] == 200
    assert "policies.entries.play_chunk_random" in compiled
    assert "policies.uniform_random.choose" in compiled  # the policy: called, not inlined
    wrappers = [name for name in compiled if name.startswith(("policies.play.", "policies.dispatch."))]
    assert wrappers == [], f"compiled as functions of their own (each one more pass over the game): {wrappers}"
    # sim/general_calls.py: one copy of each helper, not one per constant (rand_below was
    # compiled once per stream) or per integer width
    again = sorted({name for name in compiled if compiled.count(name) > 1 and name.startswith(("sim.", "policies."))})
    assert again == [], f"compiled more than once: {again}"
    # ... and never optimised on its own: the entry's optimisation covers it (numba's own
    # helpers, such as its builtin max, are compiled the usual way)
    ours = {name.rsplit(".", 1)[1] for name in compiled if name.startswith(("sim.", "policies."))}
    assert [name for name in cold["optimised"] if name in ours] == ["play_chunk_random"]

    warm = _run_child(tmp_path)
    assert warm["compiled"] == []  # everything came from the cache
    assert warm["table"] == cold["table"]
    assert not warm["compiler_readied"], "loading cached kernels set up numba's whole compiler"
    assert cold["compiler_readied"]  # the check can tell: compiling does set it up
    # numba's numpy support is loaded by the compiler alone, and without scipy.linalg (sim/layout.py)
    assert cold["numpy_support"] and not cold["scipy"]
    assert not warm["numpy_support"], "a run on cached kernels loaded numba's numpy support"
    # ... nor its array support, which a cached kernel calling one of its functions (reshape) loads
    assert not warm["array_support"], "loading the cached kernel imported numba.np.arrayobj"
    assert not warm["runtime"], "a run on cached kernels that never count references built numba's runtime"


def test_helpers_ir_is_optimised_beside_the_compile_into_the_same_code(tmp_path):
    # sim/general_calls.py: helpers' IR is parsed and put through LLVM's per-function passes on
    # a thread of its own while numba goes on compiling; the entry must come out the same as
    # when that work is done in line
    beside = _run_child(tmp_path / "beside")
    in_line = _run_child(tmp_path / "in-line", "in-line")
    assert beside["helper_pass_threads"] == ["numba-llvm-helpers"]
    assert in_line["helper_pass_threads"] == ["MainThread"]  # threads=1: compiled where it is called
    assert beside["entry_code"] == in_line["entry_code"]
    assert beside["table"] == in_line["table"]


_USES_THE_RUNTIME = """
import sys

sys.path.insert(0, sys.argv[1])
import experiments.runner  # noqa: F401  (its cache loader)
import makes_arrays

print(makes_arrays.doubled(4).tolist(), sum(makes_arrays.doubled.stats.cache_hits.values()))
"""


def test_cached_code_that_counts_references_gets_its_runtime(tmp_path):
    # A function returning a new array needs numba's runtime (NRT); loaded from the cache without
    # it, it would crash, so the loader must see that its machine code calls the runtime.
    (tmp_path / "makes_arrays.py").write_text(
        "import numpy as np\nfrom numba import njit\n\n\n@njit(cache=True)\ndef doubled(n):\n"
        "    return np.arange(n) * 2\n")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    runs = [subprocess.run([sys.executable, "-c", _USES_THE_RUNTIME, str(tmp_path)], capture_output=True,
                           text=True, env=env, cwd=ROOT) for _ in range(2)]
    assert [r.returncode for r in runs] == [0, 0], runs[-1].stderr[-2000:]
    assert [r.stdout.split() for r in runs] == [["[0,", "2,", "4,", "6]", "0"], ["[0,", "2,", "4,", "6]", "1"]]
