"""Island Escape's `GAME`: what the commands need of it (policies/game.py)."""

from __future__ import annotations

from functools import cached_property

from policies.game import Game, RuleOption, counted
from sim.island_escape.rules import VARIANTS, gauge_order_problem


class IslandEscape(Game):
    name = "island-escape"
    title = "Island Escape"
    rules_doc = "docs/RULES.md"
    skilled_policy = "skilled"
    players = (1, 2, 3, 4)
    options = (
        RuleOption("players", "--players", "number", "Players 1-4 (solo plays two pawns).  [default: 2]", tag="p"),
        RuleOption("cards_per_treasure", "--cards-per-treasure", "number",
                   "Salvaged cards a raise needs, 1-5.  [default: 2]", words=("cards",), tag="c",
                   label="Cards a treasure", low=1, high=5),
        RuleOption("gauge", "--gauge", "cards", 'Gauge cards, top first, e.g. "AD 2C 2D 3C 3D 4C 4D 5C".', tag="g",
                   label="Gauge, top first (where the water starts)"),
        RuleOption("gauge_length", "--gauge-length", "number",
                   "L<=9: the rulebook gauge without its top 9-L cards; 10: with 5D at the bottom.", column=False,
                   stands_for="gauge"),
        RuleOption("swim_cost", "--swim-cost", "number", "Actions a swim costs.  [default: 2]", words=("swim",),
                   tag="s", label="Actions a swim costs", low=1, high=12),
        RuleOption("actions", "--actions", "number", "Actions per turn.  [default: 4]", words=("actions_per_turn",),
                   field="actions_per_turn", tag="a", label="Actions a turn", low=1, high=12),
        RuleOption("variants", "--variant", "variants", "A named variant (repeatable); explicit options override it.",
                   words=("variant",), choices=tuple(VARIANTS[1:]), label="Named variants"),
    )
    variant_labels = {"divers": "Divers: a swim costs 1 action",
                      "short": "Short game: 1 card a treasure, A♣ off the gauge"}
    rule_words_example = ("players=3 cards=3 gauge=AD 2C 2D 3C 3D 4C 4D 5C swim=1 (or gauge_length=8, actions=4, "
                          "divers, short)")
    setting_help = ("--players, --cards-per-treasure, --gauge or --gauge-length, --swim-cost, --actions "
                    "and --variant")
    action_columns = ("moves", "swims", "shores", "salvages", "gives", "raises", "unused")
    treasures_field = "treasures_raised"
    strength_settings = ({"players": 2}, {"players": 3, "cards_per_treasure": 3})
    skill_policy = "skilled"
    # every table at the printed cards a treasure and at one more (the report's harder side); a
    # solo game is two pawns (R5), the same games as two players'
    tune_cells = tuple({"players": n, "cards_per_treasure": c} for n in (2, 3, 4) for c in (2, 3))

    @cached_property
    def design(self):
        from policies.island_escape import levels

        return levels

    def rules_from_options(self, players=None, cards_per_treasure=None, gauge=None, gauge_length=None,
                           swim_cost=None, actions=None, variants=()):
        """Variants first, then explicit options on top (an explicit option always wins).
        `gauge` is card codes top first, separated by spaces or commas."""
        from sim.island_escape.rules import RuleError, Rules, gauge_from_text, gauge_of_length

        rules = Rules().with_variant(*(variants or ()))
        changes = {}
        if players is not None:
            changes["players"] = players
        if cards_per_treasure is not None:
            changes["cards_per_treasure"] = cards_per_treasure
        if gauge is not None and gauge_length is not None:
            raise RuleError("give --gauge or --gauge-length, not both")
        if gauge is not None:
            changes["gauge"] = gauge_from_text(gauge)  # codes, or as the reports write a gauge (R3)
            problem = gauge_order_problem(changes["gauge"])
            if problem:
                raise RuleError(f"--gauge: {problem}")
        if gauge_length is not None:
            changes["gauge"] = list(gauge_of_length(gauge_length))
        if swim_cost is not None:
            changes["swim_cost"] = swim_cost
        if actions is not None:
            changes["actions_per_turn"] = actions
        return Rules(**{**rules.as_record(), **changes})

    def cards_from_text(self, text: str) -> list[str]:
        from sim.island_escape.rules import gauge_from_text

        return gauge_from_text(text)  # codes, or as the reports write a gauge (A♦-5♣, A♣ 2♦ …)

    def treasures_of(self, played) -> int:
        return len(played.raised)

    def setting_line(self, rules) -> str:
        return (f"{counted(rules.players, 'player')}, {counted(rules.cards_per_treasure, 'card')} a treasure, "
                f"swim {rules.swim_cost}, {counted(rules.actions_per_turn, 'action')}, gauge {' '.join(rules.gauge)}")

    def tell(self, record, echo, board=False) -> None:
        """The narrative's story, headed by the setting in the commands' own words (setting_line),
        so that `replay` and `simulate` name a setting alike."""
        first = True

        def told(line: str) -> None:
            nonlocal first
            echo(self.setting_line(record.rules) if first else line)  # the story's first line is the setting
            first = False

        super().tell(record, told, board)

    def card_choices(self, option) -> list[dict]:
        from sim.island_escape.rules import GAUGE_CARDS, pretty

        return [{"code": c, "label": pretty(c), "red": c.endswith("D")} for c in GAUGE_CARDS]

    def value_text(self, key, value) -> str:
        from sim.island_escape.rules import gauge_name

        return gauge_name(str(value).split()) if key == "gauge" else str(value)  # a gauge named by its cards

    def cell_labels(self, rules, variant, extra) -> dict:
        return {"variant": variant, "gauge_length": extra.get("gauge_length", len(rules.gauge))}


GAME = IslandEscape()
