"""The back end's fixtures: `child`, the native code run in a fork of the runner (as the
tests run it) and of this process (as the command line does)."""

from __future__ import annotations

import pytest

from nano_vx.backend import jit


@pytest.fixture(params=["runner", "fork"])
def child(request):
    """Where the native code runs: a fork of the runner or of this process."""
    jit.use_runner(request.param == "runner")
    yield request.param
    jit.use_runner()  # as tests/conftest.py asks
