"""Analysis passes, typed pass state, and the facts a pass declares."""

from dataclasses import dataclass, field
from typing import ClassVar

import pytest
from hypothesis import given, strategies as st

from nano_vx.nanopass import (
    Analysis, Language, Nonterminal, Pass, PassError, Pipeline, PipelineError, Terminal, prod,
)
from test_framework import L0, L1, num

Prog, Bin, Neg, Sum, Maybe = (L0[p] for p in ("Prog", "Bin", "Neg", "Sum", "Maybe"))

# A language where numbers sit only under Wrap, which holds no expression.
LWRAP = Language("Lwrap", "", [Terminal("int", lambda v: type(v) is int)], [
    Nonterminal("Prog", (prod("Prog", "body: Expr, data: Data"),)),
    Nonterminal("Expr", (prod("Neg", "operand: Expr"), prod("Lit", "value: int"))),
    Nonterminal("Data", (prod("Wrap", "value: int"),)),
], entry="Prog")


@dataclass
class Seen:
    values: list = field(default_factory=list)
    calls: list = field(default_factory=list)


def _collector(**kwargs):
    a = Analysis("collect-nums", L0, "Collect every number in walk order.", state=Seen, **kwargs)

    @a.on("Num")
    def _(run, node):
        run.state.values.append(node.value)

    return a


def test_an_analysis_walks_everything_it_has_no_handler_for_and_returns_its_input():
    a = _collector()
    tree = Prog(Bin("+", Neg(num(1)), Sum([num(2), Maybe(num(3)), Maybe(None)])))
    assert a(tree) is tree
    assert a.collect(tree).values == [1, 2, 3]


def test_a_handler_decides_whether_and_where_to_go_on():
    a = _collector()

    @a.on("Bin")
    def _(run, node):
        run.state.calls.append(node.op)
        if node.op == "+":
            run.walk(node.right)  # right first, and never the left
        else:
            run.descend(node)

    tree = Prog(Bin("+", num(1), Bin("*", num(2), num(3))))
    seen = a.collect(tree)
    assert (seen.calls, seen.values) == (["+", "*"], [2, 3])


def test_subtrees_that_cannot_hold_a_handled_production_are_not_entered():
    lang = LWRAP
    a = Analysis("count-negs", lang, "Count negations.", state=Seen)

    @a.on("Neg")
    def _(run, node):
        run.state.values.append("neg")
        run.descend(node)

    entered = a.plans()
    assert entered[lang["Wrap"]](None, lang["Wrap"](1)) is None
    prog_visit = entered[lang["Prog"]]
    assert "data" not in prog_visit.__code__.co_names  # the Data field is never read
    tree = lang["Prog"](lang["Neg"](lang["Neg"](lang["Lit"](0))), lang["Wrap"](5))
    assert a.collect(tree).values == ["neg", "neg"]


def test_skip_keeps_the_automatic_walk_out_of_a_nonterminal():
    a = _collector(skip=("Expr",))

    @a.on("Prog")
    def _(run, node):
        run.descend(node)  # Prog's only field is an Expr: skipped
        run.walk(node.body)  # a handler may still go there on purpose

    assert a.collect(Prog(Neg(num(4)))).values == []  # Neg's field is an Expr too


@dataclass
class Total:
    value: int | None = None


def _signed_sum():
    """The sum of the numbers with each `Neg` applied, as a flow analysis: the running
    total is the value threaded through the walk."""
    a = Analysis("signed-sum", L0, "Sum the numbers, negations applied.", flow=True,
                 state=Total)

    @a.on("Prog")
    def _(run, node, acc):
        run.state.value = run.descend(node, 0)
        return acc

    @a.on("Num")
    def _(run, node, acc):
        return acc + node.value

    @a.on("Neg")
    def _(run, node, acc):
        return acc - run.walk(node.operand, 0)

    return a


def test_a_flow_analysis_threads_its_value_through_the_walk_in_order():
    tree = Prog(Sum([num(1), Neg(num(2)), Maybe(None), Bin("+", num(3), Neg(Neg(num(4))))]))
    assert _signed_sum().collect(tree).value == 1 - 2 + 3 + 4


def test_an_analysis_takes_no_splicing_handler():
    a = _collector()
    with pytest.raises(TypeError):
        a.on("Neg", splice=True)


def test_walking_a_node_of_another_language_names_the_analysis_and_the_class():
    a = _collector()

    @a.on("Prog")
    def _(run, node):
        run.walk(LWRAP["Lit"](1))

    with pytest.raises(PassError, match="collect-nums walked a Lit, which is not a node of "
                                        "its input language Ltiny"):
        a(Prog(num(1)))


# -- typed state --------------------------------------------------------------------------


def test_each_run_gets_a_fresh_state_of_the_passs_own_class():
    a = _collector()
    first = a.collect(Prog(num(1)))
    second = a.collect(Prog(num(2)))
    assert isinstance(first, Seen) and first is not second
    assert (first.values, second.values) == ([1], [2])


# -- declared facts -----------------------------------------------------------------------


@dataclass
class Ctx:
    facts: ClassVar = frozenset({"width", "height"})
    diagnostics: list = field(default_factory=list)
    width: int | None = None
    height: int | None = None


def _fact_pass(name, *, requires=(), provides=(), reads=(), writes=()):
    a = Analysis(name, L0, f"{name}.", requires=requires, provides=provides)

    @a.on("Prog")
    def _(run, node):
        for fact in reads:
            getattr(run.ctx, fact)
        for fact in writes:
            setattr(run.ctx, fact, 1)
        run.ctx.diagnostics.append(name)  # what is not a fact passes through

    return a


def test_a_pass_reads_and_writes_only_the_facts_it_declares():
    tree = Prog(num(1))
    ctx = Ctx()
    _fact_pass("measure", provides=("width",), writes=("width",))(tree, ctx)
    _fact_pass("use", requires=("width",), reads=("width",))(tree, ctx)
    assert ctx.width == 1 and ctx.diagnostics == ["measure", "use"]
    with pytest.raises(PassError, match="pass sneak reads the fact 'width' but does not"):
        _fact_pass("sneak", reads=("width",))(tree, ctx)
    with pytest.raises(PassError, match="pass scribble writes the fact 'height' but does not"):
        _fact_pass("scribble", requires=("height",), writes=("height",))(tree, ctx)


def test_a_pass_must_set_every_fact_it_provides():
    with pytest.raises(PassError, match="pass lazy provides 'height' but did not set it"):
        _fact_pass("lazy", provides=("height",))(Prog(num(1)), Ctx())


def test_the_pipeline_refuses_a_requirement_no_earlier_pass_provides():
    measure = _fact_pass("measure", provides=("width",))
    use = _fact_pass("use", requires=("width", "height"))
    with pytest.raises(PipelineError, match="pass use requires height, which no pass before"):
        Pipeline([measure, use])
    with pytest.raises(PipelineError, match="pass use requires width, height"):
        Pipeline([use, measure])
    assert len(Pipeline([measure, _fact_pass("use-width", requires=("width",))])) == 2


def test_rewriting_passes_declare_facts_too():
    p = Pass("drop-neg", L0, L1, "Drop negations.", requires=("width",))

    @p.on("Neg")
    def _(run, node):
        return run.walk(node.operand)

    assert p.requires == ("width",) and p.provides == ()
    assert p(Prog(Neg(num(1))), Ctx(width=3)) == L1["Prog"](num(1))


# -- properties ---------------------------------------------------------------------------

TREES = st.recursive(
    st.integers(-5, 5).map(num),
    lambda inner: st.one_of(
        st.tuples(inner, inner).map(lambda lr: Bin("+", *lr)),
        inner.map(Neg),
        st.lists(inner, max_size=3).map(Sum),
        st.one_of(st.none(), inner).map(Maybe),
    ),
    max_leaves=20,
)


def _numbers_in_order(node):
    if node._prod == "Num":
        return [node.value]
    out = []
    for f in type(node)._declared:
        v = getattr(node, f.name)
        for child in (v if f.mult == "*" else [v]):
            if child is not None and not isinstance(child, (int, str)):
                out += _numbers_in_order(child)
    return out


def _signed(node) -> int:
    kind = node._prod
    if kind == "Num":
        return node.value
    if kind == "Neg":
        return -_signed(node.operand)
    if kind == "Bin":
        return _signed(node.left) + _signed(node.right)
    if kind == "Sum":
        return sum(_signed(t) for t in node.terms)
    return 0 if node.inner is None else _signed(node.inner)


@given(TREES)
def test_the_automatic_walk_meets_every_handled_node_in_field_order(expr):
    assert _collector().collect(Prog(expr)).values == _numbers_in_order(expr)


@given(TREES)
def test_a_flow_analysis_agrees_with_a_recursive_evaluation(expr):
    assert _signed_sum().collect(Prog(expr)).value == _signed(expr)
