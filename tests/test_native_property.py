"""Property: native code computes what the program computes in the IL it was decided in. For
random well-formed programs (tests/fuzz/programs.py), the reference interpreter running the
program as type-scalars typed it (Lscalars, where every literal has its type, as Rust infers
it) prints what the native code prints and ends the same way (a stop with the same code, place
and message): everything after type-scalars (lift-closures, explicate-control,
select-instructions, MLIR, LLVM at -O2, the JIT and its runtime) keeps the meaning. The interpreter on the source types an untyped literal as it runs,
which for arithmetic between two literals under a typed context (`a * (4294967295 % 6)` with
`a: u32`) is not Rust's choice; programs outside that corner agree on every IL (the game)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz.programs import programs
from nano_vx.backend.jit import run_native
from nano_vx.context import Compilation
from nano_vx.oracle import run_program
from nano_vx.parser import parse_text
from nano_vx.pipeline import NATIVE
from nano_vx.source import Source
from nano_vx.values.stops import RuntimeStop


def _compiled(text: str):
    """(the Lscalars tree, the Lmlir module), or None when a pass refuses the program."""
    tree, diagnostics = parse_text(text, "random.vx")
    ctx = Compilation(Source("random.vx", text), diagnostics)
    typed = None
    for p in NATIVE.passes[1:]:
        if diagnostics.has_errors:
            return None
        tree = p(tree, ctx)
        if p.name == "type-scalars":
            typed = tree
    return None if diagnostics.has_errors else (typed, tree)


def _ending(run, tree):
    out = io.StringIO()
    try:
        result = run(tree, out)
    except RuntimeStop as stop:
        place = stop.span and (stop.span.start, stop.span.end)
        return out.getvalue(), (stop.code, place, stop.message)
    return out.getvalue(), result


@pytest.mark.slow
@settings(max_examples=60, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(programs(size=24))
def test_native_code_runs_as_the_interpreter_runs_the_typed_program(text):
    compiled = _compiled(text)
    if compiled is None:  # the fuzz campaign judges refusals; here only runs compare
        return
    typed, module = compiled
    interpreted = _ending(lambda t, out: run_program(t, out=out), typed)
    native = _ending(lambda t, out: run_native(t, out, 2), module)
    assert native == interpreted, text


_TYPES = {"i32": (-2**31, 2**31 - 1), "i64": (-2**40, 2**40), "u8": (0, 255),
          "f32": None, "f64": None, "bool": None}


@st.composite
def _aggregate_programs(draw):
    """A struct of random scalar fields, an enum carrying some of them, and the moves an
    aggregate makes: a literal written out of order, a copy, a field assigned, passed,
    returned from a branch, a tuple of both, matched, printed."""
    types = draw(st.lists(st.sampled_from(sorted(_TYPES)), min_size=1, max_size=4))

    def literal(t):
        if t == "bool":
            return draw(st.sampled_from(["true", "false"]))
        if _TYPES[t] is None:
            return f"({draw(st.sampled_from(['0.5', '-2.25', '1e3', '3.0']))} as {t})"
        low, high = _TYPES[t]
        return f"({draw(st.integers(low, high))} as {t})"
    fields = [f"f{k}" for k in range(len(types))]
    order = draw(st.permutations(fields))
    values = {f: literal(t) for f, t in zip(fields, types)}
    struct = ", ".join(f"{f}: {t}" for f, t in zip(fields, types))
    lit = ", ".join(f"{f}: {values[f]}" for f in order)
    swapped = ", ".join(f"{f}: s.{f}" for f in reversed(fields))
    carried = ", ".join(types[:2])
    pick = draw(st.sampled_from(["E::A", f"E::B({values['f0']})",
                                 f"E::C({', '.join(values[f] for f in fields[:2])})"]))
    bound = ", ".join(f"x{k}" for k in range(min(2, len(types))))
    return f"""
struct S {{ {struct} }}
enum E {{ A, B({types[0]}), C({carried}) }}

fn again(s: S, n: i32) -> S {{
  if n > 0 {{
    return S {{ {swapped} }};
  }}
  s
}}

fn first(e: E) -> i32 {{
  match e {{
    E::A => 0,
    E::B(_) => 1,
    E::C({bound}) => 2,
  }}
}}

fn main() {{
  let mut s = S {{ {lit} }};
  let kept = s;
  s.f0 = {literal(types[0])};
  print(s);
  let t = again(kept, {draw(st.integers(-1, 1))});
  print((t, kept.f0));
  let e = {pick};
  print(e);
  print(first(e));
}}
"""


def _runs(text: str):
    """(status, stdout, stderr) of the default action and of --action interpret."""
    import tempfile

    from nano_vx.cli import main

    runs = []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "aggregates.vx"
        path.write_text(text)
        for args in ((), ("--action", "interpret")):
            out, err = io.StringIO(), io.StringIO()
            runs.append((main([str(path), *args], stdout=out, stderr=err), out.getvalue(),
                         err.getvalue()))
    return runs


def _as_interpreted(text: str):
    """Native code lowers `text`, and prints, reports and ends as the interpreter does."""
    native, interpreted = _runs(text)
    assert "W5001" not in native[2], native[2]
    assert native == interpreted


@pytest.mark.slow
@settings(max_examples=25, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(_aggregate_programs())
def test_aggregates_in_native_code_print_as_the_interpreter_prints_them(text):
    _as_interpreted(text)


@st.composite
def _reads_and_calls(draw, depth=2, borrows=False):
    """An expression reading `y` and calling what changes it through `&mut`: a call's
    arguments, an operator's operands, an index, a field of a struct a call makes; with
    `borrows`, also a reference to a temporary or to an element at a computed index, a
    closure made beside them, an `if`'s condition and a `match`'s scrutinee, and a short
    circuit whose right makes a struct."""
    atoms = ["y", "bump(&mut y)", "make(&mut y).x", "(y % 4)"]
    if depth == 0:
        return draw(st.sampled_from(atoms))
    part = _reads_and_calls(depth - 1, borrows)
    forms = [
        st.sampled_from(atoms),
        st.builds(lambda a, op, b: f"({a} {op} {b})", part, st.sampled_from(["+", "*"]), part),
        st.builds(lambda a, b, c: f"f({a}, {b}, {c})", part, part, part),
        st.builds(lambda a: f"t[{a} % 4]", part)]
    if borrows:
        forms += [
            st.builds(lambda a, b: f"g({a}, &({b}))", part, part),
            st.builds(lambda a, b: f"g({a}, &t[{b} % 4])", part, part),
            st.builds(lambda a: f"apply(|n: i32| n + y, {a})", part),
            st.builds(lambda a, b: f"(if g(1, &({a})) > 5 {{ {b} }} else {{ 2 }})", part, part),
            st.builds(lambda a: f"(match g(0, &({a})) % 3 {{ 0 => 7, _ => y }})", part),
            st.builds(lambda a, op, b: f"(if {a} > 3 {op} make(&mut y).x > 5 {{ {b} }} else "
                                       f"{{ 1 }})", part, st.sampled_from(["&&", "||"]), part)]
    return draw(st.one_of(*forms))


# What the expressions borrowing temporaries call: a function given a reference, and a closure
# given a closure.
_BORROWING = ("""
fn g(a: i32, r: &i32) -> i32 {
  (a * 5 + *r) % 1000
}
""", "let apply = |h, n: i32| h(n) % 1000;")


@st.composite
def _ordering_programs(draw, borrows=False):
    """Statements mixing reads of a variable and calls that change it: the parts of each
    run in the interpreter's order, whichever name-temporaries and name-borrowed-temporaries
    hold in locals."""
    e = _reads_and_calls(borrows=borrows)
    statements = draw(st.lists(st.one_of(
        st.builds(lambda a: f"print({a});", e),
        st.builds(lambda a, b: f"let q = Q {{ b: {a}, a: {b} }};\n  print(q.a * 1000 + q.b);",
                  e, e),
        st.builds(lambda a, b: f"t[{a} % 4] = {b};", e, e)), min_size=1, max_size=3))
    body = "\n  ".join(statements)
    return f"""
struct P {{ x: i32 }}
struct Q {{ a: i32, b: i32 }}

fn bump(r: &mut i32) -> i32 {{
  *r = (*r * 3 + 1) % 11;
  *r % 5
}}

fn make(r: &mut i32) -> P {{
  *r = (*r + 7) % 13;
  P {{ x: *r }}
}}

fn f(a: i32, b: i32, c: i32) -> i32 {{
  (a * 7 + b * 3 + c) % 1000
}}

{_BORROWING[0] if borrows else ""}
fn main() {{
  let mut y = 2;
  let mut t = [1, 2, 3, 4];
  {_BORROWING[1] if borrows else ""}
  {body}
  print(t[0] * 1000 + t[1] * 100 + t[2] * 10 + t[3] + y);
}}
"""


@pytest.mark.slow
@settings(max_examples=30, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(_ordering_programs())
def test_reads_of_a_variable_a_later_call_changes_run_in_order_in_native_code(text):
    _as_interpreted(text)


@pytest.mark.slow
@settings(max_examples=30, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(_ordering_programs(borrows=True))
def test_references_to_temporaries_after_calls_run_in_order_in_native_code(text):
    _as_interpreted(text)
