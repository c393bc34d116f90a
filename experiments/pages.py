"""What every web page of the lab needs to hold up against a careless or hostile client.

A page is a Starlette app built by `hardened_app`: it answers only for the hosts it was started
on (a page on 127.0.0.1 must not be reachable through a DNS name that a foreign site points at
127.0.0.1), takes state-changing requests only as application/json (a form or a text/plain POST,
which any web page can send without asking, is refused with 415), refuses bodies larger than
`MAX_BODY` (413) before they are read into memory, and answers every error as JSON - a refusal
(`PageError`) with its status, anything unexpected with a 500 carrying no traceback.

`parse_json` reads a request body (or a file) with a nesting limit; `clip` shortens what a
message echoes back; `GameStore` keeps the games of a page under unguessable ids, each with a
token that only its creator holds, at most `cap` of them, dropping those idle too long and the
least recently used when full.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Generic, TypeVar

from policies.game import ECHO_LIMIT, clip, shorten

# Starlette comes with the `play` extra and is imported where a page is built: the JSON reading
# and the quoting here serve the command line too (experiments/playtest.py).
if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException
    from starlette.requests import Request
    from starlette.responses import JSONResponse

LOOPBACK_HOSTS = ("127.0.0.1", "localhost")
MAX_BODY = 64 * 1024  # the largest honest request is a new game's rules: well under 1 KB
MAX_DEPTH = 16  # the deepest honest request is an escape's [column, row] inside its object
TOKEN_HEADER = "X-Game-Token"
BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})

T = TypeVar("T")


class PageError(ValueError):
    """A request the page refuses; `status` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def whole_number(value: object, name: str, low: int, high: int) -> int:
    """`value` if it is a JSON whole number in [low, high] (not a bool, a float or text)."""
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise PageError(f"{name!r} must be a whole number from {low} to {high}, not {clip(value)}")
    return value


# --- JSON ------------------------------------------------------------------------------------------


def _depth(document: object) -> int:
    """How deeply lists and objects nest in `document` (without recursion)."""
    deepest, todo = 0, [(document, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, level)
            todo += [(v, level + 1) for v in item]
    return deepest


def parse_json(raw: bytes | str, max_depth: int = MAX_DEPTH) -> object:
    """A JSON document; anything that is not UTF-8 JSON nested at most `max_depth` deep raises
    ValueError with one line saying what is wrong (never RecursionError or a codec error)."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ValueError(f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start})") from None
    try:
        document = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    except RecursionError:
        raise ValueError(f"nested more than {max_depth} deep") from None
    except ValueError as exc:  # a number of more digits than int() takes (sys.get_int_max_str_digits)
        raise ValueError(f"not usable JSON: {str(exc).split(';')[0]}") from None
    if _depth(document) > max_depth:
        raise ValueError(f"nested more than {max_depth} deep")
    return document


async def json_object(request: Request) -> dict:
    """The request's body as a JSON object (an empty body is an empty object); 400 otherwise."""
    raw = await request.body()
    try:
        data = parse_json(raw) if raw.strip() else {}
    except ValueError as exc:
        raise PageError(f"the request body is {exc}") from None
    if not isinstance(data, dict):
        raise PageError("the request body must be a JSON object")
    return data


# --- the middleware ----------------------------------------------------------------------------------


async def _answer(send, status: int, message: str) -> None:
    from starlette.responses import JSONResponse

    response = JSONResponse({"error": message}, status_code=status)
    await send({"type": "http.response.start", "status": response.status_code,
                "headers": response.raw_headers})
    await send({"type": "http.response.body", "body": response.body})


class BodyGuard:
    """ASGI middleware: state-changing requests only as application/json, and no body larger
    than `max_body` bytes - both refused before the app sees the request. The body is read here
    (it is small by then) and handed on to the app unchanged."""

    def __init__(self, app, max_body: int = MAX_BODY):
        self.app, self.max_body = app, max_body

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.lower(): v for k, v in scope["headers"]}
        if scope["method"] in BODY_METHODS:
            media_type = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
            if media_type != b"application/json":
                shown = media_type.decode("latin-1") or "none"
                return await _answer(send, 415, f"the request must be application/json, not {clip(shown)}")
        length = headers.get(b"content-length", b"0")
        if not length.isdigit() or len(length) > 15 or int(length) > self.max_body:  # int() of 5,000 digits fails
            return await _answer(send, 413, f"the request body is larger than {self.max_body} bytes")
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.max_body:
                return await _answer(send, 413, f"the request body is larger than {self.max_body} bytes")
            if not message.get("more_body"):
                break
        body, handed = b"".join(chunks), False

        async def replay():
            nonlocal handed
            if handed:
                return await receive()
            handed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


async def _page_error(request: Request, exc: PageError) -> JSONResponse:
    from starlette.responses import JSONResponse

    return JSONResponse({"error": str(exc)}, status_code=exc.status)


async def _http_error(request: Request, exc: HTTPException) -> JSONResponse:
    from starlette.responses import JSONResponse

    return JSONResponse({"error": exc.detail}, status_code=exc.status_code, headers=exc.headers)


async def _server_error(request: Request, exc: Exception) -> JSONResponse:
    from starlette.responses import JSONResponse

    # The server's log keeps the traceback (Starlette re-raises after answering); the client
    # learns only that the request failed.
    return JSONResponse({"error": f"the server failed on this request ({type(exc).__name__})"}, status_code=500)


def hardened_app(routes: list, hosts: Iterable[str] = LOOPBACK_HOSTS, max_body: int = MAX_BODY,
                 lifespan=None) -> Starlette:
    """A Starlette app of `routes` behind the host check, the JSON-only rule, the body limit and
    JSON error answers; endpoints raise `PageError` to refuse a request."""
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException
    from starlette.middleware import Middleware
    from starlette.middleware.trustedhost import TrustedHostMiddleware

    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=list(hosts)),
                  Middleware(BodyGuard, max_body=max_body)]
    handlers = {PageError: _page_error, HTTPException: _http_error, Exception: _server_error}
    return Starlette(routes=routes, middleware=middleware, exception_handlers=handlers, lifespan=lifespan)


# --- the games ------------------------------------------------------------------------------------


class GameStore(Generic[T]):
    """The live games of a page: ids of 128 random bits, a token per game (its creator's proof),
    at most `cap` games, a game idle for `idle_seconds` dropped, and when full the least recently
    used dropped to make room. `on_drop(game)` is told of every game dropped (to cancel its work)."""

    def __init__(self, cap: int = 200, idle_seconds: float = 3600.0, on_drop: Callable[[T], None] | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.cap, self.idle_seconds, self.on_drop, self.clock = cap, idle_seconds, on_drop, clock
        self.games: OrderedDict[str, T] = OrderedDict()  # least recently used first
        self._tokens: dict[str, str] = {}
        self._used: dict[str, float] = {}
        self._lock = threading.Lock()

    @staticmethod
    def new_id() -> str:
        return secrets.token_hex(16)

    def add(self, make: Callable[[str], T]) -> tuple[T, str]:
        """A new game `make(id)` and its token; an id already in use is refused, never reused."""
        gid = self.new_id()
        with self._lock:
            self._expire()
            if gid in self.games:
                raise PageError("a new game id collided with a live game; ask again", 503)
            game = make(gid)
            while len(self.games) >= self.cap:
                self._drop(next(iter(self.games)))
            token = secrets.token_hex(16)
            self.games[gid], self._tokens[gid], self._used[gid] = game, token, self.clock()
        return game, token

    def get(self, gid: str, token: str | None) -> T:
        """The game `gid` for the holder of its token: 404 if there is none (or it expired),
        403 if the token is missing or wrong."""
        with self._lock:
            self._expire()
            if gid not in self.games:
                raise PageError(f"there is no game {clip(gid)} (it may have expired, or the server restarted)", 404)
            if not token or not secrets.compare_digest(token.encode("utf-8", "replace"),
                                                       self._tokens[gid].encode()):
                raise PageError(f"this game belongs to another browser (no or a wrong {TOKEN_HEADER})", 403)
            self.games.move_to_end(gid)
            self._used[gid] = self.clock()
            return self.games[gid]

    def _expire(self) -> None:
        cutoff = self.clock() - self.idle_seconds
        while self.games:
            oldest = next(iter(self.games))
            if self._used[oldest] > cutoff:
                break
            self._drop(oldest)

    def _drop(self, gid: str) -> None:
        game = self.games.pop(gid)
        del self._tokens[gid], self._used[gid]
        if self.on_drop:
            self.on_drop(game)

    def __len__(self) -> int:
        return len(self.games)


__all__ = ["BODY_METHODS", "ECHO_LIMIT", "LOOPBACK_HOSTS", "MAX_BODY", "MAX_DEPTH", "TOKEN_HEADER", "BodyGuard",
           "GameStore", "PageError", "clip", "hardened_app", "json_object", "parse_json", "shorten",
           "whole_number"]
