"""Fixtures for the pass tests."""

import pytest

from front import run_front


@pytest.fixture
def front():
    return run_front
