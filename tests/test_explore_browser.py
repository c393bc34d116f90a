"""The explorer in a real browser (Chromium from the system's packages, driven by Selenium): the
page loads and answers, a gauge card is switched off by clicking and on again by keyboard, and
the win rate the page shows is `simulate`'s for the same games; every control is labelled; the
copy button gives a sweep file. With EXPLORE_SCREENSHOT=PATH it saves the README's screenshot."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("selenium", reason="the play extra is installed by make test")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from experiments.explore.server import create_app  # noqa: E402
from tests.play_support import ServerThread, chrome  # noqa: E402

SEED = 5
GAMES = 2000  # the first answer's games: the page is done as soon as the curve and the search beside it are


@pytest.fixture
def browser():
    driver = chrome(1360, 1500)
    yield driver
    driver.quit()


def simulate_rate(*options: str) -> dict:
    out = subprocess.run([sys.executable, "-m", "experiments.cli", "simulate", "--json", "--seed", str(SEED),
                          *options], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


# An element without a name a screen reader can announce: no label, no aria-label or -labelledby,
# no text of its own.
UNNAMED = """
return [...document.querySelectorAll('input, select, textarea, button')].filter((e) => {
  if (e.closest('[hidden]') || e.type === 'hidden') return false;
  const named = (e.labels && e.labels.length) || e.getAttribute('aria-label') || e.getAttribute('aria-labelledby')
    || (e.tagName === 'BUTTON' && e.textContent.trim());
  return !named;
}).map((e) => e.outerHTML.slice(0, 80));
"""


def test_switching_a_gauge_card_off_shows_simulates_win_rate(browser):
    app = create_app({"players": [2, 3], "seed": SEED, "games": GAMES})
    wait = WebDriverWait(browser, 300)

    def body(name: str) -> str:
        return browser.find_element(By.TAG_NAME, "body").get_attribute(f"data-{name}")

    def settled(request: int) -> None:
        wait.until(lambda d: body("request") == str(request) and body("state") == "done")

    def shown(players: int) -> tuple[float, int, str]:
        cell = browser.find_element(By.CSS_SELECTOR, f'#rates tr[data-players="{players}"] td[data-role=setting]')
        return float(cell.get_attribute("data-win-rate")), int(cell.get_attribute("data-games")), cell.text

    with ServerThread(app) as url:
        browser.get(url + "/")
        settled(1)
        assert browser.execute_script(UNNAMED) == []
        rulebook, games, _ = shown(2)
        assert games == GAMES
        card = browser.find_element(By.CSS_SELECTOR, 'button[data-card="AC"]')
        assert card.get_attribute("aria-pressed") == "true"
        card.click()
        settled(2)
        assert card.get_attribute("aria-pressed") == "false"
        assert "off the gauge" in card.get_attribute("aria-label")
        rate, games, text = shown(2)
        want = simulate_rate("--players", "2", "--gauge", "AD 2C 2D 3C 3D 4C 4D 5C", "--games", str(games))
        assert rate == want["win_rate"] and f"{100 * want['win_rate']:.2f}%" in text
        assert rate < rulebook  # the water starts a card higher
        three = shown(3)[0]
        assert three == simulate_rate("--players", "3", "--gauge", "AD 2C 2D 3C 3D 4C 4D 5C", "--games",
                                      str(games))["win_rate"]
        # the figures are drawn, each with a title a screen reader reads
        for name in ("rates", "curve", "causes", "hazard"):
            wait.until(lambda d, name=name: d.find_elements(By.CSS_SELECTOR, f"#figure-{name} svg title"))
        browser.find_element(By.CSS_SELECTOR, 'button[data-copy="sweep_toml"]').click()
        copied = browser.find_element(By.ID, "copied").get_attribute("value")
        assert "[grid]" in copied and 'gauge = "AD 2C 2D 3C 3D 4C 4D 5C"' in copied
        if os.environ.get("EXPLORE_SCREENSHOT"):
            browser.save_screenshot(os.environ["EXPLORE_SCREENSHOT"])
        # the card goes back on by keyboard: the rulebook's numbers again
        card.send_keys(Keys.SPACE)
        settled(3)
        assert card.get_attribute("aria-pressed") == "true" and shown(2)[0] == rulebook
        # undo brings the card off again, with the same numbers as before
        browser.find_element(By.ID, "undo").click()
        settled(4)
        assert shown(2)[0] == rate


def test_a_competitive_game_shows_each_seats_share_as_a_rule_changes(browser):
    app = create_app({"game": "survive-the-island", "players": [3, 4], "seed": SEED, "games": GAMES})
    wait = WebDriverWait(browser, 300)

    def body(name: str) -> str:
        return browser.find_element(By.TAG_NAME, "body").get_attribute(f"data-{name}")

    def settled(request: int) -> None:
        wait.until(lambda d: body("request") == str(request) and body("state") == "done")

    def shares(players: int) -> list[float]:
        cells = browser.find_elements(By.CSS_SELECTOR, f'#rates tr[data-players="{players}"] td[data-role=setting]')
        return [float(c.get_attribute("data-share")) for c in cells]

    with ServerThread(app) as url:
        browser.get(url + "/")
        settled(1)
        assert browser.find_element(By.ID, "rates-title").text == "Share of the win by seat"
        assert not browser.find_element(By.ID, "curve-part").is_displayed()
        assert not browser.find_element(By.ID, "hazard-part").is_displayed()
        assert browser.execute_script(UNNAMED) == []
        rulebook = shares(4)
        assert len(rulebook) == 4 and sum(rulebook) == pytest.approx(1)
        sharks = browser.find_element(By.ID, "rule-sharks")
        sharks.send_keys(Keys.CONTROL, "a")
        sharks.send_keys("2", Keys.TAB)
        settled(2)
        want = simulate_rate("--game", "survive-the-island", "--players", "4", "--sharks", "2",
                             "--games", str(GAMES))
        assert shares(4) == [s["win_share"] for s in want["seats"]]
        differences = browser.find_elements(By.CSS_SELECTOR, '#rates tr[data-players="4"] td[data-difference]')
        assert [float(d.get_attribute("data-difference")) for d in differences] == pytest.approx(
            [a - b for a, b in zip(shares(4), rulebook, strict=True)])
        for name in ("rates", "causes"):
            wait.until(lambda d, name=name: d.find_elements(By.CSS_SELECTOR, f"#figure-{name} svg title"))
        assert not browser.find_elements(By.CSS_SELECTOR, "#figure-hazard svg")
        assert "furthest seat" in browser.find_element(By.ID, "card").get_attribute("textContent")
