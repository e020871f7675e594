"""`nano-vx explore PROGRAM -o PAGE.html`: record a program's passes and write the page."""

from __future__ import annotations

import os
from typing import TextIO

EXIT_OK, EXIT_ERROR, EXIT_INTERNAL = 0, 1, 70


def run_explore(args, stdout: TextIO, stderr: TextIO, usage) -> int:
    """Write the page. The exit status is 0 when it was written, even for a program the
    compiler refuses: its diagnostics are on the page, and on stderr."""
    from ..driver import InternalError, report_internal_error

    if args.code is None:
        raise usage("explore: no program (nano-vx explore PROGRAM.vx -o PAGE.html)")
    spatial = args.code.endswith(".sdf")
    if spatial and args.target is None:
        raise usage("explore: a spatial program needs --target (a name in machines/spatial/ "
                    "or a .toml file)")
    if not spatial and args.target is not None:
        raise usage("explore: --target is for a spatial program (.sdf); a Vx program is "
                    "explored through the front end and the back end")
    output = args.output or os.path.splitext(os.path.basename(args.code))[0] + ".html"
    from ..compile import read_input

    data = read_input(args.code, usage)  # a pipe's size is known only by reading it: bounded
    try:
        recording = _record(args, data, spatial, usage, stderr)
    except InternalError as ice:
        report_internal_error(ice, stderr)
        return EXIT_INTERNAL
    if recording is None:  # not text at all: nothing to explore
        return EXIT_ERROR
    from .page import page_html

    page = page_html(recording, graphs=not args.no_graphs)
    try:
        with open(output, "w", encoding="utf-8") as fh:
            fh.write(page)
    except OSError as err:
        stderr.write(f"nano-vx: error: cannot write {output!r}: {err.strerror}\n")
        return EXIT_ERROR
    if recording.diagnostics:
        from ..diagnostics import Diagnostics

        shown = Diagnostics()
        for d in recording.diagnostics:
            shown.add(d)
        stderr.write(shown.render(color=args.color))
    ran = sum(step.ran for step in recording.steps)
    stderr.write(f"nano-vx: wrote {output}: {ran} of {len(recording.steps)} passes\n")
    return EXIT_OK


def _record(args, data: bytes, spatial: bool, usage, stderr: TextIO):
    from ..diagnostics import Diagnostics
    from ..parser import decode_source

    diagnostics = Diagnostics()
    source = decode_source(args.code, data, diagnostics)
    if source is None:
        stderr.write(diagnostics.render(color=args.color))
        return None
    if spatial:
        from .record import record_spatial

        return record_spatial(source, args.target, verify=not args.no_verify)
    from ..compile import _model_files
    from .record import record_vx

    return record_vx(source, diagnostics, verify=not args.no_verify,
                     **_model_files(args, usage))
