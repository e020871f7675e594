"""`nano-vx FILE [options]`: check a Vx program and run it, and the pipeline's tables."""

from __future__ import annotations

from typing import TextIO

from .options import (CONTRACT_TIMEOUT_MS, Once, Parser, Usage, add_color, add_dumps,
                      add_error_format, add_machine_files, add_no_verify, add_timing, one_pass,
                      wants_color, whole)
from .paths import Named, model_files

DESCRIPTION = """\
Check a Vx program and run it. With no options, FILE goes through every pass of the
front end and the back end, is compiled to native code, and runs: what it prints goes
to stdout, diagnostics to stderr. A program native code does not lower yet runs in the
reference interpreter instead, after the warning W5001 (as does every program under
--check-contracts or --action interpret).

  nano-vx prog.vx                          check, compile to native code, run
  nano-vx prog.vx --dump-after=all         print every IL between banners
  nano-vx prog.vx --action check --error-format=json
  nano-vx prog.vx --dump-dir=ir --action check
  nano-vx ir/20b-after-infer-placement.txt resume from a dump (edit it first)

The other commands come first and have their own options (nano-vx COMMAND --help):

  nano-vx spatial PROGRAM --target T       run a spatial program through the spatial lane
  nano-vx explore PROGRAM -o PAGE.html     every pass of a program as one HTML page
  nano-vx explain [CODE]                   what a diagnostic code means
  nano-vx check-certificate FILE.json      check a certificate of the spatial lane

A program file named like a command is given with its directory: nano-vx ./spatial
"""

DUMP_HELP = """\
On stdout, a text or dot dump follows a banner such as
`*** IR Dump After resolve-names (Ltransfers -> Lresolved) ***`, and the program
runs after the dumps. An svg or json dump on stdout is one document and nothing
else (no banner; the program is checked, not run), so it names one pass. For
more, --dump-dir=DIR writes one file per dump: NNa-before-PASS, NNb-after-PASS,
NNc-diff-PASS, NN the pass's position in --list-passes. In the text dump, `@name`
is a global (a function, a const item or a built-in such as `@print`), `x#1` a
local renamed apart from an earlier `x`, the type `_` one that placement
inference leaves open (a closure, a string, a generic's result), and `~T` a
`let`'s type inference chose. A dump file reads back: `nano-vx DIR/FILE` resumes
the pipeline after the pass that wrote it."""


def build_parser() -> Parser:
    ap = Parser("nano-vx", DESCRIPTION)
    ap.add_argument("file", nargs="?", metavar="FILE",
                    help="the Vx program, or an IL dump to resume from")
    ap.add_argument("--action",
                    choices=["parse", "check", "emit-mlir", "emit-llvm", "interpret", "run"],
                    help="how far to go: parse only; run every check; print the MLIR, or the "
                         "optimized LLVM IR; run in the reference interpreter; or compile to "
                         "native code and run (default run; check when stdout holds an SVG "
                         "or JSON dump)")
    ap.add_argument("-O", dest="opt_level", type=int, choices=range(4), default=2,
                    metavar="LEVEL", help="-O0 .. -O3: how hard LLVM optimizes native code "
                                          "(default -O2)")
    model = ap.add_argument_group("the machine")
    add_machine_files(model)
    model.add_argument("--verify-seams", action="store_true",
                       help="refuse a relaxed transfer (`to_device_relaxed`) whose data a "
                            "kernel's assert depends on (E6004), proved with z3")
    model.add_argument("--emit-seam-certs", action="store_true",
                       help="start each kernel with `assume`s of the host asserts that "
                            "dominate its launch, over what it receives")
    add_dumps(ap, DUMP_HELP)
    info = ap.add_argument_group("the pipeline and its languages")
    info.add_argument("--list-passes", action="store_true",
                      help="print the pipeline: pass, input IL, output IL, summary")
    info.add_argument("--list-languages", action="store_true", help="print every IL")
    info.add_argument("--show-language", metavar="L", help="print one IL flat")
    info.add_argument("--diff-language", metavar="A,B", help="print what B changes from A")
    info.add_argument("--format", choices=["text", "markdown"],
                      help="how --list-passes and --list-languages print: text (default), or "
                           "the markdown tables README.md, ARCHITECTURE.md and docs/spatial.md "
                           "hold")
    running = ap.add_argument_group("running")
    running.add_argument("--stop-after", metavar="PASS", action=Once, type=one_pass,
                         help="stop the pipeline after PASS")
    running.add_argument("--start-after", metavar="PASS", action=Once, type=one_pass,
                         help="start the pipeline after PASS: FILE is a dump of the IL PASS "
                              "produces (a file --dump-dir wrote starts after its own pass)")
    running.add_argument("--start-before", metavar="PASS", action=Once, type=one_pass,
                         help="start the pipeline with PASS: FILE is a dump of the IL PASS "
                              "reads")
    running.add_argument("--passes", metavar="PASS[,PASS]", action=Once,
                         help="run exactly these passes, in this order, on FILE (a dump of "
                              "the first one's IL, or a program when the first is parse)")
    add_timing(running)
    add_error_format(running)
    add_color(running)
    add_no_verify(running)
    contracts = ap.add_argument_group(
        "contracts", "`requires`, `ensures` and loop `invariant` clauses are proved with z3 "
        "while compiling (verify-contracts)")
    contracts.add_argument("--no-verify-contracts", action="store_true",
                           help="do not prove them (nothing then reaches insert-seam-assumes)")
    contracts.add_argument("--contract-timeout-ms", metavar="MS",
                           type=whole(1, CONTRACT_TIMEOUT_MS, "milliseconds"),
                           help=f"z3's time limit per proof, in milliseconds (default 10000, "
                                f"at most {CONTRACT_TIMEOUT_MS}); one not decided in time is "
                                f"a warning (W8002)")
    contracts.add_argument("--check-contracts", action="store_true",
                           help="check them as the program runs (E9007): the program runs in "
                                "the reference interpreter, since native code does not")
    return ap


def paths(args) -> list[Named]:
    if _shows_the_pipeline(args) or args.file is None:
        return []
    named = [Named("the program", args.file, "input"), *model_files(args)]
    if args.dump_dir is not None:
        named.append(Named("--dump-dir", args.dump_dir, "directory"))
    return named


def _shows_the_pipeline(args) -> bool:
    return bool(args.list_passes or args.list_languages or args.show_language
                or args.diff_language)


def run(args, stdout: TextIO, stderr: TextIO) -> int:
    args.color = wants_color(args.color, stderr)
    if args.format and not (args.list_passes or args.list_languages):
        raise Usage("--format says how --list-passes or --list-languages prints; give one")
    if _shows_the_pipeline(args):
        from .. import info

        return info.show(args, stdout, Usage)
    if args.file is None:
        raise Usage("no input file (try `nano-vx --help`)")
    from ..compile import compile_file

    return compile_file(args, stdout, stderr, Usage)
