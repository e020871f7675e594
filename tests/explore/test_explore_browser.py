"""The explorer page in a real browser: Debian's Chromium, headless, driven by Selenium through
Debian's chromedriver. The test loads a page `nano-vx explore` wrote, clicks passes, and
checks what a person would see: the diff, the picture, the diagnostics, the filter. It keeps a
screenshot of each page (in NANO_VX_SCREENSHOT_DIR when set, else pytest's tmp_path).

Where no browser is installed the tests skip, saying what to install; `.ci/run` installs it.
"""

from __future__ import annotations

import io
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from nano_vx.cli import main
from nano_vx.pipeline import NATIVE

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM, CHROMEDRIVER = shutil.which("chromium"), shutil.which("chromedriver")

pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None,
    reason="no browser: the explorer's browser tests need Debian's chromium and "
           "chromium-driver (apt-get install chromium chromium-driver; .ci/run installs them)")]


@pytest.fixture(scope="module")
def browser():
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed "
                                    "(pip install -e '.[test]')")
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="nano-vx-chromium-")
    # The machine has no network: without these, Chromium keeps trying to reach its services.
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--window-size=1400,1000",
                 f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.implicitly_wait(5)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def shots(tmp_path) -> Path:
    where = Path(os.environ.get("NANO_VX_SCREENSHOT_DIR") or tmp_path)
    where.mkdir(parents=True, exist_ok=True)
    return where


def explore(tmp_path, *argv) -> Path:
    page = tmp_path / "page.html"
    assert main(["explore", *argv, "-o", str(page)], stdout=io.StringIO(),
                stderr=io.StringIO()) == 0
    return page


def number(name: str) -> int:
    """The pass's place in the table, from 1, as the page numbers it."""
    return NATIVE.names().index(name) + 1


def script_errors(driver) -> list[str]:
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def test_clicking_a_pass_shows_its_diff_and_its_picture(browser, tmp_path):
    from selenium.webdriver.common.by import By

    page = explore(tmp_path, str(ROOT / "examples/correlation/01_residency_across_a_call.vx"))
    browser.get(page.as_uri())
    items = browser.find_elements(By.CSS_SELECTOR, "#passes li")
    assert len(items) == len(NATIVE)
    # The page opens on the pass that reported; the passes that changed nothing are grey.
    assert browser.find_element(By.ID, "title").text == f"{number('check-visibility')}. " \
                                                         f"check-visibility"
    grey = browser.find_elements(By.CSS_SELECTOR, "#passes li.unchanged")
    assert "check-constants" in [li.get_attribute("data-name") for li in grey]
    assert grey[0].value_of_css_property("color") != items[0].value_of_css_property("color") \
        or grey[0].find_element(By.CLASS_NAME, "name").value_of_css_property("color") == \
        "rgba(140, 149, 159, 1)"

    browser.find_element(By.ID, "pass-resolve-names").click()
    assert browser.find_element(By.ID, "title").text == f"{number('resolve-names')}. " \
                                                         f"resolve-names"
    assert browser.current_url.endswith("#pass=resolve-names")
    assert "Ltransfers \u2192 Lresolved" in browser.find_element(By.ID, "meta").text
    changed = browser.find_elements(By.CSS_SELECTOR, "#diff tr.replace")
    assert changed and all(row.is_displayed() for row in changed)
    old, new = (changed[0].find_element(By.CSS_SELECTOR, f"td.{side}.hl").text
                for side in ("old", "new"))
    assert (old.strip(), new.strip()) == ("let kv = stage_to_device();",
                                          "let kv = @stage_to_device();")
    assert changed[0].find_element(By.CSS_SELECTOR, "td.new.hl").value_of_css_property(
        "background-color") == "rgba(230, 255, 236, 1)"
    svg = browser.find_element(By.CSS_SELECTOR, "#graph svg")
    assert svg.is_displayed() and svg.size["width"] > 300 and svg.size["height"] > 200
    assert "Lresolved" in svg.text and "stage_to_device" in svg.text
    assert "+ Expr ::= Local(name: uname)" in browser.find_element(By.ID, "languages").text
    browser.save_screenshot(str(shots(tmp_path) / "explorer.png"))
    assert script_errors(browser) == []


def test_the_filter_and_the_diagnostic_links(browser, tmp_path):
    from selenium.webdriver.common.by import By

    page = explore(tmp_path, str(ROOT / "examples/correlation/01_residency_across_a_call.vx"))
    browser.get(page.as_uri() + "#pass=check-visibility")
    browser.find_element(By.ID, "filter").send_keys("resolve-")
    shown = [li.get_attribute("data-name")
             for li in browser.find_elements(By.CSS_SELECTOR, "#passes li") if li.is_displayed()]
    assert shown == ["resolve-type-paths", "resolve-names", "resolve-sub-space-ancestors"]
    diagnostic = browser.find_element(By.CSS_SELECTOR, ".diag.error")
    assert diagnostic.find_element(By.TAG_NAME, "pre").text.startswith("error[E6003]")
    diagnostic.find_element(By.CSS_SELECTOR, "a.place").click()
    line = browser.find_element(By.ID, "src-L15")
    assert "flash" in line.get_attribute("class") and "print(kv[0][0]);" in line.text
    assert script_errors(browser) == []


def test_the_spatial_lane_in_the_browser(browser, tmp_path):
    from selenium.webdriver.common.by import By

    page = explore(tmp_path, str(ROOT / "examples/spatial/gemm.sdf"), "--target", "wormhole")
    browser.get(page.as_uri())
    browser.find_element(By.ID, "pass-place").click()
    assert browser.find_element(By.ID, "title").text == "2. place"
    assert browser.find_elements(By.CSS_SELECTOR, "#diff tr.replace, #diff tr.ins")
    assert browser.find_element(By.CSS_SELECTOR, "#graph svg").is_displayed()
    browser.save_screenshot(str(shots(tmp_path) / "explorer-spatial.png"))
    assert script_errors(browser) == []
