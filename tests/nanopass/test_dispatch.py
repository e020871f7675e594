"""Handler tables for evaluators that walk ILs by hand: a handler naming a production the
table's languages do not have is refused when the class holding it is created."""

import pytest

from nano_vx.nanopass import DispatchError, Handlers, Language, Nonterminal, lineage, prod

L0 = Language(
    "Ltiny",
    "a tiny language",
    [],
    [
        Nonterminal("Prog", (prod("Prog", "body: Stmt*"),)),
        Nonterminal("Stmt", (prod("Let", "value: Expr"), prod("Print", "value: Expr"))),
        Nonterminal("Expr", (prod("Zero"), prod("Neg", "operand: Expr")), ("Atom",)),
        Nonterminal("Atom", (prod("One"),)),
    ],
    entry="Prog",
)
L1 = L0.extend("Lnoneg", "removes Neg, adds Two", remove={"Expr": ["Neg"]},
               add={"Expr": [prod("Two")]})
L2 = L1.extend("Lthree", "adds Three", add={"Expr": [prod("Three")]})


def test_a_misspelt_handler_is_refused_when_its_class_is_created():
    table = Handlers("the tiny evaluator's expressions", (L0, L1), "Expr")
    with pytest.raises(DispatchError, match=r"the tiny evaluator's expressions: the handler "
                       r"\S*Evaluator\.x_Nge is for Nge, which is no Expr production of Ltiny, "
                       r"Lnoneg \(did you mean Neg\?\)"):
        class Evaluator:
            @table.on("Zero")
            def x_Zero(self, node):
                return 0

            @table.on("Nge")
            def x_Nge(self, node):
                return -1


def test_a_production_of_another_nonterminal_is_refused():
    table = Handlers("expressions", (L0,), "Expr")

    def let(node):
        return None

    with pytest.raises(DispatchError, match=r"the handler \S*let is for Let, which is no Expr "
                                            r"production of Ltiny"):
        table.on("Let")(let)
    assert "Let" not in table


def test_a_production_of_any_of_the_languages_is_accepted_with_what_its_nonterminal_includes():
    table = Handlers("expressions", (L0, L1), "Expr")

    class Evaluator:
        @table.on("Neg", "Two")  # only L0 has Neg, only L1 has Two
        def x_Neg(self, node):
            return "neg"

        @table.on("One")  # an Atom, which Expr includes
        def x_One(self, node):
            return 1

    assert table == {"Neg": Evaluator.x_Neg, "Two": Evaluator.x_Neg, "One": Evaluator.x_One}
    assert table.get("Zero") is None
    assert Handlers("anything", (L0,)).productions == set(L0.productions)


def test_a_production_with_two_handlers_is_refused():
    table = Handlers("expressions", (L0,), "Expr")
    table.on("Zero")(lambda node: 0)
    with pytest.raises(DispatchError, match="expressions: Zero has two handlers"):
        table.on("Zero")(lambda node: 1)


def test_an_extended_table_serves_one_more_language_and_may_replace_a_handler():
    base = Handlers("expressions", (L0,), "Expr")

    @base.on("Zero", "One")
    def old(node):
        return 0

    with pytest.raises(DispatchError, match="is for Three, which is no Expr production"):
        base.on("Three")(lambda node: 3)

    wider = base.extend("expressions, Three too", (L2,))

    @wider.on("Three", "One")
    def three(node):
        return 3

    assert wider == {"Zero": old, "One": three, "Three": three}
    assert base == {"Zero": old, "One": old}


def test_lineage_is_the_chain_of_extensions():
    assert lineage(L2) == (L0, L1, L2)
    assert lineage(L2, L1) == (L1, L2)
    assert lineage(L0, L0) == (L0,)
    with pytest.raises(DispatchError, match="Ltiny is not extended from Lthree"):
        lineage(L0, L2)
    with pytest.raises(DispatchError, match="is for Four, which is no Expr production of Ltiny "
                                            "to Lthree"):
        Handlers("expressions", lineage(L2), "Expr").on("Four")(lambda node: 4)


def test_the_reference_interpreter_dispatches_through_its_tables():
    from nano_vx.languages import Lsrc
    from nano_vx.languages.lcalls import Lcalls
    from nano_vx.oracle.interpreter import Interpreter

    assert Interpreter.expressions.languages[0] is Lsrc
    assert Interpreter.expressions.languages[-1] is Lcalls  # Lblocks' lineage, and Lcalls' calls
    assert {"Int", "Float", "Var", "Local", "Global", "Match", "ReturnValue"} \
        <= set(Interpreter.expressions)
    assert {"Let", "While", "Requires"} <= set(Interpreter.statements)


def test_every_pattern_has_a_rule_in_the_interpreter():
    from nano_vx.oracle.expressions import _PATTERNS

    assert set(_PATTERNS) == _PATTERNS.productions == {"PWild", "PBind", "PLit", "POr",
                                                       "PVariant"}
