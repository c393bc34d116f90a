"""The play page's web server (Starlette): a JSON API over a game's table (`Game.table()`: its
`Session`, its setting and level checks, its board as SVG), and the page.

Endpoints (all answers are JSON except the page, the static files and the board):

- `GET  /api/setup`                          the start page's defaults and the report's levels
- `POST /api/games` `{players, level | rules, seed}`  a new game; answers its public state and
  its `token`, which every request about the game then carries in the X-Game-Token header
- `GET  /api/games/{id}`                     the public state
- `GET  /api/games/{id}/board.svg`           the board, drawn by the table's `board_svg`
- `POST /api/games/{id}/action` `{pawn, action}`   one action (a RECORD-FORMAT entry) or `end`
- `POST /api/games/{id}/flood`               the next flood
- `POST /api/games/{id}/escape` `{pawn, place}`    where a pawn on a sinking place swims (R15)
- `POST /api/games/{id}/record`              save the finished game's record again (after a failure)

A refused request gets `{"error": message}` with status 400 (malformed), 403 (not this browser's
game), 404 (no such game), 409 (not legal now), 413 (too large) or 415 (not JSON) and leaves the
game as it was; experiments/pages.py holds these checks. The seed is not in any answer until the
game is over: it decides every face-down card and every flood to come.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import re
import secrets
import threading
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from experiments import MAX_SEED
from experiments.pages import (
    LOOPBACK_HOSTS,
    TOKEN_HEADER,
    GameStore,
    PageError,
    hardened_app,
    json_object,
    whole_number,
)
from policies.game import Game, counted
from policies.game import game as game_named

STATIC = Path(__file__).parent / "static"
SEED_SPACE = MAX_SEED + 1  # a drawn seed is any the kernel takes: too many to search through
LIVE_GAMES = 200  # a table plays one game at a time: room for many tabs, memory bounded (~20 KB a game)
IDLE_SECONDS = 3 * 3600  # a game left over lunch is still there


def draw_seed() -> int:
    return secrets.randbelow(SEED_SPACE)


class BotQueue:
    """The bots' games, played one at a time in one worker process (compiling a policy's kernel
    holds the GIL for seconds, too long for a thread of the server). Only the job being played
    is in the pool; the others wait here, so a game dropped from the store takes its waiting
    jobs with it and nothing keeps it in memory."""

    def __init__(self, policies: tuple[str, ...], bot_result):
        self.policies, self.bot_result = policies, bot_result
        self.waiting: deque[tuple[object, str]] = deque()
        self.running: Future | None = None
        self.executor: ProcessPoolExecutor | None = None
        self.workers: list[multiprocessing.Process] = []
        self.stopped = False
        self.lock = threading.Lock()

    def add(self, session) -> None:
        with self.lock:
            for policy in self.policies:
                session.bots[policy] = None
                self.waiting.append((session, policy))
        self._next()

    def drop(self, session) -> None:
        with self.lock:
            self.waiting = deque(job for job in self.waiting if job[0] is not session)

    def _next(self) -> None:
        with self.lock:
            if self.running is not None or not self.waiting or self.stopped:
                return
            session, policy = self.waiting.popleft()
            if self.executor is None:
                before = set(multiprocessing.active_children())
                self.executor = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
            self.running = future = self.executor.submit(self.bot_result, session.rules.as_record(), session.seed,
                                                         policy)
            if not self.workers:  # the pool starts its worker with its first job
                self.workers = list(set(multiprocessing.active_children()) - before)
        future.add_done_callback(lambda f: self._done(f, session, policy))

    def _done(self, future: Future, session, policy: str) -> None:
        if not future.cancelled():
            try:
                session.bots[policy] = future.result()
            except Exception as exc:  # a bot that cannot play must not stop the people's game
                session.bots[policy] = {"error": str(exc) or type(exc).__name__}
        with self.lock:
            self.running = None
        self._next()

    def stop(self) -> None:
        """The pool and its worker end with the server, whatever the worker is doing (compiling a
        kernel takes it tens of seconds, and it would outlive a server stopped by SIGTERM)."""
        with self.lock:
            self.stopped = True
            self.waiting.clear()
        if self.executor:
            self.executor.shutdown(wait=False, cancel_futures=True)
        for worker in self.workers:
            worker.terminate()
        for worker in self.workers:
            worker.join(5)
            if worker.is_alive():
                worker.kill()
                worker.join(5)


def load_levels(path: Path) -> dict[int, dict[str, dict]]:
    """players -> level -> {rules, change, win_rate} from the difficulty report (if present): the
    levels to print (difficulty-anchored.json, whose expert is its skill-1 player) or the expert's
    (difficulty.json)."""
    out: dict[int, dict[str, dict]] = {}
    try:
        items = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return out
    for item in items if isinstance(items, list) else []:
        try:
            change = item.get("change") or "; ".join(
                t for t in (item.get("level_rule"), item.get("gauge_change")) if t and t != "no other change")
            rate = item.get("win_rate", (item.get("win_rates") or {}).get("skilled@1"))
            out.setdefault(int(item["players"]), {})[item["level"]] = {
                "rules": item["rules"], "change": change, "win_rate": rate}
        except (KeyError, TypeError, ValueError, AttributeError):
            continue
    return out


def create_app(records_dir: Path, defaults: dict | None = None, levels_file: Path | None = None,
               bots: tuple[str, ...] | None = None, hosts=LOOPBACK_HOSTS, live_games: int = LIVE_GAMES,
               idle_seconds: float = IDLE_SECONDS, game: Game | None = None):
    """The app of `game`'s table (default: the default game; Unsupported for a game with none).
    `defaults` pre-fills the start page (players, level, rules, seed); `bots` the policies that
    play the same game (None: the table's BOT_POLICIES); `hosts` the names it answers to; at most
    `live_games` games are kept, none idle over `idle_seconds`."""
    game = game or game_named()
    table = game.table()
    levels = load_levels(levels_file) if levels_file else {}
    defaults = dict(defaults or {})
    if defaults.get("seed") is not None:
        defaults["seed"] = str(defaults["seed"])  # as digits, exact beyond 2**53
    bots = table.BOT_POLICIES if bots is None else tuple(bots)
    bot_queue = BotQueue(bots, table.bot_result)
    store: GameStore = GameStore(live_games, idle_seconds, on_drop=bot_queue.drop)

    def session_of(request: Request):
        return store.get(request.path_params["gid"], request.headers.get(TOKEN_HEADER))

    @contextlib.contextmanager
    def refereed():
        """The table's refusals answered as the page's, with their status."""
        try:
            yield
        except table.PlayError as exc:
            raise PageError(str(exc), exc.status) from None

    async def page(request: Request):
        return FileResponse(STATIC / "index.html")

    async def setup(request: Request):
        return JSONResponse({"defaults": defaults, "levels": {str(k): v for k, v in levels.items()}})

    async def new_game(request: Request):
        data = await json_object(request)
        players = whole_number(data.get("players", 2), "players", game.players[0], game.players[-1])
        level = data.get("level")
        if level is not None:
            if level not in table.LEVELS:
                raise PageError(f"'level' must be one of {', '.join(table.LEVELS)}", 400)
            if level not in levels.get(players, {}):
                raise PageError(f"the difficulty report has no {level} rules for {counted(players, 'player')}", 400)
            rule_keys = dict(levels[players][level]["rules"])
        else:
            rule_keys = data.get("rules", {})
            if not isinstance(rule_keys, dict):
                raise PageError("'rules' must be an object of RECORD-FORMAT rule keys", 400)
        with refereed():
            rules = table.rules_of_request({**rule_keys, "players": players})
        chosen = data.get("seed")
        if isinstance(chosen, str) and re.fullmatch("[0-9]{1,19}", chosen):
            chosen = int(chosen)  # the page sends digits: a number of 63 bits is beyond a JavaScript number
        seed = draw_seed() if chosen is None else whole_number(chosen, "seed", 0, MAX_SEED)

        def make(gid: str):
            return table.Session(gid, rules, seed, Path(records_dir), level=level, seed_chosen=chosen is not None)

        session, token = store.add(make)
        bot_queue.add(session)
        return JSONResponse({**session.public_state(), "token": token})

    async def state(request: Request):
        session = session_of(request)
        with session.lock:
            return JSONResponse(session.public_state())

    async def board(request: Request):  # drawn as SVG text directly: about a millisecond
        session = session_of(request)
        with session.lock:
            svg = table.board_svg(session)
        return Response(svg, media_type="image/svg+xml")

    def change(method):
        async def handler(request: Request):
            session = session_of(request)
            data = await json_object(request)
            with session.lock, refereed():
                method(session, data)
                return JSONResponse(session.public_state())
        return handler

    routes = [
        Route("/", page),
        Route("/api/setup", setup),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{gid}", state),
        Route("/api/games/{gid}/board.svg", board),
        Route("/api/games/{gid}/action", change(lambda s, d: s.act(d.get("pawn"), d.get("action"))), methods=["POST"]),
        Route("/api/games/{gid}/flood", change(lambda s, d: s.flood()), methods=["POST"]),
        Route("/api/games/{gid}/escape", change(lambda s, d: s.escape(d.get("pawn"), d.get("place"))),
              methods=["POST"]),
        Route("/api/games/{gid}/record", change(lambda s, d: s.save_record()), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        bot_queue.stop()

    app = hardened_app(routes, hosts, lifespan=lifespan)
    app.state.store = store
    app.state.sessions = store.games
    app.state.bot_queue = bot_queue
    return app
