"""The balance explorer's web server (Starlette, behind experiments/pages.py's hardening).

Endpoints (JSON unless said otherwise):

- `GET  /`                                  the page (static/index.html)
- `GET  /api/setup`                         every game's controls, players, judges, bands and limits
- `GET  /api/estimate?players=3&gauge=…`    `simulate --json`'s object for `simulate`'s options
  (`game`, `players`, every game's rule options by name but a file's, `variant` once a variant,
  `policy`, `skill`, `games`, `seed`): the same games, the same numbers
- `POST /api/pages`                         an open page: its `id` and `token` (sent back in the
  X-Game-Token header)
- `POST /api/pages/{id}/explore`            an update `{request, game, players, setting,
  reference, curve_players, seed, games}`: supersedes the page's previous one and answers
  the first estimate (a couple of thousand games a run) once it is ready
- `GET  /api/pages/{id}/explore`            the latest update's answer now, as it refines
- `GET  /api/pages/{id}/figures/{name}.svg?job=N`   a figure of update N's answer (SVG)

A refused request gets `{"error": message}` naming the parameter or key, with status 400
(malformed), 403 (another browser's page), 404 (no such page or figure), 413 or 415;
never a traceback. The updates of all pages are played one at a time by one worker thread
(the kernel itself uses every core), each stopping between batches once a newer update of its
page has come.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
from collections import deque
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from experiments.explore import estimate as E
from experiments.explore.figures import FIGURES, figure_svg
from experiments.pages import LOOPBACK_HOSTS, TOKEN_HEADER, GameStore, PageError, clip, hardened_app, json_object
from policies.game import every_game, with_win_rates

STATIC = Path(__file__).parent / "static"
LIVE_PAGES = 50  # a designer has a tab or two open: room to spare, memory bounded
IDLE_SECONDS = 8 * 3600
FIRST_WAIT = 300.0  # seconds an update waits for its first answer (a kernel compiled on first use takes a minute)


class Page:
    """An open page's updates: a generation counter, bumped by every update, and the last few jobs."""

    def __init__(self, sid: str):
        self.id = sid
        self.generation = 0
        self.jobs: deque[E.Job] = deque(maxlen=4)
        self.closed = False
        self.lock = threading.Lock()
        self.answers: dict[tuple[int, int], dict] = {}  # (job, games played) -> answer, the latest only

    def start(self, plan: E.Plan, request: int, stopping: threading.Event) -> E.Job:
        with self.lock:
            self.generation += 1
            generation = self.generation
            job = E.Job(generation, request, plan,
                        lambda: self.generation != generation or self.closed or stopping.is_set())
            self.jobs.append(job)
            return job

    @property
    def current(self) -> E.Job | None:
        return self.jobs[-1] if self.jobs else None

    def answer(self, job: E.Job) -> dict:
        """The job's answer now, computed once per state of its games."""
        key = (job.number, job.plan.progress()["games"], job.state)
        with self.lock:
            if key not in self.answers:
                self.answers = {key: E.answer(job)}
            return self.answers[key]


class Worker:
    """One thread playing the updates in the order they came; a superseded one stops at once."""

    def __init__(self):
        self.jobs: queue.Queue[E.Job | None] = queue.Queue()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._loop, name="explore-worker", daemon=True)
        self.thread.start()

    def submit(self, job: E.Job) -> None:
        self.jobs.put(job)

    def _loop(self) -> None:
        while True:
            job = self.jobs.get()
            if job is None:
                return
            try:
                job.run()
            except Exception:  # the job's answer says it failed; the server's log keeps why
                logging.getLogger(__name__).exception("an update of the explorer failed")

    def stop(self) -> None:
        self.stopping.set()
        self.jobs.put(None)
        self.thread.join(10)


def setup_json(defaults: dict) -> dict:
    """What the page builds its controls from: every game's rule controls, player counts and
    players (fair first), and the bands and limits."""
    games = []
    for g in every_game():
        unfair, searches = g.unfair_policies(), g.search_policies()
        judges = [{"name": name, "description": text, "fair": name not in unfair, "search": name in searches,
                   "skill": name == g.skill_policy}
                  for name, text in g.registry.describe() if name != "idle"]
        judges.sort(key=lambda j: (not j["fair"], j["name"] != g.default_policy))
        games.append({"name": g.name, "title": g.title, "players": list(g.players), "controls": g.rule_controls(),
                      "default_policy": g.default_policy, "policies": judges, "skill_policy": g.skill_policy,
                      "levels": list(g.levels or ()), "rulebook": g.setting_line(g.rules_from_options()),
                      "measure": "win rate" if g in with_win_rates() else "seat shares"})
    return {"games": games, "bands": E.bands(), "defaults": defaults,
            "limits": {"first_games": E.FIRST_GAMES, "target_games": E.TARGET_GAMES, "max_target": E.MAX_TARGET,
                       "max_games": E.MAX_GAMES, "max_search_games": E.MAX_SEARCH_GAMES,
                       "search_share": E.SEARCH_SHARE, "skills": list(E.SKILLS)}}


def warm() -> None:
    """What the first answer would otherwise wait for: the statistics (scipy.stats, about a
    second to import) and matplotlib's first figure."""
    from experiments.explore.figures import figure_svg  # noqa: F401
    from experiments.report import verdict  # noqa: F401
    from experiments.sweep import paired_difference

    paired_difference([1, 0, 1], [0, 0, 1])


def create_app(defaults: dict | None = None, hosts=LOOPBACK_HOSTS, store: E.RunStore | None = None,
               live_pages: int = LIVE_PAGES, idle_seconds: float = IDLE_SECONDS,
               kernels: E.Kernels | None = None):
    """The app. `defaults` pre-fills the page (game, players, seed, games); `store` keeps the
    runs (a new one by default, its players' kernels loaded by `kernels`: E.Kernels); `hosts`
    the names it answers to."""
    store = store or E.RunStore(kernels=kernels)
    worker = Worker()
    threading.Thread(target=warm, name="explore-warm", daemon=True).start()

    def drop(page: Page) -> None:
        page.closed = True  # its job stops at its next batch

    pages: GameStore[Page] = GameStore(live_pages, idle_seconds, on_drop=drop)
    setup = setup_json(dict(defaults or {}))

    def page_of(request: Request) -> Page:
        return pages.get(request.path_params["pid"], request.headers.get(TOKEN_HEADER))

    async def page(request: Request):
        return FileResponse(STATIC / "index.html")

    async def setup_endpoint(request: Request):
        return JSONResponse(setup)

    async def estimate_endpoint(request: Request):
        query = E.parse_query(list(request.query_params.multi_items()))
        return JSONResponse(await run_in_threadpool(E.estimate, store, query))

    async def new_page(request: Request):
        await json_object(request)
        page, token = pages.add(Page)
        return JSONResponse({"id": page.id, "token": token})

    async def explore(request: Request):
        page = page_of(request)
        data = await json_object(request)
        number = E.whole("request", data.pop("request", 0), 0, 2**53)
        spec = E.parse_spec(data)
        job = page.start(E.plan(store, spec), number, worker.stopping)
        worker.submit(job)
        await run_in_threadpool(job.first.wait, FIRST_WAIT)
        return JSONResponse(await run_in_threadpool(page.answer, job))

    async def latest(request: Request):
        page = page_of(request)
        job = page.current
        if job is None:
            raise PageError("this page has asked for no update yet", 404)
        return JSONResponse(await run_in_threadpool(page.answer, job))

    async def figure(request: Request):
        page = page_of(request)
        name = request.path_params["name"]
        if name not in FIGURES:
            raise PageError(f"no figure {clip(name)} (the figures: {', '.join(FIGURES)})", 404)
        number = E.whole("job", request.query_params.get("job", ""), 0, 2**53)
        job = next((j for j in page.jobs if j.number == number), None)
        if job is None:
            raise PageError(f"job: this page has no update {number} (a newer one replaced it)", 404)
        if not job.first.is_set() or not job.plan.progress()["games"]:
            raise PageError("job: its first answer is not ready yet", 409)
        answer = await run_in_threadpool(page.answer, job)
        if name not in answer["figures"]:
            figures = ", ".join(answer["figures"])
            raise PageError(f"no figure {name} for {answer['title']} (its figures: {figures})", 404)
        svg = await run_in_threadpool(figure_svg, name, answer)
        return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})

    routes = [
        Route("/", page),
        Route("/api/setup", setup_endpoint),
        Route("/api/estimate", estimate_endpoint),
        Route("/api/pages", new_page, methods=["POST"]),
        Route("/api/pages/{pid}/explore", explore, methods=["POST"]),
        Route("/api/pages/{pid}/explore", latest, methods=["GET"]),
        Route("/api/pages/{pid}/figures/{name}.svg", figure),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        worker.stop()

    app = hardened_app(routes, hosts, lifespan=lifespan)
    app.state.store, app.state.pages, app.state.worker = store, pages, worker
    return app
