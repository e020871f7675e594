"""An unsuffixed integer literal takes the type of the place it is written to, as Rust infers
it: a typed `let`, an assignment (`x = ..`, `x += ..`), a write through a reference, to a field,
to an element, a `return`, a parameter, an `if` or `match` bound to a typed `let`, a tuple's
element, a `comptime` block's assignment. `1 << 40` written to an i64 place is 2^40 in native
code, in the reference interpreter and in the compile-time evaluator alike (computed as an
i32 it would be 256)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from test_native_property import _runs

# The integer types a place holds, with their bits and signedness.
_TYPES = {"i8": (8, True), "u8": (8, False), "i16": (16, True), "u32": (32, False),
          "i32": (32, True), "i64": (64, True), "u64": (64, False)}

# Each place: (its items, its statements in main, with {T} its type and {E} the expression).
_PLACES = {
    "let": ("", "let v{k}: {T} = {E};\n  print(v{k});"),
    "assign": ("", "let mut v{k}: {T} = 0;\n  v{k} = {E};\n  print(v{k});"),
    "compound": ("", "let mut v{k}: {T} = 0;\n  v{k} += {E};\n  print(v{k});"),
    "beside": ("", "let y{k}: {T} = 0;\n  let mut v{k}: {T} = 1;\n  v{k} = y{k} + ({E});\n"
                   "  print(v{k});"),
    "inferred": ("", "let w{k} = 0{T};\n  let mut v{k} = w{k};\n  v{k} = {E};\n  print(v{k});"),
    "deref": ("fn set{k}(r: &mut {T}) {{ *r = {E}; }}",
              "let mut v{k}: {T} = 0;\n  set{k}(&mut v{k});\n  print(v{k});"),
    "deref_compound": ("fn add{k}(r: &mut {T}) {{ *r += {E}; }}",
                       "let mut v{k}: {T} = 0;\n  add{k}(&mut v{k});\n  print(v{k});"),
    "field": ("struct S{k} {{ f: {T} }}",
              "let mut v{k} = S{k} {{ f: 0 }};\n  v{k}.f = {E};\n  print(v{k}.f);"),
    "element": ("", "let mut v{k}: Tensor<{T}, [2]> = [0{T}, 0{T}];\n  v{k}[1] = {E};\n"
                    "  print(v{k}[1]);"),
    "return": ("fn r{k}() -> {T} {{ return {E}; }}", "print(r{k}());"),
    "argument": ("fn id{k}(a: {T}) -> {T} {{ a }}", "print(id{k}({E}));"),
    "if": ("", "let c{k} = true;\n  let v{k}: {T} = if c{k} {{ {E} }} else {{ 0 }};\n"
               "  print(v{k});"),
    "match": ("", "let v{k}: {T} = match 1 {{ 1 => {E}, _ => 0 }};\n  print(v{k});"),
    "tuple": ("", "let v{k}: ({T}, i32) = ({E}, 1 << 4);\n  print(v{k}.0);"),
    "tuple_assign": ("", "let mut v{k}: ({T}, i32) = (0, 0);\n  v{k} = ({E}, 1 << 4);\n"
                         "  print(v{k}.0);"),
    "comptime": ("", "let v{k}: {T} = comptime {{ let mut x: {T} = 0; x = {E}; x }};\n"
                     "  print(v{k});"),
    "comptime_element": ("", "let v{k}: {T} = comptime {{ let mut t: Tensor<{T}, [1]> = "
                             "[0{T}]; t[0] += {E}; t[0] }};\n  print(v{k});"),
}


def _wrap(v: int, t: str) -> int:
    bits, signed = _TYPES[t]
    v &= (1 << bits) - 1
    return v - (1 << bits) if signed and v >> (bits - 1) else v


@st.composite
def _expressions(draw, t, exact=False):
    """(an expression of literals that each fit `t`, its value in `t`): Vx wraps
    arithmetic at its type's width, as Rust's `wrapping_*` operations do; with `exact`, one
    that does not wrap (the compile-time evaluator refuses a result outside its type)."""
    bits, signed = _TYPES[t]
    if exact:
        k = draw(st.integers(0, bits - 2 if signed else bits - 1))
        return f"1 << {k}", 1 << k
    high = min((1 << (bits - 1 if signed else bits)) - 1, 1 << 40)
    a, b = draw(st.integers(0, high)), draw(st.integers(0, high))
    form = draw(st.sampled_from(["shift", "+", "*", "-", "nested"]))
    if form == "shift":
        k = draw(st.integers(0, bits - 1))
        return f"{a} << {k}", _wrap(a << k, t)
    if form == "nested":
        k = draw(st.integers(0, bits - 1))
        return f"({a} + {b}) * (1 << {k})", _wrap((a + b) << k, t)
    value = {"+": a + b, "*": a * b, "-": a - b}[form]
    return f"{a} {form} {b}", _wrap(value, t)


@st.composite
def _programs(draw):
    """A program writing a random expression of literals to random places of random types,
    with the lines a Rust program would print."""
    chosen = draw(st.lists(st.sampled_from(sorted(_PLACES)), min_size=1, max_size=5))
    items, body, expected = [], [], []
    for k, place in enumerate(chosen):
        t = draw(st.sampled_from(sorted(_TYPES)))
        e, value = draw(_expressions(t, exact=place.startswith("comptime")))
        item, stmts = _PLACES[place]
        if item:
            items.append(item.format(k=k, T=t, E=e))
        body.append(stmts.format(k=k, T=t, E=e))
        expected.append(str(value))
    text = "\n".join(items) + "\nfn main() {\n  " + "\n  ".join(body) + "\n}\n"
    return text, "".join(f"{line}\n" for line in expected)


def _agree(text: str, expected: str):
    """Native code and the interpreter print `expected`, as a Rust program would."""
    native, interpreted = _runs(text)
    assert native == interpreted, text
    assert native == (0, expected, ""), text


def test_handwritten_shift_assigned_to_an_i64():
    _agree("""
fn set(r: &mut i64) { *r = 1 << 40; }
fn main() {
  let mut x: i64 = 0;
  x = 1 << 40;
  print(x);
  x += 1 << 40;
  print(x);
  let mut y: i64 = 0;
  set(&mut y);
  print(y);
  let z: i64 = 1 << 40;
  print(z);
  let mut n = 0;
  n = 1 << 40;
  print(n);
}
""", "1099511627776\n2199023255552\n1099511627776\n1099511627776\n256\n")


@pytest.mark.parametrize("place", sorted(_PLACES))
def test_each_place_types_its_literal(place):
    item, stmts = _PLACES[place]
    text = item.format(k=0, T="i64", E="1 << 40") + "\nfn main() {\n  " + \
        stmts.format(k=0, T="i64", E="1 << 40") + "\n}\n"
    _agree(text, "1099511627776\n")


@pytest.mark.slow
@settings(max_examples=25, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(_programs())
def test_literals_take_their_places_type_natively_and_interpreted(program):
    _agree(*program)
