"""The rulebook's own numbers, checked against the simulator.

The rulebook's "Difficulty" section makes claims a designer may lean on: the full gauge allows
45 floods, 22 turns and 88 actions; the Short game 17 turns and 68 actions; a Normal win needs
"some 50-55 actions" (about 25 moves, 8 salvages, 4 raises, around 10 shore-ups, the way home and
the take-off); over 45 floods "every place is hit almost twice on average"; and the game is
"best with 2 or 3" players. This module measures each, and writes out the sentences of the
rulebook that a level's rules change (the design space's `changed_sentences`), so a designer can
print a level as text.

The game is the one whose design space (`Game.design`) words its rulebook: its rules, runner
and the gauge's clock (`floods_per_turn`, `FULL_GAUGE`) are the game object's.
"""

from __future__ import annotations

import pandas as pd

from experiments.runner import wilson_interval
from policies.game import game as game_named


def _frame(game, rules, policy: str, games: int, seed: int, threads: int | None) -> pd.DataFrame:
    return game.results_frame(game.run_games(rules, policy, games, seed, threads=threads), rules, policy, seed)


def actions_spent(df: pd.DataFrame, swim_cost: int) -> pd.Series:
    """Actions a game used: a swim costs swim_cost, a win adds its take-off."""
    return (df.moves + swim_cost * df.swims + df.shores + df.salvages + df.gives + df.raises
            + df.won.astype(int))


def check(policies: list[str], games: int = 20_000, seed: int = 2026, threads: int | None = None,
          game=None) -> dict:
    """Claims against measurements; every figure carries the policy and the games behind it.
    `game`: a Game with a design space (the lab's own game by default)."""
    game = game if game is not None else game_named()
    floods_per_turn = game.design.floods_per_turn
    normal = game.rules()
    short = game.rules().with_variant("short")
    out: dict = {"games": games, "seed": seed, "policies": policies}
    frames = {p: _frame(game, normal, p, games, seed, threads) for p in policies}  # Normal, 2 players

    # The clock (R14): the water ends the game after the last pass of the gauge.
    clock = {}
    for name, rules in (("full gauge", normal), ("Short game", short)):
        per_turn = floods_per_turn(rules.gauge)
        played = frames if rules == normal else {p: _frame(game, rules, p, games, seed, threads) for p in policies}
        longest = max(int(df["turns"].max()) for df in played.values())
        clock[name] = {"floods": rules.max_floods, "turns": len(per_turn),
                       "actions": len(per_turn) * rules.actions_per_turn, "longest_game_seen": longest}
    out["clock"] = clock

    # What a Normal win costs, per policy (over its wins only).
    wins = {}
    for p, df in frames.items():
        w = df[df.won]
        if len(w) == 0:
            wins[p] = {"wins": 0}
            continue
        wins[p] = {"wins": len(w), "actions": float(actions_spent(w, normal.swim_cost).mean()),
                   "moves": float((w.moves + w.swims).mean()), "salvages": float(w.salvages.mean()),
                   "raises": float(w.raises.mean()), "shores": float(w.shores.mean()),
                   "gives": float(w.gives.mean()), "turns": float(w.turns.mean()),
                   "floods": float(w.floods.mean())}
    out["win_cost"] = wins

    # Hits per place: over the full gauge the 45 floods spread over 25 places.
    out["hits_per_place"] = {"full_game": normal.max_floods / 25,
                             "won_games": {p: float(frames[p][frames[p].won].floods.mean() / 25)
                                           for p in policies if frames[p].won.any()}}

    # Best player count, per policy (solo is two pawns: R5).
    best = {}
    for p in policies:
        rows = {}
        for players in (1, 2, 3, 4):
            # R5: a solo game is two pawns, the very games of two players
            df = frames[p] if players <= 2 else _frame(game, game.rules(players=players), p, games, seed, threads)
            k = int(df.won.sum())
            rows[players] = {"win_rate": k / len(df), "ci95": list(wilson_interval(k, len(df)))}
        best[p] = rows
    out["players"] = best
    return out


def markdown(result: dict, game=None) -> str:
    """The rulebook check as a Markdown section."""
    printed_gauge = (game if game is not None else game_named()).design.FULL_GAUGE
    c = result["clock"]
    lines = [
        "| rulebook says | simulator | how it was measured |",
        "| --- | --- | --- |",
        f"| 45 floods, 22 turns, 88 actions (full gauge) | {c['full gauge']['floods']} floods, "
        f"{c['full gauge']['turns']} turns, {c['full gauge']['actions']} actions; longest game seen "
        f"{c['full gauge']['longest_game_seen']} turns | R14 counted on the gauge "
        f"`{' '.join(printed_gauge)}`; longest of {result['games']:,} games per policy |",
        f"| Short game: 17 turns, 68 actions | {c['Short game']['floods']} floods, "
        f"{c['Short game']['turns']} turns, {c['Short game']['actions']} actions; longest game seen "
        f"{c['Short game']['longest_game_seen']} turns | as above, gauge without A♣ |",
    ]
    for p, w in result["win_cost"].items():
        if not w.get("wins"):
            lines.append(f"| a win takes some 50-55 actions | `{p}` never won | "
                         f"{result['games']:,} Normal games |")
            continue
        lines.append(
            f"| a win takes some 50-55 actions: ~25 moves, 8 salvages, 4 raises, ~10 shore-ups | "
            f"`{p}`: {w['actions']:.1f} actions: {w['moves']:.1f} moves and swims, {w['salvages']:.1f} "
            f"salvages, {w['raises']:.1f} raises, {w['shores']:.1f} shore-ups, {w['gives']:.1f} gives; "
            f"{w['turns']:.1f} turns | mean over its {w['wins']:,} wins in {result['games']:,} "
            "Normal games |")
    h = result["hits_per_place"]
    won = ", ".join(f"`{p}` {v:.2f}" for p, v in h["won_games"].items())
    lines.append(f"| over 45 floods every place is hit almost twice | {h['full_game']:.2f} hits per place "
                 f"if all 45 floods come; in won games {won} | floods / 25 places |")
    # "Best with 2 or 3" is a claim about enjoyment (how much every player has to do and to talk
    # about); a simulator measures how often a table wins, which says only where the game is
    # easiest. So the check reports the easiest count and says what it cannot show.
    for p, rows in result["players"].items():
        solo_same = 1 in rows and 2 in rows and rows[1]["win_rate"] == rows[2]["win_rate"]
        shown = {("1-2" if n == 2 and solo_same else str(n)): r for n, r in rows.items()
                 if not (n == 1 and solo_same)}
        rates = ", ".join(f"{n}: {100 * r['win_rate']:.1f}%" for n, r in shown.items())
        top = max(r["win_rate"] for r in shown.values())
        if top == 0:
            found = "no wins at any count"
        else:
            easiest = " and ".join(n for n, r in shown.items() if r["win_rate"] == top)
            found = f"easiest with {easiest} player{'' if easiest == '1' else 's'}"
        lines.append(f"| best with 2 or 3 players | `{p}` wins {rates} (players: win rate); {found} | Normal "
                     f"rules, {result['games']:,} games each; win rates cannot say which count plays *best* "
                     "(a claim about enjoyment), only which is easiest |")
    return "\n".join(lines)
