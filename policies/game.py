"""The game protocol: one `Game` object per game gives every command what it needs of that game.

A game is two folders, `sim/<game>/` (its rules, reference engine, kernel, records, narrative,
boards) and `policies/<game>/` (its players, their play loop and runner, and `game.py` with its
`GAME`), plus one line in `GAMES` below. The commands in `experiments/` ask the object for rules,
players, games, tables, records and pictures, and never name a game themselves; the conformance
suite (tests/test_conformance.py) runs the same checks on every game listed here.

`GAMES` names each game's package, loaded only when that game is used (as an entry point
would be). A game's class then reaches its parts (rules, layout, records, boards, narrative,
lockstep, registry, runner, checks, design space) through properties, each one import statement a reader or
a tool can follow; they import when first asked, so a command on one game never pays for the
other's imports, nor `--help` for numba's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

    from policies.contracts import Benchmarks, Checks, Lockstep, Table, Tally

# name (as `--game` takes it) -> the package of that game's players, whose `game` module holds its
# GAME. The first is the lab's own game, played when no game is named.
GAMES: dict[str, str] = {
    "island-escape": "policies.island_escape",
    "forbidden-island": "policies.forbidden_island",
    "survive-the-island": "policies.survive_the_island",
    "desert-island": "policies.desert_island",
}
DEFAULT_GAME = next(iter(GAMES))
GAME_COLUMN = "game_kind"  # the table column naming a game (tables of the default game may lack it)


ECHO_LIMIT = 60  # characters of a value that a refusal repeats


def shorten(text: str, limit: int = ECHO_LIMIT) -> str:
    """`text` cut to about `limit` characters, so a huge value is not sent back whole."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def clip(value: object, limit: int = ECHO_LIMIT) -> str:
    """`repr(value)` shortened: how a refusal quotes what it was given (by a page's client, say)."""
    return shorten(repr(value), limit)


class Unsupported(ValueError):
    """A command, option or player that a game does not offer: its message is one line naming the
    game, for the command to print before any game is played."""


@dataclass(frozen=True)
class RuleOption:
    """One option of a game's setting, as every command takes it: `simulate --FLAG VALUE`, a
    `compare` word `WORD=VALUE`, a page's query parameter NAME. The game's `rules_from_options`
    takes it as keyword NAME."""

    name: str  # the keyword of Game.rules_from_options
    flag: str  # as the commands' options write it (--cards-per-treasure)
    kind: str  # "number" (a whole number), "text", "cards" (several words: a gauge), "level", "variants"
    help: str
    words: tuple[str, ...] = ()  # other words `compare` takes for it ("cards" for cards_per_treasure)
    field: str = ""  # the Rules field it sets, where its name differs (actions -> actions_per_turn)
    choices: tuple[str, ...] = ()  # for "level" and "variants": the names it takes
    # False for an option that is not a column of the per-game tables nor a key of a sweep's grid:
    # one that only sets another (a gauge's length sets the gauge), or a file's path
    column: bool = True
    tag: str = ""  # what stands before its value in a file's name (p3: 3 players); none for a named level
    # the option whose value this one gives in other words (a gauge's length gives the gauge): a
    # sweep's grid takes it as a key of its own, never beside that one, and labels cells by it
    stands_for: str = ""
    label: str = ""  # as a page's form shows it; an option without one is not a control there
    low: int = 0  # a number's bounds on a form
    high: int = 0
    file: bool = False  # a file's path (a board): the command line takes it, a page never does

    @property
    def rules_field(self) -> str:
        """The Rules field it sets."""
        return self.field or self.name


def counted(n: int, noun: str, nouns: str | None = None) -> str:
    """`n` and its noun in the right number: "1 player", "3 players", "1 card a treasure" is
    `counted(1, "card") + " a treasure"`; `nouns` for a plural that is not noun + "s"."""
    return f"{n:,} {noun if n == 1 else nouns or noun + 's'}"


class Game:
    """What a command needs to know of one game. A game's `game.py` subclasses it and fills in
    the class attributes and the methods that raise NotImplementedError."""

    name: str  # as `--game` takes it
    title: str
    players: tuple[int, ...]  # the player counts its rules take
    # Its setting's options, the keyword arguments of `rules_from_options`: the commands refuse
    # any other rule option for this game.
    options: tuple[RuleOption, ...]
    rule_words_example: str = ""  # a setting written in `compare`'s words
    setting_help: str  # how its setting is given, for the refusal of a foreign option
    action_columns: tuple[str, ...] = ()  # result columns counting actions by kind (a sweep's means)
    # Named settings the printed game offers (its levels), easiest first; None where the rules
    # themselves are what a designer varies.
    levels: dict[str, dict[str, Any]] | None = None
    # The result column counting the treasures a game raised (or captured) by its end: a loss
    # with all four was lost on the way home, a near miss.
    treasures_field: str = "treasures"
    # The player that takes a skill (0 careless to 1 the expert), for a win rate across skill;
    # None where the game's players take none.
    skill_policy: str | None = None
    # The player `--skill` names when no --policy is given (None: no player takes a skill).
    skilled_policy: str | None = None
    rules_doc: str = ""  # the page saying how the lab plays it (its rulings)
    # A study of its own that `island-escape report` runs beside the difficulty study (a
    # competitive game's seat balance: experiments/seats.py), as a path from the project's root.
    report_study: str | None = None
    cause_words: dict[str, str] = {}  # what each cause (or, competitive, each ending) means, for reports
    # two settings on which its search's strength against budget is measured (experiments/strength.py):
    # rules_from_options' keywords, the first an easier one
    strength_settings: tuple[dict[str, Any], ...] = ()
    # the settings a tuned player is weighed over (rules_from_options' keywords): those the
    # report judges with it
    tune_cells: tuple[dict[str, Any], ...] = ()

    # --- its parts: modules found by the game's folder, the same names in every game ------------

    @property
    def package(self) -> str:
        """Its players' package, `policies.<folder>`, whose `game` module holds the object."""
        return type(self).__module__.rpartition(".")[0]

    @property
    def folder(self) -> str:
        """The folder of its parts: sim/<folder>/ (rules, kernel, records) and policies/<folder>/."""
        return self.package.rpartition(".")[2]

    def _sim(self, part: str):
        return import_module(f"sim.{self.folder}.{part}")

    @cached_property
    def rules_module(self):
        """sim/<folder>/rules.py: its Rules and RuleError."""
        return self._sim("rules")

    @cached_property
    def layout(self):
        """sim/<folder>/layout.py, the kernel's layout: CAUSES, RESULT_FIELDS, NRESULT."""
        return self._sim("layout")

    @cached_property
    def records(self):
        """sim/<folder>/records.py: load_record, write_record, replay, result_json, RecordError, FORMAT."""
        return self._sim("records")

    @cached_property
    def boards(self):
        """sim/<folder>/boards.py: replay_pictures(record, folder, gif)."""
        return self._sim("boards")

    @cached_property
    def narrative(self):
        """sim/<folder>/narrative.py: tell(record, echo, board)."""
        return self._sim("narrative")

    @cached_property
    def registry(self):
        """policies/<folder>/registry.py's REGISTRY: its players (policies/registry.py)."""
        return import_module(f"{self.package}.registry").REGISTRY

    @cached_property
    def runner(self):
        """The runner every game shares (policies/runner.py): run_games, raw_batches, results_frame,
        export_records."""
        return import_module("policies.runner")

    @cached_property
    def lockstep(self) -> Lockstep:
        """sim/<folder>/lockstep.py, its kernel against its reference engine (policies/contracts.py)."""
        return self._sim("lockstep")

    @cached_property
    def checks(self) -> Checks:
        """policies/<folder>/checks.py, its players against the hidden information (policies/contracts.py)."""
        return import_module(f"{self.package}.checks")

    @cached_property
    def printed_ladder(self):
        """The facts of a game's printed levels that the reports cite (a published bot's rates,
        the words for its causes: experiments/anchor.py names what it reads); None for a game
        without printed levels."""
        return None

    @cached_property
    def design(self):
        """What a designer may change and a calibration tries (experiments/calibrate.py names what
        it asks of it); None for a game whose levels are printed rather than designed."""
        return None

    # --- rules ---------------------------------------------------------------------------------

    @property
    def rule_error(self) -> type[Exception]:
        return self.rules_module.RuleError

    def rules(self, **setting: Any):
        return self.rules_module.Rules(**setting)

    @property
    def rule_options(self) -> tuple[str, ...]:
        """The names of its setting's options (`rules_from_options`' keywords)."""
        return tuple(o.name for o in self.options)

    @property
    def variants(self) -> tuple[str, ...]:
        """Its named variants (the choices of its "variants" option), none for most games."""
        return next((o.choices for o in self.options if o.kind == "variants"), ())

    def rules_from_options(self, **options: Any):
        """The rules `simulate`'s options give (options left None keep the rules' defaults).
        Raises the game's RuleError for an impossible setting."""
        raise NotImplementedError

    def setting_line(self, rules) -> str:
        """One setting in one line, as the commands print it."""
        raise NotImplementedError

    # --- what follows from the declared rule options -----------------------------------------

    @property
    def columns(self) -> tuple[RuleOption, ...]:
        """The options that are columns of the per-game tables and keys of a sweep's grid."""
        return tuple(o for o in self.options if o.column and o.kind != "variants")

    @property
    def grid_keys(self) -> tuple[str, ...]:
        """The rule keys of a setting (Rules fields), as tables and a sweep file's grid name them."""
        return tuple(o.rules_field for o in self.columns)

    @property
    def replay_keys(self) -> tuple[str, ...]:
        """The table columns that name one game's setting and player (with seed and game)."""
        return (*self.grid_keys, "policy")

    @property
    def table_keys(self) -> tuple[str, ...]:
        """The setting's columns of a per-game table (policies/runner.py)."""
        return self.grid_keys

    @property
    def aliases(self) -> tuple[RuleOption, ...]:
        """The options that give another's value in other words (`RuleOption.stands_for`)."""
        return tuple(o for o in self.options if o.stands_for)

    @property
    def sweep_keys(self) -> tuple[str, ...]:
        """The keys a sweep file's grid takes: the rule keys and their other words, the variant
        (for a game with variants), the player and its skill (for a game with a skill axis)."""
        return (*self.grid_keys, *(o.name for o in self.aliases), *(("variant",) if self.variants else ()),
                "policy", *(("skill",) if self.skill_policy else ()))

    @property
    def sweep_number_keys(self) -> tuple[str, ...]:
        """Grid keys whose values are whole numbers."""
        return tuple(o.rules_field if o.column else o.name for o in (*self.columns, *self.aliases)
                     if o.kind == "number")

    @property
    def sweep_name_keys(self) -> tuple[str, ...]:
        """Grid keys whose values are names (cards are checked by `check_sweep_grid`)."""
        return (*(o.rules_field for o in self.columns if o.kind not in ("number", "cards")),
                *(("variant",) if self.variants else ()), "policy")

    @staticmethod
    def _text(option: RuleOption, value) -> Any:
        """A rule value as a table cell and an option take it: cards as words, several numbers
        comma-separated, the rest as they are."""
        if option.kind == "cards":
            return " ".join(value)
        if isinstance(value, tuple | list):
            return ",".join(map(str, value))
        return value

    def setting(self, rules) -> dict:
        """The setting as table columns, by Rules field (a sweep's summary row starts with them)."""
        return {o.rules_field: self._text(o, getattr(rules, o.rules_field)) for o in self.columns}

    def options_of(self, rules) -> dict[str, Any]:
        """The `rules_from_options` keywords (simulate's options) that give `rules` back, only
        those that differ from the rules' defaults, players always: what a command line or a
        query string needs to name the setting."""
        default = self.rules_from_options(players=rules.players)
        options = {"players": rules.players}
        for o in self.options:
            if o.name != "players" and o.kind != "variants" and hasattr(rules, o.rules_field):
                value = getattr(rules, o.rules_field)
                if value != getattr(default, o.rules_field):
                    options[o.name] = self._text(o, value)
        return options

    def rules_of_row(self, row) -> Any:
        """The rules a per-game table row was played under (its setting's columns)."""
        return self.rules_from_options(**{o.name: int(row[o.rules_field]) if o.kind == "number" else
                                          str(row[o.rules_field]) for o in self.columns})

    @staticmethod
    def _file_word(value) -> str:
        return "".join(ch if ch.isalnum() or ch in ".@" else "-" for ch in str(value))

    def _tagged(self, values: dict, sep: str) -> str:
        """A setting's values (by Rules field) as words of a file's name, each after its tag."""
        return sep.join(f"{o.tag}{self._file_word(values[o.rules_field])}" for o in self.columns)

    def cell_key(self, rules, policy: str, variant: str) -> str:
        """A sweep cell's file name: the game, every rule that can vary, the variant (where the
        game has variants) and the player."""
        words = [self.name, self._tagged({o.rules_field: self._text(o, getattr(rules, o.rules_field))
                                          for o in self.columns}, "_")]
        return "_".join(words + ([variant] if self.variants else []) + [self._file_word(policy)])

    def record_name(self, row) -> str:
        """A record's file name for a table row: game, player, setting, seed and game index, so
        games of different cells (which play the same game numbers) never share a name."""
        return (f"{self.name}-{self._file_word(row['policy'])}-{self._tagged(row, '-')}-seed{row['seed']}"
                f"-game{int(row['game']):07d}.json")

    def rule_controls(self) -> list[dict[str, Any]]:
        """The rule options that have a `label`, as a form shows them, one dict a control:
        `name` (the option), `kind` ("cards", "number", "choice" or "variants"), `label`, and the
        kind's own keys: `low`/`high` and the rules' `default` for a number, `choices` (value and
        label) and `default` for a named level, `cards` (`card_choices`) and `default` for
        cards, and for the named variants `variants`: [{name, label, sets}], `sets` being the
        options a variant changes and their values. A page draws its controls from this."""
        default = self.rules_from_options()
        controls = []
        for o in (o for o in self.options if o.label):
            control: dict[str, Any] = {"name": o.name, "kind": "choice" if o.kind == "level" else o.kind,
                                       "label": o.label}
            if o.kind == "variants":
                control["variants"] = [{"name": name, "label": self.variant_labels.get(name, name),
                                        "sets": self._variant_sets(name)} for name in o.choices]
            elif o.kind == "cards":
                control |= {"cards": self.card_choices(o), "default": list(getattr(default, o.rules_field))}
            elif o.kind == "level":
                control |= {"choices": [{"value": c, "label": self.choice_label(o, c)} for c in o.choices],
                            "default": getattr(default, o.rules_field)}
            else:
                control |= {"low": o.low, "high": o.high, "default": getattr(default, o.rules_field)}
            controls.append(control)
        return controls

    variant_labels: dict[str, str] = {}  # a named variant as a form shows it

    def _variant_sets(self, name: str) -> dict[str, Any]:
        """The options a named variant changes (but the players) and their values; cards as a list."""
        changed = self.rules_from_options(variants=(name,))
        kinds = {o.name: o.kind for o in self.options}
        return {option: value.split() if kinds[option] == "cards" else value
                for option, value in self.options_of(changed).items() if option != "players"}

    def card_choices(self, option: RuleOption) -> list[dict[str, Any]]:
        """The cards an option of kind "cards" takes, each {code, label, red} as a form shows it."""
        raise NotImplementedError

    def choice_label(self, option: RuleOption, value: str) -> str:
        """A named level as a form shows it."""
        return value.capitalize()

    def cards_from_text(self, text: str) -> list[str]:
        """A rule value of kind "cards" (Island Escape's gauge) as written in a table cell or a
        query: its card codes, as the game's Rules take them."""
        return [c.upper() for c in text.replace(",", " ").split()]

    def value_text(self, key: str, value) -> str:
        """A setting's value as tables and figures show it (a rule key of `grid_keys`)."""
        return str(value)

    def owns_rules(self, rules) -> bool:
        return isinstance(rules, self.rules_module.Rules)

    def sweep_settings(self, grid: dict, bad) -> list:
        """The settings a sweep file's grid names, as (rules, policy, variant, labels): every
        combination of its rule keys, variants and players, the variant applied last (it has the
        last word in a sweep); labels hold the values of the options given in other words
        (`aliases`) where the variant left them standing (see `cell_labels`). `bad(key, why)`
        makes the error to raise for a bad grid entry; each key's values are tried alone first,
        so that an error names its key."""
        import itertools
        import re

        def as_list(value) -> list:
            return value if isinstance(value, list) else [value]

        def rules_of(options: dict, key: str):
            try:
                return self.rules_from_options(**options)
            except (self.rule_error, TypeError) as exc:
                found = re.match(r"rules\.(\w+):? (.*)", str(exc))
                if found and found.group(1) in self.sweep_keys:
                    raise bad(f"grid.{found.group(1)}", found.group(2)) from None
                flag = next((o.flag for o in self.options if str(exc).startswith(f"{o.flag}: ")), None)
                raise bad(key, str(exc)[len(flag) + 2:] if flag else str(exc)) from None

        options = {}  # rules_from_options keyword -> the grid's values
        for o in (*self.columns, *self.aliases):
            key = o.rules_field if o.column else o.name
            if key in grid:
                options[o.name] = (self._card_sets(grid[key], f"grid.{key}", bad) if o.kind == "cards"
                                   else as_list(grid[key]))
                for value in options[o.name]:
                    rules_of({o.name: value}, f"grid.{key}")
        for o in self.aliases:
            if o.name in options and o.stands_for in options:
                raise bad(f"grid.{o.stands_for}", f"give {o.stands_for} or {o.name}, not both")
        variants = as_list(grid.get("variant", ["normal"]))
        for name in variants:
            if name not in ("normal", *self.variants):
                raise bad("grid.variant", f"unknown variant {name!r} (choose from normal, {', '.join(self.variants)})")
        players = self._grid_players(as_list(grid.get("skill", [])), as_list(grid.get("policy", [
            self.skill_policy if "skill" in grid else self.default_policy])), bad)
        settings = []
        for values in itertools.product(*options.values()):
            given = dict(zip(options, values, strict=True))
            plain = rules_of(given, "grid")
            for variant in variants:
                rules = plain.with_variant(variant) if variant != "normal" else plain
                labels = {o.name: given[o.name] for o in self.aliases if o.name in given
                          and getattr(rules, self.option(o.stands_for).rules_field)
                          == getattr(plain, self.option(o.stands_for).rules_field)}
                for policy in players:
                    try:
                        self.seat_players(policy, rules)
                    except ValueError as exc:
                        raise bad("grid.policy", str(exc)) from None
                    settings.append((rules, policy, variant, labels))
        return settings

    def option(self, name: str) -> RuleOption:
        return next(o for o in self.options if o.name == name)

    def _card_sets(self, raw, key: str, bad) -> list[str]:
        """A grid's value of kind "cards" as a list of settings, each one card text: one set of
        cards ("AD 2C 2D" or ["AD", "2C", "2D"]) or a list of such sets."""
        try:
            one = isinstance(raw, str) or all(isinstance(c, str) and len(self.cards_from_text(c)) == 1 for c in raw)
        except self.rule_error as exc:
            raise bad(key, str(exc)) from None
        return [g if isinstance(g, str) else " ".join(g) for g in ([raw] if one else raw)]

    def _grid_players(self, skills: list, policies: list, bad) -> list[str]:
        """A grid's players: its policies, or each at each of the grid's skills."""
        out = []
        for name in policies:
            try:
                self.check_policy(name)
            except ValueError as exc:
                raise bad("grid.policy", str(exc)) from None
            for skill in skills:
                if isinstance(skill, bool) or not isinstance(skill, int | float):
                    raise bad("grid.skill", f"must be numbers from 0 to 1, not {skill!r}")
                try:
                    out.append(self.with_skill(name, float(skill)))
                except ValueError as exc:
                    raise bad("grid.skill", str(exc)) from None
            if not skills:
                out.append(name)
        return out

    def check_sweep_grid(self, grid: dict, bad) -> None:
        """A grid's value of kind "cards" is cards ("AC 2C 2D" or ["AC", "2C", "2D"]) or a list
        of such sets, checked before any is read."""
        shape = "cards such as \"AC 2C 2D\" or ['AC', '2C', '2D'], or a list of such sets"
        for key in (o.rules_field for o in self.columns if o.kind == "cards"):
            raw = grid.get(key)
            if raw is None:
                continue
            if not isinstance(raw, list | str):
                raise bad(f"grid.{key}", f"must be {shape}, not {raw!r}")
            for cards in [raw] if isinstance(raw, str) or all(isinstance(c, str) for c in raw) else raw:
                if not (isinstance(cards, str) or isinstance(cards, list) and all(isinstance(c, str) for c in cards)):
                    raise bad(f"grid.{key}", f"{cards!r} is not a {key}: must be {shape}")

    def cell_labels(self, rules, variant: str, extra: dict) -> dict:
        """A sweep cell's label columns besides its key (tables and figures group by them);
        `extra` holds the labels `sweep_settings` gave."""
        return {}

    # --- the kernel's results ------------------------------------------------------------------

    @property
    def causes(self) -> tuple[str, ...]:
        """The win first, then the loss causes in the order the rules check them."""
        return self.layout.CAUSES

    @property
    def result_fields(self) -> tuple[str, ...]:
        """The columns of the kernel's raw result rows."""
        return self.layout.RESULT_FIELDS

    @property
    def nresult(self) -> int:
        return self.layout.NRESULT

    def kept_fields(self, rules) -> tuple[str, ...]:
        """The result columns a summary of games reads (`tally`) and a page keeps of each game: how
        it ended and its turns (the first two), then the treasures raised, then whatever else the
        tally reads in this setting."""
        return (self.result_fields[0], "turns", self.treasures_field)

    # --- players -------------------------------------------------------------------------------

    def policy_names(self) -> list[str]:
        return list(self.registry.policies)

    @property
    def default_policy(self) -> str:
        return self.registry.default_policy

    def search_policies(self) -> set[str]:
        """The policies that search (seconds a game; the longest to compile too)."""
        return set(self.registry.slow)

    def unfair_policies(self) -> set[str]:
        """The policies that read hidden information: labelled, never judges."""
        return set(self.registry.unfair)

    def check_policy(self, name: str) -> None:
        """Raise ValueError (naming the known policies) if `name` is not one of the game's; a
        player spec (`name@skill`) is checked whole."""
        self.registry.player_params(name)

    def with_skill(self, name: str, skill: float) -> str:
        """The spec of policy `name` at `skill`; ValueError when it takes none."""
        return self.registry.with_skill(name, skill)

    def player(self, policy: str | None, skill: float | None) -> str:
        """The player `--policy` and `--skill` name (the default policy when neither is given).
        Raises ValueError for an unknown policy or a skill the game's players do not take."""
        if skill is not None:
            if not (policy or self.skilled_policy):
                raise ValueError(f"--skill: {self.title}'s players take no skill")
            policy = self.with_skill(policy or self.skilled_policy, skill)
        policy = policy or self.default_policy
        self.check_policy(policy)
        return policy

    def seat_players(self, policy: str, rules) -> list[str]:
        """The player of each seat that `policy` names (a competitive game's `--policy` takes one
        spec per seat, comma-separated; one spec plays every seat). Raises ValueError for a count
        of specs the setting has no seats for, or an unknown player."""
        return self.registry.seat_players(policy, rules.players)

    def tally(self, rules, policy: str) -> Tally:
        """What `simulate` counts of a run, batch by batch (policies/outcomes.py): its one team's
        win rate and losses by cause; a competitive game's seats each their own."""
        from policies.outcomes import TeamTally

        return TeamTally(self.causes)

    def check_win_rates(self, command: str) -> None:
        """Nothing where the game's games have one win rate (its seats win or lose together);
        where they have none, the refusal of `command`, which reads win rates (Unsupported)."""

    def seat_outcome(self, raw: np.ndarray, rules, seat: int) -> np.ndarray:
        """What a search plays for, per raw row, for `seat`, float64 [games]: in a cooperative
        game the team's win (1 or 0), in a competitive one the seat's share of the win."""
        return (raw[:, 0] == 0).astype(float)  # cause 0 is the win (`causes`)

    def seat_results(self, raw: np.ndarray, rules) -> tuple[np.ndarray, np.ndarray]:
        """A competitive game's raw rows as (win share, score), float64 [games, seats] each: a
        game's win shares sum to 1 (tied winners share the win), or to 0 in a game `no_one_won`."""
        raise self.refuse("seats of its own (its players win or lose together)")

    def no_one_won(self, raw: np.ndarray, rules) -> np.ndarray:
        """The games of raw rows that a competitive game's rules give no winner (their win shares
        are all 0), bool [games]; none by default."""
        import numpy as np

        return np.zeros(len(raw), dtype=bool)

    # --- playing -------------------------------------------------------------------------------

    def run_games(self, rules, policy: str, games: int, seed: int = 0, first_game: int = 0,
                  threads: int | None = None, policy_params: np.ndarray | None = None,
                  on_batch: Callable[[int], None] | None = None) -> np.ndarray:
        """Raw kernel results, int32 [games, nresult]: game g of a seed is dealt the same in
        every setting and for every player (common random numbers)."""
        return self.runner.run_games(rules, policy, games, seed, first_game=first_game,
                                                       threads=threads, policy_params=policy_params,
                                                       on_batch=on_batch)

    def results_frame(self, raw: np.ndarray, rules, policy: str, seed: int, first_game: int = 0) -> pd.DataFrame:
        return self.runner.results_frame(raw, rules, policy, seed, first_game=first_game)

    def export(self, rules, policy: str, seed: int, games: Iterable[int]) -> list:
        """Replayable records of the chosen games of a setting (the kernel plays them again)."""
        return self.runner.export_records(rules, policy, seed, games)

    def code_digest(self) -> str:
        """A hash of every source a game's result depends on: equal digests, rules, policy, seed
        and game index play the same game (a sweep cell is resumed only under the same one)."""
        from sim import source_digest

        return source_digest()

    # --- tables and records --------------------------------------------------------------------

    def finished(self, record) -> tuple[Any, str | None, int, int]:
        """A record replayed by the reference engine: its rules, outcome (None while unfinished,
        "win" or the loss cause), turns and treasures raised or captured. Raises RecordError."""
        played = self.records.replay(record)
        return played.rules, played.outcome, played.turn, self.treasures_of(played)

    def treasures_of(self, played) -> int:
        """The treasures a reference engine's game has raised (or captured) so far."""
        raise NotImplementedError

    def tell(self, record, echo: Callable[[str], None], board: bool = False) -> None:
        """`replay`'s story of a record: its setting, the events turn by turn (the island after
        each turn with `board`) and the ending, a line at a time to `echo`."""
        self.narrative.tell(record, echo, board)

    def replay_pictures(self, record, folder: str | Path, gif: str | Path | None = None) -> list[Path]:
        """The island drawn after each turn of a record, as PNG files in `folder` (and, given
        `gif`, an animated GIF of them)."""
        return self.boards.replay_pictures(record, folder, gif=gif)

    def refuse(self, what: str) -> Unsupported:
        """The refusal of something this game does not offer: "Forbidden Island has no play page"."""
        return Unsupported(f"{self.title} has no {what}")

    def __repr__(self) -> str:
        return f"<game {self.name}>"

    # --- pages, tuning and benchmarks ----------------------------------------------------------

    def table(self) -> Table:
        """The play page's table (policies/contracts.py Table: policies/<folder>/table.py);
        Unsupported for a game with no play page."""
        return self._own("table", "play page")

    def tune_space(self, policy: str) -> dict[int, tuple[float, float]]:
        """The slots of `policy`'s parameter array that `tune` varies, each with its range: the
        module's `TUNE_SPACE`, or every weight of its `DEFAULTS` from a quarter to three times
        its default (0 in the array means the default). Unsupported where none of the game's
        players has weights, ValueError for a policy of the game that has none."""
        if not any(hasattr(self.registry.module(name), "DEFAULTS") for name in self.registry.table
                   if name not in self.registry.hidden):
            raise self.refuse("tunable players")
        module = self.registry.module(policy)  # raises UnknownPolicy (a ValueError) naming the known ones
        if policy in self.registry.weighted:
            raise ValueError(f"policy {policy!r} has no tunable weights: it is {self.registry.weighted[policy]} "
                             "with weights of its own (tune that)")
        space = getattr(module, "TUNE_SPACE", None)
        if space is not None:
            return dict(space)
        defaults = getattr(module, "DEFAULTS", None)
        if defaults is None:
            raise ValueError(f"policy {policy!r} has no tunable weights (no DEFAULTS)")
        return {k: (float(d) / 4, float(d) * 3) if d > 0 else (float(d) * 3, float(d) / 4)
                for k, d in enumerate(defaults) if d != 0}

    def tune_settings(self) -> list:
        """The rules `tune` weighs a player over when no setting is named: the settings the
        report judges with it (one player for every cell, never one tuned per setting)."""
        return [self.rules_from_options(**setting) for setting in self.tune_cells]


    def bench(self) -> Benchmarks:
        """The game's own benchmarks (policies/contracts.py Benchmarks: policies/<folder>/bench.py);
        Unsupported for a game with none."""
        return self._own("bench", "benchmarks")

    def _own(self, module: str, what: str):
        """The game's module policies/<folder>/<module>.py, or the refusal of `what` where it has none."""
        try:
            return import_module(f"{self.package}.{module}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{self.package}.{module}":
                raise
            raise self.refuse(what) from None


_LOADED: dict[str, Game] = {}


def game(name: str | None = None) -> Game:
    """The game called `name` (the default game for None). ValueError names the known ones."""
    name = name or DEFAULT_GAME
    if name not in _LOADED:
        try:
            module = GAMES[name]
        except KeyError:
            raise ValueError(f"unknown game {name!r} (choose from {', '.join(GAMES)})") from None
        _LOADED[name] = import_module(f"{module}.game").GAME
    return _LOADED[name]


def every_game() -> list[Game]:
    return [game(name) for name in GAMES]


def with_win_rates() -> list[Game]:
    """The games whose games have one win rate (their seats win or lose together): the games a
    playtest log or the balance page may hold."""
    out = []
    for candidate in every_game():
        try:
            candidate.check_win_rates("")
        except Unsupported:
            continue
        out.append(candidate)
    return out


def with_seats() -> list[Game]:
    """The games whose seats each play for themselves (each gives results a seat)."""
    import numpy as np

    out = []
    for candidate in every_game():
        try:
            candidate.seat_results(np.zeros((0, candidate.nresult), dtype=np.int32), candidate.rules())
        except Unsupported:
            continue
        out.append(candidate)
    return out


def game_of_rules(rules) -> Game:
    """The game whose Rules `rules` are."""
    for candidate in every_game():
        if candidate.owns_rules(rules):
            return candidate
    raise ValueError(f"no game of the lab has rules of type {type(rules).__name__}")


def game_of_record(data: object) -> Game:
    """The game whose record format a record's JSON names (its "format"); the default game for
    anything else, whose reader then says what is wrong with it."""
    if isinstance(data, dict):
        for name in GAMES:
            if data.get("format") == game(name).records.FORMAT:
                return game(name)
    return game()


def game_of_table(df: pd.DataFrame) -> Game:
    """The game a per-game table holds: its `game_kind` column (absent from the default game's
    tables, written before a second game existed). A table mixing games is refused."""
    if GAME_COLUMN not in df.columns:
        return game()
    names = set(df[GAME_COLUMN].astype(str).unique())
    if len(names) > 1:
        raise ValueError(f"the table mixes games ({', '.join(sorted(names))}); pick one with --where")
    return game(names.pop()) if names else game()
