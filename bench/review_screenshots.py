"""Screenshots of the review page's main views, for docs/review.md: point it at a running ``claimforge review``.

    claimforge review out/gsci --port 8798 &          # prints the URL with its token
    python bench/review_screenshots.py "http://127.0.0.1:8798/?token=..." --dataset gsci --out docs/review

Needs Playwright (the dev extra) and a Chromium (Debian: apt-get install chromium). It sets the annotator name
``screenshots`` in its own browser profile and grades nothing.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path
from urllib.parse import quote


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("url", help="the URL claimforge review printed (with its token)")
    ap.add_argument("--dataset", required=True)
    ap.add_argument("--example", help="the example to show (default: the first REFUTED one listed)")
    ap.add_argument("--out", type=Path, default=Path("docs/review"))
    ap.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    a = ap.parse_args()
    from playwright.sync_api import sync_playwright

    from claimforge.review.app import CHROMIUM_FLAGS

    base = a.url.split("/?")[0]
    a.out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=a.chromium, args=list(CHROMIUM_FLAGS))
        page = browser.new_page(viewport={"width": 1280, "height": 860})
        page.goto(a.url)
        page.fill("#annotator-name", "screenshots")
        page.click("form.who button")
        page.wait_for_selector("form.who button:text('Change')")
        page.screenshot(path=str(a.out / "overview.png"), full_page=True)
        page.goto(f"{base}/examples?dataset={quote(a.dataset)}&label=REFUTED")
        page.wait_for_selector("#result-count")
        page.screenshot(path=str(a.out / "examples.png"))
        if a.example:
            page.goto(f"{base}/example/{quote(a.dataset, safe='')}/{quote(a.example, safe='')}")
        else:
            page.click("table.list tbody tr:first-child a")
        page.wait_for_selector("h1.claim")
        if page.query_selector("text=Score each sentence with the judge"):
            page.click("text=Score each sentence with the judge")
            page.wait_for_selector(".sentence .scores", timeout=120_000)
        page.screenshot(path=str(a.out / "example.png"))
        page.goto(f"{base}/blind?dataset={quote(a.dataset)}&n=60&seed=2026")
        page.wait_for_selector("main h1")
        page.screenshot(path=str(a.out / "blind.png"))
        page.goto(f"{base}/agreement")
        page.screenshot(path=str(a.out / "agreement.png"), full_page=True)
        browser.close()
    print(f"wrote {', '.join(sorted(p.name for p in a.out.glob('*.png')))} to {a.out}")


if __name__ == "__main__":
    main()
