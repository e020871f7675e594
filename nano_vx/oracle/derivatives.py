"""`grad`, `vjp` and `jvp` in the reference interpreter, on the ILs before the passes that
generate their functions: each runs as the function differentiate-forward or
differentiate-reverse generates for it, `f$jvp` or `f$vjp`, so every IL of the chain computes
a derivative with the same operations in the same order and prints it alike.

The program's text (the span's source) is compiled once up to differentiate-reverse, and the
generated function runs in an interpreter of that program. Whether the generated functions
compute the derivative is the tests' question (finite differences, the dot-product test),
not the interpreter's.
"""

from __future__ import annotations

from functools import lru_cache
from weakref import WeakKeyDictionary

from ..values.literals import literal
from ..values.stops import stop


@lru_cache(maxsize=16)
def _compiled(name: str, text: str):
    """The program up to differentiate-reverse, or the first error compiling it."""
    from ..context import Compilation
    from ..deep import run_deep
    from ..diagnostics import Diagnostics
    from ..parser import parse
    from ..pipeline import PIPELINE
    from ..source import Source
    ctx = Compilation(Source(name, text), Diagnostics())
    tree = run_deep(parse, ctx.source, ctx.diagnostics)
    for p in PIPELINE.passes[1:]:
        if ctx.diagnostics.has_errors:
            break
        tree = run_deep(p, tree, ctx)
        if p.name == "differentiate-reverse":
            break
    errors = [d for d in ctx.diagnostics.sorted() if d.severity == "error"]
    if errors:
        return None, f"{errors[0].code}: {errors[0].message}"
    return tree, None


# The generated functions each interpreter has called, by (production, function name): each
# runs in an interpreter of the compiled program, made once for the interpreter asking.
_DERIVED: WeakKeyDictionary = WeakKeyDictionary()


def generated(interp, node):
    """The generated function a `grad`, `vjp` or `jvp` node calls, and what it passes after
    the node's own arguments (grad's seed, 1 of the result's type)."""
    cache = _DERIVED.setdefault(interp, {})
    key = (node._prod, node.fn)
    if key not in cache:
        from .interpreter import Interpreter
        span = node.span
        if span is None:
            stop("E9006", None, f"'{node.fn}' has no derivative: its program has no source")
        tree, error = _compiled(span.source.name, span.source.text)
        if error is not None:
            stop("E9006", span, f"'{node.fn}' has no derivative: {error}")
        program = Interpreter(tree, interp.out, interp.max_depth)
        fn = program.functions[f"{node.fn}${'jvp' if node._prod == 'Jvp' else 'vjp'}"]
        seed = []
        if node._prod == "Grad":
            ret = program.functions[node.fn].node.ret
            seed = [literal(1.0, ret.name if ret._prod == "Scalar" else None, span)]
        cache[key] = fn, seed
    return cache[key]
