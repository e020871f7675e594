"""Run a small .vx case through the pipeline up to one pass: what every pass test starts from.

A case reaches the pass under test through every pass before it, and a few hundred tests
start from the same cases and examples: each process keeps, per case (its name, its text and
its options), the tree and the facts after parse and after each pass run so far, and starts
the next test from the longest prefix it needs. Nodes are immutable, so a kept tree is handed
out as it is; the `Compilation` and its diagnostics are copied for each test, so what one test
(or the pass under test) adds to them reaches no other. The pass under test always runs.

A test that patches the compiler (a counting wrapper, a stand-in for a function) must see its
patch run: under the `monkeypatch` fixture, or inside `uncached()`, every pass runs again.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import os
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from nano_vx.cli import main as cli_main
from nano_vx.context import Compilation
from nano_vx.diagnostics import Diagnostics
from nano_vx.nanopass import children
from nano_vx.values.stops import RuntimeStop
from nano_vx.oracle.interpreter import run_program
from nano_vx.parser import parse_text
from nano_vx.pipeline import NATIVE
from nano_vx.source import Source

# The tree passes after parse, in pipeline order: a case reaches a pass the way a program does.
FRONT = NATIVE.passes[1:]


@dataclass
class Ran:
    before: object  # the tree the pass under test read
    after: object  # the tree it produced
    diagnostics: Diagnostics
    ctx: Compilation

    def nodes(self, prod: str | None = None):
        """Every node of the output (of one production, if given), in source order."""
        stack = [self.after]
        while stack:
            node = stack.pop()
            if prod is None or node._prod == prod:
                yield node
            stack.extend(reversed([child for _, _, child in children(node)]))

    def prints(self) -> tuple[str, str]:
        """What the input and the output print under the reference interpreter."""
        return _printed(self.before), _printed(self.after)


def _printed(tree) -> str:
    out = io.StringIO()
    try:
        run_program(tree, out=out)
    except RuntimeStop as stop:  # a stop is part of what a program does
        out.write(f"stopped: {stop}\n")
    return out.getvalue()


def run_front(text: str | Path, upto, name: str = "case.vx", **options) -> Ran:
    """Parse `text` (or a case file), run the passes before `upto`, which must report
    nothing, then `upto`; `options` are the command line's (`machine=`, `host=`)."""
    if isinstance(text, Path):
        text, name = text.read_text(), text.name
    at = next((i for i, p in enumerate(FRONT) if p is upto), None)
    if at is None:
        raise ValueError(f"{upto!r} is not a pass of the pipeline")
    tree, ctx = _prefix(text, name, options, at)
    return Ran(tree, upto(tree, ctx), ctx.diagnostics, ctx)


# (name, text, options) -> [(tree, ctx)] after parse and after each pass of FRONT run so far,
# the most recently used last. A key holds a few dozen trees that share every unchanged
# subtree; the bound keeps a worker's memory flat over the whole suite.
_PREFIXES: OrderedDict = OrderedDict()
_KEPT = 512
_caching = True


@contextlib.contextmanager
def uncached():
    """Inside the block, `run_front` runs every pass again and keeps nothing."""
    global _caching
    was, _caching = _caching, False
    try:
        yield
    finally:
        _caching = was


def _key(text: str, name: str, options: dict):
    if not _caching:
        return None
    # A machine or host file is part of the case: its text, not only its path.
    files = tuple(Path(v).read_text() if isinstance(v, str) and os.path.isfile(v) else None
                  for _, v in sorted(options.items()))
    key = (name, text, tuple(sorted(options.items())), files)
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _prefix(text: str, name: str, options: dict, at: int):
    """The tree and a fresh copy of the compilation after parse and FRONT[:at]."""
    key = _key(text, name, options)
    steps = _PREFIXES.get(key) if key is not None else None
    if steps is None:
        tree, diagnostics = parse_text(text, name)
        assert not diagnostics.has_errors, diagnostics.render()
        steps = [(tree, Compilation(Source(name, text), diagnostics, **options))]
        if key is not None:
            _PREFIXES[key] = steps
            if len(_PREFIXES) > _KEPT:
                _PREFIXES.popitem(last=False)
    elif key is not None:
        _PREFIXES.move_to_end(key)
    while len(steps) <= at:
        tree, ctx = _copied(*steps[-1])
        tree = FRONT[len(steps) - 1](tree, ctx)
        assert not ctx.diagnostics.has_errors, ctx.diagnostics.render()
        steps.append((tree, ctx))  # no one holds this ctx: every reader gets a copy
    return _copied(*steps[at])


def _copied(tree, ctx: Compilation):
    """`tree` as it is, and a copy of `ctx` whose diagnostics are copies: a pass that adds a
    note to a diagnostic it reported changes only its own copy."""
    diagnostics = Diagnostics()
    diagnostics.items = [dataclasses.replace(d, notes=list(d.notes), help=list(d.help),
                                             data=dict(d.data), labels=list(d.labels))
                         for d in ctx.diagnostics.items]
    return tree, dataclasses.replace(ctx, diagnostics=diagnostics)


# The checks every pass test with refused cases makes; each case file `<case>.vx` has a
# repair beside it, `<case>_repaired.vx`.


def _repaired(case: Path) -> Path:
    return case.with_name(f"{case.stem}_repaired.vx")


def run_cli(path, *args) -> tuple[int, str, str]:
    """`nano-vx PATH ARGS` in this process: its exit status, standard output and error."""
    out, err = io.StringIO(), io.StringIO()
    return cli_main([str(path), *args], stdout=out, stderr=err), out.getvalue(), err.getvalue()


def assert_native_as_interpreted(case: Path):
    """Native code runs the case (no fallback, W5001) as the interpreter does: the same exit
    status, output and diagnostics."""
    native = run_cli(case)
    assert "W5001" not in native[2]
    assert native == run_cli(case, "--action", "interpret")


def assert_interpreted_after_w5001(case: Path, stop: str):
    """The default action runs the case in the interpreter after W5001, which stops with
    `stop`: what it prints, reports from there on and exits with are the interpreter's."""
    status, printed, err = run_cli(case)
    interpreted = run_cli(case, "--action", "interpret")
    assert "warning[W5001]" in err and f"error[{stop}]" in interpreted[2]
    assert (status, printed, err[err.index(f"error[{stop}]"):]) == interpreted


def assert_prints_the_same(case: Path, upto, since=None):
    """The case is admitted and prints under the interpreter what it printed before `upto`,
    or before `since`, an earlier pass, when what `upto` reads does not run."""
    ran = run_front(case, upto)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    source = ran.before if since is None else run_front(case, since).before
    assert _printed(ran.after) == _printed(source)


def assert_judged(case: Path, upto, refused: dict, snapshot_txt):
    """`upto`, an analysis, leaves the tree as it was and reports the code `refused` gives
    the case (nothing for a case it does not name), rendered as the snapshot shows."""
    ran = run_front(case, upto)
    assert ran.after is ran.before
    code = refused.get(case.stem, (None,))[0]
    assert ran.diagnostics.codes() == ([code] if code else [])
    assert ran.diagnostics.render() == snapshot_txt


def assert_refused_then_repaired(case: Path, upto, code: str, says: str):
    """`upto` reports one diagnostic, `code`, whose message says `says`; the repair passes."""
    ran = run_front(case, upto)
    [diag] = ran.diagnostics.items
    assert diag.code == code
    assert says in diag.message
    repaired = run_front(_repaired(case), upto)
    assert not repaired.diagnostics.items, repaired.diagnostics.render()


def assert_refused_from_the_command_line(case: Path, code: str, capsys):
    assert cli_main([str(case), "--action", "check"]) == 1
    assert f"error[{code}]" in capsys.readouterr().err
    assert cli_main([str(_repaired(case)), "--action", "check"]) == 0
