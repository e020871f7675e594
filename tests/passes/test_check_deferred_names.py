"""check-deferred-names: a name no item declares, in a branch an instance's `if comptime`
keeps (E2001); the branches monomorphize pruned are never judged."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.check_deferred_names import check_deferred_names
from front import (assert_prints_the_same, assert_refused_from_the_command_line,
                   assert_refused_then_repaired, run_front)

CASES = Path(__file__).parent / "cases" / "check_deferred_names"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {"body_type_names_nothing": ("E3029", "the type 'usize' in 'main' names no type"),
           "kept_branch_names_nothing": (
    "E2001", "cannot find value 'helper_that_does_not_exist' in this scope"),
    "route_kept_names_nothing": ("E2001", "cannot find value 'stage_on_the_gpu' in this scope"),
    "trait_method_of_a_scalar": ("E2001", "cannot find value 'i32::area' in this scope")}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", check_deferred_names)
    assert ran.after is ran.before  # a check: the tree goes on as it came
    code = REFUSED.get(case, (None,))[0]
    assert ran.diagnostics.codes() == ([code] if code else [])
    assert to_text(ran.after) + ran.diagnostics.render() == snapshot_txt
    assert to_dot(ran.after, title=f"check-deferred-names: {case}") == snapshot_dot


@pytest.mark.parametrize("case", [n for n in NAMES if n not in REFUSED])
def test_the_admitted_programs_run(case):
    assert_prints_the_same(CASES / f"{case}.vx", check_deferred_names)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_then_repaired(case):
    assert_refused_then_repaired(CASES / f"{case}.vx", check_deferred_names, *REFUSED[case])


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_from_the_command_line(case, capsys):
    assert_refused_from_the_command_line(CASES / f"{case}.vx", REFUSED[case][0], capsys)


def test_a_kept_branch_that_names_what_does_not_exist_is_e2001():
    ran = run_front(CASES / "kept_branch_names_nothing.vx", check_deferred_names)
    [d] = ran.diagnostics.items
    assert (d.code, d.message) == ("E2001", "cannot find value 'helper_that_does_not_exist' "
                                            "in this scope")
    assert d.notes == ["in 'count$2', the `if comptime` around it keeps the branch that names "
                       "it"]
    assert (d.span.line, d.span.col) == (5, 20)
    assert d.data == {"name": "helper_that_does_not_exist"}


@pytest.mark.parametrize("body, name", [
    ("let n: usize = 3; print(n);", "usize"),
    ("let n = 3; print(n as isize);", "isize"),
    ("let t = Tensor<usize, [2]>::new(); print(t);", "usize"),
    ("let f = |x: Strin| x; print(0);", "Strin"),
    ("let p: (i32, Pointt) = (1, 2); print(0);", "Pointt"),
])
def test_a_type_in_a_body_that_names_nothing_is_e3029_where_it_is_written(body, name):
    ran = run_front(f"fn main() {{ {body} }}", check_deferred_names)
    [d] = ran.diagnostics.items
    assert (d.code, d.message) == ("E3029", f"the type '{name}' in 'main' names no type")
    start = d.span.start
    assert d.span.source.text[start:start + len(name)] == name


def test_a_type_in_a_generic_instance_body_is_judged_with_the_instance_named():
    ran = run_front("fn f<T>(x: T) -> T { let y: Tt = x; y }\nfn main() { print(f(1)); }",
                    check_deferred_names)
    [d] = ran.diagnostics.items
    assert (d.code, d.message) == ("E3029", "the type 'Tt' in 'f$i32' names no type")


def test_the_branch_monomorphize_prunes_is_not_judged():
    """The monomorphize case whose instance count$1 prunes the branch naming nothing."""
    case = Path(__file__).parent / "cases" / "monomorphize" / "if_comptime_prunes_a_name.vx"
    assert not run_front(case, check_deferred_names).diagnostics.items
    text = case.read_text().replace("count<1>", "count<2>")
    assert run_front(text, check_deferred_names).diagnostics.codes() == ["E2001"]


def test_each_instance_that_keeps_the_branch_is_named():
    text = (CASES / "kept_branch_names_nothing.vx").read_text()
    ran = run_front(text.replace("print(count<2>());", "print(count<2>() + count<3>());"),
                    check_deferred_names)
    assert sorted(d.notes[0].split("'")[1] for d in ran.diagnostics.items) == \
        ["count$2", "count$3"]


# Hand-written Linstances: a kept branch that names nothing, in a function that was never
# generic (resolve-names refuses such a name at once in a program), and a builtin and an
# instance, which are names of the program.
KEPT_IN_A_PLAIN_FUNCTION = """
    // IL: Linstances
    fn twice$4() -> i32 {
        4 * 2
    }
    fn main() {
        if comptime true {
            @print(@twice$4() + @nowhere(1));
        }
    }
"""


def test_handwritten_a_name_of_nothing_in_a_plain_function(run_pass, snapshot_txt):
    ran = run_pass("check-deferred-names", KEPT_IN_A_PLAIN_FUNCTION)
    assert ran.codes == ["E2001"]
    [d] = ran.diagnostics.items
    assert d.notes == ["in 'main', the `if comptime` around it keeps the branch that names it"]
    assert ran.dump == snapshot_txt


def test_a_call_through_a_type_parameter_calls_each_instances_function():
    ran = run_front(CASES / "trait_method_of_a_scalar_repaired.vx", check_deferred_names)
    called = {n.callee.name for n in ran.nodes("Call") if n.callee._prod == "Global"}
    assert {"Square::area", "Rect::area"} <= called
    refused = run_front(CASES / "trait_method_of_a_scalar.vx", check_deferred_names)
    assert refused.diagnostics.items[0].notes == [
        "in 'report$i32', a call through a type parameter names it"]
