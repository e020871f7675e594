"""`nano-vx spatial prog.vx`: a Vx kernel into the spatial lane. The Vx front end checks the
program (its diagnostics are the program's), the from-vx pass reads the kernel as an Sdataflow
graph, and the reference interpreter's outputs for the kernel are what the graph must compute,
input by input."""

from __future__ import annotations

from ..context import Compilation
from ..driver import internal_errors, run_pipeline
from ..oracle.equivalence import compare_outputs
from ..oracle.outcomes import Finished
from ..pipeline import PIPELINE
from ..spatial.tolerance import tolerances
from ..spatial_passes.from_vx import from_vx
from ..values.stops import RuntimeStop
from .vx_reference import run_kernel


class VxKernel:
    """The front end's tree of a Vx program and the kernel from-vx read from it."""

    def __init__(self, tree, name: str):
        self.tree, self.name = tree, name

    def divergence(self, graph, graph_outcomes, inputs):
        """None when the graph computes what the interpreter computes for the kernel on every
        input, floats within the graph's tolerance (the interpreter rounds a narrow float
        where the graph's stages do not, as a pass's output may); else a sentence saying
        where they part."""
        for k, given in enumerate(inputs):
            try:
                expected = run_kernel(self.tree, self.name, given)
            except RuntimeStop as stop:
                return f"on input {k} the kernel stops: {stop}"
            got = graph_outcomes[k]
            if not isinstance(got, Finished):
                return None  # the lane refuses a graph that does not finish, on its own
            differs = compare_outputs(k, Finished(expected, 0, {}), got, tolerances(graph))
            if differs is not None:
                return (f"on input {k}, '{differs.tensor}' differs first at "
                        f"{list(differs.index)}: the kernel gives {differs.before}, the graph "
                        f"{differs.after}")
        return None


def bridge(source, kernel: str | None, diagnostics):
    """(the Sdataflow graph, the VxKernel), or None once the diagnostics say why not."""
    ctx = Compilation(source, diagnostics, kernel=kernel)
    outcome = run_pipeline(PIPELINE, source, ctx, keep=frozenset({"Lfolded"}))
    if diagnostics.has_errors:
        return None
    tree = outcome.kept["Lfolded"]
    with internal_errors(from_vx, tree):
        graph = from_vx(tree, ctx)
    if graph is None or diagnostics.has_errors:
        return None
    return graph, VxKernel(tree, graph.name)
