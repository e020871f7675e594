"""References in the surface syntax: `&x`, `&mut x`, `*p` as prefix operators, `*p = v` as a
place, `&T` and `&mut T` as types; `&`, `&&` and `*` after an operand stay binary."""

import pytest

from nano_vx.languages.lsrc import Lsrc
from nano_vx.parser import parse_text

N = Lsrc.nodes
I32 = N["Scalar"]("i32")


def V(name):
    return N["Var"](name)


def Ref(value, mutable=False):
    return N["Borrow"](value, mutable)


def Deref(value):
    return N["Deref"](value)


def main_body(text):
    prog, diags = parse_text(f"fn main() {{ {text} }}")
    assert not diags.codes(), diags.render()
    return prog.items[0].body


def expr(text):
    return main_body(f"let v = {text};").stmts[0].value


@pytest.mark.parametrize("text,tree", [
    ("&x", Ref(V("x"))),
    ("&mut x", Ref(V("x"), True)),
    ("& mut x", Ref(V("x"), True)),
    ("&mut_x", Ref(V("mut_x"))),  # a name that starts with `mut` is a name
    ("*p", Deref(V("p"))),
    ("**p", Deref(Deref(V("p")))),
    ("&&x", Ref(Ref(V("x")))),  # in a prefix position `&&` is two borrows, as in Rust
    ("&mut &x", Ref(Ref(V("x")), True)),
    ("&t[0]", Ref(N["Index"](V("t"), N["Int"](0)))),  # postfix binds tighter
    ("*p[0]", Deref(N["Index"](V("p"), N["Int"](0)))),
    ("(*p)[0]", N["Index"](Deref(V("p")), N["Int"](0))),
    ("-*p", N["Unary"]("-", Deref(V("p")))),
    ("*p as f32", N["Cast"](Deref(V("p")), N["Scalar"]("f32"))),  # prefixes bind tighter
    ("a & &b", N["Binary"]("&", V("a"), Ref(V("b")))),
    ("a && b", N["Binary"]("&&", V("a"), V("b"))),
    ("a&&b", N["Binary"]("&&", V("a"), V("b"))),
    ("a & b", N["Binary"]("&", V("a"), V("b"))),
    ("a * *p", N["Binary"]("*", V("a"), Deref(V("p")))),
    ("a**p", N["Binary"]("*", V("a"), Deref(V("p")))),
    ("f(&mut x, &y)", N["Call"](V("f"), (), (Ref(V("x"), True), Ref(V("y"))))),
])
def test_prefix_operators(text, tree):
    assert expr(text) == tree


def test_the_spans_of_a_borrow_and_a_dereference_start_at_the_operator():
    value = expr("&mut *p")
    src = value.span.source.text
    assert src[value.span.start:value.span.end] == "&mut *p"
    assert src[value.value.span.start:value.value.span.end] == "*p"


@pytest.mark.parametrize("text,target,op", [
    ("*p = 1;", Deref(V("p")), "="),
    ("*p += 1;", Deref(V("p")), "+="),
    ("*p *= 2;", Deref(V("p")), "*="),
    ("**q = 1;", Deref(Deref(V("q"))), "="),
    ("(*p)[0] = 1;", N["Index"](Deref(V("p")), N["Int"](0)), "="),
])
def test_a_dereference_is_a_place(text, target, op):
    [assign] = main_body(text).stmts
    assert (assign._prod, assign.target, assign.op) == ("Assign", target, op)


def test_a_borrow_is_no_place():
    _, diags = parse_text("fn main() { &x = 1; }")
    [diag] = diags.items
    assert diag.code == "E1001"
    assert diag.message == ("expected a place (a variable, an index, `*p`, or a field or a "
                            "tuple element of a place) on the left of '=', found an expression")


def test_a_borrow_needs_an_operand():
    _, diags = parse_text("fn main() { let p = &mut; }")
    assert diags.codes() == ["E1001"]


@pytest.mark.parametrize("text,ty", [
    ("&i32", N["BorrowType"](I32, False)),
    ("&mut i32", N["BorrowType"](I32, True)),
    ("&&mut i32", N["BorrowType"](N["BorrowType"](I32, True), False)),
    ("&mut Tensor<f32, [4]>", N["BorrowType"](
        N["TensorType"](N["Scalar"]("f32"), (N["DimInt"](4),), None), True)),
])
def test_reference_types(text, ty):
    prog, diags = parse_text(f"fn f(p: {text}) -> {text} {{ p }}")
    assert not diags.codes(), diags.render()
    fn = prog.items[0]
    assert fn.params[0].type == ty and fn.ret == ty


def test_a_reference_type_in_a_let_and_a_generic_argument():
    [let, call] = main_body("let p: &mut i32 = &mut x; f<&i32>(p);").stmts
    assert let.type == N["BorrowType"](I32, True)
    assert call.expr.targs == (N["TypeArg"](N["BorrowType"](I32, False)),)
