"""The `island-escape` command line.

Errors the user can fix (a bad record, an impossible rule setting) print one line on stderr and
exit with status 2, never a traceback.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import signal
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

import click

from experiments import MAX_SEED

# numpy's OpenBLAS starts a worker thread per core when numpy is imported, and the worker spins
# for a while before it sleeps: about 0.1 s of CPU taken from numba's threads on this 2-core
# machine, in every command. The lab's only linear algebra (the small value fit of
# policies/forbidden_island/value_fit.py) needs no second thread. A user's own setting wins.
# Set before anything imports numpy: OpenBLAS reads it once, when it loads.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

EXIT_BAD_INPUT = 2


def fail(message: str) -> None:
    for line in message.splitlines() or [""]:  # several errors (a sweep file's): one line each
        click.echo(f"island-escape: {line}", err=True)
    sys.exit(EXIT_BAD_INPUT)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def cli() -> None:
    """Island Escape balance lab: replay records, simulate games, measure difficulty."""


def main() -> None:
    """Entry point: click's usage errors become one line on stderr with exit status 2."""
    try:
        cli.main(standalone_mode=False, prog_name="island-escape")
    except click.exceptions.Abort:
        click.echo("island-escape: interrupted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        click.echo(f"island-escape: {exc.format_message()}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    finally:
        # The command is done and the process is about to end: Python's shutdown would still run
        # its cycle collector over every object numba and LLVM left (about 0.1 s, a fifth of a
        # short `simulate`'s wall time). Frozen objects are skipped by the collector; they are
        # freed as usual, files closed and buffers flushed, when the modules are torn down.
        gc.freeze()


@cli.command("replay")
@click.argument("records", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="One JSON result per record, one per line.")
@click.option("--board", is_flag=True, help="Draw the island in ASCII after each turn.")
@click.option("--png", "png_dir", type=click.Path(file_okay=False),
              help="Write a picture of the island per turn (and per sinking) into this folder.")
@click.option("--gif", type=click.Path(dir_okay=False), help="Also write the pictures as an animated GIF.")
def replay_cmd(records: tuple[str, ...], as_json: bool, board: bool, png_dir: str | None, gif: str | None) -> None:
    """Replay game RECORDS (RECORD-FORMAT.md) with the reference engine.

    A record's "format" names its game: Forbidden Island records (docs/FI-RECORD-FORMAT.md)
    replay with Forbidden Island's engine.

    Prints a narrative of every turn, or with --json the outcome, cause, turns, floods, events
    and final state. A bad record is reported on stderr in one line and the others still
    replay; the exit status is 2 if any record was bad. --png and --gif draw the island; with
    several records each gets its own subfolder (and GIF) named after the record.
    """
    from pathlib import Path

    from policies.game import Unsupported, every_game

    if gif and not png_dir:
        png_dir = str(Path(gif).with_suffix("")) + "-frames"
    # a record that cannot be read, or a picture its game cannot draw: that record's one line
    record_errors = (*(g.records.RecordError for g in every_game()), Unsupported)
    bad = 0
    for path in records:
        try:
            game = _game_of_record_file(path)
            record = game.records.load_record(path)
            if png_dir:
                _replay_pictures(game, record, path, png_dir, gif, len(records) > 1, as_json)
            if as_json:
                click.echo(json.dumps(game.records.result_json(game.records.replay(record)), ensure_ascii=False))
                continue
            first = True

            def echo(line: str, path=path) -> None:
                nonlocal first
                click.echo(f"== {path}: {line}" if first else line)  # the setting heads the story
                first = False

            game.tell(record, echo, board)
        except record_errors as exc:
            bad += 1
            click.echo(f"island-escape replay: {path}: {exc}", err=True)
    if bad:
        sys.exit(EXIT_BAD_INPUT)


def _game_of_record_file(path: str):
    """The game whose record format the file names; the default game for a file that is not a
    record at all, whose reader then says what is wrong with it."""
    from policies.game import game, game_of_record

    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return game()
    return game_of_record(data)


def _replay_pictures(game, record, path: str, png_dir: str, gif: str | None, many: bool, as_json: bool) -> None:
    """`replay --png/--gif` of one record; with several records each gets its own subfolder and
    GIF named after the record."""
    folder = Path(png_dir) / Path(path).stem if many else Path(png_dir)
    gif_path = None
    if gif:
        gif_path = Path(gif).with_name(f"{Path(gif).stem}-{Path(path).stem}.gif") if many else Path(gif)
    pictures = game.replay_pictures(record, folder, gif=gif_path)
    also = f", animation {gif_path}" if gif_path else ""
    click.echo(f"{path}: {len(pictures)} pictures in {folder}{also}", err=as_json)


COMPILE_NOTICE_AFTER = 1.0  # seconds: loading a cached kernel takes less, compiling takes ~20-60 s


def compile_notice(policy: str, warm, echo=None, after: float = COMPILE_NOTICE_AFTER) -> None:
    """Run `warm()` (the first kernel call of this process for `policy`); if it takes longer than
    `after` seconds, numba is compiling rather than loading its cache, so say so on the terminal
    instead of sitting silent. Only on a terminal (or with an explicit `echo`): a script's stderr
    stays clean."""
    import threading

    if echo is None:
        if not sys.stderr.isatty():
            warm()
            return

        def echo(line: str) -> None:
            click.echo(line, err=True)

    timer = threading.Timer(after, echo, [f"compiling the kernel for {policy}, once (about half a minute; "
                                          "later runs load it from the cache)…"])
    timer.daemon = True
    timer.start()
    try:
        warm()
    finally:
        timer.cancel()


def warm_up(*policies: str, play: bool = True, logged: bool = False, game=None, rules=None) -> None:
    """Compile (or load) the kernel for each policy of `game` (default: the default game) before
    any work, with the compile notice: the bulk entry (`play`) and the one that logs records
    (`logged`); on `rules` (the game's default rules if none), whose seats a player per seat fits."""
    from policies.game import game as game_named

    game = game or game_named()
    rules = rules or game.rules()
    for policy in dict.fromkeys(policies):
        if play:
            compile_notice(policy, lambda policy=policy: game.run_games(rules, policy, 1, 0, threads=1))
        if logged:
            compile_notice(policy, lambda policy=policy: game.export(rules, policy, 0, [0]))


class _NoBar:
    def update(self, n: int) -> None:
        pass


def _progress_bar(games: int, desc: str):
    """A progress bar on a terminal (shown after a second); elsewhere nothing, and tqdm is not
    even imported (it is part of every scripted run's start-up otherwise)."""
    if not sys.stderr.isatty():
        return contextlib.nullcontext(_NoBar())
    from tqdm import tqdm

    return tqdm(total=games, unit="game", unit_scale=True, delay=1.0, mininterval=0.5, desc=desc, file=sys.stderr)


@contextlib.contextmanager
def _interrupts_held():
    """Ctrl-C waits until the block is done: a batch is then both written and counted, or neither.

    A SIGINT during the block is only noted, and raised as KeyboardInterrupt when the block ends.
    Blocking the signal (pthread_sigmask) is not enough: it blocks the main thread only, the
    kernel may deliver the signal to one of the runner's threads instead, and Python then raises
    it in the main thread at once, between the write and the count."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    noted = []
    old = signal.signal(signal.SIGINT, lambda signum, frame: noted.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
    if noted:
        raise KeyboardInterrupt


def _write_batch(writer, tmp: Path, game, raw, rules, policy, seed, first_game):
    """Append a batch of `game`'s raw results to the Parquet table being written to `tmp`;
    returns the writer."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(game.results_frame(raw, rules, policy, seed, first_game=first_game),
                                 preserve_index=False)
    if writer is None:
        writer = pq.ParquetWriter(tmp, table.schema)
    writer.write_table(table)
    return writer


def _game_names() -> tuple[str, ...]:
    from policies.game import GAMES

    return tuple(GAMES)


GAMES = _game_names()
DEFAULT_GAME = GAMES[0]


def _game_titles() -> str:
    from policies.game import every_game

    return ", ".join(f"{g.name} ({g.title})" for g in every_game())


GAME_TITLES = _game_titles()


def _levelled_games() -> list[str]:
    """The games with printed levels, which another game's levels can be anchored on."""
    from policies.game import every_game

    return [g.name for g in every_game() if g.levels]


LEVELLED_GAMES = _levelled_games()


def _rule_options() -> dict[str, list]:
    """Every game's rule options by keyword name, each with the (game, RuleOption) that take it:
    the commands offer their union, and each game refuses the others (`_game_rules`)."""
    from policies.game import every_game

    out: dict[str, list] = {}
    for g in every_game():
        for option in g.options:
            out.setdefault(option.name, []).append((g, option))
    return out


RULE_OPTIONS = _rule_options()


def rule_options(command):
    """`simulate`'s rule options, declared by the games (Game.options): a flag that several games
    take is one option, its help naming each game's meaning."""
    types = {"number": int, "text": str, "cards": str}
    for name, takers in reversed(RULE_OPTIONS.items()):
        option = takers[0][1]
        choices = list(dict.fromkeys(c for _, o in takers for c in o.choices))
        text = "  ".join(f"{g.title}: {o.help}" for g, o in takers)  # whose option it is, and what it means
        kwargs = {"help": text}
        if option.kind in ("level", "variants"):
            kwargs["type"] = click.Choice(choices)
        else:
            kwargs["type"] = types[option.kind]
        if option.kind == "variants":
            kwargs["multiple"] = True
        command = click.option(option.flag, name, **kwargs)(command)
    return command


def _rule_flag(name: str) -> str:
    return RULE_OPTIONS[name][0][1].flag


def _win_rates_only(game, command: str) -> None:
    """One line and exit 2 for a command that reads a win rate, where the game has none."""
    from policies.game import Unsupported

    try:
        game.check_win_rates(command)
    except Unsupported as exc:
        fail(str(exc))


def _game_rules(game, given: dict):
    """`game`'s rules from the rule options given (None: not given); one line and exit 2 for an
    option the game does not take or an impossible setting."""
    for key, value in given.items():
        if value not in (None, ()) and key not in game.rule_options:
            fail(f"{_rule_flag(key)} is not an option of {game.title} (its setting: {game.setting_help})")
    try:
        return game.rules_from_options(**{k: v for k, v in given.items() if k in game.rule_options})
    except game.rule_error as exc:
        message = str(exc)
        for option in sorted(game.options, key=lambda o: -len(o.field or o.name)):  # the longest name first
            for after in (" ", ": "):
                message = message.replace(f"rules.{option.field or option.name}{after}", f"{option.flag}{after}")
        fail(message)


@cli.command("simulate")
@click.option("--game", "game_kind", type=click.Choice(GAMES), default=DEFAULT_GAME, show_default=True,
              help=f"Which game: {GAME_TITLES}.")
@click.option("--games", "-n", type=int, default=100_000, show_default=True, help="Games to play.")
@rule_options
@click.option("--policy", default=None,
              help="Policy name (see `island-escape policies`); in a competitive game one per seat, "
                   "comma-separated (expert,random,random), or one for every seat.  [default: the report's judge]")
@click.option("--skill", type=float, help="Skill 0-1 of a policy that takes one (alone: the skilled player).")
@click.option("--seed", type=click.IntRange(min=0, max=MAX_SEED), default=0, show_default=True,
              help="Game g plays on streams keyed by (seed, g); at most 2**63 - 1.")
@click.option("--threads", type=click.IntRange(min=1, max=256), help="Threads (default: all cores).")
@click.option("--out", type=click.Path(dir_okay=False), help="Write the per-game table here (Parquet).")
@click.option("--force", is_flag=True, help="Replace an existing --out file.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
@click.option("--records", "records_dir", type=click.Path(file_okay=False),
              help="Export the first games as replayable records into this folder.")
@click.option("--record-count", type=click.IntRange(min=0), default=10, show_default=True,
              help="How many games --records exports.")
def simulate_cmd(game_kind, games, policy, skill, seed, threads, out, force, as_json, records_dir, record_count,
                 **setting):
    """Play many games with the numba kernel and summarize them.

    Prints the win rate with a 95% Wilson interval, the loss causes, the mean number of turns
    and the speed. The summary is counted batch by batch and --out is written batch by batch,
    so memory stays flat however many games are played; an interrupted run (Ctrl-C) prints the
    summary of the games it finished and keeps their table in OUT.partial.

    Each game takes its own rule options (where games differ, an option's help says whose it
    is); another game's option is refused in one line.
    """
    import time
    from pathlib import Path

    from policies.batches import default_threads

    if games < 0:
        fail(f"--games must be 0 or more, not {games}")
    from policies.game import game as game_named

    game = game_named(game_kind)
    rules = _game_rules(game, setting)
    try:
        policy = game.player(policy, skill)
        game.seat_players(policy, rules)  # one player for all, or (where seats play apart) one a seat
    except ValueError as exc:
        fail(str(exc))
    # Every place the run writes to is checked before the first game: a run never ends, after
    # hours, in an error about its output.
    tmp = Path(str(out) + ".partial") if out else None
    if out:
        _check_table_file(Path(out), tmp, games, force)
    if records_dir:
        _check_folder(Path(records_dir), "--records", cleanup=tmp)

    from experiments.runner import summary_object

    threads = threads or default_threads()
    writer = None
    # counts only: memory stays flat however many games are played
    tally = game.tally(rules, policy)

    def show(summary: dict) -> None:
        if as_json:
            click.echo(json.dumps(summary_object(game, rules, policy, seed, summary)))
            return
        click.echo(f"rules       {game.setting_line(rules)}; policy {policy}, seed {seed}")
        click.echo(tally.text(summary, threads))

    start = time.perf_counter()
    try:
        # compile (or load the cache) before the clock starts
        warm_up(policy, logged=bool(records_dir), game=game, rules=rules)
        start = time.perf_counter()
        with _progress_bar(games, policy) as bar:
            # the threads play the next batch while this one is counted and written
            for done, raw in game.runner.raw_batches(rules, policy, games, seed, threads):
                with _interrupts_held():  # the table and the summary always hold the same games
                    if out:  # only a written table pays for pandas and pyarrow
                        writer = _write_batch(writer, tmp, game, raw, rules, policy, seed, done)
                    tally.add(raw)
                bar.update(len(raw))
    except KeyboardInterrupt:
        if writer is not None:
            writer.close()
        elif tmp is not None:
            tmp.unlink(missing_ok=True)
        show(tally.result(time.perf_counter() - start))
        kept = f"; their table is in {tmp}" if writer is not None else ""
        click.echo(f"island-escape: interrupted after {tally.games:,} games{kept}", err=True)
        sys.exit(130)
    seconds = time.perf_counter() - start
    if out:
        if writer is None:  # no games: an empty table with the right columns
            import numpy as np

            writer = _write_batch(None, tmp, game, np.empty((0, game.nresult), dtype=np.int32), rules, policy, seed, 0)
        writer.close()
        tmp.replace(out)  # complete: only now does the table take its final name
    summary = tally.result(seconds)
    if records_dir:
        folder = Path(records_dir)
        for index, record in enumerate(game.export(rules, policy, seed, range(min(record_count, games)))):
            game.records.write_record(folder / f"game-{seed}-{index:06d}.json", record)
    show(summary)
    if not as_json:
        if out:
            click.echo(f"table       {out}")
        if records_dir:
            click.echo(f"records     {min(record_count, games)} in {records_dir}")


MIN_TABLE_BYTES_PER_GAME = 4  # a Parquet row of the per-game table takes about 15 bytes; 4 is a floor


def _check_table_file(out: Path, tmp: Path, games: int, force: bool) -> None:
    """`--out` can take the table: not a folder, not an existing file (unless --force), in a
    folder where the run can write and with room for the table at the least."""
    import shutil

    if out.is_dir():
        fail(f"--out {out}: is a folder; give a file name, e.g. {out / 'games.parquet'}")
    if out.exists() and not force:
        fail(f"--out {out}: the file exists; add --force to replace it")
    if tmp.exists() and tmp.stat().st_size and not force:
        fail(f"--out {out}: {tmp} holds the games of an interrupted run; move it away, or add --force "
             "to replace it")
    try:
        tmp.open("wb").close()  # the same file the run will write, so the check cannot differ
    except OSError as exc:
        fail(f"--out {out}: cannot write there ({exc.strerror or exc})")
    free = shutil.disk_usage(tmp.parent).free
    if games * MIN_TABLE_BYTES_PER_GAME > free:
        tmp.unlink()
        fail(f"--out {out}: {games:,} games need at least {games * MIN_TABLE_BYTES_PER_GAME / 2**30:,.1f} GiB "
             f"and {tmp.parent.resolve()} has {free / 2**30:,.1f} GiB free")


def _check_folder(folder: Path, option: str, cleanup: Path | None = None) -> None:
    """`option`'s folder exists or can be created, and files can be written in it."""
    import tempfile

    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        if cleanup is not None:
            cleanup.unlink(missing_ok=True)
        fail(f"{option} {folder}: cannot write there ({exc.strerror or exc})")


@cli.command("compare")
@click.option("--a", "rules_a", required=True, help='Setting A, e.g. "players=3 cards=3" (see below).')
@click.option("--b", "rules_b", required=True, help='Setting B, e.g. "players=3 cards=3 divers".')
@click.option("--game", "game_kind", type=click.Choice(GAMES), default=DEFAULT_GAME, show_default=True,
              help="The game both settings are of.")
@click.option("--policy", default=None, help="Policy that plays both.  [default: the report's judge]")
@click.option("--games", "-n", type=click.IntRange(min=2), default=20_000, show_default=True,
              help="Games per setting (the same games for both).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--threads", type=click.IntRange(min=1, max=256), help="Threads (default: all cores).")
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as one JSON object.")
def compare_cmd(rules_a, rules_b, game_kind, policy, games, seed, threads, as_json):
    """Compare two rule settings on the same games: both win rates, the paired difference A - B
    with its 95% interval, and the loss causes side by side; in a competitive game each seat's
    win share, its paired difference where both settings have the seat, how far the least
    fairly treated seat is from a fair share, and how the games ended.

    A setting is written as words: players=N, cards=N (a treasure), gauge=CARDS (top first, spaces
    or commas) or gauge_length=L, swim=N, actions=N, and the variants divers and short; words not
    given keep the rulebook's value. The --players/--gauge options of simulate work too.
    Another game's setting is written in its own options' words (--game forbidden-island:
    players=3 difficulty=elite; --game survive-the-island: players=4 sharks=4). Rates in --json
    are fractions of the games played.
    """
    from experiments.compare import compare, compare_text, parse_rules_text
    from policies.game import game as game_named

    game = game_named(game_kind)
    try:
        policy = game.player(policy, None)
    except ValueError as exc:
        fail(str(exc))
    parsed = []
    for option, text in (("--a", rules_a), ("--b", rules_b)):
        try:
            parsed.append(parse_rules_text(text, game))
        except game.rule_error as exc:
            fail(f"{option} {text!r}: {exc}")
    warm_up(policy, game=game)
    result = compare(parsed[0], parsed[1], policy, games, seed, threads)
    if as_json:
        click.echo(json.dumps(result))
    else:
        click.echo(compare_text(result, game))


@cli.command("find")
@click.argument("table", type=click.Path(exists=True))
@click.option("--where", help="A pandas query, e.g. \"cause == 'treasure' and treasures_raised == 3\".")
@click.option("--limit", type=click.IntRange(min=1), default=10, show_default=True, help="At most this many games.")
@click.option("--records", "records_dir", type=click.Path(file_okay=False), required=True,
              help="Write the games as records into this folder.")
@click.option("--png", "png_dir", type=click.Path(file_okay=False),
              help="Also draw each game turn by turn, one subfolder per game.")
def find_cmd(table, where, limit, records_dir, png_dir):
    """Pick games from a per-game TABLE (Parquet file or folder) and export them as records.

    Either game's tables: the table says which game it holds (Forbidden Island's have a
    game_kind column), and its games are exported as that game's records and pictures.
    """
    import pandas as pd

    from experiments.find import FindError, export_found, find_games, table_game

    try:
        df = pd.read_parquet(table)
    except Exception as exc:  # pyarrow raises several kinds for a file that is not Parquet
        fail(f"{table}: cannot read it as Parquet ({str(exc).splitlines()[0]})")
    try:
        rows = find_games(df, where, limit)
        game = table_game(rows)
    except FindError as exc:
        fail(f"{table}: {exc}")
    if rows.empty:
        from experiments.find import no_match_text

        click.echo(f"no game in {table} matches" + (f" {where!r}" if where else ""))
        for line in no_match_text(df, where):
            click.echo(f"  {line}")
        return
    from experiments.find import planned_paths

    try:
        planned_paths(rows, records_dir)  # refuse before any work if a record would be overwritten
    except FindError as exc:
        fail(f"--records: {exc}")
    warm_up(*rows["policy"].astype(str).unique(), play=False, logged=True, game=game)
    paths = export_found(rows, records_dir)
    for path in paths:
        click.echo(str(path))
    if png_dir:
        from pathlib import Path

        for path in paths:
            game.replay_pictures(game.records.load_record(path), Path(png_dir) / path.stem)
        click.echo(f"pictures in {png_dir}")


@cli.command("policies")
@click.option("--game", "game_kind", type=click.Choice(GAMES), default=DEFAULT_GAME, show_default=True,
              help="Whose players to list.")
def policies_cmd(game_kind):
    """List the registered policies."""
    from policies.game import game

    g = game(game_kind)
    for name, text in g.registry.describe():
        mark = " (default)" if name == g.default_policy else ""
        click.echo(f"{name:<10} {text}{mark}")


@cli.command("compile")
@click.option("--game", "games", type=click.Choice(GAMES), multiple=True,
              help="Only this game's policies (repeatable; default: every game).")
@click.option("--policy", "policies", multiple=True, help="Only these policies (repeatable; default: all).")
@click.option("--jobs", type=click.IntRange(min=1, max=64), help="Processes at once (default: one per core).")
def compile_cmd(games, policies, jobs):
    """Compile every policy's kernels into numba's cache, so later commands start warm.

    `make run` and `make test` run it after installing. A kernel already cached is only loaded:
    with nothing changed the step takes seconds. One line per kernel as it is done.
    """
    from experiments.precompile import compile_all, every_kernel
    from sim import numba_cache_dir

    kernels = every_kernel(games or None)
    if policies:
        for policy in policies:
            if not any(policy == name for _, name in kernels):
                known = sorted({name for _, name in kernels})
                fail(f"--policy: unknown policy {policy!r} (choose from {', '.join(known)})")
        kernels = [(game, name) for game, name in kernels if name in policies]
    click.echo(f"compiling {len(kernels)} kernels into {os.environ.get('NUMBA_CACHE_DIR') or numba_cache_dir()}")
    try:
        seconds = compile_all(kernels, jobs, echo=click.echo)
    except RuntimeError as exc:
        fail(str(exc))
    click.echo(f"all {len(kernels)} kernels ready in {seconds:.1f} s")


@cli.command("sweep")
@click.argument("config", type=click.Path(dir_okay=False))
@click.option("--out", type=click.Path(file_okay=False), help="Output folder (default: out/<sweep name>).")
@click.option("--resume", is_flag=True, help="Keep the cells already finished in --out; run the rest.")
@click.option("--force", is_flag=True, help="Discard a sweep already in --out and start over.")
@click.option("--games", type=click.IntRange(min=1), help="Override the games per cell of the file.")
@click.option("--threads", type=click.IntRange(min=1, max=256), help="Threads (default: all cores).")
@click.option("--no-plots", is_flag=True, help="Skip the figures.")
@click.option("--scheduler", help="Run on a Dask cluster: the scheduler's address, tcp://HOST:PORT.")
@click.option("--workers", type=click.IntRange(min=1, max=64),
              help="Run on a new local Dask cluster of N worker processes (tests the cluster path).")
@click.option("--chunk", type=click.IntRange(min=100), help="Games per cluster task (default 25,000).")
@click.option("--game", "game_kind", type=click.Choice(GAMES),
              help="The game the file must be for (its `game` key; without one, Island Escape).")
def sweep_cmd(config, out, resume, force, games, threads, no_plots, scheduler, workers, chunk, game_kind):
    """Run a sweep defined in a TOML file (see experiments/configs/).

    Every cell plays the same games (common random numbers). Writes OUT/cells/*.parquet (the
    per-game table, one file per cell), OUT/summary.csv and .parquet (win rate with 95% Wilson
    interval, loss causes, mean actions) and OUT/figures/*.png. Cells are saved as they finish;
    after an interruption, --resume runs only what is missing (and plays again, saying so, any
    cell file that is damaged or was played by other code). Into a folder holding a sweep, give
    --resume or --force.

    A file with `game = "forbidden-island"` sweeps Forbidden Island: its grid takes players
    (2-4), difficulty (novice, normal, elite, legendary) and policy
    (experiments/configs/forbidden-island-ladder.toml); its figures put the published bot's
    rates beside the lab's. A competitive game's sweep (`game = "survive-the-island"`) gives
    each cell's seats their win shares with 95% intervals and the furthest seat from fair, and
    its figures show the seats of every cell; an adaptive cell plays on until every seat's share
    is pinned down.
    """
    from experiments.sweep import SweepError, load_config, prepare_out, run_sweep

    if scheduler and workers:
        fail("give --scheduler or --workers, not both")
    client = cluster = None
    try:
        cfg = load_config(config)
        if game_kind and game_kind != cfg.game.name:
            fail(f"{config}: game: the file sweeps {cfg.game.name} (its `game` key), not {game_kind}")
        if games:
            cfg.games = games
        out = out or f"out/{cfg.name}"
        prepare_out(cfg, out, resume, force)  # before a cluster starts or a game is played
        if scheduler or workers:
            from experiments.cluster import connect

            try:
                client, cluster = connect(scheduler, workers)
            except (OSError, TimeoutError) as exc:
                fail(f"cannot reach the Dask scheduler {scheduler}: {exc}")
        if client is None:
            warm_up(*(c.policy for c in cfg.cells), game=cfg.game)
        result = run_sweep(cfg, out, resume=resume, plots=not no_plots, threads=threads, client=client,
                           chunk=chunk, force=force, echo=lambda line: click.echo(line, err=True))
    except SweepError as exc:
        fail(str(exc))
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
    from experiments.sweep import summary_display
    from policies.game import counted

    s = result.summary
    resumed = len(s) - len(result.ran)
    click.echo(f"{counted(len(result.ran), 'cell')} played, {resumed} resumed; tables in {result.out}")
    shown = summary_display(cfg.game, s)
    with pd_options():
        click.echo(shown.to_string(index=False, float_format=lambda v: f"{v:.3f}"))


def pd_options():
    import pandas as pd

    return pd.option_context("display.width", 200, "display.max_rows", 500)


def _parse_bands(text: str | None) -> dict[str, tuple[float, float]]:
    """`--bands` as {level: (low, high)}, win rates as fractions; one line and exit 2 for a level
    the calibration does not know, a percent where a fraction is due, or a band that is empty."""
    from experiments.calibrate import DEFAULT_BANDS, LEVELS

    if not text:
        return dict(DEFAULT_BANDS)
    bands = {}
    for part in text.split(","):
        try:
            name, rng = part.split("=")
            lo, hi = (float(x) for x in rng.split("-"))
        except ValueError:
            fail(f"--bands: {part.strip()!r} is not LEVEL=LOW-HIGH (e.g. easy=0.70-0.80)")
        name = name.strip().lower()
        if name not in LEVELS:
            fail(f"--bands: {name!r} is no level (the levels are {', '.join(LEVELS)})")
        if lo > 1 or hi > 1:
            fail(f"--bands: {part.strip()!r}: win rates are fractions of games, e.g. {name}={lo / 100:.2f}-"
                 f"{hi / 100:.2f} for {lo:g}-{hi:g}%")
        if not 0 <= lo < hi <= 1:
            fail(f"--bands: {part.strip()!r}: need 0 <= low < high <= 1")
        if name in bands:
            fail(f"--bands: {name} is given twice")
        bands[name] = (lo, hi)
    return bands


def _knob_help() -> str:
    """Each game's knobs, as --knobs' help names them."""
    from policies.game import every_game

    return "; ".join(f"{g.title}: any of {', '.join(g.design.KNOBS)}" for g in every_game() if g.design)


KNOB_HELP = _knob_help()


def search_options(command):
    """calibrate's search options, the same names and defaults in `calibrate` and `playtest
    summarize` (which searches a table's levels with it: experiments/playtest.py Search)."""
    options = [
        click.option("--bands", help="Target win-rate bands, e.g. 'easy=0.70-0.80,normal=0.45-0.55,hard=0.20-0.30'."),
        click.option("--players", help="Player counts, comma-separated.  [default: every count the game takes; "
                                       "with a table's logs, the counts in its games]"),
        click.option("--seed", type=click.IntRange(min=0, max=MAX_SEED), default=2026, show_default=True,
                     help="The search's games."),
        click.option("--screen-games", type=click.IntRange(min=50), default=1000, show_default=True,
                     help="Games per setting when screening."),
        click.option("--confirm-games", type=click.IntRange(min=100), default=8000, show_default=True,
                     help="Games that confirm a recommendation."),
        click.option("--max-changes", type=click.IntRange(min=0, max=6), default=3, show_default=True,
                     help="Search settings up to this many changes from the rulebook."),
        click.option("--threads", type=click.IntRange(min=1, max=256), help="Threads (default: all cores)."),
        click.option("--knobs", help=f"What the rules may change, comma-separated ({KNOB_HELP}).  "
                                     "[default: all of them]"),
    ]
    for option in reversed(options):
        command = option(command)
    return command


@dataclass(frozen=True)
class LabOptions:
    """The lab curve's options, as `lab_options` gives them."""

    games: int
    seed: int
    budget: int
    search_games: int

    def win_rate(self, threads):
        from experiments.playtest import LabWinRate

        return LabWinRate(self.games, self.seed, threads, top=self.budget, search_games=self.search_games)


def lab_options(command):
    """The lab's curve a table's skill is read from, the same in `calibrate --table` and
    `playtest summarize`."""
    command = click.option("--lab-search-games", type=click.IntRange(min=20), default=300, show_default=True,
                           help="Games the lab plays per setting at each search point of the scale (above "
                                "the expert; played only for a table whose interval reaches the expert).")(command)
    command = click.option("--lab-budget", type=click.Choice(["0", "1", "2", "4", "8", "16"]), default="4",
                           show_default=True, callback=lambda ctx, param, value: int(value),
                           help="The strongest search on the scale (lookahead@N; 0: the skilled player's "
                                "points alone); with --anchor, where the span of tables ends (1 unless "
                                "given).")(command)
    command = click.option("--lab-seed", type=click.IntRange(min=0, max=MAX_SEED), default=7100,
                           show_default=True, help="The lab curve's games.")(command)
    return click.option("--lab-games", type=click.IntRange(min=100), default=2000, show_default=True,
                        help="Games the lab plays per setting and skill for the win-rate curve.")(command)


@cli.command("calibrate")
@click.option("--policy", default=None,
              help="Policy that judges the rules, or a player such as skilled@0.7  [default: the report's judge]")
@click.option("--skill", type=click.FloatRange(0, 1),
              help="Calibrate for a table of this skill, 0-1: the skilled player (or --policy's) at it.")
@search_options
@click.option("--same-rule", is_flag=True,
              help="The rulebook-ready ladder: one rule per level for every player count, the count "
                   "adjusting only the gauge.")
@click.option("--json", "as_json", is_flag=True, help="Print the recommendations as a JSON list.")
@click.option("--game", "game_kind", type=click.Choice(GAMES), default=DEFAULT_GAME, show_default=True,
              help="A game with printed levels (Forbidden Island): which level falls in each band.")
@click.option("--anchor", type=click.Choice(LEVELLED_GAMES),
              help="Levels for people: Easy, Normal and Hard that win as often as this game's playtested "
                   "Novice, Normal and Elite for the same player, for every table from a first game to the "
                   "search (lookahead@1, or --lab-budget's; --confirm-games a rate, 2,000 unless given).")
@click.option("--table", "table_logs", is_flag=True,
              help="Levels for the table whose LOGs are given (CSV logs of either game, or folders of play "
                   "records): the skilled player at the skill its games show, checked at the ends of the "
                   "skill's 95% interval.")
@lab_options
@click.argument("logs", nargs=-1, type=click.Path())
@click.pass_context
def calibrate_cmd(ctx, policy, skill, bands, players, seed, screen_games, confirm_games, max_changes, threads,
                  knobs, same_rule, as_json, game_kind, anchor, table_logs, lab_games, lab_seed, lab_budget,
                  lab_search_games, logs):
    """Find rules for Easy, Normal and Hard for each player count.

    Searches what a table can lay out with one deck (1-3 cards per treasure, gauges of A-5 of
    clubs and diamonds in rank order, Divers on or off), preferring the fewest changes from the
    rulebook, and confirms each recommendation with a 95% interval inside its band. Divers, which
    the rulebook calls the easier variant, only ever serves a level easier than Normal. Where
    nothing is confirmed, the nearest candidates are shown with their intervals. With
    --same-rule: one rule per level for every player count (see experiments/calibrate.py).

    A game with printed levels (--game forbidden-island: its starting water marks) keeps its
    rules: each level is played --confirm-games times per player count and each band gets the
    level whose 95% interval lies inside it.

    With --table LOG...: the table's skill is estimated from all the logs' games together (both
    games' rows count; `playtest summarize` shows each table of a log apart), and the search is
    played by the skilled player at that skill; --players defaults to the player counts in the
    logs. `playtest summarize` gives the same levels for the same logs and options. A log with a
    bad row is refused (one line a bad row, exit status 2) before any game is played.
    """
    from policies.game import game as game_named

    if table_logs or logs:
        _calibrate_table(ctx, table_logs, logs, bands, players, seed, screen_games, confirm_games, max_changes,
                         threads, knobs, as_json, LabOptions(lab_games, lab_seed, lab_budget, lab_search_games))
        return
    for name in ("lab_games", "lab_seed", "lab_search_games", *(() if anchor else ("lab_budget",))):
        _refuse_option(ctx, name, "goes with --table only (the lab's curve a table's skill is read from)"
                       + (", or --lab-budget with --anchor" if name == "lab_budget" else ""))
    game = game_named(game_kind)
    _win_rates_only(game, "calibrate")
    try:
        policy = game.player(policy, skill)
    except ValueError as exc:
        fail(str(exc))
    if policy.partition("@")[0] in game.unfair_policies():
        fail(f"{policy} reads hidden information and cannot judge difficulty (R19)")
    counts = _player_counts(game, players)
    if anchor:
        _calibrate_anchored(ctx, game, game_named(anchor), counts, seed, screen_games, confirm_games, knobs,
                            threads, as_json, lab_budget)
        return
    if game.levels:
        _calibrate_printed_levels(ctx, game, policy, bands, counts, seed, confirm_games, threads, as_json)
        return
    from experiments.calibrate import calibrate, ladder, parse_knobs
    from experiments.report import difficulty_table, ladder_table

    try:
        knob_list = parse_knobs(knobs, game)
    except ValueError as exc:
        fail(f"--knobs: {exc}")
    band_dict = _parse_bands(bands)
    warm_up(policy)
    if same_rule:
        lad = ladder(players=counts, bands=band_dict, policy=policy, seed=seed, screen_games=screen_games,
                     confirm_games=confirm_games, knobs=knob_list, threads=threads,
                     echo=lambda line: click.echo(line, err=True), game=game)
        if as_json:
            click.echo(json.dumps(lad.to_json(), ensure_ascii=False))
        else:
            click.echo(f"judged by {policy}; one rule per level, the player count adjusts the gauge")
            click.echo(ladder_table(lad))
        return
    cal = calibrate(players=counts, bands=band_dict, policy=policy, seed=seed,
                    screen_games=screen_games, confirm_games=confirm_games, max_changes=max_changes,
                    other_games=max(confirm_games // 2, 100), validate_games=confirm_games, threads=threads,
                    echo=lambda line: click.echo(line, err=True), knobs=knob_list, game=game)
    recs = [r.to_json() for r in cal.recommendations]
    if as_json:
        click.echo(json.dumps(recs, ensure_ascii=False))
        return
    click.echo(f"judged by {policy}")
    click.echo(difficulty_table(recs))
    for level, setting in cal.shared.items():
        if setting is not None:
            click.echo(f"{level}: one setting serves every player count: {setting.describe()}")
    from policies.game import counted

    for p, level in cal.missing:
        click.echo(f"{level} for {counted(p, 'player')}: nothing confirmed within {counted(max_changes, 'change')}; "
                   "nearest:")
        for n in cal.near.get((p, level), []):
            lo, hi = n.result.ci
            click.echo(f"  {n.setting.describe()}: {100 * n.result.rate:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%, "
                       f"{n.result.games:,} games) - {n.verdict()}")


def _refuse_option(ctx, name: str, why: str, flag: str | None = None) -> None:
    """One line and exit 2 when option `name` (the parameter; `flag` as typed) was given."""
    from click.core import ParameterSource

    if ctx.get_parameter_source(name) is not ParameterSource.DEFAULT:
        fail(f"{flag or '--' + name.replace('_', '-')} {why}")


def _read_table_logs(logs, command: str):
    """The good games of the logs and their problem lines (one a bad row or file)."""
    from experiments.playtest import LogError, read_logs

    try:
        games, problems = read_logs(logs)
    except LogError as exc:
        fail(str(exc))
    for line in problems:
        click.echo(f"island-escape {command}: {line}", err=True)
    if not games and not problems:
        fail("no good games in " + ", ".join(logs))
    return games, problems


def _table_search(bands, seed, screen_games, confirm_games, max_changes, threads, knobs):
    """The search options of a table's levels (experiments/playtest.py Search), checked."""
    from experiments.calibrate import parse_knobs
    from experiments.playtest import Search

    try:
        knob_list = parse_knobs(knobs)
    except ValueError as exc:
        fail(f"--knobs: {exc}")
    return Search(bands=_parse_bands(bands), seed=seed, screen_games=screen_games, confirm_games=confirm_games,
                  max_changes=max_changes, knobs=knob_list, threads=threads)


def _table_players(games, players: str | None) -> list[int]:
    """--players, or the player counts of the logs' games (each a count Island Escape takes)."""
    from policies.game import game as game_named

    return _player_counts(game_named(), players) if players else sorted({g.rules.players for g in games})


def _warm_skill_players(games) -> None:
    from experiments.playtest import LabWinRate, skill_player

    if not LabWinRate.available():
        fail("a table's skill needs the lab's skilled players, which this version lacks")
    for game in {g.game.name: g.game for g in games}.values():
        warm_up(skill_player(game), game=game)


def _calibrate_table(ctx, table_logs, logs, bands, players, seed, screen_games, confirm_games, max_changes,
                     threads, knobs, as_json, lab_options) -> None:
    """`calibrate --table LOG...`: the logs and options are checked first, then the lab's curve,
    the table's skill and the search (experiments/playtest.py table_levels)."""
    from experiments.playtest import (
        ALL_TABLES,
        beyond_line,
        describe,
        scale_fields,
        skill_line,
        table_levels,
        table_skill,
    )
    from experiments.report import difficulty_table
    from experiments.scale import SKILL_GRID
    from policies.game import counted

    if not table_logs:
        fail(f"LOG arguments ({logs[0]}) go with --table only")
    if not logs:
        fail("--table needs the LOG files of the table's games")
    why = "does not go with --table: a table's levels are played by the lab's skilled player at its skill"
    for name in ("policy", "skill", "anchor", "same_rule"):
        _refuse_option(ctx, name, why)
    _refuse_option(ctx, "game_kind", why + " (its logs may hold either game)", "--game")
    games, problems = _read_table_logs(logs, "calibrate")
    if problems:
        sys.exit(EXIT_BAD_INPUT)  # a recommendation is not made from a log with mistakes in it
    search = _table_search(bands, seed, screen_games, confirm_games, max_changes, threads, knobs)
    counts = _table_players(games, players)
    _warm_skill_players(games)

    def echo(line: str) -> None:
        click.echo(line, err=True)

    lab = lab_options.win_rate(threads)
    est = table_skill(games, lab, echo=echo)
    tables = sorted({g.table for g in games})
    table = tables[0] if len(tables) == 1 else ALL_TABLES
    if not as_json:
        searched = (f", {lab_options.search_games:,} a search point up to lookahead@{lab_options.budget}"
                    if lab_options.budget and len(est.measured) > len(SKILL_GRID) else "")
        click.echo(f"{len(games):,} games of {len(est.counts)} settings; lab: {lab_options.games:,} games a setting "
                   f"and skill{searched} (seed {lab_options.seed})")
        for rules, n, w in est.counts:
            click.echo(f"  {describe(rules):<78} {w:>4}/{n:<4} won {100 * w / n:>3.0f}%, "
                       f"lab at {est.skill:.2f}: {100 * est.lab_rate(rules):.0f}%")
        click.echo(skill_line(est.skill, est.ci, est.place()))
        fields = scale_fields(est)
        if fields["beyond_strongest"]:
            click.echo(beyond_line(fields["beyond_strongest"]))
    levels = table_levels(games, lab, counts, search, table, echo=echo, skill=est)
    if as_json:
        click.echo(json.dumps(levels, ensure_ascii=False))
        return
    found = [lv for lv in levels if lv["rules"] is not None]
    ends = " and ".join(f"{s:.2f}" for s in est.ci)
    click.echo(f"judged by {levels[0]['policy']}, each level played again at skills {ends}" if levels
               else "no player count to calibrate")
    if found:
        click.echo(difficulty_table(found))
    for lv in found:
        across = lv["across_skill_ci"]
        (lo, hi), (a, b) = across["skills"], across["win_rates"]
        verdict = "in the band" if across["inside_band"] else f"{100 * across['outside_by']:.1f} points out of the band"
        click.echo(f"{lv['level']} for {counted(lv['players'], 'player')} across the skill's interval: "
                   f"{100 * a:.1f}% at {lo:g}, {100 * b:.1f}% at {hi:g}: {verdict}")
    for lv in levels:
        if lv["rules"] is None:
            click.echo(f"{lv['level']} for {counted(lv['players'], 'player')}: {lv['change']}; nearest:")
            for n in lv["nearest"]:
                lo, hi = n["ci95"]
                click.echo(f"  {n['change']}: {100 * n['win_rate']:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%, "
                           f"{n['games']:,} games) - {n['verdict']}")


def _player_counts(game, players: str | None) -> list[int]:
    """`--players` as a sorted list (every count the game takes when not given)."""
    if players is None:
        return list(game.players)
    try:
        counts = sorted({int(x) for x in players.split(",")})
    except ValueError:
        fail(f"--players: {players!r} is not a comma-separated list of numbers")
    if not counts or not all(n in game.players for n in counts):
        fail(f"--players: {players!r}: {game.title} is played by {game.players[0]}-{game.players[-1]}")
    return counts


def _calibrate_anchored(ctx, game, anchor, counts, seed, games, confirm_games, knobs, threads, as_json,
                        top) -> None:
    """`calibrate --anchor GAME`: the rulebook-ready ladder whose levels track the anchor's over
    the span of tables from a first game to the search (lookahead@1, or --lab-budget's)."""
    from click.core import ParameterSource

    from experiments.calibrate import ANCHOR_TOP, anchored_ladder, anchored_table, parse_knobs

    if ctx.get_parameter_source("lab_budget") is ParameterSource.DEFAULT:
        top = ANCHOR_TOP
    elif top < 1:
        fail("--lab-budget: with --anchor the span ends at a search: 1, 2, 4, 8 or 16")

    if game.levels:
        fail(f"--anchor: {game.title}'s levels are printed; anchor a game whose rules are searched")
    for name in ("policy", "skill", "bands", "same_rule", "max_changes"):
        if ctx.get_parameter_source(name) is not ParameterSource.DEFAULT:
            fail(f"--{name.replace('_', '-')} does not go with --anchor: the anchored levels are played by every "
                 f"player from a first game to lookahead@{top}")
    try:
        knob_list = parse_knobs(knobs, game)
    except ValueError as exc:
        fail(f"--knobs: {exc}")
    if ctx.get_parameter_source("confirm_games") is ParameterSource.DEFAULT:
        confirm_games = 2000  # a rate of the span on 2,000 games: within about 2 points
    search_games = max(50, games * 3 // 10)
    for g, players in ((game, game.skill_policy), (game, "lookahead"), (anchor, game.skill_policy),
                       (anchor, "lookahead")):
        warm_up(players, game=g)
    lad = anchored_ladder(anchor, counts, games=confirm_games, screen_games=games, search_screen_games=search_games,
                          top=top, seed=seed, knobs=knob_list, threads=threads,
                          echo=lambda line: click.echo(line, err=True), game=game)
    if as_json:
        click.echo(json.dumps(lad.to_json(), ensure_ascii=False))
        return
    click.echo(f"{game.title}'s levels anchored on {anchor.title}'s for every table from a first game to "
               f"lookahead@{top} ({confirm_games:,} fresh games a rate; screened on {games:,}, the search on "
               f"{search_games:,}); gap: {game.title}'s win rate minus the anchor level's")
    click.echo(anchored_table(lad))


def _calibrate_printed_levels(ctx, game, policy, bands, counts, seed, confirm_games, threads, as_json) -> None:
    from click.core import ParameterSource

    from experiments.calibrate import printed_level_fits

    for name in ("screen_games", "max_changes", "knobs", "same_rule"):
        if ctx.get_parameter_source(name) is not ParameterSource.DEFAULT:
            fail(f"--{name.replace('_', '-')} searches rules; {game.title}'s rules are printed and only its "
                 "level varies")
    band_dict = _parse_bands(bands)
    warm_up(policy, game=game)
    fits = printed_level_fits(game, counts, band_dict, policy, confirm_games, seed, threads)
    if as_json:
        click.echo(json.dumps([f.to_json() for f in fits], ensure_ascii=False))
        return
    click.echo(f"{game.title} judged by {policy}, {confirm_games:,} games a level and player count (seed {seed})")
    levels = list(fits[0].rates)
    click.echo("players  " + "".join(f"{lv:>24}" for lv in levels))
    for p in counts:
        row = next(f for f in fits if f.players == p).rates
        cells = [f"{100 * m.rate:.1f}% ({100 * m.ci[0]:.1f}-{100 * m.ci[1]:.1f})" for m in row.values()]
        click.echo(f"{p:<9}" + "".join(f"{c:>24}" for c in cells))
    for f in fits:
        lo, hi = f.band
        click.echo(f"{f.level} ({100 * lo:.0f}-{100 * hi:.0f}%) for {f.players} players: {f.verdict()}")


@cli.command("report")
@click.option("--study", type=click.Path(dir_okay=False),
              help="The study definition.  [default: experiments/studies/difficulty.toml, then every game's own "
                   "study (a competitive game's seat balance)]")
@click.option("--out", "report_dir", default="reports", show_default=True, type=click.Path(file_okay=False),
              help="Where difficulty.md, difficulty.json and figures/ go.")
@click.option("--threads", type=click.IntRange(min=1, max=256), help="Threads (default: all cores).")
def report_cmd(study, report_dir, threads):
    """Run the study and write its report for the designer: a cooperative game's difficulty
    report (difficulty.md), or a competitive game's seat-balance report (<game>.md) when the
    study names a competitive game."""
    from experiments.report import load_study
    from experiments.seats import build_seats_report, is_seat_study, load_seat_study
    from experiments.sweep import SweepError
    from policies.game import every_game

    studies = [study] if study else ["experiments/studies/difficulty.toml",
                                     *(g.report_study for g in every_game() if g.report_study)]
    seat_studies = []
    for path in studies:  # every study is read and checked before any is played
        try:
            seat_studies.append(is_seat_study(path))
            (load_seat_study if seat_studies[-1] else load_study)(path)
        except SweepError as exc:
            fail(str(exc))
    for path, seats in zip(studies, seat_studies, strict=True):
        if not seats:
            _difficulty_report(path, report_dir, threads)
            continue
        try:
            written = build_seats_report(path, report_dir, threads=threads,
                                         echo=lambda line: click.echo(line, err=True))
        except SweepError as exc:
            fail(str(exc))
        click.echo(f"report written to {written}")


def _difficulty_report(study: str, report_dir: str, threads: int | None) -> None:
    from experiments.report import build_report, difficulty_table
    from experiments.sweep import SweepError

    try:
        recs = build_report(study, report_dir, threads=threads, echo=lambda line: click.echo(line, err=True))
    except SweepError as exc:
        fail(str(exc))
    anchored = Path(report_dir) / "difficulty-anchored.json"
    if anchored.exists():
        from experiments.report import anchored_summary

        click.echo(anchored_summary(json.loads(anchored.read_text())))
    else:
        click.echo(difficulty_table(recs))
    click.echo(f"report written to {report_dir}/difficulty.md")


@cli.command("tune")
@click.argument("policy")
@click.option("--game", "game_kind", type=click.Choice(GAMES), default=DEFAULT_GAME, show_default=True,
              help="Whose player to tune (a game whose players have tunable weights).")
@click.option("--trials", type=click.IntRange(min=1), default=30, show_default=True,
              help="Weight settings to try.")
@click.option("--games", type=click.IntRange(min=100), default=4000, show_default=True,
              help="Training games per trial and setting (same seed for every trial).")
@click.option("--holdout", type=click.IntRange(min=100), default=20000, show_default=True,
              help="Held-out games per setting for the final comparison.")
@click.option("--seed", type=click.IntRange(min=0, max=MAX_SEED), default=1000, show_default=True,
              help="Training seed.")
@click.option("--holdout-seed", type=click.IntRange(min=0, max=MAX_SEED), default=2000, show_default=True,
              help="Held-out seed (must differ from --seed).")
@click.option("--sampler", type=click.Choice(["auto", "optuna", "random"]), default="auto", show_default=True)
@rule_options
@click.option("--out", type=click.Path(dir_okay=False), help="Write the result (weights, rates) as JSON.")
@click.option("--save", metavar="NAME",
              help="Keep the weights as the game's named player NAME (`policies`: e.g. tuned), in the repository. "
                   "Only when tuned over the game's own settings (no rule option given).")
def tune_cmd(policy, game_kind, trials, games, holdout, seed, holdout_seed, sampler, out, save, **setting):
    """Tune POLICY's weights on training seeds; report the win rates on held-out seeds.

    Without rule options the weights are tuned over the settings the report judges the player
    on (one player for every cell); with them, over that one setting."""
    from pathlib import Path

    from experiments.tune import tune
    from policies.game import Unsupported
    from policies.game import game as game_named

    game = game_named(game_kind)
    try:
        game.tune_space(policy)  # the game refuses before anything is played
    except (Unsupported, ValueError) as exc:
        fail(str(exc))
    if seed == holdout_seed:
        fail("--holdout-seed must differ from --seed")
    one_setting = any(value not in (None, ()) for value in setting.values())
    settings = [_game_rules(game, setting)] if one_setting or not game.tune_cells else game.tune_settings()
    if save is not None:
        if save not in game.registry.weighted:
            able = ", ".join(game.registry.weighted) or "none"
            fail(f"--save {save}: not a named player of {game.title} with weights of its own (its: {able})")
        if game.registry.weighted[save] != policy:
            fail(f"--save {save}: that player plays {game.registry.weighted[save]}, not {policy}")
        if one_setting:
            fail("--save keeps a player for every setting: tune it over the game's own settings (give no rule option)")
    try:
        result = tune(game, policy, settings, trials, games, holdout, seed, holdout_seed, sampler,
                      echo=lambda line: click.echo(line, err=True))
    except ValueError as exc:
        fail(str(exc))
    width = max(len(row["setting"]) for row in result["by_setting"])
    for row in result["by_setting"]:
        click.echo(f"{row['setting']:{width}}  default {100 * row['default']:5.1f}%  tuned {100 * row['tuned']:5.1f}%")
    for label in ("default", "tuned"):
        h = result[f"holdout_{label}"]
        lo, hi = h["ci95"]
        click.echo(f"{label:8} {100 * h['win_rate']:.2f}%  (95% Wilson {100 * lo:.2f}-{100 * hi:.2f}%) "
                   f"on {h['games']} held-out games, seed {h['seed']}")
    d = result["holdout_difference"]
    click.echo(f"tuned - default: {d['points']:+.2f} ± {d['half_width']:.2f} points (paired, same games)")
    click.echo(f"weights  {json.dumps(result['weights'])}")
    if out:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_text(json.dumps(result, indent=2) + "\n")
    if save is not None:
        path = game.registry.weights_path(save)
        description = (f"{policy} with weights tuned over {len(settings)} settings "
                       f"({100 * result['holdout_default']['win_rate']:.1f}% -> "
                       f"{100 * result['holdout_tuned']['win_rate']:.1f}% held out; {path.name})")
        path.write_text(json.dumps({"description": description, **result}, indent=2) + "\n")
        click.echo(f"saved as player {save!r}: {path}")


@cli.command("bench")
@click.option("--games", type=click.IntRange(min=1000), default=400_000, show_default=True,
              help="Games per kernel measurement of random (greedy and expert play a twentieth).")
@click.option("--engine-games", type=click.IntRange(min=10), default=100, show_default=True,
              help="Games the reference engine plays per policy for the ratio.")
@click.option("--quick", is_flag=True, help="Skip the memory measurement (a million games).")
@click.option("--out", type=click.Path(dir_okay=False), default="reports/bench.json", show_default=True,
              help="Where to write the figures as JSON.")
def bench_cmd(games, engine_games, quick, out):
    """Benchmark the kernel, whole simulate processes, start-up and compile (experiments/bench.py)."""
    from pathlib import Path

    from experiments.bench import format_table, run_bench

    result = run_bench(games=games, engine_games=engine_games, quick=quick,
                       echo=lambda line: click.echo(line, err=True))
    click.echo(format_table(result))
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(out).write_text(json.dumps(result, indent=2) + "\n")
    click.echo(f"figures written to {out}")


@cli.command("strength")
@click.option("--game", "games_named", type=click.Choice(GAMES), multiple=True,
              help="Only this game (repeatable; default: every game).")
@click.option("--games", type=click.IntRange(min=10), default=2000, show_default=True,
              help="Games a point (every point plays the same games).")
@click.option("--seed", type=click.IntRange(min=0, max=MAX_SEED), default=0, show_default=True)
@click.option("--max-budget", type=click.IntRange(min=1), default=64, show_default=True,
              help="The largest budget tried.")
@click.option("--minutes", type=click.FloatRange(min=0), default=30.0, show_default=True,
              help="Time cap a setting: no further doubling starts once it is spent.")
@click.option("--stop-gain", type=click.FloatRange(min=0), default=2.0, show_default=True,
              help="A doubling gaining fewer points than this ends the curve (flattened).")
@click.option("--threads", type=click.IntRange(min=1, max=256), help="Threads (default: all cores).")
@click.option("--out", "report_dir", default="reports", show_default=True, type=click.Path(file_okay=False),
              help="Where strength.md and strength.json go (other games' curves there are kept).")
def strength_cmd(games_named, games, seed, max_budget, minutes, stop_gain, threads, report_dir):
    """Win rate of each game's search against its budget (lookahead@1, @2, @4, ...) on two
    settings a game, paired, until a doubling gains less than --stop-gain points."""
    from experiments.strength import budget_curve, titled, write_report
    from policies.game import every_game

    _check_folder(Path(report_dir), "--out")
    path = Path(report_dir) / "strength.json"
    try:
        results = json.loads(path.read_text()) if path.exists() else {}
    except ValueError:
        fail(f"--out: {path} is not a strength report's JSON (move it away)")
    for g in every_game():
        if g.name in (games_named or ()) and not g.strength_settings:
            fail(f"--game {g.name}: {g.refuse('search to measure against its budget')}")
    chosen = [g for g in every_game() if g.strength_settings and (not games_named or g.name in games_named)]
    for g in chosen:
        settings = [g.rules_from_options(**kw) for kw in g.strength_settings]
        results.setdefault(g.title, {})
        for rules in settings:
            line = g.setting_line(rules)
            click.echo(f"{titled(g.title, line)}:", err=True)
            curve = budget_curve(
                g, rules, games=games, seed=seed, threads=threads, max_budget=max_budget, minutes=minutes,
                stop_gain=stop_gain / 100, on_point=lambda pt: click.echo(
                    f"  {pt.player}: {100 * pt.rate:.1f}%"
                    + ("" if pt.gain is None else f", gain {100 * pt.gain:+.1f} points")
                    + f", {pt.games_per_second:,.1f} games/s", err=True))
            results[g.title][line] = curve
            write_report(results, report_dir)  # after every setting: a stopped run keeps what it measured
    json_path, md_path = write_report(results, report_dir)
    click.echo(f"report written to {md_path} and {json_path}")


@cli.command("scale")
@click.option("--game", "game_kind", type=click.Choice(LEVELLED_GAMES), default=LEVELLED_GAMES[0],
              show_default=True, help="The game with printed, playtested levels the scale is read on.")
@click.option("--games", type=click.IntRange(min=10), default=2000, show_default=True,
              help="Games a skilled point plays at each level and player count.")
@click.option("--search-games", type=click.IntRange(min=10), default=300, show_default=True,
              help="Games a search point (and the cheat) plays at each level and player count.")
@click.option("--budget", type=click.Choice(["1", "2", "4", "8", "16"]), default="4", show_default=True,
              help="The strongest search on the scale (lookahead@N).")
@click.option("--levels", help="The printed levels to play, comma-separated.  [default: every one]")
@click.option("--seed", type=click.IntRange(min=0, max=MAX_SEED), default=0, show_default=True)
@click.option("--threads", type=click.IntRange(min=1, max=256), help="Threads (default: all cores).")
@click.option("--out", "report_dir", default="reports", show_default=True, type=click.Path(file_okay=False),
              help="Where scale.md and scale.json go.")
def scale_cmd(game_kind, games, search_games, budget, levels, seed, threads, report_dir):
    """Every point of the lab's strength scale (the skilled player from 0 to 1, the expert at 1,
    the search at doubling budgets above it) on a game's printed levels for each player count:
    the win rates a table compares its own with to see where it stands."""
    from experiments.scale import scale_rates, write_report
    from policies.game import counted
    from policies.game import game as game_named

    game = game_named(game_kind)
    chosen = [name.strip() for name in levels.split(",") if name.strip()] if levels is not None else list(game.levels)
    unknown = [name for name in chosen if name not in game.levels]
    if unknown or not chosen:
        fail(f"--levels: {', '.join(unknown) or 'none given'} is not a level of {game.title} "
             f"(choose from {', '.join(game.levels)})")
    _check_folder(Path(report_dir), "--out")
    click.echo(f"{game.title}, levels {', '.join(chosen)}, {counted(len(game.players), 'player count')}:", err=True)
    rows = scale_rates(game, levels=chosen, games=games, search_games=search_games, seed=seed, threads=threads,
                       top=int(budget), echo=lambda line: click.echo(line, err=True))
    json_path, md_path = write_report(game, rows, seed, report_dir)
    click.echo(f"report written to {md_path} and {json_path}")


@cli.command("play")
@click.option("--game", "game_kind", type=click.Choice(GAMES), default=DEFAULT_GAME, show_default=True,
              help="Which game (a game with a play page).")
@click.option("--level", type=click.Choice(["easy", "normal", "hard"]),
              help="Rules of this level from the difficulty report, the levels to print (pre-selected on the "
                   "start page).")
@rule_options
@click.option("--seed", type=click.IntRange(min=0, max=MAX_SEED),
              help="The island and flood order: kernel game 0 of this seed (it spoils the surprise).")
@click.option("--records", "records_dir", type=click.Path(file_okay=False), default="playtests", show_default=True,
              help="Where finished games are saved as records.")
@click.option("--port", type=click.IntRange(min=1, max=65535), default=8765, show_default=True)
@click.option("--no-browser", is_flag=True, help="Print the address instead of opening a browser.")
def play_cmd(game_kind, level, seed, records_dir, port, no_browser, **setting):
    """Play a game in the browser, one to four people around one screen.

    Serves a page on 127.0.0.1: the island, every legal action to click, the floods one by one,
    escape choices; at the end the record is saved to --records and the bots' results on the
    same island and flood order are shown. Needs the `play` extra (pip install -e '.[play]').
    """
    import socket
    import webbrowser
    from pathlib import Path

    from policies.game import Unsupported
    from policies.game import game as game_named

    game = game_named(game_kind)
    try:
        table = game.table()
    except Unsupported as exc:
        fail(str(exc))
    try:
        import uvicorn

        from experiments.play.server import create_app
    except ImportError as exc:
        fail(f"play needs the 'play' extra ({exc.name} is missing): pip install -e '.[play]'")
    given = setting
    chose_rules = any(value not in (None, ()) for key, value in given.items() if key != "players")
    if level and chose_rules:
        fail("give --level or rule options, not both")
    rules = _game_rules(game, given)
    # the report's levels (the preferred report first) where it has them
    candidates = [Path("reports") / name for name in table.LEVEL_REPORTS]
    candidates += [Path(__file__).resolve().parent.parent / c for c in candidates]
    levels_file = next((c for c in candidates if c.exists()), candidates[0])
    if level and not levels_file.exists():
        fail(f"--level needs the difficulty report {levels_file} (make report)")
    records = Path(records_dir)
    if records.exists() and not records.is_dir():
        fail(f"--records {records_dir} is a file, not a folder")
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            fail(f"port {port} on 127.0.0.1 is in use; choose another with --port")
    defaults = {"players": rules.players, "level": level, "seed": seed,
                "rules": None if level else rules.as_record()}
    if level is None and not chose_rules:
        defaults["level"] = "normal"
    app = create_app(records, defaults, levels_file, game=game)
    url = f"http://127.0.0.1:{port}/"
    click.echo(f"{game.title} playtest at {url} (Ctrl-C to stop); records go to {records}/")
    if not no_browser:
        webbrowser.open(url)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


@cli.command("explore")
@click.option("--game", "game_kind", type=click.Choice(GAMES), default=DEFAULT_GAME, show_default=True,
              help="The game the page opens on (it switches between them).")
@click.option("--players", help="Player counts the page starts with, comma-separated.  [default: 2,3,4]")
@click.option("--seed", type=click.IntRange(min=0, max=2**53), default=0, show_default=True,
              help="The games every setting plays: game g of this seed, as simulate --seed.")
@click.option("--games", type=click.IntRange(min=2000, max=100_000), default=10_000, show_default=True,
              help="Games a setting is refined to (a first answer comes from 2,000).")
@click.option("--port", type=click.IntRange(min=1, max=65535), default=8766, show_default=True)
@click.option("--no-browser", is_flag=True, help="Print the address instead of opening a browser.")
def explore_cmd(game_kind, players, seed, games, port, no_browser):
    """Explore the rules in the browser: change one, see what it does.

    Serves a page on 127.0.0.1 where the gauge, the cards a treasure, the swim cost, the actions,
    the variants, the player counts, the judge and a skill are set by clicking (Forbidden
    Island: its level). Every change plays the same games as `simulate` and shows, within a
    second and then refined: the win rate with its 95% interval per player count and the band
    it falls in, the win rate across skill, how and when games are lost, near misses, all beside
    the rulebook or a pinned setting on the same games; in a competitive game (Survive the
    Island) each seat's share of the win, the seat furthest from a fair share and how games
    end. `GET /api/estimate` answers `simulate --json`'s object for simulate's options
    (README). Needs the `play` extra.
    """
    import socket
    import webbrowser

    try:
        import uvicorn

        from experiments.explore.server import create_app
    except ImportError as exc:
        fail(f"explore needs the 'play' extra ({exc.name} is missing): pip install -e '.[play]'")
    from policies.game import game as game_named

    game = game_named(game_kind)
    counts = _player_counts(game, players) if players else None
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            fail(f"port {port} on 127.0.0.1 is in use; choose another with --port")
    from experiments.explore.estimate import Kernels

    # The first answer needs the judge and the skilled player: compiled (or loaded) now, with the
    # notice, rather than on the page's first click. Other players compile apart on first use.
    kernels = Kernels(compile_apart=True)
    for policy in (game.default_policy, game.skill_policy):
        if policy:
            compile_notice(policy, lambda policy=policy: kernels.load(game, policy))
    defaults = {"game": game.name, "seed": seed, "games": games, **({"players": counts} if counts else {})}
    app = create_app(defaults, kernels=kernels)
    url = f"http://127.0.0.1:{port}/"
    click.echo(f"Balance explorer at {url} (Ctrl-C to stop)")
    if not no_browser:
        webbrowser.open(url)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


@cli.group("playtest")
def playtest_group():
    """Games played by people: logs of real tables and records of `island-escape play`."""


@playtest_group.command("summarize")
@click.argument("logs", nargs=-1, required=True, type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="One JSON object per table (and one for all tables).")
@lab_options
@search_options
def playtest_summarize_cmd(logs, as_json, lab_games, lab_seed, lab_budget, lab_search_games, bands, players, seed,
                           screen_games, confirm_games, max_changes, threads, knobs):
    """Win rates, the table's skill and its Easy/Normal/Hard rules from logs of real games.

    LOG is a CSV file, one row a game, or a folder of records saved by `play`. Island Escape
    rows: players, cards_per_treasure, gauge, swim_cost, actions_per_turn (an empty rule cell is
    the rulebook's; gauge is card codes top first). Forbidden Island rows: game =
    forbidden-island, players, difficulty (novice, normal, elite, legendary). Every row: outcome
    (win, one of its game's loss causes, or loss when the cause is unknown), and optionally
    turns, treasures_raised, date, table. A bad row is reported on one line and the good rows
    are still used (exit status 2).

    Each table's win rates and skill are shown apart; the levels are searched once, for all the
    logs' games together, exactly as `calibrate --table` does with the same options (--seed is the
    search's games, as calibrate's; the lab curve's are --lab-seed's).
    """
    from experiments.playtest import LabWinRate, format_text, json_objects, summarize

    games, problems = _read_table_logs(logs, "playtest")
    if not games:
        sys.exit(EXIT_BAD_INPUT)  # each bad file or row has had its line
    search = _table_search(bands, seed, screen_games, confirm_games, max_changes, threads, knobs)
    counts = _table_players(games, players)
    lab = None
    if LabWinRate.available():
        _warm_skill_players(games)
        lab = LabOptions(lab_games, lab_seed, lab_budget, lab_search_games).win_rate(threads)
    summaries = summarize(games, lab, floor=lab.floor if lab else 1e-3, search=search, players=counts,
                          echo=lambda line: click.echo(line, err=True))
    if as_json:
        for obj in json_objects(summaries):
            click.echo(json.dumps(obj, ensure_ascii=False))
    else:
        click.echo(format_text(summaries))
    if problems:
        sys.exit(EXIT_BAD_INPUT)


if __name__ == "__main__":
    main()
