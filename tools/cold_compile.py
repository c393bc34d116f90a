"""Cold compiles of two versions of the lab, alternating: a fresh process on an empty numba
cache imports the lab, compiles a policy's kernel and plays ten games.

    python tools/cold_compile.py OLD_WORKTREE NEW_WORKTREE [--rounds 2]
        [--only ie:expert,fi:expert]

Each run is `WORKTREE/.venv/bin/python` in that worktree with NUMBA_CACHE_DIR a new empty
folder; the table gives the median of the rounds, wall clock and the child's CPU time (user
and system: on a machine shared with other jobs the wall clock moves with their load).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import tempfile
import time

_GAME = {"ie": "island-escape", "fi": "forbidden-island", "sti": "survive-the-island"}
_PLAY = ("from policies.game import game; g = game({game!r}); g.run_games(g.rules(), {policy!r}, 10, 0, threads=1)")


def cold(tree: str, name: str, policy: str) -> tuple[float, float]:
    """Wall and CPU seconds of one cold run in worktree `tree`."""
    with tempfile.TemporaryDirectory(prefix="cold-numba-") as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([os.path.join(tree, ".venv/bin/python"), "-c", _PLAY.format(game=_GAME[name], policy=policy)],
                       cwd=tree, env=env, check=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--only", default="ie:expert,fi:expert", help="comma-separated game:policy")
    args = ap.parse_args()
    cases = [tuple(c.split(":")) for c in args.only.split(",") if c]
    runs = {(c, v): [] for c in cases for v in ("old", "new")}
    for _ in range(args.rounds):
        for case in cases:
            for version, tree in (("old", args.old), ("new", args.new)):
                runs[case, version].append(cold(tree, *case))
    print("| game | policy | old: wall s | old: CPU s | new: wall s | new: CPU s |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for case in cases:
        cells = []
        for version in ("old", "new"):
            cells += [statistics.median(r[i] for r in runs[case, version]) for i in (0, 1)]
        print(f"| {case[0]} | {case[1]} | " + " | ".join(f"{x:.1f}" for x in cells) + " |", flush=True)


if __name__ == "__main__":
    main()
