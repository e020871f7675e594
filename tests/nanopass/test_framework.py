"""The framework's own guarantees: languages as data, checked nodes, passes, the pipeline."""

import pytest
from hypothesis import given, strategies as st

from nano_vx.nanopass import (
    Language, LanguageError, Nonterminal, NodeError, Pass, PassError, Pipeline, PipelineError,
    Terminal, VerifyError, diff_languages, prod, show_language, verify,
)

INT = Terminal("int", lambda v: type(v) is int, "an integer")
OP = Terminal("op", lambda v: v in {"+", "*"}, "+ *")

L0 = Language(
    "Ltiny",
    "a tiny expression language",
    [INT, OP],
    [
        Nonterminal("Prog", (prod("Prog", "body: Expr"),)),
        Nonterminal("Expr", (
            prod("Num", "value: int"),
            prod("Bin", "op: op, left: Expr, right: Expr"),
            prod("Neg", "operand: Expr"),
            prod("Sum", "terms: Expr*"),
            prod("Maybe", "inner: Expr?"),
        )),
    ],
    entry="Prog",
)
L1 = L0.extend("Lnoneg", "removes Neg", remove={"Expr": ["Neg"]})


def num(v):
    return L0["Num"](v)


def test_a_malformed_node_is_refused_at_construction_naming_production_and_field():
    with pytest.raises(NodeError, match=r"Bin\.left: expected Expr, got int 3"):
        L0["Bin"]("+", 3, num(1))
    with pytest.raises(NodeError, match=r"Bin\.op: expected op"):
        L0["Bin"]("-", num(1), num(2))
    with pytest.raises(NodeError, match=r"Sum\.terms: expected Expr\*"):
        L0["Sum"]([num(1), "x"])
    with pytest.raises(NodeError, match=r"Prog\.body: expected Expr, got a Prog node"):
        L0["Prog"](L0["Prog"](num(1)))


def test_a_bad_node_built_inside_a_pass_names_the_pass():
    p = Pass("break-things", L0, L1, "builds a bad node")

    @p.on("Neg")
    def _(run, node):
        return L1["Bin"]("+", "oops", num(0))

    with pytest.raises(NodeError, match="in pass break-things"):
        p(L0["Prog"](L0["Neg"](num(1))))


def test_nodes_are_immutable_and_replace_keeps_the_span():
    n = L0["Num"](1, span="here")
    with pytest.raises(AttributeError):
        n.value = 2
    m = n.replace(value=2)
    assert m.value == 2 and m.span == "here" and n.value == 1


def test_equality_is_structural_and_ignores_spans():
    assert L0["Bin"]("+", num(1), num(2), span=1) == L0["Bin"]("+", num(1), num(2), span=2)
    assert L0["Bin"]("+", num(1), num(2)) != L0["Bin"]("*", num(1), num(2))
    assert hash(L0["Sum"]([num(1)])) == hash(L0["Sum"]((num(1),)))


def test_a_field_named_values_does_not_break_equality_or_hashing():
    # Lmlir's Ret has a field `values`, which hides the node method of that name.
    from nano_vx.languages.lmlir import Lmlir

    ret = Lmlir["Ret"]
    assert ret(("v0", "v1"), span=1) == ret(("v0", "v1"), span=2)
    assert ret(("v0",)) != ret(("v1",))
    assert hash(ret(["v0"])) == hash(ret(("v0",)))
    assert ret(("v0",)).replace(values=("v2",)) == ret(("v2",))


def test_identical_productions_share_a_class_across_languages():
    assert L0["Bin"] is L1["Bin"]
    assert "Neg" not in L1.nodes


def test_a_pass_whose_output_breaks_its_language_is_caught_by_verify():
    p = Pass("keep-neg", L0, L1, "forgets to remove Neg")

    @p.on("Neg")
    def _(run, node):
        return node  # a Neg is not an Lnoneg node

    with pytest.raises(VerifyError, match=r"Lnoneg: Prog\.body:Neg: production Neg is not in"):
        p(L0["Prog"](L0["Neg"](num(1))))


def test_a_pass_without_a_handler_for_a_removed_production_is_refused():
    p = Pass("lazy", L0, L1, "no handlers")
    with pytest.raises(PassError, match="removes or changes Neg"):
        p(L0["Prog"](num(1)))


_TAGGED = Language("Ltagged", "a program whose only Tag is under its Prog", [INT], [
    Nonterminal("Prog", (prod("Prog", "tag: Tag, body: Expr"),)),
    Nonterminal("Tag", (prod("Tag", "value: int"),)),
    Nonterminal("Expr", (prod("Num", "value: int"), prod("Neg", "operand: Expr"))),
], entry="Prog")


def test_a_removed_production_only_a_handled_parent_holds_needs_no_handler():
    untagged = Language("Luntagged", "Prog without its tag", [INT], [
        Nonterminal("Prog", (prod("Prog", "body: Expr"),)),
        Nonterminal("Expr", (prod("Num", "value: int"), prod("Neg", "operand: Expr"))),
    ], entry="Prog")
    drop = Pass("drop-tag", _TAGGED, untagged, "the Prog handler drops the tag")

    @drop.on("Prog")
    def _(run, node):
        return untagged["Prog"](run.walk(node.body))

    out = drop(_TAGGED["Prog"](_TAGGED["Tag"](1), _TAGGED["Neg"](_TAGGED["Num"](2))))
    assert out == untagged["Prog"](untagged["Neg"](untagged["Num"](2)))
    # Without the Prog handler, an automatic clause would reach the Tag: refused.
    with pytest.raises(PassError, match="removes or changes Prog, Tag"):
        Pass("careless", _TAGGED, untagged, "no handlers")(_TAGGED["Prog"](
            _TAGGED["Tag"](1), _TAGGED["Num"](2)))


def _negate_pass():
    p = Pass("remove-neg", L0, L1, "Neg e becomes e * -1")

    @p.on("Neg")
    def _(run, node):
        return L1["Bin"]("*", run.walk(node.operand), L1["Num"](-1), span=node.span)

    return p


def test_the_automatic_clause_shares_unchanged_subtrees_and_rebuilds_the_rest():
    untouched = L0["Bin"]("+", num(1), num(2))
    tree = L0["Prog"](L0["Sum"]([untouched, L0["Neg"](num(3), span="neg")]))
    out = _negate_pass()(tree)
    assert out.body.terms[0] is untouched
    assert out.body.terms[1] == L1["Bin"]("*", num(3), num(-1))
    assert out.body.terms[1].span == "neg"
    same = L0["Prog"](untouched)
    assert _negate_pass()(same) is same


def test_verify_accepts_sentences_and_names_the_path_of_a_bad_one():
    verify(L0["Prog"](L0["Maybe"](None)), L0)
    with pytest.raises(VerifyError, match=r"Prog\.body:Sum\.terms\[1\]:Neg"):
        verify(L0["Prog"](L0["Sum"]([num(1), L0["Neg"](num(2))])), L1)


def test_a_pipeline_whose_languages_do_not_line_up_is_refused():
    a = _negate_pass()
    b = Pass("again", L0, L1, "reads Ltiny")
    with pytest.raises(PipelineError, match="produces Lnoneg but the next pass, again, reads Ltiny"):
        Pipeline([a, b])
    c = Pass("identity", L1, L1, "nothing")
    assert Pipeline([a, c]).names() == ["remove-neg", "identity"]


def test_languages_print_flat_and_as_a_diff():
    flat = show_language(L1)
    assert "language Lnoneg (extends Ltiny)" in flat
    assert "Bin(op: op, left: Expr, right: Expr)" in flat and "Neg(" not in flat
    diff = diff_languages(L0, L1)
    assert "- Expr ::= Neg(operand: Expr)" in diff
    L2 = L1.extend("Lmark", "marks sums", remove={"Expr": ["Sum"]},
                   add={"Expr": [prod("Sum", "terms: Expr*, exact: int")]})
    changed = diff_languages(L1, L2)
    assert "- Expr ::= Sum(terms: Expr*)" in changed
    assert "+ Expr ::= Sum(terms: Expr*, exact: int)" in changed


def test_malformed_language_declarations_are_refused():
    with pytest.raises(LanguageError, match="unknown kind"):
        Language("Lbad", "", [INT], [Nonterminal("E", (prod("X", "a: Nope"),))], entry="E")
    with pytest.raises(LanguageError, match="no production"):
        L0.extend("Lbad", "", remove={"Expr": ["Nope"]})
    with pytest.raises(LanguageError, match="already has Num"):
        L0.extend("Lbad", "", add={"Expr": [prod("Num", "value: int")]})


exprs = st.recursive(
    st.integers(-5, 5).map(num),
    lambda inner: st.one_of(
        st.tuples(st.sampled_from(["+", "*"]), inner, inner).map(lambda t: L0["Bin"](*t)),
        inner.map(lambda e: L0["Neg"](e)),
        st.lists(inner, max_size=3).map(lambda xs: L0["Sum"](xs)),
    ),
    max_leaves=20,
)


def _value(e):
    kind = e._prod
    if kind == "Num":
        return e.value
    if kind == "Bin":
        a, b = _value(e.left), _value(e.right)
        return a + b if e.op == "+" else a * b
    if kind == "Neg":
        return -_value(e.operand)
    return sum(map(_value, e.terms))


@given(exprs)
def test_a_pass_preserves_meaning_and_its_output_verifies(e):
    out = _negate_pass()(L0["Prog"](e))
    verify(out, L1)
    assert _value(out.body) == _value(e)


def test_a_splicing_handler_turns_one_element_into_several_or_none():
    p = Pass("spread-neg", L0, L1, "Neg e in a Sum becomes e, e; Neg 0 disappears")

    @p.on("Neg", splice=True)
    def _(run, node):
        inner = run.walk(node.operand)
        return () if inner == num(0) else (inner, inner)

    kept = num(7)
    tree = L0["Prog"](L0["Sum"]([kept, L0["Neg"](num(1)), L0["Neg"](num(0))]))
    out = p(tree)
    assert out.body.terms == (kept, num(1), num(1))
    assert out.body.terms[0] is kept
    with pytest.raises(NodeError, match="Prog.body in pass spread-neg: expected Expr, got tuple"):
        p(L0["Prog"](L0["Neg"](num(1))))
