"""drop-void-results: `-> void` is no result; the program prints what it printed."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.check_calls import check_calls
from nano_vx.passes.drop_void_results import drop_void_results
from front import assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "drop_void_results"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", drop_void_results)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"drop-void-results: {case}") == snapshot_dot


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", drop_void_results)


def test_no_function_keeps_a_void_result():
    ran = run_front(CASES / "void.vx", drop_void_results)
    fns = list(ran.nodes("Fn"))
    assert len(fns) == 3 and all(f.ret is None for f in fns)


def test_a_void_result_binds_nothing_as_no_result_does():
    text = "fn f() -> void { print(1); }\nfn main() { let x = f(); }\n"
    ran = run_front(text, check_calls)
    assert ran.diagnostics.codes() == ["E3003"]
    assert "'f' returns nothing" in ran.diagnostics.items[0].message
    repaired = run_front(text.replace("let x = f();", "f();"), check_calls)
    assert not repaired.diagnostics.items


def test_handwritten_void_result_of_a_nested_function(run_pass):
    ran = run_pass("drop-void-results", """
        // IL: Lonefile
        fn main() -> void {
            fn shout(n: i32) -> void {
                print(n);
            }
            shout(3);
        }
    """)
    assert ran.codes == []
    assert "void" not in ran.dump
