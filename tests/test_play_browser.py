"""The play page in a real browser (Chromium from the system's packages, driven by Selenium):
one whole game played by clicking - moves, floods one by one, an escape choice (R15), the end -
with every answer of the server checked for hidden cards (R19), and the saved record replayed
by `island-escape replay` to the same end."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("selenium", reason="the play extra is installed by make test")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from experiments.play.server import create_app  # noqa: E402
from tests.play_support import SHORT_RULES, ServerThread, chrome, escape_plan, hidden_cards, leaks  # noqa: E402


class Recorder:
    """ASGI middleware: every response body, with the hidden cards of the game at that moment."""

    def __init__(self, app):
        self.app, self.seen = app, []

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        parts = []

        async def capture(message):
            if message["type"] == "http.response.body":
                parts.append(message.get("body", b""))
                if not message.get("more_body"):
                    hidden = [c for s in self.app.state.sessions.values() for c in hidden_cards(s)]
                    self.seen.append((scope["path"], b"".join(parts).decode("utf-8", "replace"), hidden))
            await send(message)

        await self.app(scope, receive, capture)


@pytest.fixture
def browser():
    driver = chrome()
    yield driver
    driver.quit()


def test_one_whole_game_by_clicking(browser, tmp_path):
    seed, moves = escape_plan()
    app = create_app(tmp_path / "records", {"players": 1, "seed": seed, "rules": SHORT_RULES.as_record()},
                     bots=("expert", "greedy", "novice"))
    recorder = Recorder(app)
    wait = WebDriverWait(browser, 60)

    def drawn() -> int:  # how many of the server's answers the page has drawn, board included
        return int(browser.find_element(By.ID, "board").get_attribute("data-step") or 0)

    def phase() -> str:
        return browser.find_element(By.TAG_NAME, "body").get_attribute("data-phase")

    def click(css: str) -> None:
        before = drawn()
        browser.find_element(By.CSS_SELECTOR, css).click()
        wait.until(lambda d: drawn() > before)

    with ServerThread(recorder) as url:
        browser.get(url + "/")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "input[name=level]")
                   or "no difficulty report" in d.find_element(By.ID, "level-choice").text)
        assert browser.find_element(By.ID, "seed").get_attribute("value") == str(seed)
        browser.find_element(By.ID, "start-button").click()
        wait.until(lambda d: drawn() == 1)
        for m in moves:  # walk pawn 0 onto the place that will sink under it
            click(f'button[data-entry="{m}"]')
        assert browser.find_element(By.ID, "message").text == ""
        floods = escapes = 0
        screenshot_taken = False
        while True:
            now = phase()
            if now == "over":
                break
            if now == "actions":
                click("#end-turn")
            elif now == "flood":
                click("#flood")
                floods += 1
            elif now == "escape":
                buttons = browser.find_elements(By.CSS_SELECTOR, "button[data-escape]")
                assert len(buttons) >= 2
                target = buttons[1].get_attribute("data-escape")
                if not screenshot_taken and os.environ.get("PLAYTEST_SCREENSHOT"):
                    browser.save_screenshot(os.environ["PLAYTEST_SCREENSHOT"])
                    screenshot_taken = True
                click(f'button[data-escape="{target}"]')
                escapes += 1
            else:
                raise AssertionError(f"unexpected phase {now}")
        assert floods >= 3 and escapes == 1
        end = browser.find_element(By.ID, "end")
        assert end.is_displayed()
        record_name = browser.find_element(By.ID, "record-path").text
        verdict = end.find_element(By.CLASS_NAME, "verdict").text
        # the bots play in a worker process; on a cold numba cache each compiles first (~20 s)
        WebDriverWait(browser, 400).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "tr[data-bot]")) == 3)
        bots = {r.get_attribute("data-bot") for r in browser.find_elements(By.CSS_SELECTOR, "tr[data-bot]")}
        assert bots == {"expert", "greedy", "novice"}

    session = next(iter(app.state.sessions.values()))
    game = session.game
    assert game.over and verdict in ("You escaped!", f"Lost ({game.outcome})")
    assert any(entry.startswith("escape 0 ") for turn in session.turns for entry in turn)

    # R19: no answer while the game ran named a face-down card
    in_game = [(path, body, hidden) for path, body, hidden in recorder.seen if path.startswith("/api/games")]
    assert len(in_game) > 2 * floods
    for path, body, hidden in in_game:
        assert not leaks(body, hidden), (path, leaks(body, hidden))

    # the record replays with `island-escape replay` to the same end
    record_path = str(tmp_path / "records" / record_name)  # the page names the file, not the server's folder
    out = subprocess.run([sys.executable, "-m", "experiments.cli", "replay", "--json", record_path],
                         capture_output=True, text=True, check=True)
    replayed = json.loads(out.stdout)
    assert replayed["cause"] == game.outcome
    assert replayed["turns"] == game.turn and replayed["floods"] == game.floods
    assert replayed["final"] == game.final_state()
