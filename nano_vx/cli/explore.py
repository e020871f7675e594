"""`nano-vx explore PROGRAM -o PAGE.html`: every pass of a program as one HTML page."""

from __future__ import annotations

import os
from typing import TextIO

from .options import (Once, Parser, Usage, add_color, add_machine_files, add_no_verify,
                      add_target, wants_color)
from .paths import Named, model_files, target_file

DESCRIPTION = """\
Run PROGRAM through every pass (a Vx program through the front end and the back end
down to MLIR, a spatial program through the spatial lane) and write one self-contained
HTML page: each pass with its IL before and after, the diff, the Graphviz picture, its
languages, time and diagnostics (docs/seeing.md). The program's diagnostics also go to
stderr; the exit status is 0 once the page is written.

  nano-vx explore prog.vx -o prog.html
  nano-vx explore examples/spatial/gemv.sdf --target wormhole
"""


def build_parser() -> Parser:
    ap = Parser("nano-vx explore", DESCRIPTION)
    # `code`: the name under which the explorer reads the program.
    ap.add_argument("code", nargs="?", metavar="PROGRAM",
                    help="a Vx program, or a spatial program (.sdf)")
    ap.add_argument("-o", "--output", metavar="PAGE.html", action=Once,
                    help="where the page goes (default: PROGRAM's name with .html, in the "
                         "current directory)")
    ap.add_argument("--no-graphs", action="store_true",
                    help="leave the Graphviz pictures out (faster on large programs)")
    vx = ap.add_argument_group("a Vx program")
    add_machine_files(vx)
    lane = ap.add_argument_group("a spatial program")
    add_target(lane, "the lane's target, as for nano-vx spatial: a name in machines/spatial/ "
                     "or a .toml file (needed for a .sdf program)")
    both = ap.add_argument_group("either")
    add_no_verify(both)
    add_color(both)
    return ap


def paths(args) -> list[Named]:
    """The program and the page; the page's default is set here, so that it is checked too
    (`nano-vx explore page.html` would write page.html over itself)."""
    if args.code is None:
        return []
    if args.output is None:
        args.output = os.path.splitext(os.path.basename(args.code))[0] + ".html"
    return [Named("the program", args.code, "input"), *model_files(args), *target_file(args),
            Named("-o", args.output, "output")]


def run(args, stdout: TextIO, stderr: TextIO) -> int:
    from ..explore.command import run_explore

    args.color = wants_color(args.color, stderr)
    given = [flag for flag in ("machine", "host") if getattr(args, flag) is not None]
    if given and args.code is not None and args.code.endswith(".sdf"):
        raise Usage(f"explore: --{given[0]} is for a Vx program; a spatial program (.sdf) "
                    f"takes --target")
    return run_explore(args, stdout, stderr, Usage)
