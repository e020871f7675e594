"""Fixtures for the pass tests."""

import pytest

from front import run_front, uncached
from one_pass import run_pass as one_pass


@pytest.fixture(autouse=True)
def _patched_runs_again(request):
    """A test that patches the compiler (`monkeypatch`) sees every pass of its cases run with
    the patch, not a prefix an earlier test kept (front.py)."""
    if "monkeypatch" not in request.fixturenames:
        yield
        return
    with uncached():
        yield


@pytest.fixture
def front():
    return run_front


@pytest.fixture
def run_pass():
    """run_pass(PASS, IL_TEXT, **options): one pass alone on hand-written IL (one_pass.py)."""
    return one_pass
