"""Where a compiled kernel still counts array references: the call sites of NRT_incref and
NRT_decref in each function of an entry's machine code.

    python -m tools.nrt_sites GAME POLICY [--entry play_chunk] [--all]

numba keeps those calls out of line, and keeps them in every function its own clean-up cannot
prove needs none (one that creates an array value: a slice, a view, a new array); a hot
function with any of them pays a call per array it passes on. This compiles the entry afresh
(a numba cache folder of its own, so the machine code is at hand), reads its assembly and lists
the functions with such calls, most first (`--all` lists every function).
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import tempfile
from collections import Counter

_CALLER_SAVED = ("%rax", "%rcx", "%rdx", "%rsi", "%rdi", "%r8", "%r9", "%r10", "%r11")


def sites(asm: str) -> tuple[Counter, Counter]:
    """Per function of `asm`: its call sites of NRT_incref/NRT_decref, and its instruction count."""
    calls, size = Counter(), Counter()
    current = None
    holding = {}  # register -> the NRT function last loaded into it (numba calls them through a register)
    for line in asm.splitlines():
        label = re.match(r"^([A-Za-z_.$][\w.$]*):", line)
        if label and not label.group(1).startswith(".L"):
            current = label.group(1)
            holding = {}
            continue
        text = line.strip()
        if current is None or not text or text.startswith((".", "#")) or text.endswith(":"):
            continue
        size[current] += 1
        load = re.match(r"movabsq\s+\$(NRT_incref|NRT_decref),\s*(%\w+)", text)
        if load:
            holding[load.group(2)] = load.group(1)
            continue
        if text.startswith("call"):
            target = text.split(None, 1)[1] if " " in text or "\t" in text else ""
            if "NRT_incref" in target or "NRT_decref" in target or target.lstrip("*") in holding:
                calls[current] += 1
            for reg in _CALLER_SAVED:  # a call clobbers these; the callee-saved ones keep what they hold
                holding.pop(reg, None)
    return calls, size


def _short(symbol: str) -> str:
    """A readable name of numba's mangled symbol: its qualified Python name."""
    rest, names = symbol.removeprefix("cpython.").removeprefix("cfunc.").removeprefix("_ZN"), []
    while True:
        m = re.match(r"(\d+)", rest)
        if not m:
            break
        n = int(m.group(1))
        rest = rest[m.end():]
        names.append(rest[:n])
        rest = rest[n:]
    return ".".join(names) or symbol[:60]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", help="island-escape or forbidden-island")
    ap.add_argument("policy")
    ap.add_argument("--entry", default="play_chunk", help="play_chunk, play_logged or play_on")
    ap.add_argument("--all", action="store_true")
    args = ap.parse_args()
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="nrt-sites-")
    keep = os.environ.get("NRT_SITES_ASM")
    from policies.game import game

    g = game(args.game)
    g.run_games(g.rules(), args.policy, 2, 0, threads=1)  # compiles play_chunk
    entries = importlib.import_module("policies.entries")
    table = getattr(entries, args.entry.upper())
    dispatcher = table[g.package.rpartition(".")[2], args.policy.split("@")[0]]
    if not dispatcher.signatures:
        raise SystemExit(f"{args.entry} of {args.policy} was not compiled by a run: call it first")
    asm = dispatcher.inspect_asm(dispatcher.signatures[0])
    if keep:
        with open(keep, "w") as f:
            f.write(asm)
    calls, size = sites(asm)
    print(f"{sum(calls.values())} call sites of NRT_incref/NRT_decref in {len(size)} functions")
    for fn in sorted(size, key=lambda f: (-calls[f], -size[f])):
        if calls[fn] or args.all:
            print(f"{calls[fn]:5d} sites {size[fn]:7d} instructions  {_short(fn)}")


if __name__ == "__main__":
    main()
