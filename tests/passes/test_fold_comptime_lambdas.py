"""fold-comptime-lambdas: every call of a comptime lambda folds to a literal and the binding
goes, under semantics §4; each refused case has its code, its message and its repair."""

from pathlib import Path

import pytest
from front import (assert_prints_the_same, assert_refused_from_the_command_line,
                   assert_refused_then_repaired)

from nano_vx.cli import main as cli_main
from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.nanopass import children
from nano_vx.passes.fold_comptime_lambdas import fold_comptime_lambdas, is_comptime_lambda

CASES = Path(__file__).parent / "cases" / "fold_comptime_lambdas"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
# Refused case -> (code, what its message must say). Each has a `<case>_repaired.vx`.
REFUSED = {
    "e3034_lambda_body": ("E3034", "a comptime block inside another comptime block"),
    "e3052_runtime_argument": ("E3052", "this argument of comptime lambda `square` is not "
                                        "known while compiling: it depends on `n`"),
    "e3052_used_as_value": ("E3052", "comptime lambda `square` is used as a value"),
}


def _lambdas_outside_blocks(tree):
    """The comptime lambdas left where desugar-comptime would not run them with a block."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if node._prod == "Closure" and is_comptime_lambda(node):
            yield node
        elif node._prod not in ("Comptime", "ComptimeStmt"):
            stack.extend(child for _, _, child in children(node))


@pytest.mark.parametrize("case", NAMES)
def test_before_and_after(case, front, snapshot_txt, snapshot_dot):
    ran = front(CASES / f"{case}.vx", fold_comptime_lambdas)
    dump = (f"// before fold-comptime-lambdas\n{to_text(ran.before)}\n"
            f"// after fold-comptime-lambdas\n{to_text(ran.after)}")
    assert dump == snapshot_txt
    assert to_dot(ran.after, title=f"fold-comptime-lambdas: {case}") == snapshot_dot
    assert not list(_lambdas_outside_blocks(ran.after))


@pytest.mark.parametrize("case", [n for n in NAMES if n not in REFUSED])
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", fold_comptime_lambdas)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_with_its_code_and_admitted_when_repaired(case):
    assert_refused_then_repaired(CASES / f"{case}.vx", fold_comptime_lambdas, *REFUSED[case])


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_every_code_from_the_command_line(case, capsys):
    assert_refused_from_the_command_line(CASES / f"{case}.vx", REFUSED[case][0], capsys)


def test_lambdas_leave_no_trace(front):
    ran = front(CASES / "lambda.vx", fold_comptime_lambdas)
    main = ran.after.items[0]
    assert [s.name for s in main.body.stmts if s._prod == "Let"] == ["v"]
    assert not [n for n in ran.nodes("Local") if n.name in ("square", "unused")]


def test_a_lambda_called_in_a_block_is_written_in_place(front):
    ran = front(CASES / "block_call.vx", fold_comptime_lambdas)
    [v] = [s for s in ran.after.items[0].body.stmts if s._prod == "Let"]
    assert v.name == "v"
    assert not [n for n in ran.nodes("Local") if n.name in ("square", "plus_one")]
    assert len(list(ran.nodes("Closure"))) == 3  # square, and plus_one holding square


def test_desugar_comptime_runs_the_lambdas_written_in_a_block(capsys):
    assert cli_main([str(CASES / "block_call.vx")]) == 0
    assert capsys.readouterr().out == "19\n17\n"


# Hand-written Ltyped: a comptime lambda whose body calls the lambda itself; no program holds
# one, since a `let` binds its name after its value and resolve-names refuses the name
# (E2001). Writing the lambda in place for its own call recursed without end (RecursionError);
# it is refused with the same E2001, once, whether the call is outside a block or inside one.
CALLS_ITSELF = """
    // IL: Ltyped
    fn main() {
        let fact: _ = |n: i32| {
            comptime {
                if n == 0 { 1 } else { n * fact(n - 1) }
            }
        };
        @print(fact(4));
    }
"""


@pytest.mark.parametrize("call", ["@print(fact(4));", "let v: _ = comptime { fact(3) };"])
def test_handwritten_a_lambda_that_calls_itself_is_refused(run_pass, call):
    ran = run_pass("fold-comptime-lambdas", CALLS_ITSELF.replace("@print(fact(4));", call))
    assert ran.codes == ["E2001"]
    assert ran.diagnostics.items[0].message == "cannot find value 'fact' in this scope"


def test_handwritten_a_lambda_that_calls_itself_output(run_pass, snapshot_txt):
    assert run_pass("fold-comptime-lambdas", CALLS_ITSELF).dump == snapshot_txt
