"""Shared pytest fixtures: snapshot files for IR dumps; the longest tests first
(`pytest_collection_modifyitems`); the cyclic garbage collector tuned for the tests' trees
(`pytest_collection_finish`); native code run in a runner process (`pytest_configure`); and
tests/spatial on the import path,
where the spatial programs several test directories run are written once
(`choreographies.py`, `spatial_reference.py`).

`snapshot_txt` and `snapshot_dot` compare a string with a plain file,
`tests/snapshots/<test module>/<test name>.txt` (or `.dot`), written as is (no syrupy header)
so that each reviewed dump reads on its own. `pytest --snapshot-update` writes them.

    @pytest.mark.parametrize("case", CASES)
    def test_hoist(case, snapshot_txt, snapshot_dot):
        assert to_text(out) == snapshot_txt           # test_hoist[playground].txt
        assert to_dot(out, title=case) == snapshot_dot
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path

import pytest
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

SNAPSHOTS = Path(__file__).parent / "snapshots"
sys.path.append(str(Path(__file__).parent / "spatial"))
# Bytecode is written (to __pycache__, which git ignores) whatever PYTHONDONTWRITEBYTECODE says:
# without it every worker rewrites the tests' asserts and compiles the compiler anew, 7 s of
# each worker's start, and every subprocess a test starts compiles what it imports.
sys.dont_write_bytecode = False


class _PlainTextSnapshot(SingleFileSnapshotExtension):
    _write_mode = WriteMode.TEXT
    # Lets syrupy prune a module's directory once its last snapshot is deleted.
    snapshot_dirname = SNAPSHOTS.name

    @classmethod
    def dirname(cls, *, test_location) -> str:
        # One tree for every test directory (tests/passes/..., tests/dump/...), not a
        # snapshot folder beside each test file.
        return str(SNAPSHOTS / test_location.basename)

    def serialize(self, data, **kwargs) -> str:
        # Only dumps are snapshotted: a node or a list here would store its repr.
        if not isinstance(data, str):
            raise TypeError(f"snapshot a dump (str), not {type(data).__name__}")
        return data


class TextDumpSnapshot(_PlainTextSnapshot):
    file_extension = "txt"


class DotDumpSnapshot(_PlainTextSnapshot):
    file_extension = "dot"


def pytest_addoption(parser, pluginmanager):
    # pyproject.toml's addopts asks pytest-xdist for workers: under `-p no:xdist` (one process,
    # for a debugger) its options must still parse, and then mean nothing.
    if not pluginmanager.has_plugin("xdist"):
        parser.addoption("--numprocesses", dest="numprocesses")
        parser.addoption("--dist", dest="dist")


def pytest_configure(config):
    # A test process grows to 400 MB and more, and a fork of it for each native run costs
    # 100 ms of CPU time (its page tables, then a copy-on-write fault for each page the test
    # writes after): the runs go to a small runner process instead (nano_vx/backend/runner.py).
    # tests/backend/test_jit.py runs the forks of the command line's runs too.
    from nano_vx.backend import jit

    jit.use_runner()


@pytest.fixture
def snapshot_txt(snapshot):
    return snapshot.use_extension(TextDumpSnapshot)


@pytest.fixture
def snapshot_dot(snapshot):
    return snapshot.use_extension(DotDumpSnapshot)


def pytest_collection_modifyitems(config, items):
    # The longest tests first: xdist's workers take tests in this order (worksteal), and a
    # sweep of minutes started last leaves the other cores idle while it runs. A sweep says
    # so by a longer time limit than the default; then the other slow tests; the rest in
    # their order. The order is the same in every worker, as xdist requires.
    items.sort(key=_expected_length, reverse=True)  # stable: ties keep collection order


def _expected_length(item) -> tuple[float, bool]:
    limit = item.get_closest_marker("timeout")
    return (limit.args[0] if limit and limit.args else 0.0,
            item.get_closest_marker("slow") is not None)


def pytest_collection_finish(session):
    # The tests build and drop trees by the million, acyclic, freed by reference counting; the
    # collector's full scans would walk again and again everything collection left alive (the
    # modules, the languages, the test items), which the driver avoids too (`paused_collector`
    # in nano_vx/driver.py). Those are frozen out of its scans, and it runs less often: a
    # tenth less CPU time for the tests of tests/dump, tests/oracle and the game.
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
