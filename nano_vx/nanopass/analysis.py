"""Analysis passes: read a tree, report and record what it says, return it unchanged.

The model is the nanopass framework's processors that produce no new language (`-> *`): the
pass writes handlers only for the productions it inspects, and every other production is
walked for it, in field order, down to the handled ones. Subtrees that cannot contain a
handled production are not entered at all. A handler is `handler(run, node)`; it continues
below its node with `run.descend(node)` (the automatic walk of its children) or by walking
the children it chooses with `run.walk(child)`, in the order it chooses.

With `flow=True` the analysis threads a value through the walk in evaluation order: a
handler is `handler(run, node, acc) -> acc`, `run.walk(child, acc)` returns the value after
the child, and the automatic walk passes each child the value the one before it returned.
That is the shape of a forward dataflow analysis (which locals a `transfer` has moved at
each point, say): the handlers are the productions where the value changes or control
splits, and everything else threads it through.

Fields of the nonterminals named in `skip` are never entered by the automatic walk: an
analysis of what a program computes skips the types written in it.

What an analysis finds goes to diagnostics, or to the compilation as a fact it declares in
`provides` (set by a handler, usually the one for the root).
"""

from __future__ import annotations

from typing import Callable

from .generated import define
from .language import Language
from .nodes import Node
from .passes import Pass, Run, reachable


class Analysis(Pass):
    def __init__(
        self,
        name: str,
        language: Language,
        doc: str,
        *,
        flow: bool = False,
        skip: tuple[str, ...] = (),
        state: Callable[[], object] = type(None),
        requires: tuple[str, ...] = (),
        provides: tuple[str, ...] = (),
    ):
        super().__init__(name, language, language, doc, state=state, requires=requires,
                         provides=provides)
        self.flow = flow
        self.skip = frozenset(skip)

    def on(self, *productions: str):
        """Register a handler for productions (no `splice`: an analysis builds no nodes)."""
        return super().on(*productions)

    def __repr__(self) -> str:
        return f"<Analysis {self.name}: {self.input.name}>"

    def _walk(self, tree, ctx):
        self.collect(tree, ctx)
        return tree

    def collect(self, tree, ctx=None, *, state=None):
        """Run the analysis over `tree` (any node of its language) and return its state:
        how one pass asks a helper analysis that is not in the pipeline."""
        run = AnalysisRun(self, ctx, state)
        run.walk(tree, None) if self.flow else run.walk(tree)
        return run.state

    def plans(self) -> dict[type, Callable]:
        if self._plans is None:
            self._plans = _make_visits(self)
        return self._plans


class AnalysisRun(Run):
    """One run of an analysis over one tree."""

    __slots__ = ()

    def walk(self, node: Node, *acc):
        return self._dispatch[type(node)](self, node, *acc)

    def descend(self, node: Node, *acc):
        """The automatic walk below `node`, for a handler that goes on into its children."""
        return self._plans[type(node)](self, node, *acc)


def _make_visits(a: Analysis) -> dict:
    language = a.input
    handled = set(a.handlers)
    memo: dict = {}
    plans = {}
    for name, cls in language.nodes.items():
        walked = [
            (f.name, f.mult)
            for f in cls._declared
            if f.kind in language.nonterminals and f.kind not in a.skip
            and reachable(language, f.kind, memo) & handled
        ]
        plans[cls] = _compile_visit(cls, walked, a.flow)
    return plans


def _compile_visit(cls, walked, flow: bool) -> Callable:
    """Generate the automatic walk for one production (generated for speed)."""
    if not walked:
        return (lambda run, node, acc: acc) if flow else (lambda run, node: None)
    step = "acc = walk({}, acc)" if flow else "walk({})"
    head = "def visit(run, node, acc):" if flow else "def visit(run, node):"
    lines = [head, "    walk = run.walk"]
    for name, mult in walked:
        if mult == "*":
            lines += [f"    for x in node.{name}:", "        " + step.format("x")]
        elif mult == "?":
            lines += [f"    x = node.{name}", "    if x is not None:",
                      "        " + step.format("x")]
        else:
            lines.append("    " + step.format(f"node.{name}"))
    if flow:
        lines.append("    return acc")
    env: dict = {}
    return define("\n".join(lines), f"<visit {cls._prod}>", "visit", env)
