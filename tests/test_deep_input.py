"""Deep and long input: the parser's bound on the depth of a tree is the one limit.

A program exactly MAX_TREE_DEPTH levels deep (a chain of `+`: each operator one level) runs
through every pass, the reference interpreter and every dump, each the way the command line
runs it (`nano_vx.cli.main`, so on the deep thread of nano_vx.deep); one level more is
E1003, reported like any error. SVG is dot handed to Graphviz: its Python side is the dot
dump tested here, and its layout time grows with the size of the graph, not its depth (see
tests/test_cli.py for SVG itself)."""

import io
import json
import types

import pytest

from nano_vx import driver
from nano_vx.cli import main
from nano_vx.deep import run_deep
from nano_vx.languages.lsrc import Lsrc
from nano_vx.parser import parse_text
from nano_vx.parser.limits import MAX_TREE_DEPTH, tree_depth
from nano_vx.pipeline import PIPELINE

# Slow (the whole suite's, not the inner loop's): programs at the parser's bound through every
# pass, dump and run.
pytestmark = pytest.mark.slow

# Above the chain: Fn, its Block, the Let; below it, a literal.
ABOVE_AND_BELOW = 4


def chain(depth: int) -> tuple[str, int]:
    """A program whose `fn main` is `depth` levels deep, and the sum it prints."""
    terms = depth - ABOVE_AND_BELOW + 1
    return "fn main() { let x = " + " + ".join(["1"] * terms) + "; print(x); }\n", terms


def cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    status = main([str(a) for a in argv], stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def at_bound(tmp_path_factory):
    text, total = chain(MAX_TREE_DEPTH)
    program, diagnostics = parse_text(text)
    assert diagnostics.codes() == []
    assert tree_depth(program.items[0]) == (MAX_TREE_DEPTH, None)
    path = tmp_path_factory.mktemp("deep") / "deep.vx"
    path.write_text(text)
    return path, total


def test_at_the_bound_the_interpreter_runs_the_program(at_bound):
    path, total = at_bound
    assert cli(path) == (0, f"{total}\n", "")


def test_at_the_bound_every_pass_runs_and_its_text_dump_renders(at_bound, tmp_path):
    path, _ = at_bound
    status, out, err = cli(path, "--action", "check", "--timing", "--dump-after=all",
                           f"--dump-dir={tmp_path}")
    assert status == 0 and out == ""
    timed = [line.split()[0] for line in err.splitlines()[1:-1]]
    assert timed == PIPELINE.names()
    dumps = sorted(tmp_path.iterdir())
    assert len(dumps) == len(PIPELINE)
    assert all(dump.read_text().count(" + 1") == MAX_TREE_DEPTH - ABOVE_AND_BELOW
               for dump in dumps[1:])


@pytest.mark.parametrize("fmt", ["dot", "json"])
def test_at_the_bound_every_dump_format_renders(at_bound, tmp_path, fmt):
    path, _ = at_bound
    status, out, err = cli(path, "--action", "check", "--dump-after=all",
                           f"--dump-format={fmt}", f"--dump-dir={tmp_path}")
    assert (status, out, err) == (0, "", "")
    dumps = sorted(tmp_path.iterdir())
    assert len(dumps) == len(PIPELINE)
    last = dumps[-1].read_text()
    if fmt == "json":
        program = run_deep(json.loads, last)  # as deep to read as to write
        assert program["fields"]["items"][0]["fields"]["name"] == "main"
    else:
        assert last.count('label="Binary') == MAX_TREE_DEPTH - ABOVE_AND_BELOW


@pytest.mark.parametrize("depth", [MAX_TREE_DEPTH + 1, 100_000])
def test_past_the_bound_is_e1003_not_a_traceback(tmp_path, depth):
    path = tmp_path / "deep.vx"
    path.write_text(chain(depth)[0])
    status, out, err = cli(path)
    assert (status, out) == (1, "")
    assert err.startswith(f"error[E1003]: this nests {depth} levels deep, past the limit of "
                          f"{MAX_TREE_DEPTH}")
    assert " --> " + f"{path}:1:21" in err and "help: split the expression with `let`" in err
    assert "Traceback" not in err


def test_the_internal_error_report_survives_a_tree_too_deep_to_print(tmp_path, monkeypatch):
    # A pass that built a tree deeper than any walker goes: its report says so, rather
    # than dying in the printer and again in repr.
    tree = Lsrc["Int"](1)
    for _ in range(100_000):
        tree = Lsrc["Binary"]("+", tree, Lsrc["Int"](1))
    monkeypatch.chdir(tmp_path)
    failing = types.SimpleNamespace(name="hoist-nested-items")
    report = run_deep(driver.save_ice, failing, tree, RecursionError("too deep"))
    assert report == str(tmp_path / "nano-vx-ice-hoist-nested-items.txt")
    text = (tmp_path / "nano-vx-ice-hoist-nested-items.txt").read_text()
    assert "the IR could not be printed: RecursionError" in text
    assert "(a Binary too deep to show)" in text
