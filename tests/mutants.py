"""Mutation check: realistic kernel bugs, each of which the test suite must catch (`make mutants`).

Each mutant is one small edit of the kernel's source. The project is copied to a scratch folder
once; for each mutant the edit is applied there and the fast suite (`pytest -m "not slow"`, as
`make test` runs it, the kernel tests first and stopping at the first failure) run on the copy,
then the file is restored. A mutant the suite lets pass "survives": the script then exits with status 1. An edit
whose text is no longer in the source (the code moved) is reported as such, never skipped
silently.

    python tests/mutants.py            # every mutant
    python tests/mutants.py swims r18  # the mutants whose names contain these words
    python tests/mutants.py fi-        # Forbidden Island's kernel only

Not part of `make test`: each mutant recompiles the kernel and the entries of the policies its
tests play (a minute or two a mutant on 2 cores).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KERNEL = "sim/island_escape/kernel.py"
FI_KERNEL = "sim/forbidden_island/kernel.py"
FI_LOOKAHEAD = "policies/forbidden_island/lookahead.py"
# the tests run first for a mutant of each file (most mutants die there)
FIRST = {KERNEL: ["tests/test_rulings.py", "tests/test_kernel.py", "tests/test_properties.py"],
         FI_KERNEL: ["tests/test_worlds.py", "tests/forbidden_island/test_rulings.py",
                     "tests/forbidden_island/test_roles.py", "tests/forbidden_island/test_kernel.py"],
         FI_LOOKAHEAD: ["tests/forbidden_island/test_lookahead.py"]}

# name: (file, text to replace, replacement, what the bug is)
MUTANTS: dict[str, tuple[str, str, str, str]] = {
    "r18-cut-off-before-water": (
        KERNEL,
        "        if s[GAUGE_TOP] == p[P_GLEN] - 1:\n            s[OUTCOME] = CAUSE_WATER",
        "        if s[GAUGE_TOP] == p[P_GLEN] - 1:\n            if sank >= 0 and cut_off(s, p):\n"
        "                s[OUTCOME] = CAUSE_CUT_OFF\n                return\n            s[OUTCOME] = CAUSE_WATER",
        "R18: on the last gauge card, cut_off is checked before the water"),
    "r12-no-short-raise": (
        KERNEL,
        "    return raise_discard_cards(np.int64(s[at(HAND + me)]), in_play(s, p), np.int64(s[RAISED]), suit,"
        " p[P_CPT])",
        "    if popcount(np.int64(s[at(HAND + me)]) & SUIT_MASK[suit]) < p[P_CPT]:\n        return 0\n"
        "    return raise_discard_cards(np.int64(s[at(HAND + me)]), in_play(s, p), np.int64(s[RAISED]), suit,"
        " p[P_CPT])",
        "R12: legal_actions never offers the short-of-a-suit raise"),
    "r8-no-swims": (
        KERNEL, "(swim << A_SWIM)", "(0 << A_SWIM)",
        "R8: swims are never offered"),
    "r9-no-shore-here": (
        KERNEL, "    legal |= ((flooded >> here) & 1) << A_SHORE_HERE", "    pass",
        "R9: a pawn cannot shore up its own place"),
    "r10-salvage-under-a-pawn": (
        KERNEL, "beside(np.int64(s[FACE_UP_LAND]) & ~occupied, here)", "beside(np.int64(s[FACE_UP_LAND]), here)",
        "R10: a place where a pawn stands can be salvaged"),
    "r8-swim-costs-one": (
        KERNEL, "        s[ACTS] -= p[P_SWIM]", "        s[ACTS] -= 1",
        "R8: a swim costs one action whatever the swim cost"),
    "r15-no-diagonal-escape": (
        KERNEL, "    for k in range(8):\n        t = ESCAPE_TO[at(place), k]",
        "    for k in range(0, 8, 2):\n        t = ESCAPE_TO[at(place), k]",
        "R15: emergency escapes only orthogonal"),
    "r15-raised-king-sinks-the-treasure": (
        KERNEL, "        if not (s[RAISED] >> card) & 1:\n            s[OUTCOME] = CAUSE_TREASURE",
        "        if True:\n            s[OUTCOME] = CAUSE_TREASURE",
        "R15: the sinking of a raised King's place loses the game"),
    "r17-not-checked-after-a-raise": (
        KERNEL, "        check_state_losses(s, p)  # R17", "        pass  # R17",
        "R17/R18: no cards check after a (short) raise"),
    "r13-takeoff-with-a-pawn-away": (
        KERNEL, "if s[RAISED] == 15 and occupied == 1 << CENTRE:", "if s[RAISED] == 15 and (occupied >> CENTRE) & 1:",
        "R13: take-off while a pawn is elsewhere"),
    "r11-give-across-the-island": (
        KERNEL, "on_my_place |= np.int64(s[at(PAWN + i)] == here) << (4 * i)",
        "on_my_place |= np.int64(s[at(PAWN + i)] >= 0) << (4 * i)",
        "R11: gives to a pawn on another place"),
    "r14-flooded-face-down-card-not-salvageable": (
        KERNEL,
        "        s[FACE_UP_LAND] |= np.int64(4 <= s[at(CARD + place)] < 24) << place\n        return nlog, -1, -1",
        "        return nlog, -1, -1",
        "R10/R14: a face-down land tile that floods is not turned face up for salvage (its place mask)"),
    "r9-shored-tile-stays-flooded": (
        KERNEL, "        s[FLOODED_AT] &= ~(np.int64(shoring) << t)", "        pass",
        "R9: a shored tile can be shored again (the flooded-places mask is not updated)"),
    "r14-face-down-tile-not-flooded": (
        KERNEL, "    if st == DOWN or st == DRY:\n        s[at(TSTATE + place)] = FLOODED",
        "    if st == DRY:\n        s[at(TSTATE + place)] = FLOODED",
        "R14: a flood on a face-down tile does nothing"),
    # Forbidden Island's kernel: the lockstep check against the engine must catch each.
    "fi-f10-navigator-carries-anyone-across-the-sea": (
        FI_KERNEL, "        elif role != ROLE_DIVER:\n            continue",
        "        elif role == ROLE_PILOT:\n            continue",
        "F10: the Navigator moves any pawn but the Pilot across a sunk place"),
    "fi-f11-diver-swims-like-anyone": (
        FI_KERNEL, "    if role == ROLE_DIVER:  # the standing tiles fewest side steps away",
        "    if role == -1:  # the standing tiles fewest side steps away",
        "F11: the Diver escapes only to a side neighbour"),
    "fi-f9-no-special-before-a-flood-card": (
        FI_KERNEL, "    else:\n        out[n] = A_FLOOD\n",
        "    else:\n        out[n] = A_FLOOD\n        return n + 1\n",
        "F9: no Helicopter Lift or Sandbags during the flood draw"),
    "fi-f12-capture-with-one-card-short": (
        FI_KERNEL, "    if s[HAND + HAND_STRIDE * seat + t] < p[P_CAPTURE]:",
        "    if s[HAND + HAND_STRIDE * seat + t] < p[P_CAPTURE] - 1:",
        "F12: a capture with three cards"),
    "fi-f10-pilot-flies-twice": (
        FI_KERNEL, "    if s[ROLE + seat] != ROLE_PILOT or s[FLEW]:", "    if s[ROLE + seat] != ROLE_PILOT:",
        "F10: the Pilot flies more than once a turn"),
    "fi-f8-limit-only-for-the-current-player": (
        FI_KERNEL, "        if s[HAND_SIZE + seat] > p[P_HAND_LIMIT]:",
        "        if seat == s[CUR] and s[HAND_SIZE + seat] > p[P_HAND_LIMIT]:",
        "F8: a gift above the limit on someone else's turn is not discarded at once"),
    # Forbidden Island's sampled worlds: the honesty tests must catch a peek at the hidden order.
    "fi-world-keeps-the-true-treasure-order": (
        FI_KERNEL,
        "    _sort_stretch(out, TPILE, TPILE + out[TPILE_N])\n"
        "    _shuffle_policy(out, TPILE, TPILE + out[TPILE_N], rng)\n",
        "    pass\n",
        "R19's counterpart in Forbidden Island: a sampled world keeps the treasure pile's true order"),
}


def copy_project(dest: Path) -> None:
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.split()
    for name in files:
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)


def run_mutant(name: str, python: str, scratch: Path, cache: Path) -> str:
    """Apply one mutant to the scratch copy, run the suite there, and restore the file."""
    path, old, new, _ = MUTANTS[name]
    original = (ROOT / path).read_text()
    if original.count(old) != 1:
        return f"NOT APPLIED ({path} holds the text {original.count(old)} times: the code moved)"
    (scratch / path).write_text(original.replace(old, new))
    try:
        # numba's cache folder named after the scratch copy's sources (sim/__init__.py), as in
        # normal use: the kernel is compiled into each policy's entry, and numba re-validates a
        # cached entry only against the entry's own file, so one folder for all mutants ran
        # every mutant with the kernel compiled first.
        env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
        env.update({"XDG_CACHE_HOME": str(cache), "PYTHONPATH": str(scratch)})
        start = time.perf_counter()
        for tests in (FIRST[path], ["tests"]):  # the kernel's own tests first: most mutants die there
            r = subprocess.run([python, "-m", "pytest", "-x", "-q", "-m", "not slow", "-p", "no:cacheprovider",
                                *tests], cwd=scratch, env=env, capture_output=True, text=True)
            if r.returncode != 0:
                break
        took = time.perf_counter() - start
    finally:
        (scratch / path).write_text(original)
    failed = [line for line in r.stdout.splitlines() if line.startswith("FAILED")]
    if r.returncode == 1 and failed:
        return f"killed in {took:.0f} s by {failed[0].split()[1]}"
    if r.returncode == 0:
        return f"SURVIVED ({took:.0f} s: the whole fast suite passed)"
    return f"ERROR (pytest exit {r.returncode}): {(r.stdout + r.stderr).strip().splitlines()[-1:]}"


def main(argv: list[str]) -> int:
    names = [n for n in MUTANTS if not argv or any(w in n for w in argv)]
    python = sys.executable
    survived = 0
    # A fixed scratch folder per checkout (checkouts side by side must not share it), so that
    # numba's cache of the unmutated sources survives from run to run.
    checkout = hashlib.sha256(str(ROOT).encode()).hexdigest()[:8]
    work = Path(tempfile.gettempdir()) / f"island-escape-mutants-{checkout}"
    scratch = work / "project"
    shutil.rmtree(scratch, ignore_errors=True)
    copy_project(scratch)
    for name in names:
        result = run_mutant(name, python, scratch, work / "numba")
        survived += not result.startswith("killed")
        print(f"{name:<38} {result}", flush=True)
    print(f"{len(names) - survived} of {len(names)} mutants killed")
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
