"""Helpers for the play page's tests (not a test module): hidden information, a short game with
an escape choice, the server in a thread."""

from __future__ import annotations

import random
import re
import socket
import threading
import time

from policies.island_escape.table import Session, kernel_island
from sim.island_escape.engine import DOWN
from sim.island_escape.rules import HELICOPTER, Rules, is_king, pretty

# Two gauge cards at level 2: two floods a turn, the water rises after five and the game is lost
# to the water after ten at the latest (R14), so a whole game is about five turns.
SHORT_RULES = Rules(players=1, gauge=("2C", "2D"))


def hidden_cards(session: Session) -> list[str]:
    """The identities R19 hides: the cards of face-down tiles."""
    return [t.card for t in session.game.board.values() if t.state == DOWN]


def leaks(text: str, cards: list[str]) -> list[str]:
    """Hidden cards named in `text`, by code (8H) or as drawn (8♥)."""
    found = []
    for card in cards:
        for name in (card, pretty(card)):
            if re.search(rf"(?<![0-9A-Za-z]){re.escape(name)}(?![0-9A-Za-z])", text):
                found.append(card)
                break
    return found


def walk(start: tuple[int, int], goal: tuple[int, int]) -> list[str]:
    """Moves from start to goal: columns first, then rows (every place is a tile in turn 1)."""
    (c, r), (gc, gr) = start, goal
    moves = ["move right" if gc > c else "move left"] * abs(gc - c)
    return moves + ["move down" if gr > r else "move up"] * abs(gr - r)


def escape_plan(rules: Rules = SHORT_RULES, seeds=range(2000)) -> tuple[int, list[str]]:
    """A seed and turn-1 moves for pawn 0 after which, with every later turn passed, pawn 0's
    place sinks under it and it has at least two places to swim to (an R15 choice)."""
    for seed in seeds:
        layout, floods = kernel_island(seed, 0, 2)
        twice = set(floods[:5]) & set(floods[5:10])
        for place in sorted(twice):
            moves = walk(HELICOPTER, place)
            if place == HELICOPTER or is_king(layout[place]) or len(moves) > rules.actions_per_turn:
                continue
            if choice_comes(Session("probe", rules, seed, records_dir=None), moves):
                return seed, moves
    raise AssertionError("no seed gives an escape choice")


def choice_comes(session: Session, moves: list[str]) -> bool:
    for m in moves:
        session.act(0, m)
    while session.phase != "over":
        if session.phase == "escape":
            return True
        if session.phase == "flood":
            session.flood()
        elif session.phase == "actions":
            session.act(session.game.current_pawn, "end")
    return False


def play_randomly(session_call, state: dict, rng: random.Random) -> dict:
    """One step of a random table through the API: an action, the end of the turn, a flood or an escape."""
    if state["phase"] == "actions":
        if state["actions"] and rng.random() < 0.75:
            entry = rng.choice(state["actions"])["entry"]
        else:
            entry = "end"
        return session_call("action", {"pawn": state["pawn"], "action": entry})
    if state["phase"] == "flood":
        return session_call("flood", {})
    if state["phase"] == "escape":
        option = rng.choice(state["escape"]["options"])["place"]
        return session_call("escape", {"pawn": state["escape"]["pawn"], "place": option})
    raise AssertionError(f"no step in phase {state['phase']}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerThread:
    """uvicorn serving an app on 127.0.0.1 in a background thread."""

    def __init__(self, app):
        import uvicorn

        self.port = free_port()
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self):
        self.thread.start()
        deadline = time.time() + 30
        while not self.server.started:
            if time.time() > deadline:
                raise RuntimeError("the play server did not start")
            time.sleep(0.05)
        return f"http://127.0.0.1:{self.port}"

    def __exit__(self, *exc):
        self.server.should_exit = True
        self.thread.join(10)


def chrome(width: int = 1360, height: int = 860):
    """Chromium from the system's packages, headless, driven by Selenium (the play extra)."""
    import shutil
    from pathlib import Path

    import pytest
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver") or "/usr/lib/chromium/chromedriver"
    if not binary or not Path(driver).exists():
        pytest.fail("Chromium and its driver are needed (make test installs the Debian packages "
                    "chromium and chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={width},{height}"):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(driver), options=options)
