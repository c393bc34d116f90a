"""The profiling script's reading of callgrind's compressed positions (experiments/profiling/fi_instructions.py).

valgrind is not needed here: the file below is written as callgrind writes one with
--dump-instr=yes (an address, then a line number, then the events), with the forms it uses to
save space. A misread position would charge instructions to the wrong function.
"""

from experiments.profiling.fi_instructions import _EVENTS, _costs

CALLGRIND_FILE = """\
version: 1
events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
fn=(1) ???
0x1000 0 5 1 0 1
+4 * 2
+0x10 * 3 0 0 2
-8 * 7
* * 1
calls=2 0x9000 0
+2 * 1000
+1 * 4
"""


def test_positions_absolute_relative_and_the_same_and_a_calls_cost_skipped(tmp_path):
    f = tmp_path / "callgrind.out"
    f.write_text(CALLGRIND_FILE)
    cost = _costs(f)
    ir, i1 = _EVENTS.index("Ir"), _EVENTS.index("I1mr")
    assert {a: c[ir] for a, c in cost.items()} == {
        0x1000: 5,
        0x1004: 2,
        0x1014: 3,
        0x100C: 7 + 1,  # "-8" from 0x1014, then "*" the same address again
        0x100F: 4,  # the call's inclusive 1000 at 0x100E is not the caller's own cost
    }
    assert cost[0x1000][i1] == 1 and cost[0x1014][i1] == 2
