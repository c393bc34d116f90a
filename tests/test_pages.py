"""The play page against a careless or hostile client (experiments/pages.py and its use by
experiments/play): no seed while a game is on, unguessable ids and per-game tokens, a capped
store that expires idle games, the host check, JSON-only requests, bounded bodies, JSON errors,
records that survive a failed write, and a server that leaves no process behind on SIGTERM."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the play extra is installed by make test")
from starlette.testclient import TestClient  # noqa: E402

from experiments.cli import MAX_SEED  # noqa: E402
from experiments.pages import MAX_BODY, GameStore  # noqa: E402
from experiments.play import server as play_server  # noqa: E402
from policies.island_escape.table import Session, kernel_island  # noqa: E402
from sim.island_escape.rules import Rules  # noqa: E402
from tests.play_support import SHORT_RULES, free_port  # noqa: E402

RULES_BODY = {"players": 1, "rules": {k: v for k, v in SHORT_RULES.as_record().items() if k != "players"}}


def make_client(tmp_path, records=None, **options):
    app = play_server.create_app(records or tmp_path / "records", bots=(), **options)
    return app, TestClient(app, base_url="http://127.0.0.1", raise_server_exceptions=False)


def create(client, **extra) -> tuple[str, dict]:
    """A new game: its id and the headers that carry its token."""
    res = client.post("/api/games", json={**RULES_BODY, **extra})
    assert res.status_code == 200, res.text
    state = res.json()
    return state["id"], {"X-Game-Token": state["token"]}


def play_to_the_end(client, gid: str, headers: dict, answers: list | None = None) -> dict:
    """End every turn and draw every flood until the game is over; every answer kept in `answers`."""
    state = client.get(f"/api/games/{gid}", headers=headers).json()
    for _ in range(200):
        if state["phase"] == "over":
            return state
        if state["phase"] == "actions":
            res = client.post(f"/api/games/{gid}/action", json={"pawn": state["pawn"], "action": "end"},
                              headers=headers)
        elif state["phase"] == "flood":
            res = client.post(f"/api/games/{gid}/flood", json={}, headers=headers)
        else:
            option = state["escape"]["options"][0]["place"]
            res = client.post(f"/api/games/{gid}/escape", json={"pawn": state["escape"]["pawn"], "place": option},
                              headers=headers)
        assert res.status_code == 200, res.text
        state = res.json()
        if answers is not None:
            answers.append(res.text)
            answers.append(client.get(f"/api/games/{gid}/board.svg", headers=headers).text)
    raise AssertionError("the game did not end")


# --- the seed ---------------------------------------------------------------------------------------


def test_no_answer_of_a_game_in_progress_carries_the_seed(tmp_path):
    app, client = make_client(tmp_path)
    gid, headers = create(client)
    seed = app.state.sessions[gid].seed
    answers = [client.get(f"/api/games/{gid}", headers=headers).text,
               client.get(f"/api/games/{gid}/board.svg", headers=headers).text]
    assert json.loads(answers[0])["seed"] is None and json.loads(answers[0])["seed_chosen"] is False
    end = play_to_the_end(client, gid, headers, answers)
    last_flood, final_board = answers[-2:]  # the answer that ended the game tells the seed, as digits
    for text in answers[:-2]:
        assert str(seed) not in text
    assert json.loads(last_flood)["seed"] == str(seed) == end["seed"]


def public_cards(state: dict) -> dict[tuple[int, int], str]:
    return {(c + 1, r + 1): cell["card"] for r, row in enumerate(state["board"]) for c, cell in enumerate(row)
            if cell["card"]}


def seeds_consistent_with(state: dict, candidates) -> list[int]:
    """What an observer can do: every seed whose kernel island shows these face-up cards and
    these floods drawn so far."""
    cards, drawn = public_cards(state), [tuple(d) for d in state["drawn"]]
    out = []
    for seed in candidates:
        layout, floods = kernel_island(seed, 0, 1)
        if all(layout[p] == card for p, card in cards.items()) and floods[:len(drawn)] == drawn:
            out.append(seed)
    return out


def first_flood_phase(client, gid: str, headers: dict) -> dict:
    """Pawn 0 walks up twice (turning up tiles), ends its turn and both floods are drawn."""
    for entry in ("move up", "move up", "end"):
        client.post(f"/api/games/{gid}/action", json={"pawn": 0, "action": entry}, headers=headers)
    state = {}
    for _ in range(2):
        state = client.post(f"/api/games/{gid}/flood", json={}, headers=headers).json()
    return state


def test_a_search_over_the_old_seed_space_finds_nothing_now(tmp_path, monkeypatch):
    small = range(3000)
    # with seeds drawn below 3000 the observer's search finds the game's seed from what it sees
    monkeypatch.setattr(play_server, "SEED_SPACE", len(small))
    app, client = make_client(tmp_path)
    gid, headers = create(client)
    seen = first_flood_phase(client, gid, headers)
    assert seen["seed"] is None and seeds_consistent_with(seen, small) == [app.state.sessions[gid].seed]
    # the server's own drawer: any 63-bit seed (secrets), so the same search finds nothing
    monkeypatch.undo()
    app, client = make_client(tmp_path)
    gid, headers = create(client)
    seen = first_flood_phase(client, gid, headers)
    # a small seed may by chance deal what one flood phase shows; the game's own seed is never among them
    assert seen["seed"] is None and app.state.sessions[gid].seed not in seeds_consistent_with(seen, small)
    drawn = [app.state.sessions[gid].seed] + [play_server.draw_seed() for _ in range(30)]
    assert all(0 <= s <= MAX_SEED for s in drawn) and max(drawn) > 2**60 and len(set(drawn)) == len(drawn)


def test_a_typed_seed_is_marked_as_spoiling_the_surprise_and_kept_exact(tmp_path):
    app, client = make_client(tmp_path)
    gid, headers = create(client, seed=str(MAX_SEED))  # as the page sends it: digits
    state = client.get(f"/api/games/{gid}", headers=headers).json()
    assert state["seed_chosen"] is True and state["seed"] is None
    assert app.state.sessions[gid].seed == MAX_SEED


# --- ids, tokens, the store --------------------------------------------------------------------------


def test_game_ids_and_tokens_are_128_random_bits_and_tie_a_game_to_its_creator(tmp_path):
    app, client = make_client(tmp_path)
    made = [create(client) for _ in range(5)]
    for gid, headers in made:
        assert len(gid) == 32 and int(gid, 16) >= 0
        assert len(headers["X-Game-Token"]) == 32
    assert len({gid for gid, _ in made}) == 5
    gid, headers = made[0]
    before = client.get(f"/api/games/{gid}", headers=headers).json()
    other = made[1][1]
    for wrong in ({}, other, {"X-Game-Token": "0" * 32}):
        for method, path, body in [("GET", "", None), ("GET", "/board.svg", None),
                                   ("POST", "/action", {"pawn": 0, "action": "move up"}),
                                   ("POST", "/record", {})]:
            res = client.request(method, f"/api/games/{gid}{path}", json=body, headers=wrong)
            assert res.status_code == 403 and "belongs to another browser" in res.json()["error"], res.text
    assert client.get(f"/api/games/{gid}", headers=headers).json() == before


def test_an_id_collision_is_refused_and_keeps_the_live_game(tmp_path, monkeypatch):
    app, client = make_client(tmp_path)
    monkeypatch.setattr(GameStore, "new_id", staticmethod(lambda: "ab" * 16))
    gid, headers = create(client)
    before = client.get(f"/api/games/{gid}", headers=headers).json()
    res = client.post("/api/games", json=RULES_BODY)
    assert res.status_code == 503 and "collided" in res.json()["error"]
    assert len(app.state.sessions) == 1
    assert client.get(f"/api/games/{gid}", headers=headers).json() == before


def test_the_store_keeps_at_most_its_cap_dropping_the_least_recently_used(tmp_path):
    app, client = make_client(tmp_path, live_games=3)
    games = [create(client) for _ in range(3)]
    assert client.get(f"/api/games/{games[0][0]}", headers=games[0][1]).status_code == 200  # 0 used last
    games += [create(client) for _ in range(2)]
    assert len(app.state.sessions) == 3
    alive = [client.get(f"/api/games/{gid}", headers=h).status_code for gid, h in games]
    assert alive == [200, 404, 404, 200, 200]


def test_idle_games_expire(tmp_path):
    app, client = make_client(tmp_path, idle_seconds=60)
    now = [1000.0]
    app.state.store.clock = lambda: now[0]
    old, old_headers = create(client)
    now[0] += 40
    fresh, fresh_headers = create(client)
    now[0] += 30  # old idle 70 s, fresh 30 s
    res = client.get(f"/api/games/{old}", headers=old_headers)
    assert res.status_code == 404 and "expired" in res.json()["error"]
    assert client.get(f"/api/games/{fresh}", headers=fresh_headers).status_code == 200
    assert list(app.state.sessions) == [fresh]


def test_a_dropped_game_takes_its_waiting_bot_games_with_it(tmp_path):
    import gc
    import weakref

    app = play_server.create_app(tmp_path / "records", bots=("greedy", "novice"), live_games=2)
    client = TestClient(app, base_url="http://127.0.0.1")
    try:
        made = [client.post("/api/games", json=RULES_BODY).json()["id"] for _ in range(2)]
        second = weakref.ref(app.state.sessions[made[1]])
        made += [client.post("/api/games", json=RULES_BODY).json()["id"] for _ in range(3)]
        queue = app.state.bot_queue
        assert queue.running is not None  # game 0's first bot: in the worker
        assert list(app.state.sessions) == made[3:]
        assert [(s.id, policy) for s, policy in queue.waiting] == [
            (made[3], "greedy"), (made[3], "novice"), (made[4], "greedy"), (made[4], "novice")]
        gc.collect()
        assert second() is None  # nothing keeps a dropped game alive
    finally:
        app.state.bot_queue.stop()


def test_the_store_tells_of_every_game_it_drops():
    dropped = []
    store = GameStore(cap=2, idle_seconds=60, on_drop=dropped.append)
    first, _ = store.add(lambda gid: f"game {gid}")
    store.add(lambda gid: "second")
    store.add(lambda gid: "third")
    assert dropped == [first] and len(store) == 2


# --- what a request may be -------------------------------------------------------------------------


def test_a_foreign_host_is_refused(tmp_path):
    app = play_server.create_app(tmp_path / "records", bots=())
    for host in ("evil.example", "127.0.0.1.evil.example", "localhost.evil.example"):
        client = TestClient(app, base_url=f"http://{host}")
        assert client.get("/api/setup").status_code == 400
        assert client.post("/api/games", json=RULES_BODY).status_code == 400
    assert app.state.sessions == {}
    for host in ("127.0.0.1", "localhost", "127.0.0.1:8765"):
        assert TestClient(app, base_url=f"http://{host}").get("/api/setup").status_code == 200


def test_only_json_changes_state(tmp_path):
    app, client = make_client(tmp_path)
    text = json.dumps(RULES_BODY)
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                         None):
        headers = {"content-type": content_type} if content_type else {}
        res = client.post("/api/games", content=text, headers=headers)
        assert res.status_code == 415 and "must be application/json" in res.json()["error"], (content_type, res.text)
    assert app.state.sessions == {}
    gid, headers = create(client)
    res = client.post(f"/api/games/{gid}/action", content='{"pawn": 0, "action": "move up"}',
                      headers={**headers, "content-type": "text/plain"})
    assert res.status_code == 415
    assert client.get(f"/api/games/{gid}", headers=headers).json()["actions_left"] == SHORT_RULES.actions_per_turn
    res = client.post("/api/games", content=text, headers={"content-type": "application/json; charset=utf-8"})
    assert res.status_code == 200


@pytest.mark.parametrize("body, status, message", [
    ({**RULES_BODY, "seed": 2**63}, 400, "'seed' must be a whole number from 0 to 9223372036854775807"),
    ({**RULES_BODY, "seed": 2**64}, 400, "'seed' must be a whole number"),
    ({**RULES_BODY, "seed": 10**30}, 400, "'seed' must be a whole number"),
    ({**RULES_BODY, "seed": "9" * 20}, 400, "'seed' must be a whole number"),
    ({**RULES_BODY, "seed": 1.5}, 400, "'seed' must be a whole number"),
    ({**RULES_BODY, "players": 10**30}, 400, "'players' must be a whole number from 1 to 4"),
    ("[" * 100_000, 413, "larger than"),
    ("[" * 5_000 + "]" * 5_000, 400, "nested more than"),
    ('{"a": ' * 40 + "1" + "}" * 40, 400, "nested more than"),
    ('{"seed": ' + "9" * 5_000 + "}", 400, "not usable JSON"),
    (b'{"players": "\xff"}', 400, "not UTF-8 text"),
    ("x" * (30 << 20), 413, "larger than"),
    ("{not json", 400, "not valid JSON"),
])
def test_oversized_and_malformed_new_games_are_refused(tmp_path, body, status, message):
    app, client = make_client(tmp_path)
    content = body if isinstance(body, bytes) else body.encode() if isinstance(body, str) else json.dumps(body)
    res = client.post("/api/games", content=content, headers={"content-type": "application/json"})
    assert res.status_code == status and message in res.json()["error"], res.text[:300]
    assert len(res.content) < 500 and "Traceback" not in res.text
    assert app.state.sessions == {}


def test_a_body_without_a_length_is_cut_off_at_the_limit(tmp_path):
    app, client = make_client(tmp_path)

    def chunks():
        for _ in range(MAX_BODY // 1000 + 5):
            yield b" " * 1000

    res = client.post("/api/games", content=chunks(), headers={"content-type": "application/json"})
    assert res.status_code == 413 and app.state.sessions == {}


def test_a_body_declared_too_large_is_refused_before_it_is_read():
    import asyncio

    from experiments.pages import BodyGuard

    reads, sent = [], []

    async def app(scope, receive, send):
        raise AssertionError("the app must not see the request")

    async def receive():
        reads.append(1)
        return {"type": "http.request", "body": b"{}", "more_body": True}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/games",
             "headers": [(b"content-type", b"application/json"), (b"content-length", b"")]}
    for length in (str(30 << 20).encode(), b"9" * 5000):
        reads.clear(), sent.clear()
        scope["headers"][1] = (b"content-length", length)
        asyncio.run(BodyGuard(app)(scope, receive, send))
        assert reads == [] and sent[0]["status"] == 413 and b"larger than" in sent[1]["body"]


def test_a_huge_action_is_echoed_short_and_changes_nothing(tmp_path):
    app, client = make_client(tmp_path)
    gid, headers = create(client)
    before = client.get(f"/api/games/{gid}", headers=headers).json()
    res = client.post(f"/api/games/{gid}/action", json={"pawn": 0, "action": "fly " + "x" * 50_000}, headers=headers)
    assert res.status_code == 400 and "is not an action" in res.json()["error"] and len(res.content) < 400
    res = client.post(f"/api/games/{gid}/action", json={"pawn": 0, "action": "fly " + "x" * (20 << 20)},
                      headers=headers)
    assert res.status_code == 413 and len(res.content) < 400
    res = client.get(f"/api/games/{'z' * 5000}", headers=headers)
    assert res.status_code == 404 and len(res.content) < 400
    assert client.get(f"/api/games/{gid}", headers=headers).json() == before


def test_an_unexpected_failure_is_a_json_500_without_a_traceback(tmp_path, monkeypatch):
    app, client = make_client(tmp_path)
    gid, headers = create(client)

    def broken(self):
        raise RuntimeError("/secret/server/path went wrong")

    monkeypatch.setattr(Session, "public_state", broken)
    res = client.get(f"/api/games/{gid}", headers=headers)
    assert res.status_code == 500 and res.headers["content-type"] == "application/json"
    assert res.json() == {"error": "the server failed on this request (RuntimeError)"}
    assert client.get("/no/such/page").json() == {"error": "Not Found"}


# --- records ------------------------------------------------------------------------------------------


def test_a_failed_record_write_keeps_the_game_and_can_be_retried(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    records = blocker / "records"  # under a regular file: no one, not even root, can make it
    app, client = make_client(tmp_path, records=records)
    gid, headers = create(client, seed=5)
    end = play_to_the_end(client, gid, headers)
    assert end["phase"] == "over" and end["end"]["record"] is None
    assert "could not be saved" in end["end"]["record_problem"] and str(tmp_path) not in json.dumps(end)
    res = client.post(f"/api/games/{gid}/record", json={}, headers=headers)  # still blocked: said again
    assert res.status_code == 200 and res.json()["end"]["record"] is None
    blocker.unlink()
    res = client.post(f"/api/games/{gid}/record", json={}, headers=headers)
    name = res.json()["end"]["record"]
    assert res.status_code == 200 and name and res.json()["end"]["record_problem"] is None
    assert [p.name for p in records.iterdir()] == [name]
    out = subprocess.run([sys.executable, "-m", "experiments.cli", "replay", "--json", str(records / name)],
                         capture_output=True, text=True, check=True)
    assert json.loads(out.stdout)["cause"] == end["end"]["cause"]


def test_a_record_appears_under_its_name_only_when_whole(tmp_path, monkeypatch):
    import policies.island_escape.table as session_module

    folder, written = tmp_path / "records", []
    real_write = session_module.write_record

    def watched(path, record):  # while it is written, no record is under its final name yet
        assert Path(path).parent == folder and not list(folder.glob("playtest-*.json"))
        real_write(path, record)
        written.append(Path(path).name)

    monkeypatch.setattr(session_module, "write_record", watched)
    app, client = make_client(tmp_path)
    gid, headers = create(client, seed=5)
    end = play_to_the_end(client, gid, headers)
    assert [p.name for p in folder.iterdir()] == [end["end"]["record"]] and written != [end["end"]["record"]]


def test_a_record_is_written_whole_or_not_at_all(tmp_path, monkeypatch):
    import policies.island_escape.table as session_module

    def half_then_fail(path, record):
        Path(path).write_text('{"format": ', encoding="utf-8")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(session_module, "write_record", half_then_fail)
    app, client = make_client(tmp_path)
    gid, headers = create(client, seed=5)
    end = play_to_the_end(client, gid, headers)
    assert end["end"]["record_problem"] == "the record could not be saved (No space left on device)"
    assert list((tmp_path / "records").iterdir()) == []  # no half record, no temporary file


def test_the_record_endpoint_refuses_a_game_in_progress(tmp_path):
    app, client = make_client(tmp_path)
    gid, headers = create(client)
    res = client.post(f"/api/games/{gid}/record", json={}, headers=headers)
    assert res.status_code == 409 and "not over" in res.json()["error"]


# --- the board ----------------------------------------------------------------------------------------


def test_the_board_is_drawn_without_pyplot_in_the_drawers_colours(monkeypatch):
    import matplotlib.pyplot as plt

    from sim.island_escape import boards

    def no_pyplot(*args, **kwargs):
        raise AssertionError("the page's board must not go through pyplot (one drawing at a time)")

    monkeypatch.setattr(plt, "figure", no_pyplot)
    session = Session("board", Rules(players=4), 5, records_dir=None)
    session.act(0, "move up")
    svg = boards.board_svg(session.public_game(), "Turn 1: pawn 0")
    for c in range(1, 6):
        for r in range(1, 6):
            assert svg.count(f'id="place-{c}-{r}"') == 1
    for colour in (*boards.PAWN_COLOURS, boards.BACK):
        assert colour in svg
    face_up = [t.card for t in session.game.board.values() if t.state != "down"]
    assert "JK" in face_up and "heli" in svg and "Turn 1: pawn 0" in svg
    assert svg.count('fill="url(#card-back)"') == 25 - len(face_up)


# --- stopping -----------------------------------------------------------------------------------------


def test_sigterm_leaves_no_process_behind(tmp_path):
    psutil = pytest.importorskip("psutil")
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "experiments.cli", "play", "--no-browser", "--port", str(port),
                             "--records", str(tmp_path / "rec")], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    children = []
    try:
        server = psutil.Process(proc.pid)
        deadline = time.time() + 60
        while True:
            try:
                request = urllib.request.Request(f"http://127.0.0.1:{port}/api/games", method="POST",
                                                 data=json.dumps({"players": 2, "rules": {}}).encode(),
                                                 headers={"content-type": "application/json"})
                with urllib.request.urlopen(request, timeout=5) as res:
                    assert res.status == 200
                break
            except OSError:
                assert proc.poll() is None and time.time() < deadline
                time.sleep(0.3)
        # the bots' worker (and the resource tracker) start with the first game
        while len(server.children(recursive=True)) < 2:
            assert time.time() < deadline, server.children(recursive=True)
            time.sleep(0.2)
        children = server.children(recursive=True)
        os.kill(proc.pid, signal.SIGTERM)
        proc.wait(30)
        gone, alive = psutil.wait_procs(children, timeout=15)
        assert alive == [], [(p.pid, p.cmdline()) for p in alive]
    finally:
        for p in [psutil.Process(proc.pid), *children] if proc.poll() is None else children:
            if p.is_running():
                p.kill()
