"""choose-given-variants: a call a closure's body gives whole an enum parameter a variant of
which carries a tensor is an `if` on the variant it holds, each arm's call given that
variant made of what the parameter carries; native code runs each case as the interpreter
does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.nanopass import descendants
from nano_vx.passes.choose_given_variants import choose_given_variants
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same,
                   run_front)

CASES = Path(__file__).parent / "cases" / "choose_given_variants"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", choose_given_variants)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_no_closure_gives_a_parameter_carrying_a_tensor_whole_but_to_print(case):
    ran = run_front(CASES / f"{case}.vx", choose_given_variants)
    for closure in ran.nodes("Closure"):
        params = {p.name for p in closure.params if p.type.name == "Buf"}
        assert not [a.name for n in descendants(closure.body) if n._prod == "Call"
                    and not (n.callee._prod == "Global" and n.callee.name == "print")
                    for a in n.args if a._prod == "Local" and a.name in params]


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", choose_given_variants)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_program_without_such_closures_is_left_as_it_is():
    ran = run_front("enum E { A, B(i32) }\nfn get(e: E) -> i32 { match e { E::A => 0, "
                    "E::B(k) => k } }\nfn main() {\n    let f = |e: E| get(e);\n"
                    "    print(f(E::B(3)));\n}\n", choose_given_variants)
    assert ran.after is ran.before


# Hand-written Lmatched: a closure handing on a parameter of an enum of three variants to a
# function, with another argument whose `if` binds a local (bound anew in each arm but the
# first), beside a print of it, which stays.
HANDWRITTEN = """
    // IL: Lmatched
    enum Buf {
        Empty,
        Full(Tensor<i32, [2]>),
        Pair(i32, Tensor<i32, [2]>),
    }

    fn size(k: i32, b: Buf) -> i32 {
        if b is Buf::Empty {
            k
        } else if b is Buf::Full {
            k + b.Buf::Full.0[1]
        } else {
            k + b.Buf::Pair.0
        }
    }

    fn main() {
        let show: ~_ = |b: Buf| {
            @print(b);
            @size(if true {
                let z: i32 = 10;
                z
            } else {
                0
            }, b)
        };
        @print(show(Buf::Full([1, 2])));
        @print(show(Buf::Pair(5, [3, 4])));
    }
"""


def test_handwritten_a_call_given_the_parameter_is_chosen_by_its_variant(run_pass,
                                                                          snapshot_txt):
    ran = run_pass("choose-given-variants", HANDWRITTEN)
    assert ran.codes == []
    assert "@print(b);" in ran.dump
    assert "if b is Buf::Empty {" in ran.dump and "} else if b is Buf::Full {" in ran.dump
    assert "}, Buf::Pair(b.Buf::Pair.0, b.Buf::Pair.1))" in ran.dump
    assert "let z#1: i32 = 10;" in ran.dump and "let z#2: i32 = 10;" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "Buf::Full([1, 2])\n12\n" \
        "Buf::Pair(5, [3, 4])\n15\n"
    assert ran.dump == snapshot_txt
