"""Desert Island's `GAME`: what the commands need of it (policies/game.py).

A competitive game with hidden goals: each seat scores for its own character, best friend and
sworn enemy (D7); the highest score wins, tied seats share the win, and when every castaway died
no one wins (D8). Seats play the characters the deal gives them, so its results are per seat and
per character (the summary's `roles`).
"""

from __future__ import annotations

import numpy as np

from policies.game import Game, RuleOption, Unsupported


class DesertIsland(Game):
    name = "desert-island"
    title = "Desert Island"
    rules_doc = "docs/RULES-DI.md"
    cause_words = {"rescued": "a ship came for the survivors (D4)",
                   "lost": "every castaway died, and no one wins (D8)",
                   "stranded": "the last week ended with the castaways still on the island (D22)"}
    players = (4, 5, 6)
    options = (
        RuleOption("players", "--players", "number", "Players 4-6 (D1).  [default: 4]", tag="p"),
        RuleOption("ships_to_rescue", "--ships", "number", "The ship token that ends the game in a rescue "
                   "(D4).  [default: 4]", words=("ships",), tag="sh", label="Ships to rescue", low=1, high=9),
        RuleOption("start_food", "--start-food", "number", "Portions each castaway starts with (D4).  "
                   "[default: 4]", words=("food",), tag="f", label="Portions at the start", low=0, high=20),
        RuleOption("decks", "--decks", "text", "A decks file (D2, D3; docs/RULES-DI.md).  [default: the "
                   "lab's decks]", column=False, file=True),
    )
    rule_words_example = "players=5 ships=3"
    setting_help = "--players (4-6), --ships, --start-food and --decks"
    treasures_field = "ships"  # the ships sighted: a game stranded or lost one short of a rescue is a near miss

    # --- rules ---------------------------------------------------------------------------------

    def rules_from_options(self, players=None, ships_to_rescue=None, start_food=None, decks=None):
        from sim.desert_island.rules import STANDARD, Rules

        given = {"players": players, "ships_to_rescue": ships_to_rescue, "start_food": start_food}
        setting = {k: v for k, v in given.items() if v is not None}
        if decks is not None and decks != STANDARD:
            setting["decks"] = str(decks)
        return Rules(**setting)

    def setting_line(self, rules) -> str:
        changed = [f"{k.replace('_', ' ')} {v}" for k, v in self.options_of(rules).items() if k != "players"]
        if rules.decks != "standard":
            changed.append(f"decks {rules.decks}")
        return f"Desert Island, {rules.players} players" + (f" ({', '.join(changed)})" if changed else "")

    # --- results -------------------------------------------------------------------------------

    def tally(self, rules, policy: str):
        from policies.outcomes import SeatGroups, SeatTally

        first = self.result_fields.index("character0")
        seats = rules.players
        return SeatTally(self, rules, policy, {"roles": SeatGroups(
            "role", rules.characters, lambda raw: raw[:, first:first + seats].astype(np.int64))})

    def check_win_rates(self, command: str) -> None:
        raise Unsupported(f"--game {self.name}: {self.title} is competitive and `{command}` reads one win rate "
                          f"a game; its seats and characters are measured by `simulate`, `compare` and `sweep` "
                          f"(--game {self.name})")

    def seat_results(self, raw: np.ndarray, rules) -> tuple[np.ndarray, np.ndarray]:
        """Win shares from the winners' mask (D8: k tied winners share the win, 1/k each; when every
        castaway died the mask is empty and every share 0) and the seats' scores (D7)."""
        fields = self.result_fields
        seats = rules.players
        winners = raw[:, fields.index("winners")].astype(np.int64)
        won = ((winners[:, None] >> np.arange(seats)) & 1).astype(np.float64)
        count = won.sum(axis=1, keepdims=True)
        share = np.divide(won, count, out=np.zeros_like(won), where=count > 0)
        first = fields.index("score0")
        return share, raw[:, first:first + seats].astype(np.float64)

    def no_one_won(self, raw: np.ndarray, rules) -> np.ndarray:
        """D8: the games in which every castaway died."""
        return raw[:, self.result_fields.index("alive")] == 0

    def seat_outcome(self, raw: np.ndarray, rules, seat: int) -> np.ndarray:
        return self.seat_results(raw, rules)[0][:, seat]

    def kept_fields(self, rules) -> tuple[str, ...]:
        return (*super().kept_fields(rules), "winners", "alive", *(f"score{k}" for k in range(rules.players)),
                *(f"character{k}" for k in range(rules.players)))

    # --- records -------------------------------------------------------------------------------

    def finished(self, record):
        played = self.records.replay(record)
        return played.rules, played.ending, played.week, played.ships

    def treasures_of(self, played) -> int:
        return int(played.ships)

    def replay_pictures(self, record, folder, gif=None):
        raise self.refuse("pictures of its games (replay --board tells the table week by week)")


GAME = DesertIsland()
