"""The snapshot fixtures of tests/conftest.py: where files land, and create / match / mismatch /
update, run in a scratch project so that the real snapshot tree is never touched."""

from __future__ import annotations

from pathlib import Path

import pytest
from dump_samples import example

from nano_vx.dump import to_dot, to_text

pytest_plugins = ["pytester"]

CONFTEST = Path(__file__).parent.parent / "conftest.py"

CASES = ["If", "UnrollAcross"]
# The scratch runs need syrupy only; hypothesis's plugin alone would re-import for seconds.
QUIET = ("-p", "no:cacheprovider", "-p", "no:hypothesispytest")


@pytest.mark.parametrize("case", CASES)
def test_hand_built(case, snapshot_txt, snapshot_dot):
    tree = example(case)
    assert to_text(tree) == snapshot_txt
    assert to_dot(tree, title=case) == snapshot_dot


def test_files_are_plain_dumps():
    here = Path(__file__).parent.parent / "snapshots" / "test_dump_snapshot_fixtures"
    text = (here / "test_hand_built[If].txt").read_text()
    assert text == to_text(example("If"))
    assert (here / "test_hand_built[If].dot").read_text() == to_dot(example("If"), title="If")


SCRATCH_TEST = '''
import pytest

@pytest.mark.parametrize("case", ["a"])
def test_dump(case, snapshot_txt, snapshot_dot):
    assert OUTPUT == snapshot_txt
    assert "digraph IR {}\\n" == snapshot_dot
'''


def _run(pytester, output: str, *args):
    pytester.makepyfile(test_scratch=SCRATCH_TEST.replace("OUTPUT", repr(output)))
    return pytester.runpytest_inprocess(*QUIET, *args)


def test_create_match_fail_update(pytester):
    pytester.makeconftest(CONFTEST.read_text())
    folder = pytester.path / "snapshots" / "test_scratch"

    _run(pytester, "let x = 1;\n", "--snapshot-update").assert_outcomes(passed=1)
    assert (folder / "test_dump[a].txt").read_text() == "let x = 1;\n"
    assert (folder / "test_dump[a].dot").read_text() == "digraph IR {}\n"

    _run(pytester, "let x = 1;\n").assert_outcomes(passed=1)

    failed = _run(pytester, "let x = 2;\n")
    failed.assert_outcomes(failed=1)
    failed.stdout.fnmatch_lines(["*let x = 2;*"])
    assert (folder / "test_dump[a].txt").read_text() == "let x = 1;\n"

    _run(pytester, "let x = 2;\n", "--snapshot-update").assert_outcomes(passed=1)
    assert (folder / "test_dump[a].txt").read_text() == "let x = 2;\n"


def test_missing_snapshot_fails(pytester):
    pytester.makeconftest(CONFTEST.read_text())
    _run(pytester, "x\n").assert_outcomes(failed=1)


def test_only_strings_are_snapshotted(pytester):
    pytester.makeconftest(CONFTEST.read_text())
    pytester.makepyfile(test_scratch='''
def test_node(snapshot_txt):
    assert 42 == snapshot_txt
''')
    result = pytester.runpytest_inprocess(*QUIET, "--snapshot-update")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*snapshot a dump (str), not int*"])
