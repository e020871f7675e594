"""`nano-vx explain [CODE]`: what a diagnostic code means."""

from __future__ import annotations

from typing import TextIO

from .options import EXIT_OK, Parser, Usage

DESCRIPTION = """\
Print what a diagnostic code means: its title and the paragraph that explains it
(docs/diagnostics.md shows a program for each). Without CODE, list every code with its
title.

  nano-vx explain E6003
  nano-vx explain
"""


def build_parser() -> Parser:
    ap = Parser("nano-vx explain", DESCRIPTION)
    ap.add_argument("code", nargs="?", metavar="CODE", help="a code such as E2001 or W5001")
    return ap


def paths(args) -> list:
    return []


def run(args, stdout: TextIO, stderr: TextIO) -> int:
    from ..codes import CODES, explain

    if args.code is None:
        for entry in CODES.values():
            stdout.write(f"{entry.code}  {entry.title}\n")
        return EXIT_OK
    text = explain(args.code)
    if text is None:  # a usage error: the command was asked what it cannot tell
        shown = args.code if len(args.code) <= 40 else args.code[:40] + ".."
        raise Usage(f"no diagnostic code {shown!r}; `nano-vx explain` lists them all")
    stdout.write(text)
    return EXIT_OK
