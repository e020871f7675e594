"""Functions the framework generates as Python text (node constructors, automatic clauses
and walks), compiled once per text: the passes of a pipeline generate some 3,700 clauses on
their first run in a process, of which about 300 are distinct texts, and compiling each
again was most of a first compilation's time."""

from __future__ import annotations

import functools
from typing import Callable


@functools.cache
def _code(text: str, filename: str):
    return compile(text, filename, "exec")


def define(text: str, filename: str, name: str, env: dict) -> Callable:
    """The function `name` that `text` defines, its globals `env`; a new function object
    each time, sharing the compiled code of every text alike."""
    exec(_code(text, filename), env)
    return env[name]
