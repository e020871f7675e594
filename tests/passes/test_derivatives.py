"""The derivatives differentiate-forward and differentiate-reverse generate are derivatives,
and the reference interpreter's own rule for `grad`, `vjp` and `jvp` (dual numbers and a
tape, nano_vx/oracle/derivatives.py) checks them.

Every program below runs twice in the interpreter: on the IL before differentiate-forward,
where the interpreter's rule computes each derivative, and on the front end's last IL, where
the generated `f$jvp` and `f$vjp` do; the two print alike (to rounding: they sum the same
terms in orders of their own). For every differentiable function of the pass tests' cases
and of examples/least_squares.vx, the adjoint and the tangent agree with central finite
differences of the function itself to a relative 1e-6 in f64: for a function with a tensor
result, `vjp(f, x, u)` is the gradient of `<u, f(x)>`, and `<u, jvp(f, x, e_k)>` its k-th
component. The tangent and the adjoint are each other's transpose: `<vjp(f, x, u), v>` equals
`<u, jvp(f, x, v)>` on random vectors (the dot-product test). The same properties hold for
random expression trees inside random loop nests (hypothesis). And native code runs the
generated functions as the interpreter does, for each function and some random programs.
"""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nano_vx.context import Compilation
from nano_vx.deep import run_deep
from nano_vx.oracle import run_program
from nano_vx.parser import parse_text
from nano_vx.diagnostics import Diagnostics
from nano_vx.passes.differentiate_forward import differentiate_forward
from nano_vx.passes.differentiate_reverse import differentiate_reverse
from nano_vx.pipeline import NATIVE, PIPELINE
from nano_vx.source import Source
from printed_alike import assert_alike, numbers

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "passes" / "cases"

# (program, function, its parameter: "f64", "tensor" or "&tensor" with the extent, the
# result's extent or None for a float, the point)
FUNCTIONS = [
    ("differentiate_forward/scalars.vx", "smooth", "f64", None, [1.5]),
    ("differentiate_forward/scalars.vx", "smooth", "f64", None, [0.5]),
    ("differentiate_forward/integer_parameter_repaired.vx", "at_three", "f64", None, [2.5]),
    ("differentiate_forward/transfer_repaired.vx", "norm", "tensor", None, [3.0, 4.0]),
    ("differentiate_forward/while_on_value_repaired.vx", "halvings", "f64", None, [10.0]),
    ("differentiate_forward/two_parameters_repaired.vx", "square", "f64", None, [2.0]),
    ("differentiate_reverse/scalars.vx", "smooth", "f64", None, [1.5]),
    ("differentiate_reverse/scalars.vx", "smooth", "f64", None, [0.5]),
    ("differentiate_reverse/tensors.vx", "normalize", "tensor", 3, [3.0, 4.0, 12.0]),
    ("differentiate_reverse/tensors.vx", "loss", "tensor", None, [3.0, 4.0, 12.0]),
    ("differentiate_reverse/loops.vx", "at_four", "f64", None, [0.5]),
    ("differentiate_reverse/break_in_loop_repaired.vx", "partial", "f64", None, [2.0]),
    ("differentiate_reverse/integer_result_repaired.vx", "scaled", "f64", None, [1.3]),
    ("differentiate_reverse/moved_tensor_repaired.vx", "loss", "tensor", None,
     [1.0, 2.0, 3.0]),
    ("differentiate_reverse/spawn_repaired.vx", "offload", "f64", None, [1.0]),
    ("differentiate_reverse/while_on_value_repaired.vx", "grow", "f64", None, [2.0]),
    ("differentiate_reverse/generic_named_repaired.vx", "square_f64", "f64", None, [1.5]),
    ("differentiate_reverse/nested_grad_repaired.vx", "slope", "f64", None, [2.0]),
    ("../../../examples/least_squares.vx", "loss", "&tensor", None, [1.5, -0.5]),
]
IDS = [f"{path.split('/')[-1][:-3]}:{fn}@{point}" for path, fn, _, _, point in FUNCTIONS]
# A tensor made inside a loop: the tangent follows it, the adjoint does not (E3061).
FORWARD_ONLY = ("differentiate_forward/tensors.vx", "normalize", "tensor", 3, [3.0, 4.0, 12.0])


def compile_front(text: str):
    """The program on the IL before differentiate-forward and on the front end's last IL."""
    tree, diagnostics = parse_text(text, "derivative.vx")
    ctx = Compilation(Source("derivative.vx", text), diagnostics)
    before = None
    for p in PIPELINE.passes[1:]:
        assert not diagnostics.has_errors, diagnostics.render()
        if p is differentiate_forward:
            before = tree
        tree = run_deep(p, tree, ctx)
    assert not diagnostics.has_errors, diagnostics.render()
    return before, tree, ctx


def printed(tree) -> str:
    out = io.StringIO()
    run_deep(run_program, tree, out=out)
    return out.getvalue()


def run(text: str) -> list[str]:
    """What the program prints, each derivative computed by the interpreter's own rule,
    after checking that the generated functions print alike."""
    before, after, _ = compile_front(text)
    rule = printed(before)
    assert_alike(printed(after), rule)
    return rule.splitlines()


def run_native(text: str) -> tuple[str, str, str | None]:
    """What the program prints by the interpreter's rule, by the generated functions
    interpreted, and by the generated functions compiled to native code (None when the
    back end does not lower them, E5010)."""
    from nano_vx.backend.jit import run_native
    before, tree, ctx = compile_front(text)
    rule, interpreted = printed(before), printed(tree)
    for p in NATIVE.passes[len(PIPELINE.passes):]:
        tree = run_deep(p, tree, ctx)
        if ctx.diagnostics.has_errors:
            assert set(ctx.diagnostics.codes()) == {"E5010"}, ctx.diagnostics.render()
            return rule, interpreted, None
    out = io.StringIO()
    run_native(tree, out)
    return rule, interpreted, out.getvalue()


def literal(values: list[float], param: str) -> str:
    """A Vx value: a float, or a tensor literal (lent, for `&tensor`)."""
    text = [f"{v:.17f}" for v in values]
    if param == "f64":
        return text[0]
    return ("&" if param == "&tensor" else "") + "[" + ", ".join(text) + "]"


def functions_of(path: str) -> str:
    """The program's items but its `main`."""
    text = (CASES / path).read_text()
    return text[:text.index("fn main()")]


def _finite_differences(path, fn, param, point, u, first_lines):
    """What the program prints for `first_lines`, and the central difference of
    `<u, f(x)>` along each axis of the point."""
    h, lines, sides = 1e-5, list(first_lines), []
    for k in range(len(point)):
        for step in (h, -h):
            moved = list(point)
            moved[k] = float(f"{point[k] + step:.17f}")
            sides.append(moved[k])
            lines.append(f"print({fn}({literal(moved, param)}));")
    shown = run(functions_of(path) + "fn main() {\n" + "\n".join(lines) + "\n}\n")
    given = shown[:len(first_lines)]
    values = [sum(a * b for a, b in zip(u, numbers(line))) for line in shown[len(given):]]
    slopes = [(values[2 * k] - values[2 * k + 1]) / (sides[2 * k] - sides[2 * k + 1])
              for k in range(len(point))]
    return given, slopes


@pytest.mark.parametrize("path,fn,param,out,point", FUNCTIONS, ids=IDS)
def test_the_adjoint_agrees_with_central_finite_differences(path, fn, param, out, point):
    u = [1.0] if out is None else [0.5, -1.0, 2.0][:out]
    seed = literal(u, "f64" if out is None else "tensor")
    [adjoint], slopes = _finite_differences(
        path, fn, param, point, u, [f"print(vjp({fn}, {literal(point, param)}, {seed}));"])
    for k, slope in enumerate(slopes):
        assert numbers(adjoint)[k] == pytest.approx(slope, rel=1e-6, abs=1e-7), k


@pytest.mark.parametrize("path,fn,param,out,point", FUNCTIONS + [FORWARD_ONLY],
                         ids=IDS + ["tensors:normalize, forward"])
def test_the_tangent_agrees_with_central_finite_differences(path, fn, param, out, point):
    u = [1.0] if out is None else [0.5, -1.0, 2.0][:out]
    lines = []
    for k in range(len(point)):
        axis = [1.0 if j == k else 0.0 for j in range(len(point))]
        lines.append(f"print(jvp({fn}, {literal(point, param)}, "
                     f"{literal(axis, param)}));")  # the tangent is passed as x is
    tangents, slopes = _finite_differences(path, fn, param, point, u, lines)
    for k, slope in enumerate(slopes):
        along = sum(a * b for a, b in zip(u, numbers(tangents[k])))
        assert along == pytest.approx(slope, rel=1e-6, abs=1e-7), k


@pytest.mark.parametrize("path,fn,param,out,point", FUNCTIONS, ids=IDS)
def test_vjp_and_jvp_are_each_others_transpose_on_random_vectors(path, fn, param, out, point):
    rng = random.Random(f"{path}:{fn}:{point}")
    for _ in range(2):
        u = [rng.uniform(-1, 1) for _ in range(out or 1)]
        v = [rng.uniform(-1, 1) for _ in range(len(point))]
        seed = literal(u, "f64" if out is None else "tensor")
        shown = run(functions_of(path) + "fn main() {\n"
                    f"print(vjp({fn}, {literal(point, param)}, {seed}));\n"
                    f"print(jvp({fn}, {literal(point, param)}, "
                    f"{literal(v, param)}));\n}}\n")
        back, forth = numbers(shown[0]), numbers(shown[1])
        left = sum(a * b for a, b in zip(back, v))
        right = sum(a * b for a, b in zip(u, forth))
        assert left == pytest.approx(right, rel=1e-9, abs=1e-12), shown


# -- random expression trees in random loop nests ------------------------------------------

SMOOTH = ["({a} + {b})", "({a} - {b})", "({a} * {b})", "({a} / (1.0 + {b} * {b}))",
          "log(1.0 + {a} * {a})", "sqrt(1.0 + {a} * {b} * {a} * {b})", "exp(0.25 * {a})"]
KINKED = ["abs({a})", "max({a}, {b})", "min({a}, {b})"]


def expressions(leaves: list[str], kinks: bool, depth: int = 3):
    forms = SMOOTH + (KINKED if kinks else [])
    leaf = st.sampled_from(leaves + ["0.5", "1.25", "2.0"])
    return st.recursive(leaf, lambda inner: st.builds(
        lambda form, a, b: form.format(a=a, b=b), st.sampled_from(forms), inner, inner),
        max_leaves=2 ** depth)


@st.composite
def programs(draw, kinks: bool):
    """`fn f(x: f64) -> f64`: an accumulator updated, squashed into (-1, 1), in a nest of
    one or two loops (an `if` on its value inside), and a result built from both."""
    depth = draw(st.integers(1, 2))
    loops = [(f"i{k}", draw(st.integers(1, 3))) for k in range(depth)]
    leaves = ["x", "s"] + [f"({i} as f64)" for i, _ in loops]
    step = draw(expressions(leaves, kinks))
    other = draw(expressions(leaves, kinks, 2))
    result = draw(expressions(["x", "s"], kinks))
    body = f"let t = {step};\ns = t / sqrt(1.0 + t * t);\n" \
           f"if s > 0.25 {{ s = s * 0.5 + {other} / (4.0 + {other} * {other}); }}\n"
    for i, n in reversed(loops):
        body = f"for {i} in 0..{n} {{\n{body}}}\n"
    return f"fn f(x: f64) -> f64 {{\nlet mut s = x;\n{body}{result}\n}}\n"


@pytest.mark.slow
@settings(max_examples=25, derandomize=True, database=None, deadline=None)
@given(programs(kinks=True), st.floats(-2.0, 2.0), st.floats(-1.0, 1.0),
       st.floats(-1.0, 1.0))
def test_random_programs_vjp_and_jvp_are_each_others_transpose(program, x, u, v):
    printed = run(program + f"fn main() {{\nprint(vjp(f, {x:.17f}, {u:.17f}));\n"
                            f"print(jvp(f, {x:.17f}, {v:.17f}));\n}}\n")
    back, forth = (numbers(line)[0] for line in printed)
    assert back * v == pytest.approx(u * forth, rel=1e-9, abs=1e-12), program


@pytest.mark.slow
@settings(max_examples=25, derandomize=True, database=None, deadline=None)
@given(programs(kinks=False), st.floats(-2.0, 2.0))
def test_random_smooth_programs_grad_agrees_with_central_finite_differences(program, x):
    h = 1e-5
    up, down = float(f"{x + h:.17f}"), float(f"{x - h:.17f}")
    printed = run(program + f"fn main() {{\nprint(grad(f, {x:.17f}));\n"
                            f"print(f({up:.17f}));\nprint(f({down:.17f}));\n}}\n")
    g, fu, fd = (numbers(line)[0] for line in printed)
    assert g == pytest.approx((fu - fd) / (up - down), rel=1e-6, abs=1e-7), program


# -- native code -----------------------------------------------------------------------------

# Every generated function runs natively, the adjoints whose tape is sized when they run (a
# loop whose bound is a parameter, a `while`) included: a tensor of `?` extent.
@pytest.mark.parametrize("path,fn,param,out,point", FUNCTIONS + [FORWARD_ONLY],
                         ids=IDS + ["tensors:normalize, forward"])
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_runs_the_generated_functions_as_the_interpreter_does(
        path, fn, param, out, point):
    u = [0.5, -1.0, 2.0][:out] if out else [0.75]
    v = [(-1.0) ** k * (k + 1) / 4 for k in range(len(point))]
    x = literal(point, param)
    lines = [] if (path, fn) == FORWARD_ONLY[:2] else \
        [f"print(vjp({fn}, {x}, {literal(u, 'f64' if out is None else 'tensor')}));"]
    lines.append(f"print(jvp({fn}, {x}, {literal(v, param)}));")
    rule, interpreted, native = run_native(
        functions_of(path) + "fn main() {\n" + "\n".join(lines) + "\n}\n")
    assert len(rule.splitlines()) == len(lines)
    assert native == interpreted
    assert_alike(native, rule)


@pytest.mark.slow
@settings(max_examples=15, derandomize=True, database=None, deadline=None)
@given(programs(kinks=True), st.floats(-2.0, 2.0))
def test_random_programs_native_code_computes_the_interpreters_derivatives(program, x):
    rule, interpreted, native = run_native(
        program + f"fn main() {{\nprint(grad(f, {x:.17f}));\n"
                  f"print(jvp(f, {x:.17f}, 0.5));\n}}\n")
    assert native == interpreted, program
    assert_alike(native, rule, rel=1e-9, abs=1e-12)


# -- the game on the generated functions -----------------------------------------------------

GAME = [f"differentiate_forward/{p.name}" for p in sorted(CASES.glob("differentiate_forward/*.vx"))
        if "_repaired" in p.stem or p.stem in ("scalars", "tensors")] + \
       [f"differentiate_reverse/{p.name}" for p in sorted(CASES.glob("differentiate_reverse/*.vx"))
        if "_repaired" in p.stem or p.stem in ("scalars", "tensors", "loops", "prints")] + \
       ["../../../examples/least_squares.vx"]


def play(text: str, name: str) -> None:
    """The game, from differentiate-reverse's dump: the program as it left the pass, written
    out and read back (its spans now point into the dump), runs through every later pass,
    the back end's too, down to native code; after each, every node keeps a span, and the
    interpreter (running the generated functions) prints alike with the interpreter's own
    rule on the IL before differentiate-forward. No pass refuses it: a tape sized at run time
    is a tensor of `?` extent, which native code lowers."""
    from nano_vx.backend.jit import run_native
    from nano_vx.resume.read import read_dump
    from nano_vx.dump.text import to_text
    from nano_vx.nanopass import descendants
    from nano_vx.resume import rebuild_facts

    before, _, _ = compile_front(text)  # the IL before differentiate-forward
    rule = printed(before)
    tree, diagnostics = parse_text(text, name)
    ctx = Compilation(Source(name, text), diagnostics)
    passes = NATIVE.passes[1:]
    upto = passes.index(differentiate_reverse) + 1
    for p in passes[:upto]:
        tree = run_deep(p, tree, ctx)
    dump = to_text(tree, differentiate_reverse.output)
    read = Diagnostics()
    language, tree = read_dump(dump, name + ".Lrouted.txt", read)
    assert not read.items and language is differentiate_reverse.output, read.render()
    assert to_text(tree, language) == dump
    ctx = Compilation(Source(name + ".Lrouted.txt", dump), Diagnostics())
    rebuild_facts(ctx, tree, language, passes[upto:], NATIVE.passes, {})
    for p in passes[upto:]:
        before, tree = tree, run_deep(p, tree, ctx)
        assert not ctx.diagnostics.has_errors, f"{p.name}: {ctx.diagnostics.render()}"
        if tree is before:  # nodes are immutable: checked and run as the tree before
            continue
        assert not [n._prod for n in descendants(tree) if n.span is None], p.name
        if p is not NATIVE.passes[-1]:  # Lmlir runs natively below
            assert_alike(printed(tree), rule), p.name
    out = io.StringIO()
    run_native(tree, out)
    assert_alike(out.getvalue(), rule)


@pytest.mark.parametrize("path", GAME, ids=[p.replace("differentiate_", "").split("/", 3)[-1]
                                            for p in GAME])
def test_the_game_on_the_generated_functions(path):
    play((CASES / path).read_text(), path)


@pytest.mark.slow
@settings(max_examples=6, derandomize=True, database=None, deadline=None)
@given(programs(kinks=True), st.floats(-2.0, 2.0))
def test_the_game_on_the_generated_functions_of_random_programs(program, x):
    play(program + f"fn main() {{\nprint(grad(f, {x:.17f}));\n"
                   f"print(jvp(f, {x:.17f}, 0.5));\n}}\n", "random.vx")
