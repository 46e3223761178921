"""The review page in a real browser: headless Chromium (Debian's ``chromium``; nothing downloads a browser) driven
by Playwright against a real server on 127.0.0.1. Skips with the reason where Playwright or the browser is missing.

``CLAIMFORGE_SCREENSHOTS=DIR`` saves the main views there (docs/review.md shows them)."""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from claimforge.review.app import CHROMIUM_FLAGS, make_server
from claimforge.review.store import ReviewStore, load_datasets

from .test_review import FakeChecker

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e '.[dev]')")
CHROMIUM = os.environ.get("CLAIMFORGE_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium browser (Debian: apt-get install chromium; or set CLAIMFORGE_CHROMIUM)"
)
SHOTS = os.environ.get("CLAIMFORGE_SCREENSHOTS")


def _shot(page: Any, name: str, full: bool = False) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=full)


@pytest.fixture
def server(toy_build: Path) -> Iterator[tuple[str, str, Path]]:
    store = ReviewStore(load_datasets([toy_build]))
    srv, sock, url = make_server(store, 0, lambda full: FakeChecker())
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.time() + 10
    while not srv.started and time.time() < deadline:
        time.sleep(0.05)
    assert srv.started, "the review server did not start within 10 s"
    base = url.split("/?")[0]
    try:
        yield url, base, toy_build
    finally:
        srv.should_exit = True
        thread.join(10)


@pytest.fixture
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=list(CHROMIUM_FLAGS))
        try:
            yield b
        finally:
            b.close()


def _open(browser: Any, url: str, name: str) -> Any:
    page = browser.new_context(viewport={"width": 1280, "height": 860}, accept_downloads=True).new_page()
    page.set_default_timeout(10_000)
    page.goto(url)
    page.fill("#annotator-name", name)
    page.click("form.who button")
    page.wait_for_selector("form.who button:text('Change')")  # the page reloaded under the name
    _ready(page)
    return page


def _ready(page: Any) -> None:
    """The page's own script (keyboard grading) is in place."""
    page.wait_for_function("window.claimforgeReview === true")


def _wait_graded(page: Any, done: int, total: int) -> None:
    """After a blind grade: the next example's page (or the round's end) has loaded."""
    want = f"Done: {total} of {total} graded" if done == total else f"{done} of {total} graded"
    page.wait_for_function(
        f"document.querySelector('main') && document.querySelector('main').innerText.includes({want!r})"
    )
    _ready(page)


def test_browse_filter_grade_and_reload(server: tuple[str, str, Path], browser: Any) -> None:
    url, base, folder = server
    page = _open(browser, url, "alice")
    assert "token=" not in page.url  # the token left the address bar
    assert "12 examples" in page.inner_text("main")
    _shot(page, "overview", full=True)
    page.click("a.button:has-text('Browse')")
    page.wait_for_selector("#result-count")
    assert page.inner_text("#result-count").startswith("12 examples")
    page.select_option("select[name=label]", "REFUTED")  # htmx swaps the table, the URL follows
    page.wait_for_function("document.querySelector('#result-count').innerText.startsWith('4 examples')")
    assert page.url.endswith("/examples?dataset=toybuild&label=REFUTED")  # filters left at "any" stay out
    page.fill("#q", "number 10")
    page.wait_for_function("document.querySelector('#result-count').innerText.startsWith('1 example')")
    page.fill("#q", "")
    page.select_option("select[name=label]", "")
    page.wait_for_function("document.querySelector('#result-count').innerText.startsWith('12 examples')")
    _shot(page, "examples")
    page.click("table.list tbody tr:first-child a")
    page.wait_for_selector("h1.claim")
    page.click("text=Score each sentence with the judge")
    page.wait_for_selector(".sentence.decisive")
    page.check("form.grade input[name=label][value=SUPPORTED]")
    page.check("form.grade input[name=fluency][value='3']")
    page.fill("form.grade input[name=comment]", "clear")
    page.click("form.grade button[type=submit]")
    page.wait_for_selector("#grade-msg .saved")
    page.click("form.fix button[value=reject]")  # no reason: the error shows on the page
    page.wait_for_selector("#fix-status .error")
    assert "needs a reason" in page.inner_text("#fix-status")
    page.select_option("form.fix select[name=label]", "NOT_ENOUGH_INFO")
    page.fill("form.fix input[name=reason]", "the dose is not in the evidence")
    page.click("form.fix button[value=relabel]")
    page.wait_for_selector("#fix-status .fixmark")
    _shot(page, "example", full=True)
    page.reload()  # everything is still there
    assert page.is_checked("form.grade input[name=label][value=SUPPORTED]")
    assert page.input_value("form.grade input[name=comment]") == "clear"
    assert "relabel" in page.inner_text("#fix-status")
    assert (folder / "review" / "grades.jsonl").read_text().count("alice") == 1
    assert (folder / "review" / "patch.jsonl").is_file()


def test_blind_round_two_annotators_agreement_and_export(server: tuple[str, str, Path], browser: Any) -> None:
    url, base, folder = server
    alice = _open(browser, url, "alice")
    alice.goto(f"{base}/blind?dataset=toybuild&n=4&seed=3")
    _ready(alice)
    assert "0 of 4 graded" in alice.inner_text("main")
    alice.keyboard.press("Enter")  # no label yet: the browser asks for one, nothing is saved
    assert "0 of 4 graded" in alice.inner_text("main")
    assert not alice.query_selector(".badge")  # the label is hidden
    _shot(alice, "blind")
    for i, key in enumerate(("1", "2")):  # keyboard: a label, then Enter
        alice.keyboard.press(key)
        alice.keyboard.press("Enter")
        _wait_graded(alice, i + 1, 4)
    alice.reload()  # a closed tab loses nothing
    _ready(alice)
    assert "2 of 4 graded" in alice.inner_text("main")
    for i in range(2, 4):  # the mouse
        alice.click("form.grade label.choice.NOT_ENOUGH_INFO")
        alice.click("form.grade button[type=submit]")
        _wait_graded(alice, i + 1, 4)
    assert "your labels agree with the dataset" in alice.inner_text("main")
    _shot(alice, "blind_done")

    bob = _open(browser, url, "bob")
    bob.goto(f"{base}/blind?dataset=toybuild&n=4&seed=3")
    _ready(bob)
    for i in range(4):
        bob.keyboard.press("3")
        bob.keyboard.press("Enter")
        _wait_graded(bob, i + 1, 4)
    bob.goto(f"{base}/agreement")
    text = bob.inner_text("main")
    assert "alice" in text and "bob" in text and "Krippendorff" in text
    label_row = bob.inner_text("table.list >> nth=2")  # the α table: label over 4 shared examples
    assert "label" in label_row and "nominal" in label_row
    _shot(bob, "agreement", full=True)
    with bob.expect_download() as dl:
        bob.click("a[href*='claims.csv']")
    path = dl.value.path()
    assert path is not None and Path(path).read_text(encoding="utf-8-sig").startswith("item_id,source_sentence")
    lines = (folder / "review" / "grades.jsonl").read_text().splitlines()
    assert len(lines) == 8 and all('"blind": true' in line for line in lines)
