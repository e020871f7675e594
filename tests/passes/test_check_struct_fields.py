"""check-struct-fields: a struct literal that misses a field (E3012), a field that is not the
struct's or has another type (E3013), a literal of no struct (E2001)."""

from pathlib import Path

import pytest

from nano_vx.passes.check_struct_fields import check_struct_fields
from front import assert_prints_the_same, assert_refused_from_the_command_line, run_front

CASES = Path(__file__).parent / "cases" / "check_struct_fields"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {
    "missing_field": ("E3012", "this `Point` does not give its field 'y'"),
    "unknown_field": ("E3013", "struct 'Point' has no field 'z'"),
    "mistyped_field": ("E3013", "field 'count' of 'Sample' is u8, but this value is {float}"),
    "read_unknown_field": ("E3013", "struct 'Point' has no field 'z'"),
    "generic_disagreement": ("E3013", "field 'b' of 'Pair' is T, and field 'a' made T = "
                                      "{float}, but this value is bool"),
    "generic_extent": ("E3013", "field 'bottom' of 'Rows' is Tensor<f32, [N], Memory::CPU_DRAM>, "
                                "and field 'top' made N = 4, but this value is "
                                "Tensor<f32, [5], Memory::CPU_DRAM>"),
    "generic_element": ("E3013", "field 'data' of 'Row' is Tensor<f32, [N], Memory::CPU_DRAM>, "
                                 "but this value is Tensor<i32, [4], Memory::CPU_DRAM>"),
    "generic_copy": ("E3031", "the struct 'Boxed' is Copy, but its field 'value' is given "
                              "Tensor<f32, [2], Memory::CPU_DRAM> here, which moves"),
    "pinned_field": ("E3013", "field 'count' of 'Slot' is Pinned<T, Topology::NPU>, but this "
                              "value is Pinned<i32, Topology::GPU>"),
}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", check_struct_fields)
    assert ran.after is ran.before
    assert set(ran.diagnostics.codes()) == ({REFUSED[case][0]} if case in REFUSED else set())
    assert ran.diagnostics.render() == snapshot_txt


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_every_literal_is_refused_and_the_repair_admitted(case):
    ran = run_front(CASES / f"{case}.vx", check_struct_fields)
    assert [(d.code, d.message) for d in ran.diagnostics.items] == [REFUSED[case]]
    assert not run_front(CASES / f"{case}_repaired.vx", check_struct_fields).diagnostics.items


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_from_the_command_line(case, capsys):
    assert_refused_from_the_command_line(CASES / f"{case}.vx", REFUSED[case][0], capsys)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_the_repair_runs_the_same_after_the_check(case):
    assert_prints_the_same(CASES / f"{case}_repaired.vx", check_struct_fields)


def test_a_string_is_no_value_of_a_number_field():
    text = 'struct S { a: i32 }\nfn main() { let s = S { a: "x" }; print(s.a); }\n'
    [d] = run_front(text, check_struct_fields).diagnostics.items
    assert (d.code, d.message) == ("E3013", "field 'a' of 'S' is i32, but this value is str")
    assert not run_front(text.replace('"x"', "1"), check_struct_fields).diagnostics.items


def test_a_field_of_a_generic_parameter_takes_any_value():
    assert not run_front(CASES / "generic_field.vx", check_struct_fields).diagnostics.items


def test_a_field_given_twice_and_a_literal_of_no_struct():
    text = ("struct P { x: i32 }\n\nfn main() {\n  let a = P { x: 1, x: 2 };\n"
            "  let b = Q { x: 1 };\n}\n")
    said = [(d.code, d.message) for d in run_front(text, check_struct_fields).diagnostics.items]
    assert said == [("E3013", "'x' is given twice in this `P`"),
                    ("E2001", "`Q { .. }` builds a struct, but no struct is named 'Q'")]


def test_a_literal_bound_first_takes_the_type_a_later_field_gives():
    ran = run_front("struct Pair<T> { a: T, b: T }\nfn main() {\n"
                    "  let p = Pair { a: 1, b: 2i64 };\n  let q = Pair { a: 1i64, b: 2 };\n"
                    "  print(p.a + q.b);\n}\n", check_struct_fields)
    assert not ran.diagnostics.items


# Hand-written Lrouted: a struct that declares one field twice, which E2005 refuses long
# before this pass. The field is one name, judged by its last declaration and given once.
FIELD_DECLARED_TWICE = """
    // IL: Lrouted
    struct S {
        a: i32,
        a: bool,
    }

    fn main() {
        let p: S = S { a: true };
        let q: S = S { a: 1, a: false };
        @print(p.a);
    }
"""


def test_handwritten_a_field_declared_twice_is_one_field(run_pass, snapshot_txt):
    ran = run_pass("check-struct-fields", FIELD_DECLARED_TWICE)
    assert [(d.code, d.message) for d in ran.diagnostics.items] == [
        ("E3013", "field 'a' of 'S' is bool, but this value is {integer}"),
        ("E3013", "'a' is given twice in this `S`"),
    ]
    assert ran.dump == snapshot_txt


@pytest.mark.parametrize("value, shown", [
    ("3", "i32"), ("\"a\"", "str"), ("vec<2 x f32>(1.0, 2.0)", "<2 x f32>"),
    ("Tensor<f32, [2]>::fill(1.0)", "Tensor<f32, [2], Memory::CPU_DRAM>")])
def test_a_field_read_of_a_value_without_fields_is_refused(value, shown):
    text = f"fn main() {{ let x = {value}; print(x.foo); }}"
    [d] = run_front(text, check_struct_fields).diagnostics.items
    assert (d.code, d.message) == ("E3013", f"{shown} has no field 'foo': only a struct has "
                                            f"fields")


def test_a_field_read_through_a_reference_to_a_struct_is_admitted():
    text = "struct S { x: i32 }\nfn main() { let s = S { x: 1 }; let p = &s; print(p.x); }"
    assert not run_front(text, check_struct_fields).diagnostics.items
