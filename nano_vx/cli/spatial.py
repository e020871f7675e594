"""`nano-vx spatial PROGRAM --target TARGET`: a spatial program through the spatial lane."""

from __future__ import annotations

from typing import TextIO

from .options import (Once, Parser, Usage, add_color, add_dumps, add_error_format,
                      add_no_verify, add_target, add_timing, one_pass, wants_color, whole)
from .paths import Named, target_file

DESCRIPTION = """\
Run a spatial program (docs/spatial.md) through the spatial lane, from the IL its
header names, checking and validating every pass (the same outputs as its input on a
corpus of inputs), and report the outcome of the final program on the program's inputs,
its period and where each stage runs. PROGRAM.vx is a Vx program: the front end checks
it and from-vx reads its kernel as the lane's first IL. Without PROGRAM, describe the
target. `nano-vx --list-passes` lists the lane's passes after the front end's.

  nano-vx spatial examples/spatial/gemm.sdf --target wormhole
  nano-vx spatial examples/spatial/gemv.sdf --target wormhole --certificate gemv.json
  nano-vx spatial examples/spatial/gemv.sdf --target wormhole --lower tenstorrent
  nano-vx spatial --target wormhole        describe the target
"""

# numpy's seeds are unsigned; a corpus holds every input in memory at once.
SEED_MAX = 2**32 - 1
CORPUS_MAX = 16

DUMP_HELP = """\
The passes are the lane's. On stdout, a text or dot dump follows a banner such as
`*** IR Dump After place (Stiled -> Splaced) ***`, and the report follows the dumps.
An svg or json dump on stdout is one document and nothing else, so it names one pass.
For more, --dump-dir=DIR writes one file per dump, numbered as --list-passes numbers
the lane. A text dump reads back: `nano-vx spatial DIR/FILE --target T` runs the rest
of the lane from it."""


def build_parser() -> Parser:
    ap = Parser("nano-vx spatial", DESCRIPTION)
    # `code`: the name under which the lane's driver reads the program.
    ap.add_argument("code", nargs="?", metavar="PROGRAM",
                    help="a spatial program (.sdf, or a dump of the lane) or a Vx program "
                         "(.vx)")
    program = ap.add_argument_group("the program and its target")
    add_target(program, "the mesh: a name in machines/spatial/ (wormhole, gpu-sm, fabric) "
                        "or a .toml file")
    program.add_argument("--math-fidelity", metavar="F", action=Once,
                         choices=["lofi", "hifi2", "hifi3", "hifi4"],
                         help="the math fidelity of the target's matrix unit: lofi, hifi2, "
                              "hifi3 or hifi4 (default: its file's; docs/spatial.md)")
    program.add_argument("--kernel", metavar="NAME", action=Once,
                         help="for a Vx program (PROGRAM.vx), the function to lower (default: "
                              "the one with tensor parameters)")
    program.add_argument("--inputs", metavar="FILE.npz", action=Once,
                         help="the program's input tensors (default: the .npz beside it)")
    checking = ap.add_argument_group("validating the passes")
    checking.add_argument("--seed", type=whole(0, SEED_MAX), default=0, metavar="N",
                          help=f"seed of the random inputs that join the corpus (default 0, "
                               f"at most {SEED_MAX})")
    checking.add_argument("--corpus", type=whole(1, CORPUS_MAX, "inputs"), default=2,
                          metavar="N", help=f"inputs each pass is validated on (default 2, at "
                                            f"most {CORPUS_MAX}: each is a copy of the "
                                            f"program's tensors)")
    checking.add_argument("--no-validate", action="store_true",
                          help="skip running each pass's input and output on the corpus "
                               "(faster; never used by the tests)")
    add_no_verify(checking)
    output = ap.add_argument_group("what the lane makes")
    output.add_argument("--certificate", metavar="FILE.json", action=Once,
                        help="write the scheduled program's certificate (docs/certificate.md), "
                             "or that of a refusal because a site cannot hold its buffers or "
                             "semaphores; `nano-vx check-certificate FILE.json` checks it")
    output.add_argument("--lower", metavar="BACKEND", choices=["tenstorrent", "cuda"],
                        action=Once,
                        help="lower the scheduled program to tenstorrent (tt-metal kernels and "
                             "host program) or cuda (one persistent kernel and its launch); "
                             "the source goes to stdout unless --lower-dir is given")
    output.add_argument("--lower-dir", metavar="DIR", action=Once,
                        help="write the files of --lower to DIR, one per kernel and host "
                             "program, with census.txt")
    add_dumps(ap, DUMP_HELP)
    running = ap.add_argument_group("running")
    running.add_argument("--stop-after", metavar="PASS", action=Once, type=one_pass,
                         help="stop the lane after PASS")
    add_timing(running)
    add_error_format(running)
    add_color(running)
    return ap


def paths(args) -> list[Named]:
    named = target_file(args)
    if args.code is None:
        return named
    named.append(Named("the program", args.code, "input"))
    if args.inputs is not None:  # read with the program: its E7002, as a target is E7004
        named.append(Named("--inputs", args.inputs, "diagnosed"))
    if args.certificate is not None:
        named.append(Named("--certificate", args.certificate, "output"))
    for flag, directory in (("--lower-dir", args.lower_dir), ("--dump-dir", args.dump_dir)):
        if directory is not None:
            named.append(Named(flag, directory, "directory"))
    return named


def run(args, stdout: TextIO, stderr: TextIO) -> int:
    from ..spatial_driver.command import run_spatial

    args.color = wants_color(args.color, stderr)
    return run_spatial(args, stdout, stderr, Usage)
