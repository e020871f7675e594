"""desugar-malloc: Lonefile -> Lonefile."""

from __future__ import annotations

from ..languages import Lonefile
from ..languages.lsrc import is_malloc, malloc_constructor
from ..nanopass import Pass

L = Lonefile

desugar_malloc = Pass("desugar-malloc", Lonefile, Lonefile, """
Write `let b: Tensor<f32, CPU_DRAM> = malloc(n);` as the constructor it means,
`Tensor<f32, [?], Memory::CPU_DRAM>::uninit([n])` (E2001 for a `malloc` whose type is not
written).

An older spelling still in users' programs: `malloc(n)` makes a rank-1 tensor of n elements,
none written yet, so it says neither its element type nor its space; the `let`'s type does
(`Tensor<f32, CPU_DRAM>` is such a tensor in CPU_DRAM, `Tensor<f32, [?]>` one in host
memory). Anywhere else, or under a type that is no rank-1 tensor, nothing says what it
makes: E2001, as for any name the program does not declare, with the form that works. A
function or a local the program calls `malloc` is its own, and stays.
""")


@desugar_malloc.on("Program")
def _program(run, node):
    # A program that declares its own `malloc` calls it.
    if any(i._prod == "Fn" and i.name == "malloc" for i in node.items):
        return node
    return run.rebuild(node)


@desugar_malloc.on("Let")
def _let(run, node):
    if is_malloc(node.value):
        walked = node.replace(value=node.value.replace(args=run.walk_seq(node.value.args)))
        ctor = malloc_constructor(walked, L)
        if ctor is not None:
            return walked.replace(value=ctor)
    return run.rebuild(node)


@desugar_malloc.on("Call")
def _call(run, node):
    if is_malloc(node):
        run.ctx.diagnostics.error(
            "E2001", node.span, "`malloc(n)` makes a tensor of the element type and the space "
                                "its `let` writes, and this one has none written",
            help=["write its type: `let b: Tensor<f32, CPU_DRAM> = malloc(n);`"],
            name="malloc")
    return run.rebuild(node)

