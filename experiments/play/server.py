"""The play page's web server (Starlette): a JSON API over `Session`, the board as SVG, the page.

Endpoints (all answers are JSON except the page, the static files and the board):

- `GET  /api/setup`                          the start page's defaults and the report's levels
- `POST /api/games` `{players, level | rules, seed}`  a new game; answers its public state
- `GET  /api/games/{id}`                     the public state
- `GET  /api/games/{id}/board.svg`           the island, drawn by experiments/boards.py
- `POST /api/games/{id}/action` `{pawn, action}`   one action (a RECORD-FORMAT entry) or `end`
- `POST /api/games/{id}/flood`               the next flood
- `POST /api/games/{id}/escape` `{pawn, place}`    where a pawn on a sinking place swims (R15)

A refused request gets `{"error": message}` with status 400 (malformed), 404 (no such game) or
409 (not legal now) and leaves the game as it was.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import secrets
import threading
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from experiments.play.session import BOT_POLICIES, PlayError, Session, bot_result
from sim.rules import RuleError, Rules

STATIC = Path(__file__).parent / "static"
LEVELS = ("easy", "normal", "hard")
_draw_lock = threading.Lock()  # pyplot is not thread-safe


def load_levels(path: Path) -> dict[int, dict[str, dict]]:
    """players -> level -> {rules, change, win_rate} from reports/difficulty.json (if present)."""
    out: dict[int, dict[str, dict]] = {}
    try:
        items = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return out
    for item in items if isinstance(items, list) else []:
        try:
            out.setdefault(int(item["players"]), {})[item["level"]] = {
                "rules": item["rules"], "change": item.get("change", ""), "win_rate": item.get("win_rate")}
        except (KeyError, TypeError, ValueError):
            continue
    return out


def create_app(records_dir: Path, defaults: dict | None = None, levels_file: Path | None = None,
               bots: tuple[str, ...] | None = None) -> Starlette:
    """The app. `defaults` pre-fills the start page (players, level, rules, seed); `bots` the
    policies that play the same game (None: expert, greedy, novice, lookahead)."""
    sessions: dict[str, Session] = {}
    levels = load_levels(levels_file) if levels_file else {}
    defaults = dict(defaults or {})
    bots = BOT_POLICIES if bots is None else tuple(bots)
    pool: list[ProcessPoolExecutor] = []  # one worker process for the bots, started with the first game

    def start_bots(session: Session) -> None:
        if not bots:
            return
        if not pool:
            pool.append(ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")))

        def done(future: Future, policy: str) -> None:
            try:
                session.bots[policy] = future.result()
            except Exception as exc:  # a bot that cannot play must not stop the people's game
                session.bots[policy] = {"error": str(exc) or type(exc).__name__}

        for policy in bots:
            session.bots[policy] = None
            future = pool[0].submit(bot_result, session.rules.as_record(), session.seed, policy)
            future.add_done_callback(lambda f, policy=policy: done(f, policy))

    def error(message: str, status: int) -> JSONResponse:
        return JSONResponse({"error": message}, status_code=status)

    async def body(request: Request) -> dict:
        raw = await request.body()
        try:
            data = json.loads(raw or b"{}")
        except (ValueError, UnicodeDecodeError):
            raise PlayError("the request body is not valid JSON", 400) from None
        if not isinstance(data, dict):
            raise PlayError("the request body must be a JSON object", 400)
        return data

    def session_of(request: Request) -> Session:
        sid = request.path_params["gid"]
        if sid not in sessions:
            raise PlayError(f"there is no game {sid!r} (the server may have been restarted)", 404)
        return sessions[sid]

    def guarded(handler):
        async def endpoint(request: Request):
            try:
                return await handler(request)
            except PlayError as exc:
                return error(str(exc), exc.status)
        return endpoint

    async def page(request: Request):
        return FileResponse(STATIC / "index.html")

    async def setup(request: Request):
        return JSONResponse({"defaults": defaults, "levels": {str(k): v for k, v in levels.items()}})

    async def new_game(request: Request):
        data = await body(request)
        players = data.get("players", 2)
        if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 4:
            raise PlayError("'players' must be a whole number from 1 to 4", 400)
        level = data.get("level")
        if level is not None:
            if level not in LEVELS:
                raise PlayError(f"'level' must be one of {', '.join(LEVELS)}", 400)
            if level not in levels.get(players, {}):
                raise PlayError(f"the difficulty report has no {level} rules for {players} player(s)", 400)
            rule_keys = dict(levels[players][level]["rules"])
        else:
            rule_keys = data.get("rules", {})
            if not isinstance(rule_keys, dict):
                raise PlayError("'rules' must be an object of RECORD-FORMAT rule keys", 400)
        rule_keys = {**rule_keys, "players": players}
        unknown = sorted(set(rule_keys) - {"players", "cards_per_treasure", "swim_cost", "actions_per_turn", "gauge"})
        if unknown:
            raise PlayError(f"unknown rule {unknown[0]!r}", 400)
        try:
            rules = Rules(**rule_keys)
        except (RuleError, TypeError) as exc:
            raise PlayError(f"bad rules: {exc}", 400) from None
        seed = data.get("seed")
        if seed is None:
            seed = secrets.randbelow(1_000_000)
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise PlayError("'seed' must be a whole number >= 0", 400)
        sid = secrets.token_hex(4)
        session = Session(sid, rules, seed, Path(records_dir), level=level)
        sessions[sid] = session
        start_bots(session)
        return JSONResponse(session.public_state())

    async def state(request: Request):
        session = session_of(request)
        with session.lock:
            return JSONResponse(session.public_state())

    def board(request: Request):  # sync: Starlette runs it in a worker thread (drawing is slow)
        try:
            session = session_of(request)
        except PlayError as exc:
            return error(str(exc), exc.status)
        from experiments.boards import board_svg

        with session.lock:
            game = session.public_game()
        g = session.game
        if g.over:
            title = "The team escapes!" if g.outcome == "win" else f"Lost: {g.outcome}"
        else:
            title = f"Turn {g.turn}: pawn {g.current_pawn}"
        with _draw_lock:
            svg = board_svg(game, title)
        return Response(svg, media_type="image/svg+xml")

    def change(method):
        async def handler(request: Request):
            session = session_of(request)
            data = await body(request)
            with session.lock:
                method(session, data)
                return JSONResponse(session.public_state())
        return handler

    routes = [
        Route("/", page),
        Route("/api/setup", guarded(setup)),
        Route("/api/games", guarded(new_game), methods=["POST"]),
        Route("/api/games/{gid}", guarded(state)),
        Route("/api/games/{gid}/board.svg", board),
        Route("/api/games/{gid}/action", guarded(change(lambda s, d: s.act(d.get("pawn"), d.get("action")))),
              methods=["POST"]),
        Route("/api/games/{gid}/flood", guarded(change(lambda s, d: s.flood())), methods=["POST"]),
        Route("/api/games/{gid}/escape", guarded(change(lambda s, d: s.escape(d.get("pawn"), d.get("place")))),
              methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        for p in pool:
            p.shutdown(wait=False, cancel_futures=True)

    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.sessions = sessions
    return app
