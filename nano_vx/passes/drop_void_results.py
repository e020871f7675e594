"""drop-void-results: Lonefile -> Lonefile."""

from __future__ import annotations

from ..languages import Lonefile
from ..nanopass import Pass

drop_void_results = Pass("drop-void-results", Lonefile, Lonefile, """
Write `fn f() -> void` as `fn f()`: a function whose result is `void` has none.

Users of the public Vx compiler write `-> void` for a function called for what it does; every
later pass knows one spelling of "no result", so a bare `return;` is allowed in it and its
call binds nothing, as for a function written without `->`.
""")


@drop_void_results.on("Fn")
def _fn(run, node):
    node = run.rebuild(node)
    ret = node.ret
    if ret is not None and ret._prod == "Scalar" and ret.name == "void":
        return node.replace(ret=None)
    return node
