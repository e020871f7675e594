"""Whole programs, run in every IL of the front-end chain (each run must print the same)."""

from oracle_run import output, run_chain, stops


def test_integer_types_wrap_at_their_width():
    assert output("""
fn main() {
    let a: i8 = 127;      print(a + 1);
    let b: u8 = 255;      print(b + 1);
    let c: u32 = 0;       print(c - 1);
    let d: i64 = 9223372036854775807;  print(d + 1);
    let e: u64 = 18446744073709551615; print(e * 2);
    let f: i16 = -32768;  print(-f);
    print(2147483647 + 1);
}
""") == "-128\n0\n4294967295\n-9223372036854775808\n18446744073709551614\n-32768\n-2147483648\n"


def test_literals_take_the_type_their_context_gives():
    assert output("""
fn twice(x: i64) -> i64 { return x * 2; }
fn main() {
    let big: i64 = 3000000000 * 2;
    print(big);
    print(twice(3000000000));
    let mut s = 0;
    let step: i64 = 1000000000000;
    s = s + step;
    print(s);
}
""") == "6000000000\n6000000000\n1000000000000\n"


def test_an_operator_over_literals_takes_the_other_operands_type():
    # `(1 << 40) + x` of an i64 x shifts an i64, as `let y: i64 = 1 << 40` does; a plain
    # local gives no type.
    assert output("""
fn three() -> i64 { print(7); 3 }
fn main() {
    let x: i64 = 3;
    let u: u8 = 250;
    let k = 2;
    let g: f32 = 1.0;
    print((1 << 40) + x);
    print(x + (1 << 40));
    print((1 << 40) + three());
    print((1 << 40) == x + 1099511627773);
    print((2 + 3) * u);
    print((0.1 + 0.2) * g);
    print((1 << 40) + k);
    print((6 / 3 << 40) + x);
}
""") == ("1099511627779\n1099511627779\n7\n1099511627779\ntrue\n226\n0.3\n258\n"
         "2199023255555\n")


def test_a_constant_of_tuple_type_types_its_elements_literals_as_a_let_does():
    assert output("""
const D: (i64, f32) = (1000000 * 10000, 0.1);
const N: ((u8, i64), f64) = ((255 + 1, 1 << 40), 0.1);
fn main() {
    let e: (i64, f32) = (1000000 * 10000, 0.1);
    print(D.0 == e.0);
    print(D.0);
    print(D.1 == 0.1f32);
    print(N);
}
""") == "true\n10000000000\ntrue\n((0, 1099511627776), 0.1)\n"


def test_a_tuple_literal_in_a_field_or_a_variant_of_tuple_type_takes_its_element_types():
    # As a `let` of the tuple type gives them: an i64 that does not wrap, an f32.
    assert output("""
struct P { t: (i64, f32), k: u8 }
enum E { A((i64, f32)), B }
fn main() {
    let p = P { t: (1000000 * 10000, 0.1), k: 250 };
    print(p.t.0);
    print(p.t.1 + 0.2);
    match E::A((1 << 40, 0.1)) { E::A(t) => { print(t.0); print(t.1 + 0.2); }, E::B => print(0) }
}
""") == "10000000000\n0.3\n1099511627776\n0.3\n"


def test_a_literal_bound_of_a_range_takes_the_other_bounds_type():
    # `z..18446744073709551615` of a u64 z ends at the u64's largest value, not at the i32 -1.
    assert output("""
fn main() {
    let z: u64 = 18446744073709551614;
    for i in z..18446744073709551615 { print(i); }
    let w: u32 = 4294967294;
    for i in w..4294967295 { print(i); }
    let n: i64 = -3000000000;
    for i in -3000000002..n { print(i); }
}
""") == "18446744073709551614\n4294967294\n-3000000002\n-3000000001\n"


def test_division_truncates_toward_zero():
    assert output("""
fn main() {
    print(-7 / 2); print(-7 % 2); print(7 % -2); print(7 / -2);
    let m: i8 = -128; print(m / 2);
}
""") == "-3\n-1\n1\n-3\n-64\n"


def test_casts():
    assert output("""
fn main() {
    print(300 as u8); print((-1) as u32); print(3.99 as i32); print((-1.5e10) as i32);
    print(true as i32); print(7 as f32 / 2.0);
}
""") == "44\n4294967295\n3\n-2147483648\n1\n3.5\n"


def test_float_printing_like_rust_display():
    assert output("""
fn main() {
    print(1.5); print(0.1 + 0.2); print(3.0); print(1.0 / 0.0); print(-1.0 / 0.0);
    print(0.0 / 0.0); print(1e21);
    let x: f32 = 0.1; print(x * 3.0);
    let h: f16 = 0.1; print(h);
    let b: bf16 = 3.0; print(b);
}
""") == "1.5\n0.30000000000000004\n3\ninf\n-inf\nNaN\n1000000000000000000000\n0.3\n0.1\n3\n"


def test_bools_strings_short_circuit_and_comparisons():
    assert output("""
fn boom() -> bool { assert(false, "evaluated"); return true; }
fn main() {
    print(true && false); print(false || true);
    print(false && boom()); print(true || boom());
    print(3 < 4); print(2.5 >= 2.5); print(1 != 1); print("done");
}
""") == "false\ntrue\nfalse\ntrue\ntrue\ntrue\nfalse\ndone\n"


def test_loops_break_continue_and_nesting():
    assert output("""
fn main() {
    let mut total = 0;
    for i in 0..10 {
        if i % 2 == 0 { continue; }
        if i > 7 { break; }
        total += i;
    }
    print(total);
    let mut n = 0;
    let mut count = 0;
    while true {
        n += 1;
        for j in 0..n { count += j; }
        if n == 4 { break; }
    }
    print(count);
}
""") == "16\n10\n"


def test_functions_recursion_and_main_result():
    out, result = run_chain("""
fn fib(n: i32) -> i32 { if n < 2 { return n; } return fib(n - 1) + fib(n - 2); }
fn main() -> i32 { print(fib(15)); return fib(10); }
""")
    assert (out, result) == ("610\n", 55)
    assert run_chain("fn main() { print(1); }") == ("1\n", 0)


def test_blocks_scopes_and_shadowing():
    assert output("""
fn main() {
    let x = 1;
    let x = x + 1;
    if x == 2 { let x = 10; print(x); }
    print(x);
    let y = comptime { let mut a = 1; for k in 0..5 { a *= 2; } a };
    if comptime y > 3 { print(y); }
}
""") == "10\n2\n32\n"


def test_generics_bind_const_dims_from_arguments_and_explicitly():
    assert output("""
fn total<const S: i32>(a: Tensor<i32, [S]>) -> i32 {
    let mut s = 0;
    for i in 0..S { s += a[i]; }
    s
}
fn make<const N: i32>() -> Tensor<i32, [N * 2]> { return Tensor<i32, [N * 2]>::fill(3); }
fn ident<T>(x: T) -> T { x }
fn main() {
    let t = make<4>();
    print(t);
    print(total(t));
    print(ident(2.5));
}
""") == "[3, 3, 3, 3, 3, 3, 3, 3]\n24\n2.5\n"


def test_closures_capture_their_environment():
    assert output("""
fn main() {
    let k = 10;
    let add = |x: i32| x + k;
    print(add(5));
    let twice = |y: i32| comptime { let z = y * 2; z };
    print(twice(21));
}
""") == "15\n42\n"


def test_const_items_and_playground_form():
    assert output("""
#![allow(unused)]
const A: i32 = B * 2;
const B: i32 = 21;
fn main() {
    fn helper(x: i32) -> i32 { return x + A; }
    print(helper(0));
}
""") == "42\n"


def test_reachable_runs_in_the_model_of_the_programs_declarations():
    assert output("Memory Island {}\nTopology Island { memory: Memory::Island }\n"
                  "fn main() { print(Reachable<Topology::CPU, Memory::GPU_HBM>); "
                  "print(Reachable<Topology::CPU, Topology::Island>); }") == "true\nfalse\n"


def test_reachable_of_an_undeclared_place_stops_plainly():
    stop = stops("fn main() { let r = Reachable<Topology::CPU, Topology::Nowhere>; }", "E9006",
                 native_too=False)
    assert "does not run" in stop.message


def test_derivatives_run_as_the_functions_the_compiler_generates_for_them():
    assert output("fn main() { print(grad(f, 3.0)); print(jvp(f, 3.0, 0.5)); }\n"
                  "fn f(x: f64) -> f64 { x * x }") == "6\n3\n"


def test_remainder_assignment_and_print_with_a_bang():
    assert output("""
fn main() {
    let mut x = 17;
    x %= 5;
    let mut t = Tensor<i32, [2]>::fill(-9);
    t[1] %= 4;
    print!(x);
    print!(t);
    let c = comptime {
        let mut y = 23;
        y %= 7;
        y
    };
    print(c);
}
""") == "2\n[-9, -1]\n2\n"


def test_remainder_assignment_by_zero_stops_as_the_remainder_does():
    stop = stops("""
fn main() {
    let mut z = 3;
    z %= 0;
}
""", "E9001")
    assert "remainder of 3 by zero" in stop.message


def test_an_if_or_a_match_of_literals_takes_the_other_operands_type():
    # Its arms are typed as the operator's other side types a literal: an i64 shift, a u8 sum
    # that wraps. The condition runs where it is written, before a call right of it.
    assert output("""
fn three() -> i64 { print(7); 3 }
fn yes() -> bool { print(6); true }
fn main() {
    let x: i64 = 1;
    let u: u8 = 250;
    let c = x > 0;
    print(x + if c { 1 << 40 } else { 0 });
    print((if c { 1 << 40 } else { 0 }) + x);
    print(x + match x { 1 => 1 << 41, _ => 0 });
    print(u + if c { 10 } else { 0 });
    print((if c { 1 << 40 } else { 0 }) + three());
    print((if yes() { 1 << 40 } else { 0 }) + three());
    print(match yes() { true => 1 << 41, false => 0 } + three());
}
""") == ("1099511627777\n1099511627777\n2199023255553\n4\n7\n1099511627779\n"
         "6\n7\n1099511627779\n6\n7\n2199023255555\n")
