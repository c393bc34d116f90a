"""`island-escape explore`: the estimate endpoint gives `simulate --json`'s numbers, bad requests
are refused with a 4xx naming what is wrong, a page update refines and a newer one supersedes
it, and what the page copies (a sweep file, simulate and compare commands) reproduces it."""

from __future__ import annotations

import json
import random
import shlex
import subprocess
import sys
import threading
import time
import tomllib
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest

pytest.importorskip("starlette", reason="the play extra is installed by make test")
from starlette.testclient import TestClient  # noqa: E402

from experiments.compare import compare, parse_rules_text  # noqa: E402
from experiments.explore import estimate as E  # noqa: E402
from experiments.explore.figures import FIGURES  # noqa: E402
from experiments.explore.server import create_app  # noqa: E402
from experiments.sweep import parse_config  # noqa: E402
from policies.game import GAMES, game  # noqa: E402


@pytest.fixture(scope="module")
def client():
    app = create_app()
    with TestClient(app, base_url="http://127.0.0.1") as c:
        c.app_state = app.state
        yield c


def simulate_json(*args: str) -> dict:
    out = subprocess.run([sys.executable, "-m", "experiments.cli", "simulate", "--json", *args],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


# query of the endpoint, and the same setting as simulate's options
SETTINGS = [
    ({"games": 1500}, ["--games", "1500"]),
    ({"players": 3, "gauge": "AD 2C 2D 3C 3D 4C 4D 5C", "games": 1200, "seed": 5},
     ["--players", "3", "--gauge", "AD 2C 2D 3C 3D 4C 4D 5C", "--games", "1200", "--seed", "5"]),
    ({"players": 4, "cards_per_treasure": 3, "swim_cost": 1, "actions": 5, "games": 800, "seed": 11},
     ["--players", "4", "--cards-per-treasure", "3", "--swim-cost", "1", "--actions", "5", "--games", "800",
      "--seed", "11"]),
    ([("variant", "short"), ("variant", "divers"), ("players", "1"), ("policy", "greedy"), ("games", "600")],
     ["--variant", "short", "--variant", "divers", "--players", "1", "--policy", "greedy", "--games", "600"]),
    ({"skill": 0.5, "gauge_length": 7, "games": 700, "seed": 3},
     ["--skill", "0.5", "--gauge-length", "7", "--games", "700", "--seed", "3"]),
    ({"game": "forbidden-island", "players": 3, "difficulty": "elite", "games": 400, "seed": 2},
     ["--game", "forbidden-island", "--players", "3", "--difficulty", "elite", "--games", "400", "--seed", "2"]),
    ({"game": "forbidden-island", "players": 4, "policy": "random", "games": 900},
     ["--game", "forbidden-island", "--players", "4", "--policy", "random", "--games", "900"]),
    ({"game": "survive-the-island", "players": 3, "sharks": 4, "setup": "snake", "games": 700, "seed": 6},
     ["--game", "survive-the-island", "--players", "3", "--sharks", "4", "--setup", "snake", "--games", "700",
      "--seed", "6"]),
]


@pytest.mark.parametrize(("query", "options"), SETTINGS, ids=[" ".join(o) for _, o in SETTINGS])
def test_the_estimate_is_simulate_json(client, query, options):
    res = client.get("/api/estimate?" + urlencode(query))
    assert res.status_code == 200, res.text
    got, want = res.json(), simulate_json(*options)
    assert set(got) == set(want)
    got.pop("games_per_second"), want.pop("games_per_second")
    assert got == want
    again = client.get("/api/estimate?" + urlencode(query)).json()  # kept from before: the same object
    assert again.pop("games_per_second") is None and again == got


BAD_QUERIES = [
    ("players=9", "players"), ("players=two", "players"), ("players=2&players=3", "players"),
    ("cards_per_treasure=0", "cards_per_treasure"), ("cards_per_treasure=2.5", "cards_per_treasure"),
    ("swim_cost=-1", "swim_cost"), ("actions=13", "actions"), ("gauge=ZZ", "gauge"), ("gauge=AC+AC", "gauge"),
    ("gauge=5C+4D+AC", "gauge"), ("gauge=AC&gauge_length=5", "gauge"), ("gauge_length=11", "gauge_length"),
    ("variant=sea", "variant"), ("policy=nobody", "policy"), ("policy=expert&skill=0.5", "skill"),
    ("skill=1.5", "skill"), ("skill=nan", "skill"), ("games=-1", "games"), ("games=200001", "games"),
    ("games=ten", "games"), ("policy=lookahead&games=1001", "games"), ("seed=-3", "seed"),
    ("seed=99999999999999999999", "seed"), ("game=chess", "game"), ("colour=red", "colour"),
    ("game=forbidden-island&gauge=AC", "gauge"), ("game=forbidden-island&difficulty=hard", "difficulty"),
    ("game=forbidden-island&players=1", "players"), ("game=forbidden-island&policy=expert&skill=0.5", "skill"),
    ("game=survive-the-island&board=/etc/hostname", "board"), ("game=survive-the-island&sharks=0", "sharks"),
    ("game=survive-the-island&setup=spiral", "setup"), ("game=survive-the-island&players=6", "players"),
]


@pytest.mark.parametrize(("query", "named"), BAD_QUERIES, ids=[q for q, _ in BAD_QUERIES])
def test_a_bad_parameter_is_a_400_naming_it(client, query, named):
    res = client.get(f"/api/estimate?{query}")
    assert res.status_code == 400, res.text
    message = res.json()["error"]
    assert message.startswith(named) or f"'{named}'" in message.split(":")[0], message
    assert "Traceback" not in message


def test_random_junk_is_never_a_5xx(client):
    rng = random.Random(7)
    values = ["", "0", "-1", "1e9", "2", "abc", "AC", "5D 5C", "%00", "\u2663", "9" * 30, "nan", "skilled@2",
              "expert", "forbidden-island", "divers", "true", "[1]"]
    for _ in range(200):
        items = [(rng.choice(E.ESTIMATE_PARAMETERS + ("x",)), rng.choice(values)) for _ in range(rng.randint(1, 4))]
        items.append(("games", str(rng.randint(0, 50))))
        res = client.get("/api/estimate?" + urlencode(items))
        assert res.status_code < 500, (items, res.text)
        assert res.status_code == 200 or "error" in res.json()


def new_page(client) -> str:
    s = client.post("/api/pages", json={}).json()
    client.headers["X-Game-Token"] = s["token"]
    return s["id"]


UPDATE = {"players": [2, 3], "setting": {"rules": {"gauge": "AD 2C 2D 3C 3D 4C 4D 5C", "cards_per_treasure": 2}},
          "seed": 21, "games": 4000}


def wait_done(client, pid: str, timeout: float = 300) -> dict:
    deadline = time.time() + timeout
    while time.time() < deadline:
        answer = client.get(f"/api/pages/{pid}/explore").json()
        if answer["state"] in ("done", "failed", "superseded"):
            return answer
        time.sleep(0.2)
    raise AssertionError("the update did not finish")


def test_an_update_answers_first_then_refines_to_simulates_numbers(client):
    pid = new_page(client)
    first = client.post(f"/api/pages/{pid}/explore", json={"request": 1, **UPDATE})
    assert first.status_code == 200, first.text
    a = first.json()
    assert a["request"] == 1 and a["state"] in ("refining", "done")
    assert all(row["setting"]["games"] >= E.FIRST_GAMES for row in a["counts"])
    done = wait_done(client, pid)
    assert done["state"] == "done" and done["progress"]["fraction"] == 1.0
    g = game()
    for row in done["counts"]:
        assert row["setting"]["games"] == row["reference"]["games"] == 4000
        # the page's number is the estimate endpoint's, is simulate's
        query = dict(parse_qsl(urlsplit(row["estimate_url"]).query))
        assert client.get(row["estimate_url"]).json()["win_rate"] == row["setting"]["win_rate"]
        assert query["gauge"] == "AD 2C 2D 3C 3D 4C 4D 5C" and query["games"] == "4000"
        # its difference with the rulebook is compare's, game for game
        rules = g.rules_from_options(players=row["players"], gauge="AD 2C 2D 3C 3D 4C 4D 5C")
        c = compare(rules, g.rules(players=row["players"]), "expert", 4000, seed=21)
        assert row["difference"]["a_minus_b"] == pytest.approx(c["difference"]["a_minus_b"], abs=1e-12)
        assert row["difference"]["ci95"] == pytest.approx(c["difference"]["ci95"], abs=1e-12)
        assert row["band"]["verdict"]
        assert 0 <= row["near_misses"]["setting"]["four"] <= 1
        hazard = row["hazard"]["setting"]
        assert len(hazard["turns"]) == len(hazard["alive"]) and hazard["alive"][0] == 4000
    curve = done["curve"]
    assert curve["axis"] == "skill" and [p["x"] for p in curve["points"]] == list(E.SKILLS)
    assert curve["search"]["player"] == "lookahead" and curve["search"]["setting"]["games"] == E.SEARCH_MARK_GAMES
    rates = [p["setting"]["win_rate"] for p in curve["points"]]
    assert rates[0] < rates[-1]  # a careless table wins less than the expert
    for name in FIGURES:
        svg = client.get(f"/api/pages/{pid}/figures/{name}.svg?job={done['job']}")
        assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
        assert "<title" in svg.text and "<desc" in svg.text


def test_the_copied_commands_reproduce_the_setting(client):
    pid = new_page(client)
    client.post(f"/api/pages/{pid}/explore", json={"request": 1, **UPDATE})
    done = wait_done(client, pid)
    commands = done["commands"]
    config = parse_config(tomllib.loads(commands["sweep_toml"]), "explore.toml")
    g = game()
    assert [c.rules for c in config.cells] == [g.rules_from_options(players=n, gauge="AD 2C 2D 3C 3D 4C 4D 5C")
                                               for n in (2, 3)]
    assert config.games == 4000 and config.seed == 21 and {c.policy for c in config.cells} == {"expert"}
    simulate = commands["simulate"].splitlines()
    assert len(simulate) == 2
    words = shlex.split(simulate[0])
    assert words[:2] == ["island-escape", "simulate"]
    got = simulate_json(*words[2:])
    assert got["win_rate"] == done["counts"][0]["setting"]["win_rate"]
    line = commands["compare"].splitlines()[0]
    a_text, b_text = line.split('"')[1], line.split('"')[3]
    assert parse_rules_text(a_text) == g.rules_from_options(players=2, gauge="AD 2C 2D 3C 3D 4C 4D 5C")
    assert parse_rules_text(b_text) == g.rules(players=2)


def test_a_newer_update_supersedes_the_older_which_stops_early(client):
    pid = new_page(client)
    big = {**UPDATE, "players": [2, 3, 4], "seed": 77, "games": E.MAX_TARGET}
    answers = {}

    def ask(number: int, body: dict) -> None:
        answers[number] = client.post(f"/api/pages/{pid}/explore", json={"request": number, **body}).json()

    ask(1, big)
    page = client.app_state.pages.games[pid]
    old = page.jobs[-1]
    planned = old.plan.progress()["planned"]
    assert old.state == "refining"
    ask(2, {**UPDATE, "seed": 78})
    deadline = time.time() + 60
    while not old.over and time.time() < deadline:
        time.sleep(0.05)
    assert old.state == "superseded"
    assert old.plan.progress()["games"] < planned / 2  # stopped early, far from its plan
    assert answers[2]["request"] == 2
    done = wait_done(client, pid)
    assert done["request"] == 2 and done["state"] == "done"
    assert client.get(f"/api/pages/{pid}/figures/rates.svg?job={done['job'] + 1}").status_code == 404
    assert client.get(f"/api/pages/{pid}/figures/nothing.svg?job={done['job']}").status_code == 404


def test_a_job_stops_between_batches_when_told():
    g = game()
    store = E.RunStore()
    spec = E.parse_spec({"players": [2], "seed": 91, "games": 20_000})
    plan = E.plan(store, spec)
    looks = []

    def superseded() -> bool:
        looks.append(time.perf_counter())
        return len(looks) > 3

    job = E.Job(1, 1, plan, superseded)
    job.run(threads=1)
    assert job.state == "superseded" and job.first.is_set()
    played = sum(r.n for r, _ in plan.runs().values())
    assert 0 < played <= 3 * E.BATCH < plan.progress()["planned"]
    assert store.get(g, g.rules(players=2), "expert", 91).n <= 3 * E.BATCH


BAD_UPDATES = [
    ({"players": [7]}, "players"), ({"players": []}, "players"), ({"players": "2"}, "players"),
    ({"setting": {"rules": {"gauge": "5C AC"}}}, "gauge"), ({"setting": {"rules": {"swim_cost": "x"}}}, "swim_cost"),
    ({"setting": {"rules": {"players": 3}}}, "setting.rules.players"), ({"setting": {"colour": 1}}, "setting.colour"),
    ({"setting": {"policy": "nobody"}}, "policy"), ({"setting": {"policy": "expert", "skill": 0.3}}, "skill"),
    ({"reference": {"rules": {"cards_per_treasure": 9}}}, "cards_per_treasure"), ({"reference": 3}, "reference"),
    ({"games": 10}, "games"), ({"games": 10**7}, "games"), ({"seed": -1}, "seed"),
    ({"curve_players": 0}, "curve_players"),
    ({"game": "forbidden-island", "setting": {"rules": {"gauge": "AC"}}}, "gauge"), ({"request": "x"}, "request"),
    ({"speed": "fast"}, "speed"),
]


@pytest.mark.parametrize(("body", "named"), BAD_UPDATES, ids=[json.dumps(b) for b, _ in BAD_UPDATES])
def test_a_bad_update_is_a_400_naming_the_key(client, body, named):
    pid = new_page(client)
    res = client.post(f"/api/pages/{pid}/explore", json=body)
    assert res.status_code == 400, res.text
    message = res.json()["error"]
    assert message.startswith(named) or message.startswith(f"'{named}'"), message


def test_a_page_is_this_browsers(client):
    pid = new_page(client)
    other = TestClient(client.app, base_url="http://127.0.0.1")
    assert other.post(f"/api/pages/{pid}/explore", json={}).status_code == 403
    other.headers["X-Game-Token"] = "0" * 32
    assert other.get(f"/api/pages/{pid}/explore").status_code == 403
    assert other.get("/api/pages/nope/explore").status_code == 404
    # the shared hardening: JSON only, loopback hosts only
    assert client.post(f"/api/pages/{pid}/explore", content="players=2",
                       headers={"Content-Type": "application/x-www-form-urlencoded"}).status_code == 415
    assert TestClient(client.app, base_url="http://evil.example").get("/api/setup").status_code == 400


def test_forbidden_island_updates_through_the_same_interface(client):
    pid = new_page(client)
    body = {"request": 1, "game": "forbidden-island", "players": [2, 4], "seed": 4, "games": 2000,
            "setting": {"rules": {"difficulty": "elite"}, "policy": "expert"}}
    assert client.post(f"/api/pages/{pid}/explore", json=body).status_code == 200
    done = wait_done(client, pid)
    assert done["state"] == "done" and done["game"] == "forbidden-island"
    assert [p["x"] for p in done["curve"]["points"]] == ["novice", "normal", "elite", "legendary"]
    assert done["curve"]["marked"] == "elite"
    row = done["counts"][1]
    want = simulate_json("--game", "forbidden-island", "--players", "4", "--difficulty", "elite", "--games", "2000",
                         "--seed", "4")
    assert row["setting"]["win_rate"] == want["win_rate"] and row["setting"]["rules"] == want["rules"]
    assert "forbidden-island" in done["commands"]["sweep_toml"]
    config = parse_config(tomllib.loads(done["commands"]["sweep_toml"]), "fi.toml")
    assert {c.rules.difficulty for c in config.cells} == {"elite"}


def test_a_competitive_game_updates_seat_by_seat_as_compare_pairs_them(client):
    pid = new_page(client)
    body = {"request": 1, "game": "survive-the-island", "players": [2, 4], "seed": 3, "games": 2000,
            "setting": {"rules": {"sharks": 3, "setup": "snake"}}}
    assert client.post(f"/api/pages/{pid}/explore", json=body).status_code == 200
    done = wait_done(client, pid)
    assert done["state"] == "done" and done["measure"] == "seat shares" and done["curve"] is None
    assert done["figures"] == ["rates", "causes"] and done["endings"] == list(game("survive-the-island").causes)
    row = done["counts"][1]
    seats = row["setting"]["seats"]
    assert [s["seat"] for s in seats] == [1, 2, 3, 4] and sum(s["win_share"] for s in seats) == pytest.approx(1)
    assert row["difference"] is None and "band" not in row
    want = simulate_json("--game", "survive-the-island", "--players", "4", "--sharks", "3", "--setup", "snake",
                         "--games", "2000", "--seed", "3")
    assert [s["win_share"] for s in seats] == [s["win_share"] for s in want["seats"]]
    g = game("survive-the-island")
    paired = compare(g.rules(players=4, sharks=3, setup="snake"), g.rules(players=4), "expert", 2000, seed=3)
    assert [d["side"] for d in row["differences"]] == [d["side"] for d in paired["differences"]]
    for got, expected in zip(row["differences"], paired["differences"], strict=True):
        assert got["a_minus_b"] == pytest.approx(expected["a_minus_b"])
        assert got["ci95"] == pytest.approx(expected["ci95"])
    furthest = max(abs(s["win_share"] - 0.25) for s in seats)
    assert row["furthest_from_fair"]["setting"] == pytest.approx(furthest)
    assert row["fair_share"]["setting"] == pytest.approx(0.25)  # every game has a winner (S14)
    for name in FIGURES:
        res = client.get(f"/api/pages/{pid}/figures/{name}.svg?job={done['job']}")
        if name in done["figures"]:
            assert res.status_code == 200 and "<title" in res.text
        else:
            assert res.status_code == 404 and name in res.json()["error"]
    assert "seat 4" in client.get(f"/api/pages/{pid}/figures/rates.svg?job={done['job']}").text


def test_setup_describes_every_control_with_a_label(client):
    setup = client.get("/api/setup").json()
    names = {g["name"] for g in setup["games"]}
    assert names == set(GAMES)
    sti = next(g for g in setup["games"] if g["name"] == "survive-the-island")
    assert sti["measure"] == "seat shares" and "board" not in {c["name"] for c in sti["controls"]}
    for g in setup["games"]:
        for control in g["controls"]:
            assert control["label"]
        assert any(p["name"] == g["default_policy"] for p in g["policies"])
    ie = next(g for g in setup["games"] if g["name"] == "island-escape")
    gauge = next(c for c in ie["controls"] if c["name"] == "gauge")
    assert [c["code"] for c in gauge["cards"]][-1] == "5D" and "5D" not in gauge["default"]


def test_the_store_keeps_runs_within_its_bound():
    g = game()
    store = E.RunStore(max_games=5000)
    first = store.get(g, g.rules(), "random", 1)
    first.grow(4000)
    second = store.get(g, g.rules(players=3), "random", 1)
    second.grow(3000)
    store.get(g, g.rules(players=4), "random", 1)  # over the bound: the least recently used goes
    assert len(store.runs) == 2 and store.get(g, g.rules(players=3), "random", 1) is second


def test_a_run_is_simulates_games_however_it_grows():
    g = game()
    rules = g.rules(players=3)
    run = E.Run(g, rules, "greedy", 4)
    for target in (300, 700, 1000):
        run.grow(target, batch=256)
    raw = g.run_games(rules, "greedy", 1000, 4)
    assert (run.cause[:1000] == raw[:, 0]).all() and (run.turns[:1000] == raw[:, 1]).all()


@pytest.mark.parametrize("name", GAMES)
def test_a_run_keeps_every_column_its_summary_reads(name):
    # what a run keeps of a game is enough for the game's own summary of the full rows
    g = game(name)
    rules = g.rules(players=g.players[1])
    run = E.Run(g, rules, g.default_policy, 2)
    run.grow(300)
    raw = g.run_games(rules, g.default_policy, 300, 2)
    tally = g.tally(rules, g.default_policy)
    tally.add(raw)
    assert run.summary() == tally.result()
    assert (run.sides(300)[1] == tally.sides(raw)[1]).all()


def test_the_first_answer_waits_in_a_thread_not_the_server(client):
    # another request is answered while an update plays its first games
    pid = new_page(client)
    done = threading.Event()

    def slow() -> None:
        client.post(f"/api/pages/{pid}/explore", json={**UPDATE, "seed": 1234, "request": 5})
        done.set()

    thread = threading.Thread(target=slow)
    thread.start()
    assert client.get("/api/setup").status_code == 200
    thread.join(120)
    assert done.is_set()
