"""resolve-names on enums: `E::V(..)` names a declared enum (E2003) and one of its variants,
with as many values as the variant carries (E2004); the names a `match` case binds are locals
of that case."""

import pytest

from nano_vx.passes.resolve_names import resolve_names
from front import run_front

ENUM = "enum Shape { Dot, Circle(f32) }\n\n"

REFUSED = [
    ("let s = Sahpe::Dot;", "let s = Shape::Dot;", "E2003", "there is no enum named 'Sahpe'"),
    ("let s = Shape::Square;", "let s = Shape::Dot;", "E2004",
     "enum 'Shape' has no variant 'Square'"),
    ("let s = Shape::Circle(1.0, 2.0);", "let s = Shape::Circle(1.0);", "E2004",
     "'Shape::Circle' carries 1 value, but this gives 2"),
    ("match Shape::Dot { Shape::Dot(x) => {}, _ => {} }",
     "match Shape::Dot { Shape::Dot => {}, _ => {} }", "E2004",
     "'Shape::Dot' carries 0 values, but this gives 1"),
]


def _main(body: str) -> str:
    return ENUM + "fn main() {\n  " + body + "\n}\n"


@pytest.mark.parametrize("bad, good, code, message", REFUSED, ids=[r[0] for r in REFUSED])
def test_each_name_is_refused_and_the_repair_admitted(bad, good, code, message):
    ran = run_front(_main(bad), resolve_names)
    assert [(d.code, d.message) for d in ran.diagnostics.items] == [(code, message)]
    assert not run_front(_main(good), resolve_names).diagnostics.items


def test_a_case_binds_its_names_for_its_body_only():
    text = _main("let r = 1;\n  let x = match Shape::Circle(2.0) {\n"
                 "    Shape::Circle(r) => r,\n    _ => 0.0,\n  };\n  print(r);")
    ran = run_front(text, resolve_names)
    assert not ran.diagnostics.items
    binds = [n.name for n in ran.nodes("PBind")]
    assert binds == ["r#1"]
    assert [n.name for n in ran.nodes("Local")][-1] == "r"  # `print(r)` reads the outer r


def test_a_variant_or_a_field_declared_twice_is_e2005():
    text = "struct P { x: i32, x: f32 }\n\nenum E { A, B, A }\n\nfn main() { }\n"
    said = [(d.code, d.message) for d in run_front(text, resolve_names).diagnostics.items]
    assert said == [("E2008", "struct 'P' has two fields named 'x'"),
                    ("E2008", "enum 'E' has two variants named 'A'")]
    repaired = "struct P { x: i32, y: f32 }\n\nenum E { A, B, C }\n\nfn main() { }\n"
    assert not run_front(repaired, resolve_names).diagnostics.items


def test_a_call_through_a_type_with_no_such_function_says_so():
    text = "struct Vec { n: i32 }\n\nfn main() {\n  let v = Vec::new();\n}\n"
    [d] = run_front(text, resolve_names).diagnostics.items
    assert (d.code, d.message) == ("E2003", "there is no enum named 'Vec'")
    assert d.notes == ["'Vec' is not an enum, and no impl block of it declares a function 'new'"]
    assert d.help == ["declare one: `impl Vec { fn new(..) { .. } }`"]
