"""fold-sizeof: `sizeof<T>()` is the number of bytes of a T, the instance's type after
monomorphize; a type without a size while compiling is E3047; every call loses its generic
arguments."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.fold_sizeof import fold_sizeof
from front import (_printed, assert_prints_the_same, assert_refused_from_the_command_line,
                   assert_refused_then_repaired, run_front)

CASES = Path(__file__).parent / "cases" / "fold_sizeof"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {"no_size": ("E3047", "`sizeof<Tensor<f32, [?]>>()` has no size: it takes one type")}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", fold_sizeof)
    code = REFUSED.get(case, (None,))[0]
    assert ran.diagnostics.codes() == ([code] if code else [])
    assert to_text(ran.after) + ran.diagnostics.render() == snapshot_txt
    assert to_dot(ran.after, title=f"fold-sizeof: {case}") == snapshot_dot


@pytest.mark.parametrize("case", [n for n in NAMES if n not in REFUSED])
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", fold_sizeof)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_then_repaired(case):
    assert_refused_then_repaired(CASES / f"{case}.vx", fold_sizeof, *REFUSED[case])


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_from_the_command_line(case, capsys):
    assert_refused_from_the_command_line(CASES / f"{case}.vx", REFUSED[case][0], capsys)


def test_sizeof_is_a_literal_in_each_instance_and_the_generic_ran_the_same():
    ran = run_front(CASES / "sizes.vx", fold_sizeof)
    bodies = {i.name: to_text(i.body).split() for i in ran.after.items}
    assert bodies["bytes_of$f32"] == ["{", "4", "}"]
    assert bodies["row_bytes$u8"] == ["{", "1", "*", "4", "}"]
    assert not [c for c in ran.nodes("Call") if c.callee.name == "sizeof"]
    # Before monomorphize the interpreter knows T from what the call passed.
    assert ran.prints() == ("4\n48\n4\n8\n4\n", "4\n48\n4\n8\n4\n")


@pytest.mark.parametrize("call, shown", [("sizeof<4>()", "4"), ("sizeof<f32, i32>()", "f32, i32"),
                                         ("sizeof<f32>(1)", "f32")])
def test_anything_but_one_type_and_no_argument_is_refused(call, shown):
    ran = run_front(f"fn main() {{ print({call}); }}\n", fold_sizeof)
    [d] = ran.diagnostics.items
    assert (d.code, d.message.split(" has no size")[0]) == ("E3047", f"`sizeof<{shown}>()`")


def test_handwritten_a_function_named_sizeof_is_called_as_any_other(run_pass, snapshot_txt):
    # A program's own `sizeof` hides the builtin (the front end calls it as any function,
    # with no generic arguments); beside it, the builtin's form in a program without one.
    ran = run_pass("fold-sizeof", """
        // IL: Linstances
        fn sizeof(x: i64) -> i64 {
            x * 2
        }

        fn main() {
            @print(@sizeof(21 as i64));
        }
    """)
    assert ran.codes == []
    assert "@print(@sizeof(21 as i64));" in ran.text
    assert _printed(ran.before) == _printed(ran.tree) == "42\n"
    assert ran.dump == snapshot_txt


def test_handwritten_the_builtin_in_a_closure_and_a_spawn(run_pass, snapshot_txt):
    ran = run_pass("fold-sizeof", """
        // IL: Linstances
        fn main() {
            let f = |k: i64| {
                k * @sizeof<Tensor<bf16, [3, 5]>>()
            };
            let n = spawn on(Topology::CPU) {
                @sizeof<i16>()
            };
            @print(f(2 as i64));
        }
    """)
    assert ran.codes == []
    assert "k * 30\n" in ran.text and "{\n        2\n    }" in ran.text
    assert _printed(ran.before) == _printed(ran.tree) == "60\n"
    assert ran.dump == snapshot_txt
