"""desugar-comptime: every comptime construct folds to a literal or goes, under the rules of
semantics §4; each refused case has its code, its message and its repair."""

from pathlib import Path

import pytest
from front import (assert_prints_the_same, assert_refused_from_the_command_line,
                   assert_refused_then_repaired, run_front)

from nano_vx.cli import main as cli_main
from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.desugar_comptime import desugar_comptime

CASES = Path(__file__).parent / "cases" / "desugar_comptime"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
# A million compile-time steps each, seconds by design: the inner loop keeps E8005 through
# docs/diagnostics.md's program for it (tests/test_user_docs.py).
SLOW = {"e8005_long", "e8005_calls"}


def cases(names) -> list:
    return [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n for n in names]
# Refused case -> (code, what its message must say). Each has a `<case>_repaired.vx`.
REFUSED = {
    "e3033_cannot_finish": ("E3033", "cannot be finished while compiling: `print`"),
    "e3033_writes_outside": ("E3033", "writes to `total`, which is declared outside it"),
    "e3033_unproven_check": ("E3033", "cannot show to pass: the assert `n is small` is false "
                                      "on a path that runs only for some values of `n`"),
    "e3033_division": ("E3033", "the divisor of this `/` (zero stops the program) depends on "
                                "`d`"),
    "e3033_runtime_value": ("E3033", "the value of this comptime block depends on `n`, known "
                                     "only when the program runs"),
    "e3033_out_of_range": ("E3033", "depends on an integer result outside its type: "
                                    "2147483647 + 1 = 2147483648 is outside i32"),
    "e3033_unsafe": ("E3033", "an `unsafe` block runs only when the program runs"),
    "e3033_changing_cast": ("E3033", "`-1 as u64` is 18446744073709551615, a cast that changes "
                                     "the value"),
    "e3034_nested": ("E3034", "a comptime block inside another comptime block"),
    "e8002_false_assert": ("E8002", "four lanes of 32"),
    "e8002_placement": ("E8002", "dev.topology() == Some(Topology::CPU)"),
    "e8003_index": ("E8003", "index 5 is out of range: this array has 3 elements"),
    "e8006_precondition": ("E8006", "precondition `x > 0` is false at a call made while "
                                    "compiling"),
    "e8004_deep": ("E8004", "more than 256 calls deep (calling `down`)"),
    "e8005_long": ("E8005", "more than 1,000,000 steps (steps: loop iterations and calls)"),
    "e8005_calls": ("E8005", "more than 1,000,000 steps"),
}
# The interpreter has no memory model, so it cannot run Reachable<A, B> before the fold.
NOT_RUN = {"reachable"}
COMPTIME = {"Comptime", "ComptimeStmt", "ReachableQ"}


def _refused(name):
    return name in REFUSED


@pytest.mark.parametrize("case", cases(NAMES))
def test_before_and_after(case, front, snapshot_txt, snapshot_dot):
    ran = front(CASES / f"{case}.vx", desugar_comptime)
    dump = (f"// before desugar-comptime\n{to_text(ran.before)}\n"
            f"// after desugar-comptime\n{to_text(ran.after)}")
    assert dump == snapshot_txt
    assert to_dot(ran.after, title=f"desugar-comptime: {case}") == snapshot_dot
    left = [n for n in ran.nodes() if n._prod in COMPTIME or getattr(n, "comptime", False)]
    assert not left


@pytest.mark.parametrize("case", [n for n in NAMES if not _refused(n) and n not in NOT_RUN])
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", desugar_comptime)


@pytest.mark.parametrize("case", cases(sorted(REFUSED)))
def test_refused_with_its_code_and_admitted_when_repaired(case):
    assert_refused_then_repaired(CASES / f"{case}.vx", desugar_comptime, *REFUSED[case])


@pytest.mark.parametrize("case", cases(sorted(REFUSED)))
def test_every_code_from_the_command_line(case, capsys):
    assert_refused_from_the_command_line(CASES / f"{case}.vx", REFUSED[case][0], capsys)


def test_reachable_is_a_compile_time_bool(front):
    ran = front(CASES / "reachable.vx", desugar_comptime)
    main = ran.after.items[-1]
    assert [(s.name, s.value.value) for s in main.body.stmts] == [("near", True),
                                                                  ("far", False)]


def test_placement_asserts_are_decided_and_removed(front):
    ran = front(CASES / "placement_assert.vx", desugar_comptime)
    assert not ran.diagnostics.items
    assert not list(ran.nodes("Assert"))


def test_a_write_in_a_branch_on_a_run_time_value_makes_the_variable_unknown(front):
    ran = front("fn main() { let n = 1; let a = comptime { let mut s = 0; if n > 0 { s = 1; } "
                "s }; }", desugar_comptime)
    assert "depends on `n`" in ran.diagnostics.items[0].message


def test_an_unknown_loop_is_checked_but_its_writes_are_unknown(front):
    ran = front("fn main() { let n = 4; let a = comptime { let mut s = 0; for i in 0..n { "
                "s += 1; } 3 }; print(a); }", desugar_comptime)
    assert not ran.diagnostics.items
    ran = front("fn main() { let n = 4; let a = comptime { let mut s = 0; for i in 0..n { "
                "s += 1; } s }; }", desugar_comptime)
    assert "depends on `n`" in ran.diagnostics.items[0].message


@pytest.mark.parametrize("value, what", [
    ("let p = P { x: 3 }; 1", "a struct value"), ("let q = (1, 2.5); 1", "a tuple"),
    ("let e = E::A; 1", "an enum value"), ("let v = vec<2 x i32>(1, 2); 1", "a vector"),
])
def test_a_value_the_evaluator_does_not_compute_is_named_in_words(front, value, what):
    ran = front("struct P { x: i32 }\nenum E { A, B }\n"
                f"fn main() {{ let a = comptime {{ {value} }}; print(a); }}", desugar_comptime)
    [d] = ran.diagnostics.items
    assert d.code == "E3033"
    assert d.message == (f"this comptime block cannot be finished while compiling: it holds "
                         f"{what}, which the compile-time evaluator does not compute (it "
                         f"computes numbers, bools, strings and tensors)")


@pytest.mark.parametrize("block, where, refused", [
    ("1 << 40", "i64", False),        # an i32's value, converted where it goes: 256
    ("7i32", "i64", False),
    ("1.5", "f32", False),            # an f64's value, converted to f32
    ("1.5f32", "f64", True),          # another type is kept, as a suffixed literal's
    ("(0.1 as f32) + 0.2", "f64", True),
    ("1i64 << 40", "i64", False),
])
def test_a_blocks_value_of_i32_or_f64_goes_where_it_goes_and_any_other_keeps_its_type(
        tmp_path, capsys, block, where, refused):
    path = tmp_path / "p.vx"
    path.write_text(f"fn main() {{\n  let d: {where} = comptime {{ {block} }};\n"
                    "  print(d);\n}\n")
    assert cli_main([str(path), "--action", "check"]) == (1 if refused else 0)
    err = capsys.readouterr().err
    assert (f"'d' is declared {where}, but its value is" in err) == refused, err


def test_the_dump_shows_literals_and_no_comptime(capsys):
    path = Path(__file__).parents[2] / "examples" / "tour.vx"
    assert cli_main([str(path), "--action", "check", "--dump-after=desugar-comptime"]) == 0
    out = capsys.readouterr().out
    assert "comptime" not in out.split("***", 2)[2]
    assert "let folded: ~i32 = 4950;" in out


def test_a_comptime_block_folds_array_and_tensor_literals():
    text = ("fn main() {\n  let a = comptime { [1, 2, 3][2] };\n"
            "  let t = comptime { Tensor<f32, [2]>([1.5, 2.5])[1] };\n  print(a);\n  print(t);\n}\n")
    ran = run_front(text, desugar_comptime)
    assert not ran.diagnostics.items
    lets = [s.value for s in ran.after.items[0].body.stmts if s._prod == "Let"]
    assert [to_text(v).strip() for v in lets] == ["3", "2.5 as f32"]


# Hand-written Ltyped: a comptime lambda left in the function, which fold-comptime-lambdas
# always folds away (calls and binding). Its block is run like any other comptime block, and
# depends on the lambda's parameter: E3033, and the block stands as 0 after it.
LAMBDA_LEFT = """
    // IL: Ltyped
    fn main() {
        let sq: _ = |x: i32| {
            comptime {
                x * x
            }
        };
        @print(sq(3));
    }
"""


def test_handwritten_a_comptime_lambda_left_depends_on_its_parameter(run_pass, snapshot_txt):
    ran = run_pass("desugar-comptime", LAMBDA_LEFT)
    assert ran.codes == ["E3033"]
    assert "depends on `x`" in ran.diagnostics.items[0].message
    assert ran.dump == snapshot_txt
