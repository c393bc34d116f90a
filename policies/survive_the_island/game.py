"""Survive the Island's `GAME`: what the commands need of it (policies/game.py).

A competitive game: each seat rescues its own adventurers, the highest score wins and tied seats
share the win (S14), so its results are per seat and `--policy` names a player per seat.
"""

from __future__ import annotations

import numpy as np

from policies.game import Game, RuleOption, Unsupported


class SurviveTheIsland(Game):
    name = "survive-the-island"
    title = "Survive the Island"
    rules_doc = "docs/RULES-STI.md"
    report_study = "policies/survive_the_island/seat-study.toml"
    cause_words = {"cleared": "no adventurer is left on the board (all rescued or lost)",
                   "volcano": "the last volcano of the rules (the third) erupted (S14)"}
    players = (2, 3, 4, 5)
    options = (
        RuleOption("players", "--players", "number", "Players 2-5 (two colours each in a game of two, S6).  "
                   "[default: 4]", tag="p"),
        RuleOption("moves", "--moves", "number", "Moves a turn, shared by adventurers and rafts (S9).  [default: 3]",
                   tag="m", label="Moves a turn", low=1, high=9),
        RuleOption("sharks", "--sharks", "number", "Sharks in the game (S5).  [default: 6]", tag="sh",
                   label="Sharks", low=1, high=8),
        RuleOption("kaijus", "--kaijus", "number", "Kaijus in the game (S5).  [default: 2]", tag="k",
                   label="Kaijus", low=1, high=4),
        RuleOption("serpents", "--serpents", "number", "Sea serpents at the start (S2).  [default: 5]",
                   tag="se", label="Sea serpents at the start", low=0, high=5),
        RuleOption("rafts", "--rafts", "number", "Rafts in all, the players' own and the supply (S6).  "
                   "[default: 12]", tag="r", label="Rafts in all (five players place ten)", low=10, high=24),
        RuleOption("raft_capacity", "--raft-capacity", "number", "Adventurers a raft holds (S6).  [default: 3]",
                   words=("capacity",), tag="rc", label="Adventurers a raft holds", low=1, high=5),
        RuleOption("volcanoes_to_end", "--volcanoes", "number", "The volcano that ends the game (S14).  "
                   "[default: 3]", words=("volcanoes",), tag="v", label="The volcano that ends the game",
                   low=1, high=4),
        RuleOption("die", "--die", "text", "The creature die's faces: serpent,shark,kaiju (S5).  [default: 2,2,2]",
                   tag="d"),
        RuleOption("board", "--board", "text", "A board file (S1; docs/RULES-STI.md).  [default: the printed board]",
                   column=False, file=True),
        RuleOption("setup", "--setup", "level", "The set-up's order (S7): round (the printed rule) or snake "
                   "(every second round backwards).  [default: round]", choices=("round", "snake"),
                   label="Set-up order (S7)"),
    )
    choice_labels = {"round": "Round (the printed rule: seat 1 first every round)",
                     "snake": "Snake (every second round backwards)"}
    rule_words_example = "players=4 sharks=4"
    setting_help = "--players (2-5), --moves, --sharks, --kaijus, --serpents, --rafts, --raft-capacity, " \
                   "--volcanoes, --die, --board and --setup"
    treasures_field = "rescued"
    strength_settings = ({"players": 2}, {"players": 4})

    # --- its parts -----------------------------------------------------------------------------

    # --- rules ---------------------------------------------------------------------------------

    def rules_from_options(self, players=None, moves=None, sharks=None, kaijus=None, serpents=None, rafts=None,
                           raft_capacity=None, volcanoes_to_end=None, die=None, board=None, setup=None):
        from sim.survive_the_island.rules import STANDARD_BOARD, RuleError, Rules

        given = {"players": players, "moves": moves, "sharks": sharks, "kaijus": kaijus, "serpents": serpents,
                 "rafts": rafts, "raft_capacity": raft_capacity, "volcanoes_to_end": volcanoes_to_end}
        setting = {k: v for k, v in given.items() if v is not None}
        if die is not None:
            if isinstance(die, str):
                parts = die.replace(",", " ").split()
                if len(parts) != 3 or not all(p.isdigit() for p in parts):
                    raise RuleError(f"rules.die must be three face counts (serpent,shark,kaiju), not {die!r}")
                die = tuple(int(p) for p in parts)
            setting["die"] = tuple(die)
        if board is not None and board != STANDARD_BOARD:
            setting["board"] = str(board)
        if setup is not None:
            setting["setup"] = str(setup).lower()
        return Rules(**setting)

    def setting_line(self, rules) -> str:
        changed = [f"{k.replace('_', ' ')} {v}" for k, v in self.options_of(rules).items() if k != "players"]
        return f"Survive the Island, {rules.players} players" + (f" ({', '.join(changed)})" if changed else "")

    # --- players -------------------------------------------------------------------------------

    def tally(self, rules, policy: str):
        from policies.outcomes import SeatTally

        return SeatTally(self, rules, policy)

    def check_win_rates(self, command: str) -> None:
        raise Unsupported(f"--game {self.name}: {self.title} is competitive and `{command}` reads one win rate "
                          f"a game; its seats are measured by `simulate`, `compare`, `sweep` and `explore` "
                          f"(--game {self.name}) and by its report (island-escape report)")

    def seat_results(self, raw: np.ndarray, rules) -> tuple[np.ndarray, np.ndarray]:
        """Win shares from the winners' mask (S14: k tied winners share the win, 1/k each) and the
        seats' scores, for the setting's seats."""
        fields = self.result_fields
        seats = rules.players
        winners = raw[:, fields.index("winners")].astype(np.int64)
        won = ((winners[:, None] >> np.arange(seats)) & 1).astype(np.float64)
        count = won.sum(axis=1, keepdims=True)
        share = np.divide(won, count, out=np.zeros_like(won), where=count > 0)
        first = fields.index("score0")
        score = raw[:, first:first + seats].astype(np.float64)
        return share, score

    def choice_label(self, option, value: str) -> str:
        return self.choice_labels[value]

    def kept_fields(self, rules) -> tuple[str, ...]:
        return (*super().kept_fields(rules), "winners", *(f"score{k}" for k in range(rules.players)))

    def seat_outcome(self, raw: np.ndarray, rules, seat: int) -> np.ndarray:
        return self.seat_results(raw, rules)[0][:, seat]

    # --- tables and records --------------------------------------------------------------------

    def treasures_of(self, played) -> int:
        return int(sum(played.snapshot()["rescued"]))


GAME = SurviveTheIsland()
