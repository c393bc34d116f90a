"""The readable expert's win-rate table (policies/forbidden_island/published.py)."""

from __future__ import annotations

from policies.forbidden_island.published import PUBLISHED, main, measure, table


def test_bad_values_exit_2_with_one_line(capsys):
    assert main(["--levels", "hard"]) == 2
    assert main(["--players", "5"]) == 2
    assert main(["--games", "0"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and all("bad value" in line for line in err)


def test_table_counts_every_game_of_a_cell_beside_the_published_rate():
    results = measure(games=3, workers=1, players=(2,), levels=("elite",))
    outcomes, seconds = results[(2, "elite")]
    assert sum(outcomes.values()) == 3 and seconds > 0
    row = table(results).splitlines()[2]
    assert row.startswith("| 2 | elite | 3 |") and f"{PUBLISHED[2]['elite']:.2%}" in row
