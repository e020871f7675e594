"""erase-unaddressable-extents: a tensor type of static extents counting past 2^63 elements
is one of `?` extents, its constructor given them, so that native code stops where the
interpreter stops, in its words, rather than running the program in the interpreter."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.erase_unaddressable_extents import erase_unaddressable_extents
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "erase_unaddressable_extents"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", erase_unaddressable_extents)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", erase_unaddressable_extents)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_stops_where_the_interpreter_stops(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_only_a_count_past_an_address_is_erased_and_given_as_i64s():
    text = to_text(run_front(CASES / "past_an_address.vx", erase_unaddressable_extents).after)
    assert "fn first(t: Tensor<u8, [?, ?, ?]" in text
    assert "Tensor<u8, [?, ?, ?]>::new([10000000 as i64, 10000000 as i64, 10000000 as i64])" \
        in text
    assert "Tensor<u8, [?, ?]>::fill([1099511627776 as i64, 1099511627776 as i64], 1)" in text
    assert "Tensor<u8, [3000000000, 4]>::new()" in text


# Hand-written Lsplit: a count of exactly 2^63 is addressed (the interpreter's bound), one
# past it is erased, and one of an extent past i64 stays as written (type-scalars refuses it).
HANDWRITTEN = """
    // IL: Lsplit
    fn main() {
        let a: Tensor<u8, [4294967296, 2147483648]> = Tensor<u8, [4294967296, 2147483648]>::new();
        let b: Tensor<u8, [4294967296, 2147483649]> = Tensor<u8, [4294967296, 2147483649]>::new();
        let c: Tensor<u8, [9223372036854775808, 2]> = Tensor<u8, [9223372036854775808, 2]>::new();
    }
"""


def test_handwritten_the_bound_is_the_interpreters(run_pass, snapshot_txt):
    ran = run_pass("erase-unaddressable-extents", HANDWRITTEN)
    assert ran.codes == []
    assert ran.dump.count("[?, ?]") == 2 and "[4294967296, 2147483648]" in ran.dump
    assert "[9223372036854775808, 2]" in ran.dump
    assert ran.dump == snapshot_txt
