"""Lstops: removes `Assert`; adds the exit `Stop`, a block that stops the program."""

from __future__ import annotations

import re

from ..nanopass import Terminal, prod
from .lblocks import Lblocks

Lstops = Lblocks.extend(
    "Lstops",
    "Lblocks with each `assert` a branch to a block that stops the program",
    terminals=[Terminal("code", lambda v: type(v) is str and re.match(r"E9[0-9]{3}\Z", v)
                        is not None, "a run-time stop's diagnostic code, E9001 .. E9006")],
    remove={"Stmt": ["Assert"]},
    add={"Exit": [prod("Stop", "code: code, message: string",
                       "stop the program with this diagnostic, at this node's span")]},
)
