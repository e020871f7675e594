"""Run a program through every IL of the front-end chain and check each run agrees; and, when
the whole pipeline admits it, as native code, which must agree too."""

import io

from nano_vx.context import Compilation
from nano_vx.oracle import run_program
from nano_vx.pipeline import PIPELINE
from nano_vx.source import Source
from nano_vx.values.stops import RuntimeStop

# Every front-end pass that rewrites the program up to resolve-names (the first IL whose
# names are resolved), from the one after parse; machine files are given by none.
_NAMES = [p.name for p in PIPELINE.passes]
PASSES = [p for p in PIPELINE.passes[1:_NAMES.index("resolve-names") + 1]
          if p.name != "load-machine-files"]


def parse(text: str):
    from nano_vx.parser import parse_text

    program, diagnostics = parse_text(text)
    assert not diagnostics.has_errors, diagnostics.render()
    return program


def lowered(tree, text: str = ""):
    """(IL name, tree) for the program in Lsrc and after each front-end pass."""
    ctx = Compilation(Source("test.vx", text))
    out = [("Lsrc", tree)]
    for p in PASSES:
        tree = p(tree, ctx)
        assert not ctx.diagnostics.has_errors, ctx.diagnostics.render()
        out.append((p.output.name, tree))
    return out


def run_one(tree):
    """(printed text, main's result or the RuntimeStop)."""
    out = io.StringIO()
    try:
        result = run_program(tree, out=out)
    except RuntimeStop as stop:
        return out.getvalue(), stop
    return out.getvalue(), result


def native(text: str):
    """(printed text, main's result or the RuntimeStop) of the program run as native code, or
    None when some pass refuses it (these tests run programs the checkers would refuse, to
    see what the interpreter does)."""
    from nano_vx.backend.jit import run_native
    from nano_vx.pipeline import NATIVE

    tree, diagnostics = parse_with(text)
    if diagnostics.has_errors:
        return None
    ctx = Compilation(Source("test.vx", text), diagnostics)
    for p in NATIVE.passes[1:]:
        tree = p(tree, ctx)
        if diagnostics.has_errors:
            return None
    out = io.StringIO()
    try:
        result = run_native(tree, out)
    except RuntimeStop as stop:
        return out.getvalue(), stop
    return out.getvalue(), result


def parse_with(text: str):
    from nano_vx.parser import parse_text

    return parse_text(text, "test.vx")


def run_chain(program, native_too: bool = True):
    """Run `program` (Vx text or an Lsrc tree) in every IL, and natively when the pipeline
    admits it; all runs must print the same and end the same way. Returns (printed text,
    result or RuntimeStop) of the Lsrc run."""
    text = program if isinstance(program, str) else ""
    tree = parse(program) if isinstance(program, str) else program
    runs = [(name, run_one(t)) for name, t in lowered(tree, text)]
    compiled = native(text) if text and native_too else None
    if compiled is not None:
        runs.append(("native code", compiled))
    first_out, first_end = runs[0][1]
    for name, (out, end) in runs[1:]:
        assert out == first_out, f"{name} printed differently"
        if isinstance(first_end, RuntimeStop):
            assert isinstance(end, RuntimeStop) and end.code == first_end.code, name
            assert end.message == first_end.message, name
        else:
            assert end == first_end, f"{name} returned {end!r}, Lsrc {first_end!r}"
    return first_out, first_end


def output(program, native_too: bool = True) -> str:
    out, end = run_chain(program, native_too)
    assert not isinstance(end, RuntimeStop), f"stopped: {end}"
    return out


def stops(program, code: str, native_too: bool = True) -> RuntimeStop:
    """The stop `program` makes; `native_too=False` for a stop native code does not make
    (an unwritten element read: it reads zero) or a program the whole pipeline gives a
    meaning the interpreter does not run."""
    _, end = run_chain(program, native_too)
    assert isinstance(end, RuntimeStop), f"ran to the end and returned {end!r}"
    assert end.code == code, f"{end.code}: {end.message}"
    return end
