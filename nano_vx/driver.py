"""The one pass runner: every lane, every tool runs its passes through `run_passes`.

The runner knows nothing about any particular pass. It walks a list of passes, times each,
tags each diagnostic with the pass that reported it, stops at the first pass that reported an
error (or at `stop_after`), and turns an exception escaping a pass into an internal compiler
error that names the pass and saves the IR that went into it. What a caller wants to see
around each pass (dumps, the explorer's recording, the spatial lane's validation of every
rewrite, the benchmark's measurements) is a `Watch` it hands in.
"""

from __future__ import annotations

import contextlib
import gc
import os
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from typing import Callable, TextIO

from .context import Compilation
from .dump.render import RenderError
from .source import Source

FORMAT_SUFFIX = {"text": "txt", "dot": "dot", "svg": "svg", "json": "json"}


class InternalError(Exception):
    """An exception escaped a pass: a bug in the compiler, not in the program."""

    def __init__(self, pass_name: str, error: BaseException, ir_file: str | None):
        self.pass_name = pass_name
        self.error = error
        self.ir_file = ir_file
        super().__init__(f"internal compiler error in pass {pass_name}: "
                         f"{type(error).__name__}: {error}")


@contextlib.contextmanager
def internal_errors(p, tree, expected: tuple = ()):
    """Whatever escapes the block, running pass `p` on `tree` or printing the IR around it, is
    a bug of the compiler: an InternalError naming the pass, with the IR that went into it
    saved for the report. An `expected` exception (a pass's typed refusal, a renderer that
    fails) is the caller's to report and goes through as it is."""
    try:
        yield
    except expected:
        raise
    except Exception as error:  # noqa: BLE001 - every escape from a pass is a compiler bug
        raise InternalError(p.name, error, save_ice(p, tree, error)) from error


def report_internal_error(ice: InternalError, stderr) -> None:
    """What a user sees of a compiler bug: the pass, the exception, where the IR went."""
    stderr.write(f"nano-vx: {ice}\n")
    if ice.ir_file:
        stderr.write(f"nano-vx: the IR that went into {ice.pass_name} and the traceback "
                     f"are in {ice.ir_file}\n")
    stderr.write("nano-vx: this is a bug in nano-vx, not in your program\n")


class DumpError(Exception):
    """A dump file could not be written (a disk that filled up, a directory removed while the
    compiler ran): the user's environment, not a bug, so no internal error."""

    def __init__(self, path: str, error: OSError, what: str = "the dump"):
        self.path = path
        super().__init__(f"cannot write {what} {path}: {error.strerror or error}")


@dataclass
class DumpOptions:
    after: set[str] = field(default_factory=set)  # pass names, or {"all"}
    before: set[str] = field(default_factory=set)
    changed_only: bool = False
    diff: bool = False
    directory: str | None = None
    formats: tuple[str, ...] = ("text",)  # several only with a directory: a file in each
    banners: bool = True  # False: stdout holds one document (an SVG, a JSON) and nothing else

    def wants(self, which: set[str], name: str) -> bool:
        return "all" in which or name in which


@dataclass
class PassTiming:
    name: str
    seconds: float


@dataclass
class Outcome:
    tree: object = None
    language: object = None
    timings: list[PassTiming] = field(default_factory=list)
    stopped_at: str | None = None  # the pass whose errors stopped the pipeline
    refused: object = None  # the tree that went into that pass
    kept: dict = field(default_factory=dict)  # IL name -> the tree in it, for those asked for


def render(tree, fmt: str, title: str, language=None, drawn: dict | None = None) -> str:
    """One IR in one dump format (the dump package is imported only when asked for); with its
    `language`, a text or JSON dump names its IL, so that it reads back. `drawn` (a Dumper's)
    keeps, for each format, the last tree drawn and its text but for the heading (the title,
    the IL named): a tree is never changed in place and most passes hand on the tree they
    were given, so a dump after every pass draws only the trees that changed."""
    if isinstance(tree, Source):
        return tree.text
    if fmt == "svg":  # the picture of the dot text, whose title it shows
        from .dump.render import render_svg

        return render_svg(render(tree, "dot", title, language, drawn))
    last = drawn.get(fmt) if drawn is not None else None
    if last is None or last[0] is not tree:
        last = (tree, _parts(tree, fmt))
        if drawn is not None:
            drawn[fmt] = last
    opening, rest = last[1]
    return opening + _heading(tree, fmt, title, language) + rest


def _heading(tree, fmt: str, title: str, language) -> str:
    """What goes between a dump's parts: the IL a text or JSON dump names, a graph's title."""
    if fmt == "text":
        from .dump.text import text_heading

        return text_heading(tree, language)
    if fmt == "json":
        from .dump.json_form import json_heading

        return json_heading(language)
    from .dump.dot_syntax import dot_heading

    return dot_heading(title)


def _parts(tree, fmt: str) -> tuple[str, str]:
    """`tree`'s dump in `fmt` (text, json or dot) before and after its heading."""
    if fmt == "text":
        from .dump.text import text_body

        return "", text_body(tree)
    if fmt == "json":
        from .dump.json_form import json_parts

        return json_parts(tree)
    from .dump.dot import dot_parts

    return dot_parts(tree)


# A dump file is named by its pass's position in the pipeline, then a letter for the moment
# (a before, b after, c diff), so the same pass always gets the same name whatever else is
# dumped, and `ls` lists the files in the order they were written.
PHASE_LETTER = {"before": "a", "after": "b", "diff": "c"}


class Dumper:
    """Prints (or files) the IR around each pass as the dump options ask."""

    def __init__(self, options: DumpOptions, out: TextIO):
        self.options = options
        self.out = out
        # render's `drawn`: a pass's output is the next pass's input, which --dump-diff and
        # --dump-changed print again, and most passes return their input.
        self._drawn: dict = {}

    def text(self, tree) -> str:
        """The tree as plain text (no IL line), printed once for consecutive asks."""
        return render(tree, "text", "", None, self._drawn)

    def emit(self, when: str, index: int, p, tree, ctx=None) -> None:
        """A dump of `tree` around pass `p`, in each format asked for; with the compilation
        `ctx` (the Vx lane's), a text dump after a pass ends with the facts it provides, and a
        file with the state a resumed run needs (nano_vx.resume)."""
        src = p.input.name if p.input is not None else "text"
        banner = f"*** IR Dump {when} {p.name} ({src} -> {p.output.name}) ***"
        if isinstance(tree, Source):  # before parse there is only the program text
            self._write(index, when.lower(), p.name, "vx", banner, tree.text)
            return
        # A renderer that fails is the environment's failing; writing is too (_write).
        with internal_errors(p, tree, expected=(RenderError,)):
            language = p.output if when == "After" else p.input
            bodies = {fmt: render(tree, fmt, banner, language, self._drawn)
                      for fmt in self.options.formats}
            if ctx is not None and "text" in bodies:
                if when == "After":
                    bodies["text"] += _facts(ctx, p)
                if self.options.directory:  # a file to resume from: the state goes with it
                    from .dump.state import trailer

                    bodies["text"] += trailer(ctx, when, p.name)
        for fmt, body in bodies.items():
            self._write(index, when.lower(), p.name, FORMAT_SUFFIX[fmt], banner, body)

    def emit_diff(self, index: int, p, before, after) -> None:
        from .dump.diff import diff_text

        src = p.input.name if p.input is not None else "text"
        banner = f"*** IR Diff {p.name} ({src} -> {p.output.name}) ***"
        with internal_errors(p, before):
            body = (diff_text(self.text(before), self.text(after), src, p.output.name)
                    or "(no change)\n")
        self._write(index, "diff", p.name, "diff", banner, body)

    def _write(self, index: int, phase: str, name: str, suffix: str, banner: str,
               body: str) -> None:
        body = body if body.endswith("\n") else body + "\n"
        directory = self.options.directory
        if directory:
            path = os.path.join(directory,
                                f"{index:02d}{PHASE_LETTER[phase]}-{phase}-{name}.{suffix}")
            try:
                os.makedirs(directory, exist_ok=True)
                with open(path, "w", encoding="utf-8") as fh:
                    fh.write(body)
            except OSError as error:
                raise DumpError(path, error) from error
            return
        if self.options.banners:
            self.out.write(banner + "\n")
        self.out.write(body)


@contextlib.contextmanager
def paused_collector():
    """Pause the cyclic garbage collector while the compiler runs.

    An IR is a large, acyclic, long-lived tree; reference counting frees what a pass drops,
    and the collector's generation-2 scans only walk the live trees again and again, which
    made passes on 100k-line programs several times slower than on 10k-line ones."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


class Watch:
    """What a caller sees of each pass: `before` it runs, and `after` with what it made.
    Either may raise an exception of the caller's to end the run (a refusal)."""

    def before(self, index: int, p, tree) -> None:
        pass

    def after(self, ran: Ran) -> None:
        pass


@dataclass
class Ran:
    """One pass that ran: its number among the dump files, its input and output, its time and
    the diagnostics it reported."""

    index: int
    p: object
    before: object
    after: object
    seconds: float
    reported: list


class DumpWatch(Watch):
    """The dump options' IR around each pass, printed or filed by a Dumper; with the Vx lane's
    compilation `ctx`, text dumps carry its facts and state."""

    def __init__(self, dumps: DumpOptions, out: TextIO, ctx=None):
        self.dumps = dumps
        self.dumper = Dumper(dumps, out)
        self.ctx = ctx

    def before(self, index: int, p, tree) -> None:
        if self.dumps.wants(self.dumps.before, p.name):
            self.dumper.emit("Before", index, p, tree, self.ctx)

    def after(self, ran: Ran) -> None:
        dumps, p = self.dumps, ran.p
        # With --dump-changed, parse's whole dump is shown (the program's text becomes an
        # IL), but not a diff that finds the text unchanged.
        if dumps.wants(dumps.after, p.name) and (
                not dumps.changed_only or isinstance(ran.before, Source) and not dumps.diff
                or self.dumper.text(ran.before) != self.dumper.text(ran.after)):
            if dumps.diff:
                self.dumper.emit_diff(ran.index, p, ran.before, ran.after)
            else:
                self.dumper.emit("After", ran.index, p, ran.after, self.ctx)


def run_passes(passes, tree, ctx, *, verify: bool = True, watch=(), stop_after: str | None = None,
               progress: Callable[[str], None] | None = None, numbers: dict | None = None,
               keep: frozenset = frozenset(), refusals: tuple = ()) -> Outcome:
    """Run `passes` in order on `tree` (a program's text, or a tree read from a dump) in the
    compilation `ctx`, each verified unless `verify` is off; `numbers` numbers the dump files
    by each pass's place in the whole table when `passes` is a part of it; `keep` names ILs
    whose trees the outcome holds besides the last one; `refusals` are the exceptions by which
    a pass refuses its program (the spatial lane's), which go through to the caller. The
    garbage collector is paused."""
    with paused_collector():
        return _run(passes, tree, ctx, verify, watch, stop_after, progress, numbers or {}, keep,
                    refusals)


def _run(passes, tree, ctx, verify, watch, stop_after, progress, numbers, keep,
         refusals) -> Outcome:
    outcome = Outcome(tree=tree)
    diagnostics = getattr(ctx, "diagnostics", None)  # a spatial pass refuses by raising
    passes = list(passes)
    for step, p in enumerate(passes, 1):
        index = numbers.get(p.name, step)
        if progress:
            progress(f"[{step}/{len(passes)}] {p.name}")
        for w in watch:
            w.before(index, p, tree)
        seen = len(diagnostics.items) if diagnostics is not None else 0
        start = time.perf_counter()
        with internal_errors(p, tree, expected=refusals):
            out = p(tree, ctx, check=verify)
        seconds = time.perf_counter() - start
        outcome.timings.append(PassTiming(p.name, seconds))
        reported = diagnostics.items[seen:] if diagnostics is not None else []
        for d in reported:
            d.origin = p.name
        ran = Ran(index, p, tree, out, seconds, reported)
        for w in watch:
            w.after(ran)
        before, tree = tree, out
        outcome.tree, outcome.language = tree, p.output
        if p.output.name in keep:
            outcome.kept[p.output.name] = tree
        if diagnostics is not None and diagnostics.has_errors:
            outcome.stopped_at, outcome.refused = p.name, before
            break
        if p.name == stop_after:
            break
    return outcome


def run_pipeline(pipeline, source: Source, ctx: Compilation, *, dumps: DumpOptions | None = None,
                 dump_out: TextIO | None = None, **options) -> Outcome:
    """The Vx lane's passes over `source` (the program's text, or a tree read from a dump),
    with the dumps `dumps` asks for written to `dump_out`; `options` go to run_passes."""
    watch = (DumpWatch(dumps, dump_out, ctx),) if dumps is not None else ()
    return run_passes(pipeline, source, ctx, watch=watch, **options)


def _facts(ctx, p) -> str:
    """The facts a pass leaves for later passes, as comments after its text dump: an
    analysis's result is there, not in the IR it returns unchanged."""
    if not p.provides:
        return ""
    lines = [f"facts provided by {p.name}:"]
    for fact in p.provides:
        lines.append(f"{fact}:")
        lines += [f"  {line}" for line in ctx.describe(fact).splitlines()]
    return "".join(f"// {line}\n" for line in lines)


def save_ice(p, tree, error: BaseException) -> str | None:
    """Write the IR that went into the failing pass, with the traceback, for the bug report."""
    try:
        ir = render(tree, "text", p.name)
    except Exception as dump_error:  # noqa: BLE001 - the dump itself may be what is broken
        ir = f"(the IR could not be printed: {type(dump_error).__name__}: {dump_error})"
        try:
            ir += f"\n{tree!r}"
        except RecursionError:  # a tree too deep for the printer is too deep for repr too
            ir += f"\n(a {type(tree).__name__} too deep to show)"
    body = (
        f"nano-vx internal compiler error in pass {p.name}\n\n"
        + "".join(traceback.format_exception(error))
        + f"\n--- IR that went into {p.name} ---\n{ir}\n"
    )
    return save_report(f"nano-vx-ice-{p.name}.txt", body)


def save_report(name: str, body: str) -> str | None:
    """Write a bug report in the current directory, or the temporary one when that cannot
    be written; None when neither can."""
    for directory in (os.getcwd(), tempfile.gettempdir()):
        path = os.path.join(directory, name)
        try:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(body)
            return path
        except OSError:
            continue
    return None
