"""Where Forbidden Island's expert spends its instructions, function by function.

    python -m experiments.profiling.fi_instructions [--players 2] [--games 1000] [--apart NAME ...]

Plays GAMES games at Normal under valgrind's callgrind with its cache simulator, counting only
the games (instrumentation is switched on after a warm-up), and prints for every compiled
function of the play loop: its calls a game, instructions a game and a call, and simulated
first-level instruction-cache misses a game. Exact counts, unlike the clock on a shared
machine: compare two trees by their totals (about 1% apart between runs of the same code).

The play loop is one compiled function with most of the expert inlined into it, so by default
the table shows only the few functions LLVM left apart. `--apart NAME` keeps the functions of
that name (as written in the source: `_keep_entry`, `_build_row`, ...) out of line, so they get
a row of their own. That changes the code (calls where there were none: about a tenth more
instructions), so it compiles into a cache of its own, and its totals are not the shipped code's.

Needs valgrind and binutils' `nm` on the PATH. Code for valgrind is compiled for a CPU valgrind
knows (haswell with its bit-manipulation and AVX2 features), into its own numba cache under
~/.cache/island-escape/numba-instructions/, so the first run compiles for a few minutes.

How it finds the functions: numba loads the play loop from its cache as object code; this
script keeps a copy of that object (by wrapping numba's unserialise step), reads its symbols
with `nm`, and places them at the address numba gives for the entry.
"""

from __future__ import annotations

import argparse
import bisect
import collections
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

# Code valgrind can run: it does not know every instruction of a newer CPU's.
_CPU = {"NUMBA_CPU_NAME": "haswell", "NUMBA_CPU_FEATURES": "+avx2,+bmi2,+popcnt,+lzcnt,+bmi"}
# callgrind's event columns, in the order --cache-sim=yes writes them
_EVENTS = ("Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw")
_SHORT = re.compile(r"(expert|kernel|play|paths|entries|general_calls)\d+(\w+?)B\d")


def _keep_apart(names: list[str]) -> None:
    """Compile the functions called `names` out of line: numba marks a `forceinline` function
    alwaysinline where it declares it, and LLVM inlines the rest where it sees fit."""
    from numba.core import base, codegen

    def marked(mangled: str) -> bool:
        return any(f"{len(n)}{n}B" in mangled for n in names)  # the mangled form of a plain name

    declare = base.BaseContext.declare_function

    def declare_apart(self, module, fndesc):
        fn = declare(self, module, fndesc)
        if marked(fndesc.mangled_name):
            fn.attributes.discard("alwaysinline")
        return fn

    optimise = codegen.CPUCodeLibrary._optimize_final_module

    def optimise_apart(self):
        for fn in self._final_module.functions:
            if not fn.is_declaration and marked(fn.name):
                fn.add_function_attribute("noinline")
        return optimise(self)

    base.BaseContext.declare_function = declare_apart
    codegen.CPUCodeLibrary._optimize_final_module = optimise_apart


def _keep_object_code() -> dict[str, bytes]:
    """numba's cached libraries as they are loaded: name -> object code."""
    from numba.core import codegen

    kept: dict[str, bytes] = {}
    unserialise = codegen.CPUCodeLibrary._unserialize.__func__

    def unserialise_keeping(cls, codegen_, state):
        name, kind, data = state
        if kind == "object":
            kept[name] = data[0]
        return unserialise(cls, codegen_, state)

    codegen.CPUCodeLibrary._unserialize = classmethod(unserialise_keeping)
    return kept


def _play(players: int, games: int, apart: list[str], out: Path, under_valgrind: bool) -> None:
    """The child's part: warm up, then play `games` games with callgrind counting (when under
    valgrind), and write the entry's address and object code next to `out`."""
    if apart:
        _keep_apart(apart)
    kept = _keep_object_code()
    from experiments.forbidden_island import run_games
    from policies.forbidden_island.entries import PLAY_CHUNK
    from sim.forbidden_island.rules import Rules

    rules = Rules(players=players, difficulty="normal")
    run_games(rules, "expert", 5, seed=1, threads=1)
    if not under_valgrind:
        return  # the compile run: the cache now holds the code
    cres = next(iter(PLAY_CHUNK["expert"].overloads.values()))
    name = cres.fndesc.llvm_func_name
    if cres.library.name not in kept:
        sys.exit("fi_instructions: the play loop was compiled, not loaded from the cache; run again")
    out.with_suffix(".o").write_bytes(kept[cres.library.name])
    out.with_suffix(".entry").write_text(f"{name} {cres.library.get_pointer_to_function(name)}\n")
    subprocess.run(["callgrind_control", "-i", "on", str(os.getpid())], check=True, capture_output=True)
    run_games(rules, "expert", games, seed=0, threads=1)
    subprocess.run(["callgrind_control", "-i", "off", str(os.getpid())], check=True, capture_output=True)


def _symbols(obj: Path) -> list[tuple[int, int, str]]:
    """(offset, size, short name) of each function in the object, by offset."""
    out = subprocess.run(["nm", "-S", str(obj)], check=True, capture_output=True, text=True).stdout
    syms = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "TtWw":
            m = _SHORT.search(parts[3])
            short = f"{m.group(1)}.{re.sub(r'^[0-9]+', '', m.group(2))}" if m else parts[3][:40]
            syms.append((int(parts[0], 16), int(parts[1], 16), parts[3], short))
    return sorted(syms)


def _costs(path: Path) -> dict[int, list[int]]:
    """Instruction address -> summed event counts, from a callgrind file written with
    --dump-instr=yes (its positions are "address line", each either absolute, relative (+/-)
    or the same (*); the line after a calls= line is the call's inclusive cost, skipped)."""
    cost: dict[int, list[int]] = collections.defaultdict(lambda: [0] * len(_EVENTS))
    addr, after_call = 0, False
    with open(path) as f:
        for line in f:
            if line.startswith("calls="):
                after_call = True
                continue
            if not line or line[0] not in "0123456789+-*":
                continue
            parts = line.split()
            at = parts[0]
            if at.startswith("0x"):
                addr = int(at, 16)
            elif at[0] in "+-":
                step = int(at[1:], 16) if at[1:].startswith("0x") else int(at[1:])
                addr += step if at[0] == "+" else -step
            elif at != "*":
                continue
            if after_call:
                after_call = False
                continue
            row = cost[addr]
            for k, v in enumerate(parts[2:]):
                row[k] += int(v)
    return cost


def _table(out: Path, games: int) -> str:
    syms = _symbols(out.with_suffix(".o"))
    entry, address = out.with_suffix(".entry").read_text().split()
    base = int(address) - next(off for off, _, name, _ in syms if name == entry)
    ir, i1 = _EVENTS.index("Ir"), _EVENTS.index("I1mr")
    rows: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0, 0.0, 0.0])  # calls, Ir, I1mr, size
    total = [0, 0]
    starts = [off for off, *_ in syms]
    for addr, c in _costs(out).items():
        total[0] += c[ir]
        total[1] += c[i1]
        k = bisect.bisect_right(starts, addr - base) - 1
        if k < 0 or addr - base >= syms[k][0] + syms[k][1]:
            continue  # Python, numpy, numba's runtime
        off, size, _, short = syms[k]
        row = rows[short]
        if addr - base == off:
            row[0] += c[ir]  # the first instruction runs once a call
        row[1] += c[ir]
        row[2] += c[i1]
    for _, size, _, short in syms:
        rows[short][3] += size
    lines = [f"{games:,} games: {total[0] / games:,.0f} instructions a game, "
             f"{total[1] / games:,.0f} first-level instruction-cache misses a game (simulated: 32 KiB, 8 ways)",
             "", f"{'function':28s} {'calls':>8s} {'instr.':>9s} {'a call':>7s} {'I1 miss':>8s} {'bytes':>7s}"]
    for short, (calls, n, miss, size) in sorted(rows.items(), key=lambda kv: -kv[1][1]):
        if n < games:
            continue
        lines.append(f"{short:28s} {calls / games:8.1f} {n / games:9,.0f} {n / max(calls, 1):7,.0f} "
                     f"{miss / games:8,.0f} {size:7,.0f}")
    lines.append("(a game: calls, instructions and misses; a call: instructions; bytes: the function's code)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m experiments.profiling.fi_instructions",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--apart", nargs="*", default=[], metavar="NAME",
                    help="functions to keep out of line, e.g. _keep_entry _build_row")
    ap.add_argument("--child", choices=("compile", "valgrind"), help=argparse.SUPPRESS)
    ap.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error(f"--games must be at least 1, not {args.games}")
    if args.child:
        _play(args.players, args.games, args.apart, args.out, args.child == "valgrind")
        return
    for tool in ("valgrind", "callgrind_control", "nm"):
        if shutil.which(tool) is None:
            sys.exit(f"fi_instructions: needs {tool} on the PATH")
    from sim import source_digest

    # a cache per state of the sources (as the project's own) and per set of functions kept apart
    tag = hashlib.sha1(" ".join(sorted(args.apart)).encode()).hexdigest()[:8]
    home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    cache = home / "island-escape" / "numba-instructions" / f"{source_digest()}-{tag}"
    env = {**os.environ, **_CPU, "NUMBA_CACHE_DIR": str(cache)}
    me = [sys.executable, "-m", "experiments.profiling.fi_instructions", "--players", str(args.players),
          "--games", str(args.games), "--apart", *args.apart]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        print(f"compiling (or loading) into {cache} ...", file=sys.stderr, flush=True)
        _run("the compile run", [*me, "--child", "compile", "--out", str(out)], env)
        print(f"playing {args.games:,} games under callgrind ...", file=sys.stderr, flush=True)
        _run("valgrind", ["valgrind", "--tool=callgrind", "--instr-atstart=no", "--cache-sim=yes",
                          "--dump-instr=yes", "--I1=32768,8,64", "--D1=32768,8,64", "--LL=33554432,16,64",
                          f"--callgrind-out-file={out}", *me, "--child", "valgrind", "--out", str(out)], env)
        print(_table(out, args.games))


def _run(what: str, cmd: list[str], env: dict[str, str]) -> None:
    """Run a step, its output kept; on failure one line saying which step, and its last words."""
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(nothing on stderr)"])[-1]
        sys.exit(f"fi_instructions: {what} failed (exit {done.returncode}): {last}")


if __name__ == "__main__":
    main()
