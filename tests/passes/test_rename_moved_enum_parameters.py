"""rename-moved-enum-parameters: a local a closure's body binds by a `let` to an enum
parameter it moves whole (or borrows, or reads through a `&` one), a variant of which
carries a tensor, is that parameter; native code runs each case as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.nanopass import descendants
from nano_vx.passes.rename_moved_enum_parameters import rename_moved_enum_parameters
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same,
                   run_front)

CASES = Path(__file__).parent / "cases" / "rename_moved_enum_parameters"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", rename_moved_enum_parameters)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_no_closure_binds_a_parameter_carrying_a_tensor_to_a_let(case):
    ran = run_front(CASES / f"{case}.vx", rename_moved_enum_parameters)
    for closure in ran.nodes("Closure"):
        params = {p.name for p in closure.params if getattr(p.type, "inner", p.type).name == "Buf"}
        named = [n.value.value if n.value._prod in ("Borrow", "Deref") else n.value
                 for n in descendants(closure.body) if n._prod == "Let"]
        assert not [v.name for v in named if v._prod == "Local" and v.name in params]


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", rename_moved_enum_parameters)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def _left_as_it_is(source: str) -> str:
    ran = run_front(source, rename_moved_enum_parameters)
    assert to_text(ran.after) == to_text(ran.before)
    return to_text(ran.after)


def test_a_local_assigned_anew_in_a_loop_stays_a_variable_of_its_own():
    # rebind-moved-enum-locals makes one assigned by statements of its block `let`s.
    after = _left_as_it_is("enum Buf { E, F(Tensor<i32, [2]>) }\nfn main() {\n"
                           "    let f = |b: Buf| {\n        let mut c = b;\n"
                           "        for i in 0..2 { c = Buf::E; }\n"
                           "        match c { Buf::E => 0, Buf::F(t) => t[0] }\n    };\n"
                           "    print(f(Buf::F([1, 2])));\n}\n")
    assert "let mut c: Buf = b;" in after


def test_a_borrowed_local_handed_on_stays_a_reference_of_its_own():
    # read other than by the variant it holds, a reference and a value do not read alike
    _left_as_it_is("enum Buf { E, F(Tensor<i32, [2]>) }\n"
                   "fn size(b: &Buf) -> i32 { match b { Buf::E => 0, Buf::F(t) => t[0] } }\n"
                   "fn main() {\n    let f = |b: Buf| {\n        let r = &b;\n"
                   "        size(r)\n    };\n    print(f(Buf::F([1, 2])));\n}\n")


def test_a_parameter_carrying_no_tensor_is_left_as_it_is():
    _left_as_it_is("enum E { A, B(i32) }\nfn main() {\n    let f = |e: E| {\n"
                   "        let d = e;\n        match d { E::A => 0, E::B(k) => k }\n    };\n"
                   "    print(f(E::B(3)));\n}\n")


# Hand-written Lmatched: a closure binding its enum parameter to a `let` and that local to
# another, which it prints and hands on, beside an `i32` parameter it reads.
HANDWRITTEN = """
    // IL: Lmatched
    enum Buf {
        Empty,
        Full(Tensor<i32, [2]>),
    }

    fn size(b: Buf) -> i32 {
        if b is Buf::Empty {
            0
        } else {
            b.Buf::Full.0[1]
        }
    }

    fn main() {
        let show: ~_ = |k: i32, b: Buf| {
            let c: Buf = b;
            let d: Buf = c;
            @print(d);
            @size(d) + k
        };
        @print(show(1, Buf::Full([1, 2])));
        @print(show(2, Buf::Empty));
    }
"""


def test_handwritten_a_moved_parameter_is_read_by_its_own_name(run_pass, snapshot_txt):
    ran = run_pass("rename-moved-enum-parameters", HANDWRITTEN)
    assert ran.codes == []
    assert "let c" not in ran.dump and "let d" not in ran.dump
    assert "@print(b);" in ran.dump and "@size(b) + k" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "Buf::Full([1, 2])\n3\n" \
        "Buf::Empty\n2\n"
    assert ran.dump == snapshot_txt
