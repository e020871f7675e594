"""`grad`, `vjp` and `jvp` by the interpreter's own rule (nano_vx/oracle/derivatives.py):
forward mode on dual numbers, reverse mode on a tape, on the source and every IL after it in
the front end. The derivatives the passes generate are checked against this rule in
tests/passes/test_derivatives.py; here the rule meets derivatives known by hand."""

from __future__ import annotations

import pytest

from nano_vx.oracle.traced import Active, Tangents, Tape
from nano_vx.values.numbers import FLOAT_TYPES, TFloat, arith
from oracle_run import output, stops

CUBIC = "fn f(x: f64) -> f64 { x * x * x - 2.0 * x }\n"


def test_each_mode_gives_the_derivative_of_a_polynomial_natively_too():
    # f'(2) = 3 * 4 - 2 = 10: grad, the tangent along 0.5, the adjoint of the seed 3.
    assert output(CUBIC + "fn main() { print(grad(f, 2.0)); print(jvp(f, 2.0, 0.5)); "
                          "print(vjp(f, 2.0, 3.0)); }") == "10\n5\n30\n"


@pytest.mark.parametrize("body, at, slope", [
    ("exp(x)", "0.0", "1"),
    ("log(x)", "2.0", "0.5"),
    ("sqrt(x)", "4.0", "0.25"),
    ("abs(x)", "-3.0", "-1"),
    ("abs(x)", "0.0", "1"),  # slope 1 at the kink, as the generated functions take it
    ("max(x, 1.0)", "1.0", "1"),  # of two equal arguments the first is picked
    ("min(1.0, x)", "1.0", "0"),
    ("max(x, 1.0)", "0.5", "0"),
    ("x % 2.0", "5.0", "1"),
    ("7.0 % x", "2.0", "-3"),  # 7 - 3x near x = 2
    ("x / (1.0 + x * x)", "1.0", "0"),
    ("(x as f32) as f64", "1.5", "1"),
    ("(x as i32) as f64", "1.5", "0"),  # through an integer: a constant
    ("2.0", "1.5", "0"),
    ("-x", "1.5", "-1"),
])
def test_the_math_built_ins_operators_and_casts_have_their_rules(body, at, slope):
    program = f"fn g(x: f64) -> f64 {{ {body} }}\n" \
              f"fn main() {{ print(grad(g, {at})); print(jvp(g, {at}, 1.0)); }}"
    assert output(program, native_too=False) == f"{slope}\n{slope}\n"


def test_a_derivative_of_f32_is_an_f32_rounded_at_every_step():
    assert output("fn h(x: f32) -> f32 { x * x }\n"
                  "fn main() { let a: f32 = 0.1; print(grad(h, a)); print(jvp(h, 0.1, 1.0)); }",
                  native_too=False) == "0.2\n0.2\n"


def test_control_flow_and_calls_are_followed_on_the_run_taken():
    # 7 halves to 0.875 in 3 steps: (y^2)' = 2y / 8; 5 to 0.625: (y^3)' = 3y^2 / 8, through
    # a call with an integer argument.
    assert output("""
fn power(x: f64, n: i32) -> f64 {
    let mut p = 1.0;
    for i in 0..n { p *= x; }
    p
}
fn halvings(x: f64) -> f64 {
    let mut y = x;
    while y > 1.0 { y = y / 2.0; }
    if y > 0.75 { y * y } else { power(y, 3) }
}
fn main() {
    print(grad(halvings, 7.0));
    print(grad(halvings, 5.0));
}
""", native_too=False) == "0.21875\n0.146484375\n"


def test_tensors_lent_or_by_value_give_a_gradient_of_their_shape_and_are_left_alone():
    assert output("""
fn loss(p: &Tensor<f64, [2]>) -> f64 { p[0] * p[0] * p[1] }
fn twice(v: Tensor<f64, [2]>) -> Tensor<f64, [2]> {
    let mut out = Tensor<f64, [2]>::new();
    for i in 0..2 { out[i] = 2.0 * v[i] * v[1 - i]; }
    out
}
fn main() {
    let p = [3.0, 2.0];
    print(grad(loss, &p));
    print(jvp(loss, &p, &[1.0, 0.0]));
    print(jvp(twice, p, [1.0, 0.0]));
    print(vjp(twice, p, [1.0, 1.0]));
    print(p);
}
""", native_too=False) == "[12, 9]\n12\n[4, 4]\n[8, 12]\n[3, 2]\n"


def test_a_derivative_prints_nothing_of_the_function_or_of_what_it_calls():
    assert output("fn h(x: f64) -> f64 { print(x); x * x }\n"
                  "fn loud(x: f64) -> f64 { print(x * 2.0); h(x) }\n"
                  "fn main() { print(grad(loud, 1.5)); print(jvp(loud, 1.5, 2.0)); }",
                  native_too=False) == "3\n6\n"


@pytest.mark.parametrize("program, says", [
    ("fn two(a: f64, b: f64) -> f64 { a * b }\nfn main() { print(grad(two, 1.0)); }",
     "a derivative is taken of a function of one argument; 'two' takes 2"),
    ("fn n(k: i32) -> f64 { 1.0 }\nfn main() { print(grad(n, 3)); }",
     "'n' is differentiated at a i32, which has no derivative"),
    ("fn m(x: f64) -> i32 { x as i32 }\nfn main() { print(grad(m, 3.0)); }",
     "the result of 'm' is a i32, which has no derivative"),
    ("fn t(x: f64) -> Tensor<f64, [2]> { Tensor<f64, [2]>::fill(x) }\n"
     "fn main() { print(grad(t, 3.0)); }",
     "`grad` of 't', whose result is a tensor: `vjp` takes its seed"),
    ("fn sq(x: f64) -> f64 { x * x }\nfn outer(x: f64) -> f64 { grad(sq, x) }\n"
     "fn main() { print(grad(outer, 3.0)); }",
     "the reference interpreter does not differentiate a derivative"),
    ("fn sq(x: f64) -> f64 { x * x }\nfn main() { print(jvp(sq, 3.0, [1.0])); }",
     "the tangent must be a f64, found a tensor"),
])
def test_what_has_no_derivative_stops_the_run(program, says):
    # The passes refuse each of these first (E3010, E3060, E3061): here the interpreter
    # runs the source as written.
    assert says in stops(program, "E9006", native_too=False).message


def test_a_tape_accumulates_every_use_of_a_value_and_tangents_add_as_they_go():
    tape = Tape()
    x = tape.leaf(3.0)
    y = arith("*", x, x, None)  # x read twice: its adjoint adds both
    z = arith("+", y, 1.0, None)
    assert tape.sweep([(z.d, 1.0)], None)[x.d] == 6.0
    dual = Tangents().leaf(TFloat(0.5, FLOAT_TYPES["f32"]), TFloat(1.0, FLOAT_TYPES["f32"]))
    w = arith("/", 1.0, dual, None)
    assert type(w) is Active and type(w.d) is TFloat and w.d.v == -4.0
