"""Kernel games exported as records (policies/runner.py's export_records, sim/survive_the_island/convert.py's
record_of_log)."""

from __future__ import annotations

import pytest

from policies import runner as export
from sim.survive_the_island.lockstep import RULE_GRID
from sim.survive_the_island.records import load_record, replay, result_json, write_record


@pytest.mark.parametrize("k", [0, 3, 6])
def test_kernel_games_become_records_that_replay_to_the_kernels_result(k, tmp_path):
    rules = RULE_GRID[k]
    records = export.export_records(rules, "random", 3 + k, range(3))
    assert len(records) == 3
    for i, record in enumerate(records):
        path = tmp_path / f"{i}.json"
        write_record(path, record)
        again = load_record(path)
        assert again.seed == 3 + k and again.game == i
        assert result_json(replay(again)) == record.result
        assert record.result["outcome"] in ("cleared", "volcano") and record.result["turns"] >= 1


def test_a_game_the_engine_plays_otherwise_is_refused(monkeypatch):
    from sim.survive_the_island.engine import SurviveTheIslandEngine

    def fewer_volcanoes(self, space):  # the engine reads the volcano rule wrongly
        self.kind[space] = 3
    monkeypatch.setattr(SurviveTheIslandEngine, "_volcano", fewer_volcanoes)
    with pytest.raises(export.ExportError, match="random, seed 1, game 0"):
        export.export_records(RULE_GRID[0], "random", 1, 1)


def test_the_experts_games_export_too():
    records = export.export_records(RULE_GRID[1], "expert", 11, 3)
    assert [r.game for r in records] == [0, 1, 2]
    assert all(sum(r.result["win_shares"]) == pytest.approx(1.0) for r in records)
