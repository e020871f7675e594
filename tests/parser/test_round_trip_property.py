"""Every program printed from a random Lsrc tree parses back to that tree: the text dump is
the parser's inverse, for the core and for the larger surface (if-values, tuples, array
literals, tensor constructors as written, structs, enums, `match` on values, references,
float const generics, contracts: `requires`, `ensures` with `return`, loop `invariant`s).

The trees are drawn from the productions the parser makes, so each holds only what a program
can spell: integer literals are not negative (`-1` is a minus and a literal), a tuple has 2 to
6 elements, `<` and `>` are left out (`f < 4 > (x)` reads as a generic call)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nano_vx.diagnostics import Diagnostics
from nano_vx.dump.text import to_text
from nano_vx.languages.lsrc import Lsrc as L
from nano_vx.parser import parse
from nano_vx.parser.lexical import RESERVED
from nano_vx.source import Source

NAMES = st.sampled_from(["a", "b", "x", "y", "t", "p", "n1", "total"]).filter(
    lambda n: n not in RESERVED)
SCALARS = st.sampled_from(["i32", "i64", "u8", "f32", "f64", "bool"])
OPS = st.sampled_from("+ - * / % == != <= >= && || & | ^ << >>".split())


def _leaf():
    return st.one_of(
        st.integers(0, 2 ** 40).map(lambda v: L["Int"](v)),
        st.sampled_from([0.5, 1.0, 2.25, 1e-3]).map(lambda v: L["Float"](v)),
        st.booleans().map(lambda v: L["Bool"](v)),
        NAMES.map(lambda n: L["Var"](n)),
    )


def _block(exprs, stmts=None):
    body = st.lists(stmts, max_size=2) if stmts is not None else st.just([])
    return st.builds(lambda ss, v: L["Block"](tuple(ss), v), body, st.none() | exprs)


def _valued(exprs):
    return st.builds(lambda v: L["Block"]((), v), exprs)


def _patterns():
    leaf = st.one_of(
        st.just(L["PWild"]()),
        st.integers(0, 99).map(lambda v: L["PLit"](L["Int"](v))),
        NAMES.map(lambda n: L["PBind"](n)),
    )
    variant = st.builds(lambda args: L["PVariant"]("Shape", "Rect", tuple(args)),
                        st.lists(leaf, max_size=2))
    return st.one_of(leaf, variant, st.builds(
        lambda a, b: L["POr"]((L["PLit"](L["Int"](a)), L["PLit"](L["Int"](b)))),
        st.integers(0, 9), st.integers(0, 9)))


def _extend(exprs):
    blocks = _valued(exprs)
    return st.one_of(
        st.builds(lambda op, a, b: L["Binary"](op, a, b), OPS, exprs, exprs),
        st.builds(lambda op, a: L["Unary"](op, a), st.sampled_from(["-", "!"]), exprs),
        st.builds(lambda a, t: L["Cast"](a, L["Scalar"](t)), exprs, SCALARS),
        st.builds(lambda f, args: L["Call"](L["Var"](f), (), tuple(args)), NAMES,
                  st.lists(exprs, max_size=3)),
        st.builds(lambda f, k, args: L["Call"](L["Var"](f), (L["FloatArg"](k),), tuple(args)),
                  NAMES, st.sampled_from([2.5, -0.5]), st.lists(exprs, max_size=2)),
        st.builds(lambda a, i: L["Index"](a, i), exprs, exprs),
        st.builds(lambda a, f: L["FieldGet"](a, f), exprs, NAMES),
        st.builds(lambda a, i: L["TupleGet"](a, i), exprs, st.integers(0, 5)),
        st.builds(lambda es: L["Tuple"](tuple(es)), st.lists(exprs, min_size=2, max_size=4)),
        st.builds(lambda es: L["ArrayLit"](tuple(es)), st.lists(exprs, min_size=1, max_size=3)),
        st.builds(lambda c, a, b: L["IfExpr"](c, False, a, b), exprs, blocks, blocks),
        st.builds(lambda fs: L["StructLit"]("Pair", (), tuple(
            L["FieldInit"](n, v) for n, v in fs)), st.lists(st.tuples(NAMES, exprs),
                                                           min_size=1, max_size=2)),
        st.builds(lambda v: L["EnumValue"]("Shape", v), NAMES),
        st.builds(lambda t, targs, fargs, args: L["PathCall"]("Pair", tuple(
            L["TypeArg"](L["Scalar"](s)) for s in targs), t, tuple(
            L["DimArg"](L["DimInt"](k)) for k in fargs), tuple(args)),
            NAMES, st.lists(SCALARS, max_size=2), st.lists(st.integers(0, 9), max_size=2),
            st.lists(exprs, max_size=2)),
        st.builds(lambda s, cases: L["MatchValue"](s, tuple(
            L["Case"](p, b) for p, b in cases)), exprs,
            st.lists(st.tuples(_patterns(), blocks), max_size=3)),
        st.builds(lambda a, m: L["Borrow"](a, m), exprs, st.booleans()),
        st.builds(lambda a: L["Deref"](a), exprs),
        st.builds(lambda rows: L["TensorCall"](L["Scalar"]("f32"), (), False, None, (
            L["ArrayLit"](tuple(L["ArrayLit"](tuple(r)) for r in rows)),)),
            st.lists(st.lists(exprs, min_size=2, max_size=2), min_size=1, max_size=2)),
        st.builds(lambda n: L["TensorNew"](L["TensorType"](L["Scalar"]("i32"),
                                                           (L["DimAny"](),), None),
                                           "new", (L["ArrayLit"]((n,)),)), exprs),
    )


EXPRS = st.recursive(_leaf(), _extend, max_leaves=12)
# An `ensures` condition, where `return` is a value too.
ENSURED = st.recursive(_leaf() | st.just(L["ReturnValue"]()), _extend, max_leaves=6)


def _guarded(clauses, block):
    """A body starting with the contract clauses its header writes."""
    return L["Block"](tuple(clauses) + block.stmts, block.value)


def _stmts(exprs):
    simple = st.one_of(
        st.builds(lambda n, m, v: L["Let"](n, m, None, v), NAMES, st.booleans(), exprs),
        st.builds(lambda ns, v: L["LetTuple"](tuple(ns), v),
                  st.lists(NAMES, min_size=2, max_size=3), exprs),
        st.builds(lambda n, op, v: L["Assign"](L["Var"](n), op, v), NAMES,
                  st.sampled_from(["=", "+=", "<<=", "%="]), exprs),
        st.builds(lambda v: L["ExprStmt"](v), exprs),
        st.builds(lambda v: L["Return"](v), st.none() | exprs),
    )
    inner = _block(exprs, simple)
    invariants = st.lists(exprs.map(lambda c: L["Invariant"](c)), max_size=2)
    return st.one_of(
        simple,
        st.builds(lambda c, a, b: L["If"](c, False, a, b), exprs, inner, st.none() | inner),
        st.builds(lambda c, i, b: L["While"](c, _guarded(i, b)), exprs, invariants, inner),
        st.builds(lambda i, b: L["Loop"](_guarded(i, b)), invariants, inner),
    )


_CLAUSES = st.lists(EXPRS.map(lambda c: L["Requires"](c)) | ENSURED.map(lambda c: L["Ensures"](c)),
                   max_size=3)


def _program(stmts, value, impl, clauses):
    main = L["Fn"]("main", (), (), None, None, (),
                   _guarded(clauses, L["Block"](tuple(stmts), value)))
    if impl is None:
        return L["Program"]((main,))
    return L["Program"]((L["Impl"](impl[0], impl[1], (main,)),))


_IMPLS = st.none() | st.sampled_from([
    ((), L["NamedType"]("Pair")),
    ((L["TypeParam"]("T", False),),
     L["AppliedType"]("Pair", (L["TypeArg"](L["NamedType"]("T")),))),
])

PROGRAMS = st.builds(_program, st.lists(_stmts(EXPRS), max_size=4), st.none() | EXPRS, _IMPLS,
                     _CLAUSES)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(PROGRAMS)
def test_a_printed_tree_parses_back_to_itself(program):
    text = to_text(program)
    diagnostics = Diagnostics()
    again = parse(Source("round_trip.vx", text), diagnostics)
    assert not diagnostics.has_errors, text + diagnostics.render()
    assert again == program, text
