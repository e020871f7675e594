"""The compile-time evaluator dispatches through checked tables: a handler for a production
that Lresolved, Lmono and Ltyped do not have is refused when the class holding it is created,
and every handler the evaluator defines is in its table."""

from __future__ import annotations

import inspect

import pytest

from nano_vx.comptime import Evaluator
from nano_vx.comptime.expressions import _NOT_COMPUTED, EXPRESSIONS, ExprMixin
from nano_vx.comptime.statements import STATEMENTS, StmtMixin
from nano_vx.languages import Lerased, Linstances, Lmono, Lresolved, Ltyped
from nano_vx.nanopass import DispatchError


def test_a_misspelt_expression_handler_is_refused_when_its_class_is_created():
    with pytest.raises(DispatchError, match=r"the compile-time evaluator's expressions: the "
                       r"handler \S*Misspelt\.x_IfExp is for IfExp, which is no Expr production "
                       r"of Lresolved to Ltyped \(did you mean IfExpr\?\)"):
        class Misspelt(ExprMixin):
            @EXPRESSIONS.on("IfExp")
            def x_IfExp(self, node, hint):
                return None
    assert "IfExp" not in EXPRESSIONS


def test_a_misspelt_statement_handler_is_refused_when_its_class_is_created():
    with pytest.raises(DispatchError, match=r"the compile-time evaluator's statements: the "
                       r"handler \S*Misspelt\.s_Whlie is for Whlie, which is no Stmt production "
                       r"of Lresolved to Ltyped \(did you mean While\?\)"):
        class Misspelt(StmtMixin):
            @STATEMENTS.on("Whlie")
            def s_Whlie(self, node):
                return None


def test_a_statement_handler_in_the_expression_table_is_refused():
    with pytest.raises(DispatchError, match="is for Let, which is no Expr production"):
        EXPRESSIONS.on("Let")(lambda self, node, hint: None)


def test_a_production_removed_before_the_evaluator_runs_is_refused():
    # Var is resolve-names' input: the evaluator only ever sees Local and Global.
    with pytest.raises(DispatchError, match="is for Var, which is no Expr production"):
        EXPRESSIONS.on("Var")(lambda self, node, hint: None)


def test_the_tables_serve_the_ils_the_evaluator_folds_on():
    assert Evaluator.expressions.languages == Evaluator.statements.languages \
        == (Lresolved, Lerased, Linstances, Lmono, Ltyped)


def test_every_handler_of_the_evaluator_is_in_its_table():
    # A method written like a handler but not registered would never be called.
    handlers = set(Evaluator.expressions.values()) | set(Evaluator.statements.values())
    written = {fn for name, fn in inspect.getmembers(Evaluator, inspect.isfunction)
               if name[:2] in ("x_", "s_")}
    assert written == handlers
    assert {"Int", "Float", "Local", "Global", "Binary", "Transfer", "Match"} \
        <= set(Evaluator.expressions)
    assert set(Evaluator.statements) == Evaluator.statements.productions


def test_every_expression_the_evaluator_does_not_compute_is_named_in_words():
    # A refusal names what the block holds as the program's reader knows it, never as a
    # production (`it holds StructLit`).
    unhandled = {p for language in (Lresolved, Lerased, Linstances, Lmono, Ltyped)
                 for p, (nt, *_) in language.productions.items()
                 if nt.name == "Expr" and EXPRESSIONS.get(p) is None}
    assert unhandled <= set(_NOT_COMPUTED)
