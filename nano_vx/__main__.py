"""`python -m nano_vx` is the `nano-vx` command, for a checkout whose scripts are not on PATH."""

from .cli import entry

entry()
