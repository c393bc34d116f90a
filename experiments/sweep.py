"""Sweeps: a grid of rule settings and policies, every cell played on the same seeds.

A sweep is a TOML file (see experiments/configs/); its `game` key says which game it plays (the
default game unless it names another; each game says which grid keys it takes). Every cell plays
games 0 … N-1 of the same seed, so cells are paired game by game (common random numbers: same islands, same flood
orders). Each finished cell is written atomically to `OUT/cells/<cell>.parquet`; `--resume`
skips the cells already there, and since a cell's games depend only on (seed, game), a resumed
sweep gives exactly the tables of an uninterrupted one.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from experiments import MAX_SEED
from policies.game import DEFAULT_GAME, GAMES, Game, counted, game_of_rules
from policies.game import game as game_named

TOP_KEYS = {"name", "description", "game", "games", "seed", "grid", "adaptive"}
ADAPTIVE_KEYS = {"half_width", "max_games", "batch"}


class SweepError(ValueError):
    """A sweep file that cannot be used; the message names the file and the key."""


@dataclass(frozen=True)
class Cell:
    """One setting of a sweep: the rules, the policy, and labels for tables and plots."""

    rules: object  # the game's Rules
    policy: str
    variant: str = "normal"
    # the game's own label columns of the cell besides its key, as (column, value) pairs
    # (Island Escape's gauge length as the grid named it): Game.sweep_settings gives them
    extra: tuple = ()

    @property
    def game(self) -> Game:
        return game_of_rules(self.rules)

    @property
    def key(self) -> str:
        return self.game.cell_key(self.rules, self.policy, self.variant)

    def labels(self) -> dict:
        return {"cell": self.key, **self.game.cell_labels(self.rules, self.variant, dict(self.extra))}


@dataclass(frozen=True)
class Adaptive:
    half_width: float = 0.01
    max_games: int = 200_000
    batch: int = 5_000


@dataclass
class SweepConfig:
    path: str
    name: str
    games: int
    seed: int
    cells: list[Cell]
    description: str = ""
    adaptive: Adaptive | None = None
    raw: dict = field(default_factory=dict)
    game: Game = field(default_factory=game_named)

    @property
    def digest(self) -> str:
        """What decides the results: a resumed sweep must have the same digest."""
        data = {"games": self.games, "seed": self.seed, "adaptive": self.adaptive and vars(self.adaptive),
                "cells": [c.key for c in self.cells]}
        return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:16]


# --- reading a sweep file --------------------------------------------------------------------------


def _as_list(value: object) -> list:
    return value if isinstance(value, list) else [value]


def read_toml(path: str | Path) -> dict:
    """A TOML file as a dict; a missing or malformed file is a one-line SweepError."""
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except OSError as exc:
        raise SweepError(f"{path}: cannot read it ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise SweepError(f"{path}: not valid TOML ({exc})") from None
    except UnicodeDecodeError as exc:
        raise SweepError(f"{path}: not UTF-8 text (byte {exc.start} is {exc.object[exc.start:exc.start + 1]!r}); "
                         "save it as UTF-8") from None


def load_config(path: str | Path) -> SweepConfig:
    """Read and check a sweep file; every problem is a one-line SweepError naming file and key."""
    return parse_config(all_errors(read_toml(path), str(path)), str(path))


def all_errors(data: dict, path: str) -> dict:
    """Every error of a sweep file at once, not only the first: parse, set the faulty key aside,
    parse again, until the rest is clean; raise one SweepError with a line per error.

    `parse_config` stops at its first error, and each error names its key (`path: grid.players:
    …`), so leaving that key out (its default applies) lets the next error show. An error that
    names no removable key ends the search. Returns `data` unchanged when it has no error.
    """
    import copy

    trial = copy.deepcopy(data)
    errors: list[str] = []
    while True:
        try:
            parse_config(trial, path)
            break
        except SweepError as exc:
            errors.append(str(exc))
            found = re.match(re.escape(path) + r": ([\w.]+): ", str(exc))
            parts = found.group(1).split(".") if found else []
            table = trial
            for part in parts[:-1]:
                table = table.get(part) if isinstance(table, dict) else None
            if not parts or not isinstance(table, dict) or parts[-1] not in table or len(errors) > 50:
                break
            del table[parts[-1]]
    if errors:
        raise SweepError("\n".join(errors))
    return data




def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_types(data: dict, path: str = "<sweep>") -> None:
    """Every value of a sweep file has the type its key needs (a TOML file can hold any type
    anywhere); the checks of the values themselves come after, in `parse_config`."""
    def bad(key: str, why: str) -> SweepError:
        return SweepError(f"{path}: {key}: {why}")

    for key in ("games", "seed"):
        if key in data and not _is_int(data[key]):
            raise bad(key, f"must be a whole number, not {data[key]!r}")
    if _is_int(data.get("seed")) and data["seed"] > MAX_SEED:
        raise bad("seed", f"must be at most 2**63 - 1 = {MAX_SEED}, not {data['seed']}")
    for key in ("name", "description", "game"):
        if key in data and not isinstance(data[key], str):
            raise bad(key, f"must be a string, not {data[key]!r}")
    grid = data.get("grid", {})
    if isinstance(grid, dict) and data.get("game", DEFAULT_GAME) in GAMES:
        game = game_named(data.get("game", DEFAULT_GAME))
        for key in game.sweep_number_keys:
            for value in _as_list(grid.get(key, [])):
                if not _is_int(value):
                    raise bad(f"grid.{key}", f"must be whole numbers, not {value!r}")
        for key in game.sweep_name_keys:
            for value in _as_list(grid.get(key, [])):
                if not isinstance(value, str):
                    raise bad(f"grid.{key}", f"must be names (strings), not {value!r}")
        game.check_sweep_grid(grid, bad)
    adaptive = data.get("adaptive", {})
    if isinstance(adaptive, dict):
        if "half_width" in adaptive and (isinstance(adaptive["half_width"], bool)
                                         or not isinstance(adaptive["half_width"], int | float)):
            raise bad("adaptive.half_width", f"must be a number, not {adaptive['half_width']!r}")
        for key in ("max_games", "batch"):
            if key in adaptive and not _is_int(adaptive[key]):
                raise bad(f"adaptive.{key}", f"must be a whole number, not {adaptive[key]!r}")


def parse_config(data: dict, path: str = "<sweep>") -> SweepConfig:
    def bad(key: str, why: str) -> SweepError:
        return SweepError(f"{path}: {key}: {why}")

    check_types(data, path)

    for key in data:
        if key not in TOP_KEYS:
            raise bad(key, f"unknown key (a sweep has {', '.join(sorted(TOP_KEYS))})")
    games = data.get("games", 10_000)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise bad("games", f"must be a whole number of at least 1, not {games!r}")
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise bad("seed", f"must be a whole number >= 0, not {seed!r}")
    grid = data.get("grid", {})
    if not isinstance(grid, dict):
        raise bad("grid", "must be a table")
    game_name = data.get("game", DEFAULT_GAME)
    if game_name not in GAMES:
        raise bad("game", f"unknown game {game_name!r} (choose from {', '.join(GAMES)})")
    game = game_named(game_name)
    for key in grid:
        if key not in game.sweep_keys:
            raise bad(f"grid.{key}", f"unknown key (the {game.title} grid takes {', '.join(sorted(game.sweep_keys))})")
        if _as_list(grid[key]) == []:
            raise bad(f"grid.{key}", "is empty: the grid would have no cells")
    cells: list[Cell] = []
    seen: set[str] = set()
    for rules, policy, variant, extra in game.sweep_settings(grid, bad):
        cell = Cell(rules, policy, variant, tuple(extra.items()))
        if cell.key not in seen:
            seen.add(cell.key)
            cells.append(cell)
    return SweepConfig(path, str(data.get("name", Path(path).stem)), games, seed, cells,
                       str(data.get("description", "")), _adaptive(data, games, bad), data, game)


def _adaptive(data: dict, games: int, bad) -> Adaptive | None:
    adaptive = None
    if "adaptive" in data:
        a = data["adaptive"]
        if not isinstance(a, dict):
            raise bad("adaptive", "must be a table")
        for key in a:
            if key not in ADAPTIVE_KEYS:
                known = ", ".join(sorted(ADAPTIVE_KEYS))
                raise bad(f"adaptive.{key}", f"unknown key (adaptive takes {known})")
        adaptive = Adaptive(**a)
        if not 0 < adaptive.half_width < 0.5:
            raise bad("adaptive.half_width", f"must be between 0 and 0.5, not {adaptive.half_width!r}")
        if adaptive.max_games < games or adaptive.batch < 1:
            raise bad("adaptive.max_games", "must be at least games, and batch at least 1")
    return adaptive


# --- statistics ------------------------------------------------------------------------------------


def summarize_cell(cell: Cell, df: pd.DataFrame) -> dict:
    """A row of the sweep summary: the cell, its setting and what its game's tally counts (a
    team's win rate with its 95% Wilson interval and its losses by cause; each seat's win share
    and the furthest seat from fair), then the mean actions."""
    from policies.runner import raw_of_frame

    game = cell.game
    tally = game.tally(cell.rules, cell.policy)
    tally.add(raw_of_frame(df, cell.rules))
    row = {**cell.labels(), "policy": cell.policy, **game.setting(cell.rules), "games": len(df),
           **tally.row(tally.result())}
    for col in game.action_columns:
        row[f"mean_{col}"] = float(df[col].mean())
    return row


def paired_difference(won_a: np.ndarray, won_b: np.ndarray) -> dict:
    """Win-rate difference a - b of two settings played on the same games, with a paired 95%
    interval (scipy's ttest_rel) and, for comparison, the unpaired one (ttest_ind).

    `games_ratio` says how many times more games independent runs would need for the same
    interval width: var(a) + var(b) over var(a - b).
    """
    from scipy.stats import ttest_ind, ttest_rel

    a = np.asarray(won_a, dtype=float)
    b = np.asarray(won_b, dtype=float)
    if len(a) != len(b) or len(a) < 2:
        raise ValueError("paired settings need the same games, at least two")
    diff = float(a.mean() - b.mean())
    d = a - b
    if np.all(d == d[0]):
        paired = (diff, diff)
    else:
        ci = ttest_rel(a, b).confidence_interval(0.95)
        paired = (float(ci.low), float(ci.high))
    if np.var(a) + np.var(b) == 0:
        unpaired = (diff, diff)
    else:
        ci = ttest_ind(a, b).confidence_interval(0.95)
        unpaired = (float(ci.low), float(ci.high))
    var_d = float(np.var(d, ddof=1))
    ratio = float((np.var(a, ddof=1) + np.var(b, ddof=1)) / var_d) if var_d > 0 else float("inf")
    return {"difference": diff, "ci95": paired, "unpaired_ci95": unpaired, "games_ratio": ratio,
            "games": len(a)}


# --- running ---------------------------------------------------------------------------------------


CELL_BATCH = 1 << 19  # games played (and written) at a time: a cell's raw rows take 44 MiB at most
CELL_META = b"island_escape_cell"  # the Parquet metadata key naming what a cell file holds
TMP_DIR = ".tmp"  # cells are written here, then moved into cells/: never a partial file in cells/


def _atomic_parquet(df: pd.DataFrame, path: Path) -> None:
    tmp = path.with_name(path.name + ".tmp")
    df.to_parquet(tmp, index=False)
    os.replace(tmp, path)  # a cell file either is complete or does not exist


def cell_metadata(cell: Cell, seed: int) -> dict:
    """What a cell file must hold to be resumed: its cell, seed and the code that played it
    (the game's `code_digest`, a hash of the rules' and policies' sources)."""
    return {"cell": cell.key, "seed": seed, "policy": cell.policy, "rules": cell.rules.as_record(),
            "code": cell.game.code_digest()}


def iter_cell(cell: Cell, games: int, seed: int, adaptive: Adaptive | None = None,
              on_games: Callable[[int], None] | None = None, threads: int | None = None,
              batch: int | None = None):
    """The raw kernel rows of one cell, batch by batch: games 0 … games-1, then (adaptive) more
    batches of the next game indices until the half-width of what the game's tally measures (the
    win rate; the widest seat's share) reaches the target or the cap. Memory stays at one batch
    however many games the cell plays."""
    tally = cell.game.tally(cell.rules, cell.policy)  # what the adaptive rule reads: its half-width
    batch = batch or CELL_BATCH

    def play(first: int, count: int):
        for lo in range(first, first + count, batch):
            raw = cell.game.run_games(cell.rules, cell.policy, min(batch, first + count - lo), seed,
                                      first_game=lo, threads=threads, on_batch=on_games)
            tally.add(raw)
            yield raw

    yield from play(0, games)
    if adaptive:
        while tally.half_width() > adaptive.half_width and tally.games < adaptive.max_games:
            yield from play(tally.games, min(adaptive.batch, adaptive.max_games - tally.games))


def play_cell(cell: Cell, games: int, seed: int, adaptive: Adaptive | None = None,
              on_games: Callable[[int], None] | None = None, threads: int | None = None) -> pd.DataFrame:
    """The per-game table of one cell (see `iter_cell`)."""
    raw = list(iter_cell(cell, games, seed, adaptive, on_games, threads))
    return cell_frame(cell, np.concatenate(raw), seed)


def cell_frame(cell: Cell, raw: np.ndarray, seed: int, first_game: int = 0) -> pd.DataFrame:
    """The per-game table of a cell from the kernel's raw rows (games first_game, first_game+1, …)."""
    df = cell.game.results_frame(raw, cell.rules, cell.policy, seed, first_game=first_game)
    for name, value in cell.labels().items():
        df[name] = value
    df["cell"] = df["cell"].astype("category")
    if "variant" in df:
        df["variant"] = df["variant"].astype("category")
    return df


def write_cell(cell: Cell, seed: int, batches, out: Path) -> None:
    """Write a cell's raw batches as `out/cells/<cell>.parquet`, with its metadata.

    The file grows in `out/.tmp/` and takes its place in `cells/` only when complete, so
    `pd.read_parquet("cells/")` never sees a partial file.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    tmp = out / TMP_DIR / f"{cell.key}.parquet"
    meta = {CELL_META: json.dumps(cell_metadata(cell, seed)).encode()}
    writer = None
    first = 0
    try:
        for raw in batches:
            table = pa.Table.from_pandas(cell_frame(cell, raw, seed, first), preserve_index=False)
            first += len(raw)
            if writer is None:
                schema = table.schema.with_metadata({**(table.schema.metadata or {}), **meta})
                writer = pq.ParquetWriter(tmp, schema)
            writer.write_table(table.replace_schema_metadata(writer.schema.metadata))
    finally:
        if writer is not None:
            writer.close()
    if writer is None:
        raise ValueError(f"cell {cell.key} played no games")
    os.replace(tmp, out / "cells" / f"{cell.key}.parquet")


def check_cell(path: Path, cell: Cell, config: SweepConfig) -> str | None:
    """Why the cell file at `path` cannot be resumed (None when it can): unreadable or
    truncated, written for another cell or seed or by other code, or the wrong games."""
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
    except Exception as exc:  # pyarrow raises several kinds for a damaged file
        return f"cannot be read ({str(exc).splitlines()[0][:80]})"
    raw = (table.schema.metadata or {}).get(CELL_META)
    if raw is None:
        return "was not written by a sweep of this version (no cell metadata)"
    try:
        meta = json.loads(raw)
    except ValueError:
        return "has damaged cell metadata"
    want = cell_metadata(cell, config.seed)
    for key, what in (("cell", "cell"), ("seed", "seed"), ("code", "code version (source hash)")):
        if meta.get(key) != want[key]:
            return f"was played for another {what} ({meta.get(key)!r}, this sweep: {want[key]!r})"
    n = table.num_rows
    low = high = config.games
    if config.adaptive:
        high = max(config.games, config.adaptive.max_games)
    if not low <= n <= high:
        return f"holds {n} games, not {low}" + (f"-{high}" if high != low else "")
    games = table.column("game").to_numpy()
    seeds = table.column("seed").to_numpy()
    if not (np.array_equal(games, np.arange(n)) and (seeds == config.seed).all()):
        return "does not hold games 0 … n-1 of the sweep's seed"
    return None


def table_bytes_per_game(game: Game | None = None) -> int:
    """Memory a game takes in a sweep's collected table (measured on a one-game cell)."""
    game = game or game_named()
    cell = Cell(game.rules(), "random")
    df = cell_frame(cell, np.zeros((1, len(game.result_fields)), dtype=np.int32), 0)
    return int(df.memory_usage(index=False, deep=False).sum())


def machine_memory() -> int:
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def _size(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return f"{n:,.0f} {unit}"
        n /= 1024
    return ""


def prepare_out(config: SweepConfig, out: str | Path, resume: bool = False, force: bool = False) -> Path:
    """Check that the sweep can run into `out`, before any game is played, and create the folder.

    Refuses (SweepError): a sweep whose table would not fit in memory (the summary and figures
    read every cell), a folder that already holds a sweep unless `resume` (finish it) or `force`
    (discard it), a folder that cannot be created. Only then does anything touch the disk.
    """
    out = Path(out)
    per_cell = max(config.games, config.adaptive.max_games if config.adaptive else 0)
    need = per_cell * len(config.cells) * table_bytes_per_game(config.game)
    if need > machine_memory():
        raise SweepError(f"{config.path}: games: {per_cell:,} games a cell × {counted(len(config.cells), 'cell')} "
                         f"make a {_size(need)} table, more than this machine's {_size(machine_memory())} of memory")
    cells_dir = out / "cells"
    held = (out / "sweep.json").exists() or any(cells_dir.glob("*.parquet"))
    if held and not (resume or force):
        raise SweepError(f"{out} already holds a sweep: add --resume to finish it, or --force to discard it "
                         "and start over")
    try:
        (out / TMP_DIR).mkdir(parents=True, exist_ok=True)
        cells_dir.mkdir(exist_ok=True)
    except OSError as exc:
        raise SweepError(f"{out}: cannot create the sweep's folder there ({exc.strerror or exc})") from None
    return out


@dataclass
class SweepResult:
    out: Path
    games: pd.DataFrame
    summary: pd.DataFrame
    ran: list[str]  # cells played in this call (the rest were resumed from disk)
    replayed: dict[str, str] = field(default_factory=dict)  # cell files found bad on resume, and why


def run_sweep(config: SweepConfig, out: str | Path, resume: bool = False, progress: bool | None = None,
              plots: bool = True, threads: int | None = None, stop_after: int | None = None,
              client=None, chunk: int | None = None, force: bool = False,
              echo: Callable[[str], None] | None = None) -> SweepResult:
    """Run every cell (or, with `resume`, every cell not yet validly on disk) and write the tables.

    Into a folder that holds a sweep already, only with `resume` (cells that fail `check_cell`
    are played again, and `echo` says why) or `force` (the old cells, summary and figures are
    deleted first). With a dask.distributed `client`, chunks of `chunk` games are tasks on the
    cluster (see experiments/cluster.py); the tables are the same. `stop_after` plays at most
    that many cells and returns (for testing interruptions).
    """
    from tqdm import tqdm

    out = prepare_out(config, out, resume, force)
    cells_dir = out / "cells"
    for leftover in [*(out / TMP_DIR).iterdir(), *cells_dir.glob("*.tmp")]:
        leftover.unlink()  # partial files of a killed run: never complete, never read
    manifest_path = out / "sweep.json"
    manifest = {"name": config.name, "game": config.game.name, "config": config.path, "digest": config.digest,
                "games": config.games, "seed": config.seed, "cells": [c.key for c in config.cells]}
    if manifest_path.exists() and resume:
        try:
            old = json.loads(manifest_path.read_text())
        except ValueError:
            old = {}
        if old.get("digest") != config.digest:
            raise SweepError(f"{config.path}: the sweep in {out} was run with other settings "
                             f"(digest {old.get('digest')} vs {config.digest}); use another --out, "
                             "or --force to start over")
    if force and not resume:
        for stale in [*cells_dir.glob("*.parquet"), *(out / "figures").glob("*.png"),
                      out / "summary.csv", out / "summary.parquet"]:
            stale.unlink(missing_ok=True)
    manifest_path.write_text(json.dumps(manifest, indent=2) + "\n")
    replayed: dict[str, str] = {}
    todo = []
    for c in config.cells:
        path = cells_dir / f"{c.key}.parquet"
        if resume and path.exists():
            why = check_cell(path, c, config)
            if why is None:
                continue
            replayed[c.key] = why
            if echo:
                echo(f"{path}: {why}; playing it again")
            path.unlink()  # unusable: the cell is played again (and collect never reads it)
        todo.append(c)
    ran = []
    total = len(todo) * config.games
    try:
        with tqdm(total=total, unit="game", unit_scale=True, delay=1.0, mininterval=0.5,
                  disable=None if progress is None else not progress, desc=config.name) as bar:
            if client is not None:
                from experiments.cluster import play_cells

                def write_whole(cell: Cell, raw: np.ndarray) -> None:
                    write_cell(cell, config.seed, [raw], out)

                ran = play_cells(client, todo, config, write_whole, bar.update, threads=threads, chunk=chunk,
                                 stop_after=stop_after)
                todo = []
            for i, cell in enumerate(todo):
                if stop_after is not None and i >= stop_after:
                    break
                bar.set_postfix_str(f"cell {i + 1}/{len(todo)} {cell.key[:40]}")
                batches = iter_cell(cell, config.games, config.seed, config.adaptive, on_games=bar.update,
                                    threads=threads)
                write_cell(cell, config.seed, batches, out)
                ran.append(cell.key)
    finally:
        for leftover in (out / TMP_DIR).iterdir():
            leftover.unlink()  # an interrupted cell: its games are played again on --resume
        (out / TMP_DIR).rmdir()
    games, summary = collect(config, out)
    if plots and len(summary):
        from experiments.plots import sweep_figures

        sweep_figures(games, summary, out / "figures", config.game)
    return SweepResult(out, games, summary, ran, replayed)


def collect(config: SweepConfig, out: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Read the finished cells in grid order and write summary.parquet / summary.csv."""
    frames, rows = [], []
    for cell in config.cells:
        path = out / "cells" / f"{cell.key}.parquet"
        if path.exists():
            df = pd.read_parquet(path)
            frames.append(df)
            rows.append(summarize_cell(cell, df))
    games = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    for col in ("cell", "variant", "policy", "gauge", "cause", "difficulty", "game_kind"):
        if col in games:
            games[col] = games[col].astype("category")
    summary = pd.DataFrame(rows)
    if len(summary):
        _atomic_parquet(summary, out / "summary.parquet")
        summary.to_csv(out / "summary.csv", index=False, float_format="%.5f")
    return games, summary


def summary_display(game: Game, summary: pd.DataFrame) -> pd.DataFrame:
    """The summary as the terminal shows it: every rule column of the game (so that no two rows
    look alike), the variant and policy, then the rates."""
    cols = [k for k in game.grid_keys if k in summary] + [
        c for c in ("variant", "policy", "games", "win_rate", "ci_low", "ci_high") if c in summary] + [
        c for c in summary if c.startswith("seat") and c.endswith("_share")] + [
        c for c in ("furthest_from_fair", "mean_turns") if c in summary]
    shown = summary[cols].copy()
    for key in game.grid_keys:
        if key in shown:
            shown[key] = shown[key].map(lambda v, key=key: game.value_text(key, v))
    return shown
