"""The numba kernel against the reference engine, game by game (OpenSpiel style).

Kernel games are exported as records and replayed by the reference engine, which must reach the
same outcome, cause, turns, floods and final state; during the replay the kernel shadows the
engine (sim/island_escape/lockstep.py): the same legal actions at every decision, the same next state
after every action and flood. Plus determinism across threads and runs, and common random
numbers across rule settings.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from policies.runner import export_games, run_games, simulate
from sim.island_escape import layout as L
from sim.island_escape.convert import final_of
from sim.island_escape.engine import IslandEscapeEngine
from sim.island_escape.lockstep import shadow
from sim.island_escape.records import parse_record, replay, result_json
from sim.island_escape.rules import Rules, gauge_of_length

# Every player count and variant, several cards-per-treasure, gauge, action and swim settings.
SETTINGS = [
    Rules(players=1), Rules(players=2), Rules(players=3), Rules(players=4),
    Rules(cards_per_treasure=1), Rules(cards_per_treasure=3, players=3),
    Rules(cards_per_treasure=5, players=4), Rules().with_variant("divers"),
    Rules().with_variant("short"), Rules(players=3).with_variant("divers", "short"),
    Rules(gauge=gauge_of_length(6)), Rules(gauge=gauge_of_length(10), players=4),
    Rules(actions_per_turn=2, swim_cost=3), Rules(actions_per_turn=7, swim_cost=1, players=2),
    Rules(gauge=("2C", "4D", "5C")),
]


def _ids(rules: Rules) -> str:
    return (f"p{rules.players}-c{rules.cards_per_treasure}-s{rules.swim_cost}"
            f"-a{rules.actions_per_turn}-g{len(rules.gauge)}")


def _check_games(rules: Rules, policy: str, seed: int, games: range) -> int:
    checked = 0
    for record, state in export_games(rules, policy, seed, games):
        _check_game(record, final_of(rules, state, record))
        checked += 1
    return checked


def _check_game(record, final: dict) -> None:
    game = replay(parse_record(record.to_json()))  # through JSON, as another engine would
    res = result_json(game)
    got = {k: res[k] for k in ("outcome", "cause", "turns", "floods")}
    assert got == record.result, f"game differs: engine {got}, kernel {record.result}"
    engine_final = res["final"]
    engine_final["salvage"] = [sorted(h, key=_card_order) for h in engine_final["salvage"]]
    final["salvage"] = [sorted(h, key=_card_order) for h in final["salvage"]]
    assert engine_final == final


def _card_order(code: str) -> tuple[str, int]:
    return (code[-1], int(code[:-1]))


@pytest.mark.parametrize("rules", SETTINGS, ids=_ids)
def test_kernel_games_replay_identically_in_the_engine(rules):
    # 15 settings x (140 random + 10 idle) = 2,250 games. Replayed under the kernel's shadow: at
    # every decision the kernel's legal-action mask must equal the engine's legal actions, and
    # every action and flood the kernel's primitives play on the engine's state must land where
    # the engine does (sim/island_escape/lockstep.py).
    with shadow() as seen:
        n = _check_games(rules, "random", seed=11, games=range(140))
        n += _check_games(rules, "idle", seed=12, games=range(10))
    assert n == 150
    assert seen.masks > 1000 and seen.actions > 1000 and seen.floods > 1000


# Settings where the rare endings and steps are common under goal-directed play: many cards a
# treasure with many pawns (short raises, cards losses), cheap swims (cut-offs), short turns.
RARE = [Rules(players=3, cards_per_treasure=4, swim_cost=1), Rules(players=4, cards_per_treasure=4),
        Rules(players=4, cards_per_treasure=3, actions_per_turn=2, swim_cost=3)]


def test_rare_events_replay_identically_in_the_engine():
    """A fast differential run rich in what random play seldom reaches: short-of-a-suit raises
    (R12), drownings and emergency escapes (R15), cut-offs (R16) and water losses on the last
    gauge card (R14, R18) - each dozens of times, each game replayed under the kernel's shadow."""
    counts = dict.fromkeys(("short raise", "escape", "drowned", "cut_off", "water", "cards"), 0)
    short_legal = 0
    real_legal = IslandEscapeEngine.legal_actions

    def counting(game):
        nonlocal short_legal
        legal = real_legal(game)
        need = game.rules.cards_per_treasure
        short_legal += any(a.kind == "raise" and len(a.cards) == need + 1 for a in legal)
        return legal

    with shadow() as seen:
        IslandEscapeEngine.legal_actions = counting
        try:
            for k, rules in enumerate(RARE):
                for record, state in export_games(rules, "greedy", 40 + k, range(600)):
                    _check_game(record, final_of(rules, state, record))
                    cause = record.result["cause"]
                    counts[cause] = counts.get(cause, 0) + 1
                    entries = [e for turn in record.turns for e in turn]
                    counts["escape"] += sum(e.startswith("escape") for e in entries)
                    need = rules.cards_per_treasure
                    counts["short raise"] += sum(e.startswith("raise") and len(e.split()) == need + 2 for e in entries)
        finally:
            IslandEscapeEngine.legal_actions = real_legal
    for event in ("short raise", "escape", "drowned", "cut_off", "water", "cards"):
        assert counts[event] >= 24, counts
    assert short_legal >= 24 and seen.masks > 20_000


@pytest.mark.slow
@pytest.mark.parametrize("rules", SETTINGS, ids=_ids)
def test_kernel_games_replay_identically_many(rules):
    assert _check_games(rules, "random", seed=99, games=range(2000)) == 2000


def test_exported_records_cover_every_ending():
    # Over the differential settings the random policy reaches every loss cause, so the check
    # above exercises each R18 path (wins need a goal-directed policy: see test_greedy.py).
    causes = set()
    for rules in SETTINGS:
        raw = run_games(rules, "random", 400, seed=11)
        causes |= {L.CAUSES[c] for c in np.unique(raw[:, 0])}
    assert causes >= {"treasure", "helicopter", "drowned", "water", "cut_off", "cards"}


def test_same_seed_same_table_for_one_and_two_threads():
    rules = Rules(players=3)
    one = simulate(rules, "random", 3000, seed=5, threads=1, progress=False)
    two = simulate(rules, "random", 3000, seed=5, threads=2, progress=False)
    again = simulate(rules, "random", 3000, seed=5, threads=2, progress=False)
    three = simulate(rules, "random", 3000, seed=5, threads=3, progress=False)
    pd.testing.assert_frame_equal(one, two)
    pd.testing.assert_frame_equal(two, again)
    pd.testing.assert_frame_equal(one, three)
    other = simulate(rules, "random", 3000, seed=6, progress=False)
    assert not one["turns"].equals(other["turns"])


def test_batches_do_not_change_results():
    # Game g's result depends on (seed, g) only, not on which batch or chunk played it.
    rules = Rules()
    whole = run_games(rules, "random", 500, seed=3)
    part = run_games(rules, "random", 200, seed=3, first_game=300)
    np.testing.assert_array_equal(whole[300:], part)


def test_common_random_numbers_across_rule_settings():
    # The deal and the flood piles have their own streams: other rules, same islands and floods.
    seed, games = 21, range(20)
    a = export_games(Rules(players=2), "idle", seed, games)
    b = export_games(Rules(players=4, cards_per_treasure=3, swim_cost=1), "idle", seed, games)
    c = export_games(Rules(players=2), "random", seed, games)
    for (ra, _), (rb, _), (rc, _) in zip(a, b, c, strict=True):
        assert ra.layout == rb.layout == rc.layout
        k = min(len(ra.floods), len(rb.floods), len(rc.floods))
        assert ra.floods[:k] == rb.floods[:k] == rc.floods[:k]
        assert k >= 5


def test_splitmix_streams_match_a_python_reference():
    mask = (1 << 64) - 1

    def mix(z):
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return z ^ (z >> 31)

    seed, game = 12345, 678
    base = mix((seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & mask)
    base = mix(base ^ ((game * 0x94D049BB133111EB) & mask))
    expected = [mix((base + (k + 1) * 0x9E3779B97F4A7C15) & mask) for k in range(3)]
    rng = np.zeros(3, dtype=np.uint64)
    L.seed_streams(rng, seed, game)
    assert [int(x) for x in rng] == expected
    draws = [L.rand_below(rng, 1, 5) for _ in range(2000)]
    counts = np.bincount(draws, minlength=5)
    assert counts.min() > 320  # roughly uniform over 0..4 (expected 400 each)


def test_results_table_columns_and_types():
    df = simulate(Rules(), "random", 200, seed=1, progress=False)
    for col in ("seed", "game", "players", "cards_per_treasure", "gauge", "swim_cost",
                "actions_per_turn", "policy", "won", "cause", "turns", "floods", "treasures_raised",
                "tiles_sunk", "moves", "swims", "shores", "salvages", "gives", "raises", "unused"):
        assert col in df.columns
    assert df["gauge"].iloc[0] == "AC AD 2C 2D 3C 3D 4C 4D 5C"
    assert set(df["cause"].cat.categories) == set(L.CAUSES)
    assert (df["floods"] <= 45).all() and (df["turns"] <= 22).all()
    # Every turn spends its actions or leaves them unused (the last turn may end early).
    spent = df.moves + 2 * df.swims + df.shores + df.salvages + df.gives + df.raises + df.unused
    assert (spent <= 4 * df.turns).all() and (spent >= 4 * (df.turns - 1)).all()


def test_allocating_policy_gives_the_same_results_on_every_call_and_thread_count():
    # Regression: play_chunk once freed its private arrays while the games still read them, so a
    # policy that allocates (expert) could reuse that memory and the first multi-threaded call of
    # a process differed from later ones. Checked in a fresh process, where it showed.
    import subprocess
    import sys

    code = ("import numpy as np\nfrom sim.island_escape.rules import Rules\n"
            "from policies.runner import run_games\n"
            "r = Rules(players=3)\n"
            "a = run_games(r, 'expert', 1500, seed=4, threads=2)\n"
            "b = run_games(r, 'expert', 1500, seed=4, threads=2)\n"
            "c = run_games(r, 'expert', 1500, seed=4, threads=1)\n"
            "print(np.array_equal(a, b), np.array_equal(a, c))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "True"]
