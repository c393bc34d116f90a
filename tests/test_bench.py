"""`make bench`'s own measurements (experiments/bench.py); its speed figures are not tested."""

import numpy as np

from experiments.bench import memory


def test_memory_is_the_childs_own_peak():
    """The memory figure is the peak of the child that plays the games, not the size of the
    process that started it (Linux keeps getrusage's ru_maxrss across fork and exec, which made
    the bench report its own 1.2 GiB for every size)."""
    block = np.ones(80_000_000)  # 640 MB, touched, in this process
    peak, table = memory("random", 1000)
    assert table < peak < block.nbytes


def test_the_explore_figures_are_measured_and_shown():
    """The explorer's two answer times (the figures themselves are not tested: a shared machine)."""
    import pytest

    pytest.importorskip("starlette", reason="the play extra is installed by make test")
    from experiments.bench import explore_times, format_table

    figures = explore_times(repeat=1, echo=lambda line: None)
    assert set(figures) == {"estimate_2000_expert_s", "estimate_2000_expert_cpu_s", "page_update_s",
                            "page_update_cpu_s", "repeat"}
    assert 0 < figures["estimate_2000_expert_s"] and 0 < figures["page_update_s"]
    result = {"machine": {"threads": 2, "processor": "x", "cores": 2, "python": "3", "numba": "0"}, "rows": [],
              "start_up_s": 0.5, "cold_compile_s": 20.0, "cold_compile_policy": "expert", "memory": {},
              "explore": figures}
    assert "a full page update" in format_table(result)


def test_every_games_benchmarks_name_its_own_policies_and_settings():
    """What `bench` times of each game is the game's to say (Game.bench()); the names must be its."""
    from policies.game import every_game

    for game in every_game():
        spec = game.bench()
        assert set(spec.POLICIES) | set(spec.SEARCHES) <= set(game.policy_names()), game
        assert set(spec.SEARCHES) <= game.search_policies(), game
        assert set(getattr(spec, "CLI_GAMES", {})) <= set(spec.POLICIES), game
        for setting in spec.SETTINGS.values():
            assert game.owns_rules(game.rules(**setting))


def test_the_engine_is_charged_for_the_decisions_and_other_games_are_measured():
    from experiments.bench import other_game_rows
    from policies.game import game

    ie = game("island-escape")
    assert ie.bench().engine_rate(ie.rules(), "greedy", 3) > 0
    fi = game("forbidden-island")
    rows = other_game_rows(fi, 4000, 1, echo=lambda line: None)
    assert {(r["game"], r["policy"]) for r in rows} == {("forbidden-island", p) for p in fi.bench().POLICIES}
    assert all(r["kernel_1_thread"] > 0 and r["engine_replay"] > 0 for r in rows)
