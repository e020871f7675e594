"""Fixtures for the pass tests."""

import pytest

from front import run_front
from one_pass import run_pass as one_pass


@pytest.fixture
def front():
    return run_front


@pytest.fixture
def run_pass():
    """run_pass(PASS, IL_TEXT, **options): one pass alone on hand-written IL (one_pass.py)."""
    return one_pass
