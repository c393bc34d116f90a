"""`island-escape play`: the referee (sim/island_escape/engine.py) behind the web API, what the page may see
(R19), refused requests, records that replay, and the island and floods of the kernel's game."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys

import pytest

pytest.importorskip("starlette", reason="the play extra is installed by make test")
from starlette.testclient import TestClient  # noqa: E402

from experiments.play.server import create_app  # noqa: E402
from policies.island_escape.table import Session, kernel_island  # noqa: E402
from policies.runner import export_games, run_games  # noqa: E402
from sim.island_escape.records import load_record, replay, result_json  # noqa: E402
from sim.island_escape.rules import Rules  # noqa: E402
from tests.play_support import SHORT_RULES, escape_plan, hidden_cards, leaks, play_randomly  # noqa: E402


def make_client(tmp_path, bots=(), **options):
    app = create_app(tmp_path / "records", bots=bots, **options)
    return app, TestClient(app, base_url="http://127.0.0.1")


def new_game(client, rules: Rules = SHORT_RULES, seed: int | None = 3) -> dict:
    """A new game; the client then carries its token, as the page does."""
    rules_json = rules.as_record()
    players = rules_json.pop("players")
    body = {"players": players, "rules": rules_json}
    if seed is not None:
        body["seed"] = seed
    res = client.post("/api/games", json=body)
    assert res.status_code == 200, res.text
    state = res.json()
    client.headers["X-Game-Token"] = state.pop("token")
    return state


# --- the island and floods are the kernel's ---------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 11])
def test_the_island_and_flood_order_are_those_of_kernel_game_0(seed):
    rules = Rules(players=2)
    layout, floods = kernel_island(seed, 0, len(rules.gauge))
    (record, _final), = export_games(rules, "greedy", seed, [0])
    assert record.full_layout() == layout
    assert record.floods == floods[:len(record.floods)]
    # and the engine fed with them reaches what the kernel reached (R14: piles fixed per pass)
    assert result_json(replay(record))["cause"] == record.result["cause"]


# --- the referee: refused requests leave the game unchanged ---------------------------------------


def test_illegal_and_malformed_requests_are_refused_and_change_nothing(tmp_path):
    app, client = make_client(tmp_path)
    state = new_game(client)
    gid = state["id"]
    before = client.get(f"/api/games/{gid}").json()
    cases = [
        ("action", {"pawn": 0, "action": "swim up"}, 409, "not legal now: a swim crosses exactly one sea place"),
        ("action", {"pawn": 0, "action": "raise 7C 8C"}, 409, "not legal now"),
        ("action", {"pawn": 1, "action": "move up"}, 409, "it is pawn 0's turn, not pawn 1's"),
        ("action", {"pawn": "0", "action": "move up"}, 400, "'pawn' must be the number"),
        ("action", {"pawn": 0, "action": "fly away"}, 400, "is not an action: unknown action 'fly'"),
        ("action", {"pawn": 0, "action": 7}, 400, "'action' must be a text entry"),
        ("action", "{not json", 400, "not valid JSON"),
        ("action", "[1, 2]", 400, "must be a JSON object"),
        ("flood", {}, 409, "no flood is due"),
        ("escape", {"pawn": 0, "place": [3, 2]}, 409, "no pawn is escaping"),
    ]
    for path, body, status, message in cases:
        if isinstance(body, str):
            res = client.post(f"/api/games/{gid}/{path}", content=body, headers={"content-type": "application/json"})
        else:
            res = client.post(f"/api/games/{gid}/{path}", json=body)
        assert res.status_code == status, (path, body, res.text)
        assert message in res.json()["error"], res.json()
        assert client.get(f"/api/games/{gid}").json() == before, (path, body)
    res = client.post("/api/games/nosuchgame/action", json={"pawn": 0, "action": "move up"})
    assert res.status_code == 404 and "there is no game 'nosuchgame'" in res.json()["error"]
    assert client.get("/api/games/nosuchgame/board.svg").status_code == 404
    # the game goes on: a legal action is still accepted
    res = client.post(f"/api/games/{gid}/action", json={"pawn": 0, "action": "move up"})
    assert res.status_code == 200 and res.json()["actions_left"] == 3


def test_bad_new_game_requests(tmp_path):
    app, client = make_client(tmp_path)
    for body, message in [({"players": 5}, "'players' must be a whole number from 1 to 4"),
                          ({"players": 2, "rules": {"gauge": ["ZZ"]}}, "bad rules"),
                          ({"players": 2, "rules": {"colour": 1}}, "unknown rule 'colour'"),
                          ({"players": 2, "level": "normal"}, "no normal rules for 2 players"),
                          ({"players": 2, "seed": -1}, "'seed' must be a whole number")]:
        res = client.post("/api/games", json=body)
        assert res.status_code == 400 and message in res.json()["error"], (body, res.text)
    assert app.state.sessions == {}


def test_an_escape_goes_only_where_r15_allows(tmp_path):
    seed, moves = escape_plan()
    app, client = make_client(tmp_path)
    state = new_game(client, seed=seed)
    gid = state["id"]
    for m in moves:
        state = client.post(f"/api/games/{gid}/action", json={"pawn": 0, "action": m}).json()
    while state["phase"] != "escape":
        if state["phase"] == "flood":
            state = client.post(f"/api/games/{gid}/flood", json={}).json()
        else:
            state = client.post(f"/api/games/{gid}/action", json={"pawn": state["pawn"], "action": "end"}).json()
    options = [tuple(o["place"]) for o in state["escape"]["options"]]
    assert len(options) >= 2
    sinking = tuple(state["escape"]["place"])
    assert all(max(abs(c - sinking[0]), abs(r - sinking[1])) == 1 for c, r in options)  # R15: the 8 around
    not_an_option = next((c, r) for c in range(1, 6) for r in range(1, 6) if (c, r) not in options)
    refused = [({"pawn": 0, "place": list(not_an_option)}, 409), ({"pawn": 1, "place": list(options[0])}, 409),
               ({"pawn": 0, "place": "3,2"}, 400), ({"pawn": 0}, 400)]
    for body, status in refused:
        res = client.post(f"/api/games/{gid}/escape", json=body)
        assert res.status_code == status, (body, res.text)
        assert client.get(f"/api/games/{gid}").json() == state
    state = client.post(f"/api/games/{gid}/escape", json={"pawn": 0, "place": list(options[1])}).json()
    assert state["pawns"][0] == list(options[1])
    session = app.state.sessions[gid]
    assert any(f"escape 0 {options[1][0]},{options[1][1]}" in turn for turn in session.turns)


# --- R19: what the page sees --------------------------------------------------------------------------


def scramble_hidden(session: Session, rng: random.Random) -> None:
    """Change only what R19 hides: deal the face-down cards anew, reorder the undrawn piles."""
    game = session.game
    down = [p for p, t in game.board.items() if t.state == "down"]
    cards = [game.board[p].card for p in down]
    rng.shuffle(cards)
    for p, c in zip(down, cards, strict=True):
        game.board[p].card = c
    keep = 1 if session.pending else 0  # a flood being resolved has been drawn already
    for pile in (game.col_pile, game.row_pile):
        rest = pile[keep:]
        rng.shuffle(rest)
        pile[keep:] = rest


@pytest.mark.parametrize("seed", [3, 8])
def test_no_response_of_a_game_in_progress_reveals_hidden_cards(tmp_path, seed):
    """Every answer is checked for the names of face-down cards, and a few are compared with
    the answer the server gives after the hidden parts were changed: they must be identical."""
    app, client = make_client(tmp_path)
    rng = random.Random(seed)
    state = new_game(client, Rules(players=2, gauge=("2C", "2D", "3C")), seed=seed)
    gid = state["id"]
    session = app.state.sessions[gid]

    def call(path, body):
        res = client.post(f"/api/games/{gid}/{path}", json=body)
        assert res.status_code == 200, res.text
        return res.json()

    steps = 0
    while state["phase"] != "over":
        hidden = hidden_cards(session)
        svg = client.get(f"/api/games/{gid}/board.svg").text if steps % 4 == 0 else ""
        text = json.dumps(state, ensure_ascii=False)
        assert not leaks(text, hidden), (steps, leaks(text, hidden))
        assert not leaks(svg, hidden), (steps, leaks(svg, hidden))
        if steps % 7 == 0:
            real = copy.deepcopy(session.game)
            scramble_hidden(session, rng)
            assert client.get(f"/api/games/{gid}").json() == state
            if svg:
                assert client.get(f"/api/games/{gid}/board.svg").text == svg
            session.game = real
        state = play_randomly(call, state, rng)
        steps += 1
    assert steps > 10


# --- records ------------------------------------------------------------------------------------------


def test_a_finished_game_is_saved_as_a_record_that_replays_the_same(tmp_path):
    app, client = make_client(tmp_path, bots=("greedy",))
    rng = random.Random(5)
    state = new_game(client, Rules(players=3, gauge=("2C", "2D", "3C")), seed=21)
    gid = state["id"]

    def call(path, body):
        return client.post(f"/api/games/{gid}/{path}", json=body).json()

    while state["phase"] != "over":
        state = play_randomly(call, state, rng)
    session = app.state.sessions[gid]
    name = state["end"]["record"]
    assert name and "/" not in name and str(tmp_path) not in json.dumps(state)  # no server path in an answer
    path = str(tmp_path / "records" / name)
    out = subprocess.run([sys.executable, "-m", "experiments.cli", "replay", "--json", path],
                         capture_output=True, text=True, check=True)
    replayed = json.loads(out.stdout)
    assert replayed["cause"] == state["end"]["cause"] == session.game.outcome
    assert replayed["turns"] == state["end"]["turns"] == session.game.turn
    assert replayed["final"] == session.game.final_state()
    assert load_record(path).result["played_by"] == "people"


def test_the_bots_play_the_same_kernel_game():
    from policies.island_escape.table import bot_result
    from sim.island_escape import layout as L

    for policy in ("greedy", "idle"):
        raw = run_games(SHORT_RULES, policy, 1, 4, threads=1)[0]
        got = bot_result(SHORT_RULES.as_record(), 4, policy)
        assert got["cause"] == L.CAUSES[raw[0]] and got["turns"] == raw[1]


# --- the command ----------------------------------------------------------------------------------


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "experiments.cli", *args], capture_output=True, text=True,
                          timeout=60)


@pytest.mark.parametrize("args, message", [
    (["--level", "easy", "--gauge-length", "6"], "give --level or rule options, not both"),
    (["--players", "7"], "players must be a whole number from 1 to 4"),
    (["--gauge", "AC ZZ"], "ZZ"),
])
def test_play_bad_options_are_one_line(args, message):
    out = run_cli("play", "--no-browser", *args)
    assert out.returncode == 2, out
    assert message in out.stderr and len(out.stderr.strip().splitlines()) == 1, out.stderr


def test_play_serves_the_page_and_refuses_a_port_in_use(tmp_path):
    import time
    import urllib.request

    from tests.play_support import free_port

    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "experiments.cli", "play", "--no-browser", "--port", str(port),
                             "--records", str(tmp_path / "rec"), "--players", "3", "--seed", "9"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.time() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/setup", timeout=2) as res:
                    setup = json.loads(res.read())
                break
            except OSError:
                assert proc.poll() is None and time.time() < deadline, proc.stderr.read() if proc.poll() else ""
                time.sleep(0.3)
        assert setup["defaults"]["players"] == 3 and setup["defaults"]["seed"] == "9"  # as digits: exact beyond 2**53
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as res:
            assert b"Island Escape" in res.read()
        out = run_cli("play", "--no-browser", "--port", str(port))
        assert out.returncode == 2 and f"port {port} on 127.0.0.1 is in use" in out.stderr
    finally:
        proc.terminate()
        proc.wait(10)


def test_play_refuses_a_game_without_a_play_page_in_one_line():
    out = run_cli("play", "--no-browser", "--game", "forbidden-island")
    assert out.returncode == 2, out
    assert out.stderr.strip() == "island-escape: Forbidden Island has no play page", out.stderr


def test_the_play_server_serves_only_a_game_with_a_table(tmp_path):
    from policies.game import Unsupported, game

    with pytest.raises(Unsupported, match="^Forbidden Island has no play page$"):
        create_app(tmp_path / "records", game=game("forbidden-island"))
    assert create_app(tmp_path / "records", bots=(), game=game("island-escape")).state.sessions == {}
