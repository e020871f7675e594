"""check-struct-fields: a struct literal that misses a field (E3013), a field or a variant's
value of another type (E3012), a field a value has not (E2005), a field given twice (E2008),
a literal of no struct (E2001)."""

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nano_vx.passes.check_struct_fields import check_struct_fields
from front import (assert_prints_the_same, assert_refused_from_the_command_line, run_cli,
                   run_front)

CASES = Path(__file__).parent / "cases" / "check_struct_fields"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {
    "missing_field": ("E3013", "this `Point` does not give its field 'y'"),
    "unknown_field": ("E2005", "struct 'Point' has no field 'z'"),
    "constant_field_mistyped": ("E3012", "field 'count' of 'Sample' is u8, but this value is "
                                         "{float}"),
    "mistyped_field": ("E3012", "field 'count' of 'Sample' is u8, but this value is {float}"),
    "read_unknown_field": ("E2005", "struct 'Point' has no field 'z'"),
    "generic_disagreement": ("E3012", "field 'b' of 'Pair' is T, and field 'a' made T = "
                                      "{float}, but this value is bool"),
    "generic_extent": ("E3012", "field 'bottom' of 'Rows' is Tensor<f32, [N], Memory::CPU_DRAM>, "
                                "and field 'top' made N = 4, but this value is "
                                "Tensor<f32, [5], Memory::CPU_DRAM>"),
    "generic_element": ("E3012", "field 'data' of 'Row' is Tensor<f32, [N], Memory::CPU_DRAM>, "
                                 "but this value is Tensor<i32, [4], Memory::CPU_DRAM>"),
    "generic_element_type": ("E3012", "field 'k' of 'Buf' is T, and field 'data' made T = "
                                      "i32, but this value is {float}"),
    "generic_argument": ("E3012", "field 'v' of 'Cell<Tensor<i32, [2]>>' is "
                                  "Tensor<i32, [2], Memory::CPU_DRAM>, but this value is "
                                  "Tensor<i32, [3], Memory::CPU_DRAM>"),
    "generic_copy": ("E3031", "the struct 'Boxed' is Copy, but its field 'value' is given "
                              "Tensor<f32, [2], Memory::CPU_DRAM> here, which moves"),
    "pinned_field": ("E3012", "field 'count' of 'Slot' is Pinned<T, Topology::NPU>, but this "
                              "value is Pinned<i32, Topology::GPU>"),
    "tuple_field": ("E2005", "a tuple of 2 elements has no field 'foo': only a struct has fields"),
    "tuple_index": ("E2005", "a tuple of 2 elements has no element 5"),
    "mistyped_variant_value": ("E3012", "value 1 of 'Shape::Circle' is f32, but this value "
                                        "is bool"),
    "element_assigned_past_the_end": ("E2005", "the tuple (i32, i32) has no element 2"),
    "variant_struct_payload": ("E3012", "value 1 of 'Slot::Full' is Cell, but this value is "
                                        "{float}"),
    "variant_tuple_payload": ("E3012", "value 2 of 'Pair::Two' is (i32, i32), but this value "
                                       "is a tuple of 3 elements"),
    "variant_enum_payload": ("E3012", "value 1 of 'Alarm::Raised' is Level, but this value "
                                      "is {integer}"),
    "enum_field_given_a_number": ("E3012", "field 'level' of 'Reading' is Level, but this "
                                           "value is {integer}"),
    "variant_tuple_for_struct": ("E3012", "value 1 of 'Marker::At' is Point, but this value "
                                          "is a tuple of 2 elements"),
    "struct_field_given_tuple": ("E3012", "field 'from' of 'Segment' is Point, but this value "
                                          "is a tuple of 2 elements"),
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
    assert (d.code, d.message) == ("E3012", "field 'a' of 'S' is i32, but this value is str")
    assert not run_front(text.replace('"x"', "1"), check_struct_fields).diagnostics.items


def test_a_number_is_no_value_of_a_string_field():
    """str is a type, no generic parameter that takes any value."""
    text = 'struct S { a: str }\nfn main() { let s = S { a: 1 }; print(s.a); }\n'
    [d] = run_front(text, check_struct_fields).diagnostics.items
    assert (d.code, d.message) == ("E3012", "field 'a' of 'S' is str, but this value is "
                                            "{integer}")
    assert not run_front(text.replace("1", '"x"'), check_struct_fields).diagnostics.items


def test_a_field_of_a_generic_parameter_takes_any_value():
    assert not run_front(CASES / "generic_field.vx", check_struct_fields).diagnostics.items


def test_a_field_given_twice_and_a_literal_of_no_struct():
    text = ("struct P { x: i32 }\n\nfn main() {\n  let a = P { x: 1, x: 2 };\n"
            "  let b = Q { x: 1 };\n}\n")
    said = [(d.code, d.message) for d in run_front(text, check_struct_fields).diagnostics.items]
    assert said == [("E2008", "'x' is given twice in this `P`"),
                    ("E2001", "`Q { .. }` builds a struct, but no struct is named 'Q'")]


def test_a_literal_bound_first_takes_the_type_a_later_field_gives():
    ran = run_front("struct Pair<T> { a: T, b: T }\nfn main() {\n"
                    "  let p = Pair { a: 1, b: 2i64 };\n  let q = Pair { a: 1i64, b: 2 };\n"
                    "  print(p.a + q.b);\n}\n", check_struct_fields)
    assert not ran.diagnostics.items


# Hand-written Lrouted: a struct that declares one field twice, which E2008 refuses long
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
        ("E3012", "field 'a' of 'S' is bool, but this value is {integer}"),
        ("E2008", "'a' is given twice in this `S`"),
    ]
    assert ran.dump == snapshot_txt


@pytest.mark.parametrize("value, shown", [
    ("3", "i32"), ("\"a\"", "str"), ("vec<2 x f32>(1.0, 2.0)", "<2 x f32>"),
    ("Tensor<f32, [2]>::fill(1.0)", "Tensor<f32, [2], Memory::CPU_DRAM>")])
def test_a_field_read_of_a_value_without_fields_is_refused(value, shown):
    text = f"fn main() {{ let x = {value}; print(x.foo); }}"
    [d] = run_front(text, check_struct_fields).diagnostics.items
    assert (d.code, d.message) == ("E2005", f"{shown} has no field 'foo': only a struct has "
                                            f"fields")


def test_a_field_read_through_a_reference_to_a_struct_is_admitted():
    text = "struct S { x: i32 }\nfn main() { let s = S { x: 1 }; let p = &s; print(p.x); }"
    assert not run_front(text, check_struct_fields).diagnostics.items


@pytest.mark.parametrize("value, shown", [
    ("3", "i32"), ("\"a\"", "str"), ("vec<2 x f32>(1.0, 2.0)", "<2 x f32>")])
def test_a_numbered_field_of_a_value_that_is_no_tuple_is_refused(value, shown):
    text = f"fn main() {{ let x = {value}; print(x.0); }}"
    [d] = run_front(text, check_struct_fields).diagnostics.items
    assert (d.code, d.message) == ("E2005", f"{shown} has no field '0'")


def test_an_element_of_a_tuple_of_known_types_past_its_end_is_refused():
    text = "fn main() { let x = (1i64, true); let y = &x; print(y.2); }"
    [d] = run_front(text, check_struct_fields).diagnostics.items
    assert (d.code, d.message) == ("E2005", "the tuple (i64, bool) has no element 2")


_ELEMENTS = st.sampled_from(["1", "2.5", "true", "7i64", "3u8", "0.5f32", "-4"])
_FIELDS = st.one_of(st.integers(0, 9).map(str),
                    st.from_regex(r"[a-z_][a-z0-9_]{0,6}", fullmatch=True))


@settings(max_examples=20, deadline=None)
@given(st.lists(_ELEMENTS, min_size=2, max_size=6), _FIELDS)
def test_any_field_of_a_tuple_is_a_value_or_a_diagnostic(elements, field):
    """The whole compiler, native code included: `.i` below the tuple's length prints the
    element; anything else is E2005, and nothing is an internal error."""
    text = f"fn main() {{ let x = ({', '.join(elements)}); print(x.{field}); }}\n"
    with tempfile.TemporaryDirectory() as tmp:
        case = Path(tmp) / "tuple.vx"
        case.write_text(text)
        status, out, err = run_cli(case)
    if field.isdigit() and int(field) < len(elements):
        assert (status, err) == (0, ""), err
        assert out.strip()
    else:
        assert status == 1 and "error[E2005]" in err, err


def test_a_message_names_an_instance_as_written():
    # `Cell<Cell<Point>>` is the struct `Cell$<Cell$Point>` (the inner instance in `<..>`, so
    # that its arguments are told from the outer one's); a message names it as written.
    text = ("struct Point { x: i32, y: i32 }\nstruct Cell<T> { v: T }\n\nfn main() {\n"
            "  let d: Cell<Cell<Point>> = Cell { v: Point { x: 1, y: 2 } };\n"
            "  print(d.v.x);\n}\n")
    said = [(d.code, d.message) for d in run_front(text, check_struct_fields).diagnostics.items]
    assert said == [("E3012", "field 'v' of 'Cell<Cell<Point>>' is Cell<Point>, but this value "
                              "is Point"),
                    ("E2005", "struct 'Cell<Point>' has no field 'x'")]
    inner = text.replace("Cell { v: Point { x: 1, y: 2 } }", "Cell { v: Cell { v: 3 } }")
    said = [(d.code, d.message) for d in run_front(inner, check_struct_fields).diagnostics.items]
    assert said[0] == ("E3012", "field 'v' of 'Cell<Point>' is Point, but this value is "
                                "{integer}")  # the inner literal takes the `let`'s argument
