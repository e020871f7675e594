"""`nano-vx explore`: the recording of every pass and the self-contained page made of it."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from nano_vx.cli import main
from nano_vx.diagnostics import Diagnostics
from nano_vx.explore.page import page_data, page_html
from nano_vx.explore.record import record_spatial, record_vx
from nano_vx.pipeline import NATIVE
from nano_vx.source import Source

# Slow (the whole suite's, not the inner loop's): `nano-vx explore` recording every pass.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
RESIDENCY = ROOT / "examples/correlation/01_residency_across_a_call.vx"


@pytest.fixture(scope="module")
def refused():
    """The first correlation program, refused by check-visibility (E6003 at 15:9)."""
    source = Source(str(RESIDENCY), RESIDENCY.read_text())
    return page_data(record_vx(source, Diagnostics()))


def by_name(data) -> dict:
    return {p["name"]: p for p in data["passes"]}


def test_every_pass_of_the_table_is_listed_and_those_after_the_refusal_did_not_run(refused):
    assert [p["name"] for p in refused["passes"]] == NATIVE.names()
    ran = [p["name"] for p in refused["passes"] if p["ran"]]
    assert ran[-1] == refused["stopped_at"] == "check-visibility"
    assert not any(p["ran"] for p in refused["passes"][len(ran):])


def test_a_rewrite_changes_the_il_and_an_analysis_does_not(refused):
    passes = by_name(refused)
    names = passes["resolve-names"]
    assert (names["input"], names["output"], names["kind"]) == ("Ltransfers", "Lresolved",
                                                                "rewrite")
    assert names["changed"] and names["before"] != names["after"]
    assert [op[0] for op in names["ops"]].count("replace") >= 1
    check = passes["check-constants"]
    assert check["kind"] == "analysis" and not check["changed"]
    assert check["before"] == check["after"] and check["ops"][0][0] == "equal"
    assert passes["parse"]["input"] == "text"
    assert refused["versions"][passes["parse"]["before"]]["language"] == "text"


def test_each_distinct_il_text_is_stored_once(refused):
    ran = [p for p in refused["passes"] if p["ran"]]
    distinct = {p["after"] for p in ran} | {p["before"] for p in ran}
    assert len(refused["versions"]) == len(distinct) < 2 * len(ran)
    changed = sum(p["changed"] for p in ran)
    assert len(refused["versions"]) == changed + 1  # the program text, then one per change


def test_the_texts_are_highlighted_lines_and_the_pictures_inline_svg(refused):
    after = refused["versions"][by_name(refused)["resolve-names"]["after"]]
    assert after["language"] == "Lresolved"
    assert after["lines"][0].startswith('<span class="kd">fn</span>')
    assert after["svg"].startswith("<svg") and "</svg>" in after["svg"]
    assert "Lresolved" in after["svg"]  # the picture's title


def test_the_pass_that_reported_carries_its_diagnostic_with_its_line(refused):
    visibility = by_name(refused)["check-visibility"]
    [d] = visibility["diagnostics"]
    assert (d["code"], d["severity"]) == ("E6003", "error")
    assert d["places"] == [{"file": str(RESIDENCY), "line": 15, "column": 9, "label": ""}]
    assert d["text"].startswith("error[E6003]: 'kv' lives in GPU_HBM")
    assert sum(len(p["diagnostics"]) for p in refused["passes"]) == 1
    assert refused["unplaced"] == []


def test_the_languages_are_shown_flat_and_as_a_delta(refused):
    names = by_name(refused)["resolve-names"]
    assert names["delta"].startswith("--- Ltransfers\n+++ Lresolved\n")
    assert "+ Expr ::= Local(name: uname)" in names["delta"]
    assert refused["languages"]["Lresolved"].startswith("language Lresolved (extends "
                                                        "Ltransfers)")
    assert by_name(refused)["check-constants"]["delta"] == \
        "(no change: Lresolved is the pass's input IL)"


def test_a_pass_that_provides_a_fact_shows_it(refused):
    facts = by_name(refused)["check-memory-declarations"]["facts"]
    assert list(facts) == ["model"] and "GPU_HBM" in facts["model"]


def test_the_page_is_one_self_contained_file(tmp_path):
    out = tmp_path / "page.html"
    err = io.StringIO()
    assert main(["explore", str(RESIDENCY), "-o", str(out)], stdout=io.StringIO(),
                stderr=err) == 0
    ran = NATIVE.names().index("check-visibility") + 1
    assert err.getvalue().endswith(f"nano-vx: wrote {out}: {ran} of {len(NATIVE)} passes\n")
    assert "error[E6003]" in err.getvalue()
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>")
    # Nothing to fetch: no external script, stylesheet, image or font.
    assert not re.search(r"<(?:script|link|img|iframe)[^>]+(?:src|href)=", page)
    assert "@import" not in page and "url(" not in page
    data = page[page.index('<script id="data" type="application/json">') + 42:]
    data = data[:data.index("</script>")]
    assert json.loads(data)["program"] == str(RESIDENCY)


def test_nothing_in_the_data_can_close_its_script_element():
    text = 'fn main() { print("</script><script>alert(1)</script><!--"); }\n'
    source = Source("x.vx", text)
    page = page_html(record_vx(source, Diagnostics()), graphs=False)
    data = page[page.index('type="application/json">'):]
    data = data[:data.index("</script>")]
    assert "alert" in data and "<!--" not in data
    assert page.count("</script>") == 2


def test_the_spatial_lane_is_explored_from_the_programs_il():
    path = ROOT / "examples/spatial/gemv.sdf"
    data = page_data(record_spatial(Source(str(path), path.read_text()), "wormhole"))
    assert [p["name"] for p in data["passes"]][0] == "tile"
    assert [p["name"] for p in data["passes"]][-1] == "schedule"
    assert all(p["ran"] and p["changed"] for p in data["passes"])
    assert data["lane"] == "spatial" and data["source"][0].startswith('<span class="c1">')
    assert data["versions"][data["passes"][-1]["after"]]["language"] == "Schoreographed"


def test_a_spatial_refusal_names_the_pass():
    path = ROOT / "examples/spatial/gemv.sdf"
    source = Source(str(path), path.read_text().replace("gemv", "gemv "))
    data = page_data(record_spatial(source, "no-such-target"))
    assert data["passes"] == [] and data["unplaced"][0]["code"] == "E7004"


@pytest.mark.parametrize("argv,message", [
    (["explore"], "explore: no program"),
    (["explore", "examples/spatial/gemm.sdf"], "a spatial program needs --target"),
    (["explore", "examples/tour.vx", "--target", "wormhole"], "--target is for a spatial"),
    (["examples/tour.vx", "-o", "tour.html"],
     "nano-vx: error: -o is not an option of nano-vx FILE (it belongs to nano-vx explore)"),
    (["examples/tour.vx", "--no-graphs"], "--no-graphs is not an option of nano-vx FILE"),
    (["explore", "examples/spatial/gemm.sdf", "--target", "wormhole", "--host", "default"],
     "explore: --host is for a Vx program; a spatial program (.sdf) takes --target"),
    (["explore", "examples/tour.vx", "--action", "check"],
     "nano-vx explore: error: --action is not an option of nano-vx explore (it belongs to "
     "nano-vx FILE)"),
])
def test_usage_errors(argv, message, monkeypatch):
    monkeypatch.chdir(ROOT)
    err = io.StringIO()
    assert main(argv, stdout=io.StringIO(), stderr=err) == 2
    assert message in err.getvalue()


def test_a_file_that_is_not_text_is_refused_without_a_page(tmp_path):
    bad = tmp_path / "bad.vx"
    bad.write_bytes(b"fn main() { \xff }\n")
    err = io.StringIO()
    assert main(["explore", str(bad), "-o", str(tmp_path / "p.html")], stdout=io.StringIO(),
                stderr=err) == 1
    assert "error[E1004]" in err.getvalue() and not (tmp_path / "p.html").exists()


def test_a_pass_of_the_spatial_lane_that_refuses_shows_what_it_was_given(tmp_path):
    # A site of 64 bytes holds no tile of the GEMM (one that sums its K-blocks fits 256 bytes):
    # tile refuses (E7010), given the program.
    wormhole = (ROOT / "machines/spatial/wormhole.toml").read_text()
    target = tmp_path / "small.toml"
    target.write_text(re.sub(r"^sram_bytes = .*", "sram_bytes = 64", wormhole, count=1,
                             flags=re.MULTILINE))
    path = ROOT / "examples/spatial/gemm.sdf"
    recording = record_spatial(Source(str(path), path.read_text()), str(target))
    tile, *rest = recording.steps
    assert recording.stopped_at == "tile" and tile.ran and not any(s.ran for s in rest)
    assert tile.before is tile.after and tile.before._language.name == "Sdataflow"
    assert [d.code for d in tile.diagnostics] == ["E7010"]
    assert tile.diagnostics[0].message.startswith("tile cannot apply: ")
