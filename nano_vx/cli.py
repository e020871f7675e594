"""The `nano-vx` command.

Only argparse is imported at start-up; the pipeline (and with it pyparsing and the passes) is
imported when a command needs it, so `nano-vx --help` stays fast.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
from typing import TextIO

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 70

DESCRIPTION = """\
Compile and run a Vx program. With no options, checks FILE and runs it through the
reference interpreter, printing what the program prints.

  nano-vx prog.vx                          check and run
  nano-vx prog.vx --dump-after=all         print every IL between banners
  nano-vx prog.vx --action check --error-format=json
  nano-vx prog.vx --dump-dir=ir --action check
  nano-vx ir/20b-after-infer-placement.txt resume from a dump (edit it first)
  nano-vx explain E2001                    what a diagnostic code means
  nano-vx spatial examples/spatial/gemm.sdf --target wormhole
                                           run the spatial lane on a spatial program
  nano-vx explore prog.vx -o prog.html     every pass of prog.vx as one HTML page
  nano-vx check-certificate gemm.json      check a certificate of the spatial lane
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


class Once(argparse.Action):
    """An option that takes one value: given twice, a usage error naming both values, since
    keeping the last would silently drop the first (--machine A --machine B checks only B)."""

    def __call__(self, parser, namespace, value, option_string=None):
        earlier = getattr(namespace, self.dest)
        if earlier is not None:
            raise argparse.ArgumentError(
                self, f"given twice ({earlier!r} and {value!r}); it takes one file per run")
        setattr(namespace, self.dest, value)


def _positive(text: str) -> int:
    """A whole number of milliseconds, at least 1."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, not {text!r}")
    return int(text)


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="nano-vx",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("file", nargs="?",
                    help="the Vx program, or an IL dump to resume from (or `explain CODE`, `spatial PROGRAM`, "
                         "`explore PROGRAM`, or `check-certificate FILE.json`)")
    ap.add_argument("code", nargs="?", help=argparse.SUPPRESS)
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
    model.add_argument("--machine", metavar="FILE", action=Once,
                       help="add a machine file's Memory and Topology declarations (e.g. "
                            "machines/h100-sxm.vx); without one the built-in model is used. "
                            "One per run: to check against several, run once per machine")
    model.add_argument("--verify-seams", action="store_true",
                       help="refuse a relaxed transfer (`to_device_relaxed`) whose data a "
                            "kernel's assert depends on (E6004), proved with z3")
    model.add_argument("--emit-seam-certs", action="store_true",
                       help="start each kernel with `assume`s of the host asserts that "
                            "dominate its launch, over what it receives")
    model.add_argument("--host", metavar="FILE|default", action=Once,
                       help="add a host file's declarations; `default` declares "
                            "`Memory CPU_DRAM { managed: explicit }`")
    dump = ap.add_argument_group("dumping the IR", DUMP_HELP)
    dump.add_argument("--dump-after", metavar="PASS[,PASS]|all",
                      help="print the IR after these passes")
    dump.add_argument("--dump-before", metavar="PASS[,PASS]|all",
                      help="print the IR before these passes")
    dump.add_argument("--dump-changed", action="store_true",
                      help="with --dump-after, only passes that changed the IR (implies "
                           "--dump-after=all when that is not given)")
    dump.add_argument("--dump-diff", action="store_true",
                      help="print a unified diff of each dumped pass's input and output "
                           "text instead of the whole IR (implies --dump-after=all when "
                           "that is not given)")
    dump.add_argument("--dump-dir", metavar="DIR",
                      help="write each dump to its own file in DIR, named by its pass "
                           "(implies --dump-after=all when no pass is named)")
    dump.add_argument("--dump-format", choices=["text", "dot", "svg", "json"], default="text",
                      help="text (default), Graphviz dot, dot rendered to SVG, or JSON")
    explore = ap.add_argument_group(
        "the explorer", "nano-vx explore PROGRAM -o PAGE.html writes one self-contained HTML "
        "page with every pass: its IL before and after, the diff, the Graphviz picture, its "
        "languages, time and diagnostics (docs/seeing.md); a .sdf program takes --target")
    explore.add_argument("-o", "--output", metavar="PAGE.html", action=Once,
                         help="where explore writes the page (default: PROGRAM's name with "
                              ".html, in the current directory)")
    explore.add_argument("--no-graphs", action="store_true",
                         help="explore without the Graphviz pictures (faster on large "
                              "programs)")
    info = ap.add_argument_group("the pipeline and its languages")
    info.add_argument("--list-passes", action="store_true",
                      help="print the pipeline: pass, input IL, output IL, summary")
    info.add_argument("--list-languages", action="store_true", help="print every IL")
    info.add_argument("--show-language", metavar="L", help="print one IL flat")
    info.add_argument("--diff-language", metavar="A,B", help="print what B changes from A")
    run = ap.add_argument_group("running")
    run.add_argument("--stop-after", metavar="PASS", help="stop the pipeline after PASS")
    run.add_argument("--start-after", metavar="PASS", action=Once,
                     help="start the pipeline after PASS: FILE is a dump of the IL PASS "
                          "produces (a file --dump-dir wrote starts after its own pass)")
    run.add_argument("--start-before", metavar="PASS", action=Once,
                     help="start the pipeline with PASS: FILE is a dump of the IL PASS reads")
    run.add_argument("--passes", metavar="PASS[,PASS]", action=Once,
                     help="run exactly these passes, in this order, on FILE (a dump of the "
                          "first one's IL, or a program when the first is parse)")
    run.add_argument("--timing", action="store_true",
                     help="print the time of each pass on stderr")
    run.add_argument("--error-format", choices=["human", "json"], default="human",
                     help="how diagnostics are printed on stderr")
    run.add_argument("--color", choices=["auto", "always", "never"], default="auto",
                     help="colour the diagnostics as rustc does: always, never, or when "
                          "stderr is a terminal (default auto; NO_COLOR in the environment "
                          "turns auto off)")
    run.add_argument("--no-verify", action="store_true",
                     help="skip checking each pass's output against its IL (faster; "
                          "never used by the tests)")
    contracts = ap.add_argument_group(
        "contracts", "`requires`, `ensures` and loop `invariant` clauses are proved with z3 "
        "while compiling (verify-contracts)")
    contracts.add_argument("--no-verify-contracts", action="store_true",
                           help="do not prove them (nothing then reaches insert-seam-assumes)")
    contracts.add_argument("--contract-timeout-ms", type=_positive, metavar="MS",
                           help="z3's time limit per proof, in milliseconds (default 10000); "
                                "one not decided in time is a warning (W8002)")
    contracts.add_argument("--check-contracts", action="store_true",
                           help="check them as the program runs (E9007): the program runs in "
                                "the reference interpreter, since native code does not")
    lane = ap.add_argument_group(
        "the spatial lane", "nano-vx spatial PROGRAM --target TARGET runs a spatial program "
        "(docs/spatial.md) through tile, place, size-buffers, fuse-readers, "
        "synthesize-handshakes and schedule, validating every pass")
    lane.add_argument("--target", metavar="NAME|FILE", action=Once,
                      help="the mesh: a name in machines/spatial/ (wormhole, gpu-sm, fabric) "
                           "or a .toml file")
    lane.add_argument("--kernel", metavar="NAME", action=Once,
                      help="for a Vx program (PROGRAM.vx), the function to lower (default: "
                           "the one with tensor parameters)")
    lane.add_argument("--inputs", metavar="FILE.npz", action=Once,
                      help="the program's input tensors (default: the .npz beside it)")
    lane.add_argument("--seed", type=int, default=0,
                      help="seed of the random inputs that join the corpus (default 0)")
    lane.add_argument("--corpus", type=int, default=2, metavar="N",
                      help="inputs each pass is validated on (default 2)")
    lane.add_argument("--certificate", metavar="FILE.json", action=Once,
                      help="write the scheduled program's certificate (docs/certificate.md), "
                           "or that of a refusal because a site cannot hold its buffers or "
                           "semaphores; `nano-vx check-certificate FILE.json` checks it")
    lane.add_argument("--lower", metavar="BACKEND", choices=["tenstorrent", "cuda"],
                      action=Once,
                      help="lower the scheduled program to tenstorrent (tt-metal kernels and "
                           "host program) or cuda (one persistent kernel and its launch); "
                           "the source goes to stdout unless --lower-dir is given")
    lane.add_argument("--lower-dir", metavar="DIR", action=Once,
                      help="write the files of --lower to DIR, one per kernel and host "
                           "program, with census.txt")
    lane.add_argument("--no-validate", action="store_true",
                      help="skip running each pass's input and output on the corpus "
                           "(faster; never used by the tests)")
    return ap


class Usage(Exception):
    """A command line that parses but cannot be carried out; exit status 2."""


def main(argv: list[str] | None = None, stdout: TextIO | None = None,
         stderr: TextIO | None = None) -> int:
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    ap = build_parser()
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            args = ap.parse_args(argv)
    except SystemExit as stop:  # argparse already printed the usage error or the help
        return int(stop.code or 0)
    try:
        return _dispatch(args, stdout, stderr)
    except Usage as problem:  # one line: the options parsed, one of them cannot be used
        stderr.write(f"nano-vx: error: {problem}\n")
        return EXIT_USAGE


def wants_color(choice: str, stderr: TextIO) -> bool:
    """--color: `auto` is a terminal on stderr that has not asked for none (NO_COLOR, or
    TERM=dumb)."""
    if choice != "auto":
        return choice == "always"
    return (stderr.isatty() and not os.environ.get("NO_COLOR")
            and os.environ.get("TERM") != "dumb")


def _dispatch(args, stdout: TextIO, stderr: TextIO) -> int:
    args.color = wants_color(args.color, stderr)
    if args.file != "explore" and (args.output is not None or args.no_graphs):
        raise Usage("-o/--output and --no-graphs are options of `nano-vx explore`")
    if args.file == "explain":
        return _explain(args.code, stdout, stderr)
    if args.file == "check-certificate":
        if args.code is None:
            raise Usage("check-certificate: no certificate (nano-vx check-certificate "
                        "FILE.json)")
        from .oracle.checkers.check_certificate import main as check_certificate

        return check_certificate([args.code], stdout, stderr)
    if args.file == "spatial":
        from .spatial_driver.command import run_spatial

        return run_spatial(args, stdout, stderr, Usage)
    if args.file == "explore":
        from .explore.command import run_explore

        return run_explore(args, stdout, stderr, Usage)
    if args.code is not None:
        raise Usage(f"unexpected argument {args.code!r}")
    if args.list_passes or args.list_languages or args.show_language or args.diff_language:
        from . import info

        return info.show(args, stdout, Usage)
    if args.file is None:
        raise Usage("no input file (try `nano-vx --help`)")
    from .compile import compile_file

    return compile_file(args, stdout, stderr, Usage)


def _explain(code: str | None, stdout: TextIO, stderr: TextIO) -> int:
    from .codes import CODES, explain

    if code is None:
        for entry in CODES.values():
            stdout.write(f"{entry.code}  {entry.title}\n")
        return EXIT_OK
    text = explain(code)
    if text is None:
        stderr.write(f"nano-vx: error: no diagnostic code {code!r}; "
                     f"`nano-vx explain` lists them all\n")
        return EXIT_ERROR
    stdout.write(text)
    return EXIT_OK


class OutputError(Exception):
    """stdout or stderr cannot be written: a full disk (`> /dev/full`) or a closed
    descriptor (`>&-`)."""


class GuardedStream:
    """A standard stream whose write errors become one OutputError naming the stream. A
    stream closed before start-up (sys.stdout is None) fails on its first write only, so
    `nano-vx prog.vx --action check >&-` still succeeds when it prints nothing."""

    def __init__(self, stream: TextIO | None, name: str):
        self.stream = stream
        self.name = name

    def _call(self, method: str, *args):
        if self.stream is None:
            raise OutputError(f"cannot write to {self.name}: it is closed")
        try:
            return getattr(self.stream, method)(*args)
        except BrokenPipeError:
            raise  # the reader went away: entry stops quietly
        except OSError as err:
            raise OutputError(f"cannot write to {self.name}: {err.strerror or err}") from err

    def write(self, text: str) -> int:
        return self._call("write", text)

    def flush(self) -> None:
        if self.stream is not None:  # nothing was written to a closed stream
            self._call("flush")

    def isatty(self) -> bool:
        return self.stream is not None and self.stream.isatty()


def entry() -> None:
    stdout = GuardedStream(sys.stdout, "stdout")
    stderr = GuardedStream(sys.stderr, "stderr")
    try:
        code = main(stdout=stdout, stderr=stderr)
        stdout.flush()
    except BrokenPipeError:
        # The reader went away (`nano-vx --dump-after=all | head`): stop quietly.
        _drop_stdout()
        code = 128 + signal.SIGPIPE
    except OutputError as err:
        _drop_stdout()
        _say(stderr, f"nano-vx: error: {err}\n")
        code = EXIT_ERROR
    except KeyboardInterrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C changes nothing now
        with contextlib.suppress(OSError, OutputError):
            stdout.flush()  # what the program printed before the interruption
        _say(stderr, "nano-vx: interrupted\n")
        # The pipeline or the program may still be running on run_deep's worker thread,
        # which cannot be stopped; a normal exit would wait for it to finish.
        os._exit(128 + signal.SIGINT)
    sys.exit(code)


def _drop_stdout() -> None:
    """Point stdout at /dev/null, so that Python's own flush at exit does not complain
    again about the buffer it could not write."""
    if sys.stdout is not None:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _say(stderr: GuardedStream, text: str) -> None:
    """A last word on stderr, unless stderr is what failed."""
    with contextlib.suppress(OSError, OutputError):
        stderr.write(text)
        stderr.flush()
