"""`nano-vx FILE`: read, run the pipeline, report, and run the program."""

from __future__ import annotations

import os
from difflib import get_close_matches
from functools import partial
from typing import TextIO

from .context import Compilation
from .deep import run_deep
from .diagnostics import Diagnostics
from .driver import DumpOptions, run_pipeline
from .pipeline import BACK_END, NATIVE, PIPELINE
from .source import INPUT_LIMIT

EXIT_OK, EXIT_ERROR = 0, 1


def _pass_names(value: str | None, usage, pipeline=NATIVE) -> set[str]:
    if value is None:
        return set()
    names = {n.strip() for n in value.split(",") if n.strip()}
    if not names:
        raise usage(f"{value!r} names no pass; the passes are {', '.join(pipeline.names())}")
    known = pipeline.names()
    unknown = sorted(names - set(known) - {"all"})
    if unknown:
        close = [c for u in unknown for c in get_close_matches(u, known, n=1)]
        meant = f"; did you mean {', '.join(close)}?" if close else ""
        raise usage(f"no pass named {', '.join(unknown)}{meant} (the passes, in order: "
                    f"{', '.join(known)}; `nano-vx --list-passes` says what each does)")
    return names


DOCUMENT_FORMATS = ("svg", "json")


def dump_options(args, usage, pipeline=NATIVE) -> DumpOptions | None:
    after = _pass_names(args.dump_after, usage, pipeline)
    before = _pass_names(args.dump_before, usage, pipeline)
    implied = args.dump_changed or args.dump_diff or args.dump_dir
    if implied and not after:
        after = {"all"}
    if not (after or before):
        return None
    formats = args.dump_format
    named = ",".join(formats)
    if args.dump_diff and formats != ("text",):
        raise usage(f"--dump-diff writes text diffs; it takes no --dump-format={named}")
    if len(formats) > 1 and not args.dump_dir:
        raise usage(f"--dump-format={named} writes a file in each format: give "
                    f"--dump-dir=DIR")
    options = DumpOptions(after=after, before=before, changed_only=args.dump_changed,
                          diff=args.dump_diff, directory=args.dump_dir, formats=formats)
    if not args.dump_dir and formats[0] in DOCUMENT_FORMATS:
        _one_document(options, usage)
        options.banners = False
    return options


def _one_document(options: DumpOptions, usage) -> None:
    """An SVG or a JSON on stdout is one document and nothing else (`> ir.json` must be
    JSON): one dump, no banner, and the program is not run, its output would join it."""
    [fmt] = options.formats
    wanted = [*options.before, *options.after]
    if len(wanted) != 1 or "all" in wanted:
        raise usage(f"--dump-format={fmt} writes one document to stdout: name one pass "
                    f"(--dump-after=PASS), or write one file per dump with --dump-dir=DIR")
    if options.before == {"parse"}:
        raise usage(f"before parse there is only the program text, no {fmt} to write: "
                    f"use --dump-after=parse")


def read_input(path: str, usage) -> bytes:
    """The bytes of a file the command line names, at most INPUT_LIMIT of them: the command
    line checked a file's size, but a pipe's is known only by reading it. Read a piece at a
    time, so that a small program does not cost a buffer of the limit's size."""
    pieces, size = [], 0
    try:
        with open(path, "rb") as fh:
            while size <= INPUT_LIMIT and (piece := fh.read(READ_PIECE)):
                pieces.append(piece)
                size += len(piece)
    except OSError as err:  # the command line checked it, but it can go in the meantime
        raise usage(f"cannot read {path!r}: {err.strerror}") from None
    if size > INPUT_LIMIT:
        raise usage(f"{path!r} holds more than {INPUT_LIMIT:,} bytes; nano-vx reads files of "
                    f"at most {INPUT_LIMIT:,} bytes")
    return b"".join(pieces)


READ_PIECE = 1 << 20


def _action(args, dumps: DumpOptions | None, usage) -> str:
    """--action, whose default is to run, except when stdout is a dump's one document."""
    if dumps is None or dumps.banners:
        return args.action or "run"
    if args.action == "run":
        raise usage(f"--action run would print the program's output into the "
                    f"--dump-format={dumps.formats[0]} document on stdout: use --dump-dir=DIR")
    return args.action or "check"


def compile_file(args, stdout: TextIO, stderr: TextIO, usage) -> int:
    dumps = dump_options(args, usage)
    action = _action(args, dumps, usage)
    if args.check_contracts and action == "run":  # native code does not check contracts
        action = "interpret"
    stop_after = "parse" if action == "parse" else None
    if args.stop_after:
        _pass_names(args.stop_after, usage)
        stop_after = args.stop_after
    diagnostics = Diagnostics()
    data = read_input(args.file, usage)
    from .parser import decode_source

    source = decode_source(args.file, data, diagnostics)
    if source is None:
        return _report(diagnostics, args, stderr)
    ctx = Compilation(source, diagnostics, **_model_files(args, usage),
                      verify_seams=args.verify_seams, emit_seam_certs=args.emit_seam_certs,
                      verify_contracts=not args.no_verify_contracts)
    if args.contract_timeout_ms is not None:
        ctx.contract_timeout_ms = args.contract_timeout_ms
    start = _start(args, ctx, _pipeline(action, dumps, stop_after), usage)
    if start is None:
        return _report(diagnostics, args, stderr)
    pipeline, tree = start
    # A dump that cannot be written and a pass that fails go up to the command line, which
    # says each as the failure it is (nano_vx/cli/failures.py).
    outcome = run_deep(run_pipeline, pipeline, tree, ctx,
                       dumps=dumps, dump_out=stdout, keep=frozenset({FRONT_END_IL}),
                       stop_after=stop_after, verify=not args.no_verify,
                       progress=_progress(source, stderr), numbers=NUMBERS)
    if args.timing:
        print_timing(outcome.timings, stderr)
    from .placement.facts import program_facts

    # The facts are the front end's: routes and resident sets, read from its last IL.
    front = outcome.kept.get(FRONT_END_IL, outcome.tree)
    facts = program_facts(ctx, front) if args.error_format == "json" else {}
    # --stop-after and --passes end the pipeline where they say: the program does not run.
    cut = bool(stop_after or args.passes)
    if action == "run" and _not_lowered(outcome, diagnostics) and not cut:
        # A correct program native code does not lower yet still runs, in the interpreter, as
        # it went into the pass that refused it: every pass's output runs there (Lheld's
        # states bound from their parts too), so the run checks the passes before it as well.
        diagnostics = _warned(diagnostics)
        return _run(outcome.refused, diagnostics, args, stdout, stderr, facts,
                    partial(_interpret, check_contracts=args.check_contracts))
    if diagnostics.has_errors or action in ("parse", "check") or cut:
        return _report(diagnostics, args, stderr, facts)
    if action == "interpret":
        return _run(outcome.tree, diagnostics, args, stdout, stderr, facts,
                    partial(_interpret, check_contracts=args.check_contracts))
    if action == "run":
        runner = _native(args.opt_level, stderr if args.timing else None)
        return _run(outcome.tree, diagnostics, args, stdout, stderr, facts, runner)
    return _emit(action, outcome.tree, args, diagnostics, stdout, stderr)


NATIVE_ACTIONS = ("run", "emit-mlir", "emit-llvm")
FRONT_END_IL = PIPELINE.passes[-1].output.name
# A dump file is numbered by its pass's place in the whole pipeline, whatever part runs.
NUMBERS = {name: i for i, name in enumerate(NATIVE.names(), 1)}


def _start(args, ctx: Compilation, base, usage):
    """The passes to run and what they start from: the program's text through `base`, or a
    dump (or the text under --passes, --start-after, --start-before) through the part
    nano_vx.resume picks, with the facts it needs rebuilt and the diagnostics the dump
    carries reported again. None when the dump does not read back (E1007, reported)."""
    from .resume.read import is_dump

    source = ctx.source
    dump = is_dump(source.text, source.name)
    if not (dump or args.passes or args.start_after or args.start_before):
        return base, source
    from .nanopass import Pipeline
    from .dump.state import State, read_state
    from .resume import Unresumable, plan, rebuild_facts

    if args.passes and (args.start_after or args.start_before):
        raise usage("--passes names every pass to run; it takes no --start-after or "
                    "--start-before")
    if args.start_after and args.start_before:
        raise usage("--start-after and --start-before name the same place twice: give one")
    language, tree, state = None, source, State()
    if dump:
        from .resume.read import read_checked
        from .pipeline import LANGUAGES

        read = read_checked(source, ctx.diagnostics)
        state = read_state(source, ctx.diagnostics) if read else None
        if state is None:
            return None
        language, tree = read
        if language.name not in LANGUAGES:
            raise usage(f"{source.name} is a spatial program ({language.name}): run it with "
                        f"`nano-vx spatial {source.name} --target TARGET`")
    names = _listed_passes(args.passes, usage) if args.passes is not None else None
    try:
        passes = plan(NATIVE, base, language, state, start_after=args.start_after,
                      start_before=args.start_before, names=names)
        rebuild_facts(ctx, tree, language, passes, NATIVE, state.facts)
    except Unresumable as err:
        raise usage(str(err)) from None
    running = {p.name for p in passes}
    if args.stop_after and args.stop_after not in running:
        raise usage(f"--stop-after={args.stop_after}: the run does not reach it (it runs "
                    f"{_span(passes)})")
    for d in state.reported:
        if d.origin not in running:
            ctx.diagnostics.add(d)
    if ctx.diagnostics.has_errors:  # the run the dump comes from stopped there
        passes = []
    given = tuple(f for f in Compilation.facts if getattr(ctx, f) is not None)
    return Pipeline(passes, given=given), tree


def _listed_passes(value: str, usage) -> list[str]:
    """--passes: the passes to run, in order, each once (a pass's facts are made once)."""
    names = [n.strip() for n in value.split(",") if n.strip()]
    _pass_names(value, usage)
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise usage(f"--passes names {', '.join(twice)} twice; a pass runs once in a pipeline")
    return names


def _span(passes) -> str:
    if not passes:
        return "no pass"
    if len(passes) == 1:
        return passes[0].name
    return f"{passes[0].name} to {passes[-1].name}"


def _pipeline(action: str, dumps: DumpOptions | None, stop_after: str | None):
    """The front end, and the back end after it when native code is wanted or one of its
    passes is named."""
    named = {stop_after} if stop_after else set()
    if dumps is not None:
        named |= dumps.after | dumps.before
    if action in NATIVE_ACTIONS or named & {p.name for p in BACK_END}:
        return NATIVE
    return PIPELINE


def _not_lowered(outcome, diagnostics: Diagnostics) -> bool:
    """The run stopped in the back end and its only errors are E5010 (check-native-subset's,
    or a later back-end pass's for a dump resumed after it): the front end accepted the
    program."""
    errors = [d for d in diagnostics.items if d.severity == "error"]
    return (outcome.stopped_at in {p.name for p in BACK_END}
            and all(d.code == "E5010" for d in errors))


def _warned(diagnostics: Diagnostics) -> Diagnostics:
    """The diagnostics with each E5010 turned into the W5001 of running in the interpreter."""
    out = Diagnostics()
    for d in diagnostics.items:
        if d.code != "E5010":
            out.add(d)
        else:
            out.warning("W5001", d.span, f"{d.message}: running it in the reference "
                                         f"interpreter instead",
                        help=["--action interpret asks for the interpreter"])
    return out


def _interpret(program, out: TextIO, check_contracts: bool = False) -> int:
    from .oracle import run_program

    return run_deep(run_program, program, out=out, check_contracts=check_contracts)


def _native(opt_level: int, timing: TextIO | None):
    """A runner that compiles the program to native code and runs it (--timing: how long
    the back end and the run took, on stderr)."""
    def run(program, out: TextIO) -> int:
        import time

        from .backend.jit import compile_native, run_compiled

        start = time.perf_counter()
        native = compile_native(program, opt_level)
        built = time.perf_counter()
        try:
            return run_compiled(native, out)
        finally:
            record = getattr(timing, "record", None)
            if record is not None:
                record("native", {"opt_level": opt_level,
                                  "build_ms": round(1000 * (built - start), 3),
                                  "run_ms": round(1000 * (time.perf_counter() - built), 3)})
            elif timing is not None:
                timing.write(f"native code: built in {1000 * (built - start):.2f} ms (-O"
                             f"{opt_level}), ran in {1000 * (time.perf_counter() - built):.2f}"
                             f" ms\n")
    return run


def _emit(action: str, program, args, diagnostics: Diagnostics, stdout: TextIO,
          stderr: TextIO) -> int:
    """--action emit-mlir, emit-llvm: the module, printed after the diagnostics' warnings."""
    if action == "emit-mlir":  # a BackendBug is the command line's to report
        from .backend.mlir import emit_mlir

        text = emit_mlir(program)
    else:
        from .backend.llvm import optimized_ir
        from .backend.mlir import to_llvm_ir

        text = optimized_ir(to_llvm_ir(program), args.opt_level)
    code = _report(diagnostics, args, stderr)
    stdout.write(text if text.endswith("\n") else text + "\n")
    return code


def _model_files(args, usage) -> dict:
    """--machine and --host, for load-machine-files; a file that is not there is a usage
    error, like a missing program."""
    files = {"machine": args.machine, "host": args.host}
    for flag, path in files.items():
        if path is not None and (flag, path) != ("host", "default") and not os.path.isfile(path):
            raise usage(f"--{flag}: no such file {path!r}")
    return files


LONG_INPUT_LINES = 20_000


def _progress(source, stderr: TextIO):
    """Name each pass as it starts on a large input, when a person is watching stderr."""
    if len(source.line_starts) < LONG_INPUT_LINES or not stderr.isatty():
        return None

    def report(step: str) -> None:
        stderr.write(f"nano-vx: {step} ...\n")
        stderr.flush()

    return report


def _run(program, diagnostics: Diagnostics, args, stdout: TextIO, stderr: TextIO,
         facts: dict, runner) -> int:
    from .values.stops import RuntimeStop

    if not any(item._prod in ("Fn", "Func") and item.name == "main" for item in program.items):
        diagnostics.error("E2002", None, "the program has no `fn main` to run",
                          help=["add `fn main() { ... }`, or use `--action check`"])
        return _report(diagnostics, args, stderr)
    human = args.error_format == "human"
    if human:
        _report(diagnostics, args, stderr)  # warnings come before the program's output
    try:
        result = runner(program, stdout)
    except RuntimeStop as stop:
        stdout.flush()
        if human:
            diagnostics = Diagnostics()
        diagnostics.add(stop.to_diagnostic())
        return _report(diagnostics, args, stderr, facts)
    if not human:
        _report(diagnostics, args, stderr, facts)
    return result % 256


def _report(diagnostics: Diagnostics, args, stderr: TextIO, facts: dict | None = None) -> int:
    if args.error_format == "json":  # the program-level facts (routes, resident sets) too
        stderr.write(diagnostics.to_json(**(facts or {})))
    elif diagnostics.items:
        stderr.write(diagnostics.render(color=args.color))
    return EXIT_ERROR if diagnostics.has_errors else EXIT_OK


def print_timing(timings, stderr: TextIO) -> None:
    """--timing: each pass's time and share, on stderr; under --error-format=json, stderr
    records them as the document's `timings` (nano_vx/cli/failures.py's JsonChannel)."""
    total = sum(t.seconds for t in timings) or 1e-12
    record = getattr(stderr, "record", None)
    if record is not None:
        record("timings", [{"pass": t.name, "ms": round(t.seconds * 1000, 3)}
                           for t in timings])
        return
    width = max(len(t.name) for t in timings)
    stderr.write(f"{'pass':<{width}}  {'ms':>9}  {'share':>6}\n")
    for t in timings:
        stderr.write(f"{t.name:<{width}}  {t.seconds * 1000:9.2f}  "
                     f"{100 * t.seconds / total:5.1f}%\n")
    stderr.write(f"{'total':<{width}}  {total * 1000:9.2f}\n")
