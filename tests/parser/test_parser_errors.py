"""Bad input: every E1xxx code, each with its repaired program accepted; several syntax
errors in one file; the parse pass."""

from pathlib import Path

import pytest

from nano_vx.context import Compilation
from nano_vx.diagnostics import Diagnostics
from nano_vx.parser import decode_source, parse_text, read_source
from nano_vx.passes.parse import parse_pass
from nano_vx.source import Source

CASES = Path(__file__).parent / "cases"


def diags(text):
    _, d = parse_text(text)
    return [(x.code, x.span.line, x.span.col, x.message) for x in d.sorted()]


@pytest.mark.parametrize("bad, good, code, message", [
    ("fn main() { let x = 1 }", "fn main() { let x = 1; }", "E1001",
     "expected ';' after the statement, found '}'"),
    ("fn main() { let x = ; }", "fn main() { let x = 0; }", "E1001",
     "expected an expression, found ';'"),
    ("fn main() { f(1, 2; }", "fn main() { f(1, 2); }", "E1001",
     "expected ',' or ')', found ';'"),
    ("fn f(x i32) {}", "fn f(x: i32) {}", "E1001", "expected ':', found 'i32'"),
    ("fn main() { let p: *i32 = 0; }", "fn main() { let p: i32 = 0; }", "E1001",
     "expected 'const' or 'mut' (`*const T`, `*mut T`), found 'i32'"),
    ("fn f<T: Area>(x: T) {}", "fn f<T>(x: T) {}", "E1001",
     "expected 'Topology' (the one bound a generic parameter takes; write `<T>` without a "
     "trait bound: `T::m(x)` resolves for each instance), found 'Area'"),
    ("let x = 1;", "const x: i32 = 1;", "E1001",
     "expected an item (fn, const, struct, enum, import, Memory or Topology), found 'let'"),
    ("fn main() { 1 + 2 = 3; }", "fn main() { x = 3; }", "E1001",
     "expected a place (a variable, an index, `*p`, or a field or a tuple element of a place) "
     "on the left of '=', found an expression"),
    ("Memory M { capacity: 4 Gib }", "Memory M { capacity: 4 GiB }", "E1001",
     "expected a unit"),
    ("fn main() {", "fn main() {}", "E1001", "expected '}', found end of file"),
    ('fn main() { let s = "abc; }', 'fn main() { let s = "abc"; }', "E1002",
     "unterminated string literal"),
    ("fn main() { let x = 18446744073709551616; }",
     "fn main() { let x = 18446744073709551615; }", "E1006", "does not fit in 64 bits"),
    ("fn main() { let x = 1e; }", "fn main() { let x = 1e0; }", "E1006",
     "invalid numeric literal '1e'"),
    # Refused by their length, never converted (Python converts at most 4300 digits), and
    # quoted shortened.
    ("fn main() { let x = " + "12" * 2150 + "5; }", "fn main() { let x = 125; }", "E1006",
     "integer literal 121212121212...212121212125 (4301 digits) does not fit in 64 bits"),
    ("fn main() { let x = " + "9" * 4300 + "; }", "fn main() { let x = 9; }", "E1006",
     "integer literal 999999999999...999999999999 (4300 digits) does not fit in 64 bits (the "
     "largest is 18446744073709551615)"),
    ("fn main() { let x = 0x" + "f" * 5000 + "; }", "fn main() { let x = 0xf; }", "E1006",
     "integer literal 0xffffffffff...ffffffffffff (5000 digits) does not fit"),
    ("fn main() { let t: Tensor<i32, [" + "7" * 5000 + "]> = f(); }",
     "fn main() { let t: Tensor<i32, [7]> = f(); }", "E1006", "(5000 digits) does not fit"),
    ("Memory M { capacity: " + "8" * 5000 + " GB }", "Memory M { capacity: 8 GB }", "E1006",
     "the number 888888888888...888888888888 (5000 digits) has more than 20 digits"),
    ('fn main() { let x = "\\q"; }', 'fn main() { let x = "\\\\q"; }', "E1006",
     "unknown escape"),
    ("fn main() { let x = 1; }\0", "fn main() { let x = 1; }", "E1004", "NUL"),
    ("fn main() { let x = 1;\x07 }", "fn main() { let x = 1; }", "E1004", "U+0007"),
    ("// nothing\n\n   ", "fn main() { }", "E1005", "nothing but white space"),
    ("fn main() { match h { Available(p) => { } Available(q) => { } } }",
     "fn main() { match h { Available(p) => { } Saturated(q) => { } } }", "E1001",
     "this `match` already has an arm for `Available(..)`, at 1:23; each variant takes one arm"),
    ("fn main() { match h { Busy(p) => { } } }", "fn main() { match h { Saturated(p) => { } } }",
     "E1001", "expected '=>', found '('"),
    ("fn main() { match h { Available(p) => { } Saturated(_) => { } } }",
     "fn main() { match h { Available(p) => { } Saturated(v) => { } } }", "E1001",
     "a `match` on the result of `try_pin` has the arms `Available(p) => { .. }` and "
     "`Saturated(v) => { .. }`, each binding a name"),
    ("fn main() { match n { 0 => 1 2 } }", "fn main() { match n { 0 => 1, _ => 2 } }", "E1001",
     "expected '=>', found '}'"),
    ("fn main() { for i in 0..=3 { print(i); } }", "fn main() { for i in 0..3 + 1 { print(i); } }",
     "E1001", "an inclusive range `a..=b` is not in the language nano-vx reads"),
    ('fn main() { println!("{}", 3); }', "fn main() { print(3); }", "E1001",
     "`println!` is Rust's macro, not Vx's: `print(x)` prints one value and a newline"),
    ("fn main() { loop { break 5; } }", "fn main() { loop { break; } }", "E1001",
     "a `break` carries no value in Vx: a `loop` is a statement, not a value"),
])
def test_code_and_repair(bad, good, code, message):
    got = diags(bad)
    assert [c for c, *_ in got] == [code], got
    assert message in got[0][3] and len(got[0][3]) < 200
    assert diags(good) == []


def test_a_loop_as_a_value_says_a_loop_is_a_statement():
    got = diags("fn main() { let x = loop { break; }; print(x); }")
    assert [(c, line, col) for c, line, col, _ in got] == [("E1001", 1, 21)]
    assert got[0][3] == "a `loop` is a statement in Vx, not a value: its `break` carries none"


def test_a_missing_semicolon_is_reported_after_the_statement():
    # Where rustc points: just after the statement's last token, not at the next line.
    assert diags("fn main() {\n  let x = 1\n  let y = 2;\n}") == [
        ("E1001", 2, 12, "expected ';' after the statement, found 'let'")]
    assert diags("fn main() {\n  x = 3   // set\n  return\n}") == [
        ("E1001", 2, 8, "expected ';' after the statement, found 'return'"),
        ("E1001", 3, 9, "expected ';' after the statement, found '}'")]
    assert diags("fn main() {\n  f(1)\n  g();\n}") == [
        ("E1001", 2, 7, "expected ';' after the statement, found 'g'")]
    assert diags("const N: i32 = 4\nfn main() {}") == [("E1001", 1, 17, "expected ';', found 'fn'")]
    _, d = parse_text("fn main() {\n  let x = 1\n}")
    assert d.render().splitlines()[1:5] == [
        " --> <input>:2:12", "  |", "2 |   let x = 1", "  |            ^"]


def test_leading_zeros_do_not_make_a_literal_large():
    prog, d = parse_text("fn main() { let x = " + "0" * 5000 + "42; }")
    assert d.codes() == [] and prog.items[0].body.stmts[0].value.value == 42
    assert diags("fn main() { let x = 18_446_744_073_709_551_615; }") == []


def test_bad_bytes_are_e1004():
    prog, d = parse_text(b"fn main() { \xff }")
    assert d.codes() == ["E1004"] and prog.items == ()
    assert "0xff" in d.sorted()[0].message
    d2 = Diagnostics()
    assert decode_source("x.vx", b"\xc3\x28", d2) is None and d2.codes() == ["E1004"]
    prog, d = parse_text("fn main() { }".encode())
    assert d.codes() == [] and len(prog.items) == 1


def test_read_source(tmp_path):
    good, bad = tmp_path / "good.vx", tmp_path / "bad.vx"
    good.write_bytes("fn main() { print(\"é\"); }".encode())
    bad.write_bytes(b"\x00\x01\xfe")
    d = Diagnostics()
    assert read_source(good, d).text.startswith("fn main()") and not d.codes()
    assert read_source(bad, d) is None and d.codes() == ["E1004"]


def test_attribute_only_file_is_empty():
    assert [c for c, *_ in diags("#![allow(unused)]\n// x\n")] == ["E1005"]


def test_several_errors_in_one_file():
    prog, d = parse_text((CASES / "multi_error.vx").read_text(), "multi_error.vx")
    got = [(x.code, x.span.line, x.span.col) for x in d.sorted()]
    assert got == [("E1001", 3, 12), ("E1001", 4, 11), ("E1001", 5, 13), ("E1001", 6, 8),
                   ("E1001", 10, 13)], d.render()
    # The broken statements are dropped, the broken item is skipped, the rest is kept.
    assert [item.name for item in prog.items] == ["main", "fine"]
    assert "multi_error.vx:3:12" in d.render()


def test_recovery_inside_nested_blocks():
    text = "fn main() {\n  if a {\n    let = 1;\n    ok();\n  }\n  f(;\n  g();\n}\n"
    prog, d = parse_text(text)
    assert [(x.span.line, x.span.col) for x in d.sorted()] == [(3, 9), (6, 5)]
    stmts = prog.items[0].body.stmts
    assert [s._prod for s in stmts] == ["If", "ExprStmt"]
    assert stmts[0].then.stmts[0].expr.callee.name == "ok"


def test_recovery_after_a_broken_match_arm_resumes_after_the_match():
    # The match's own `}` ends the broken statement; it does not close the function.
    text = ("fn main() {\n  match h { Busy(p) => { } }\n  let r = match h { Available(p) => "
            "{ let q = 2; } let s = 1; };\n  let z = 3;\n  z + 1\n}\nfn next() { }\n")
    prog, d = parse_text(text)
    assert [(x.span.line, x.span.col) for x in d.sorted()] == [(2, 17), (3, 52)]
    assert [i.name for i in prog.items] == ["main", "next"]
    main = prog.items[0].body
    assert [s._prod for s in main.stmts] == ["Let"] and main.value._prod == "Binary"


def test_recovery_resumes_at_an_item_keyword_starting_a_line():
    prog, d = parse_text("fn main() {\n  let x = (1 +\nfn next() { }\n")
    assert d.codes()[0] == "E1001"
    prog, d = parse_text("fn a( {\n}\nfn b() { }\n")
    assert d.codes() == ["E1001"] and [i.name for i in prog.items] == ["b"]


def test_parse_pass():
    source = Source("t.vx", (CASES / "playground.vx").read_text())
    ctx = Compilation(source, Diagnostics())
    prog = parse_pass(source, ctx)
    assert prog._prod == "Program" and not ctx.diagnostics.codes()
    assert parse_pass.summary.startswith("Parse the source text into Lsrc")
    bad = Source("b.vx", "fn main() { let }")
    ctx = Compilation(bad, Diagnostics())
    assert parse_pass(bad, ctx).items[0].name == "main" and ctx.diagnostics.codes() == ["E1001"]


@pytest.mark.parametrize("receiver, typed", [
    ("self", "v: Self"), ("&self", "v: &Self"), ("&mut self", "v: &mut Self")])
def test_a_method_receiver_says_vx_has_no_methods_and_how_to_write_the_parameter(
        receiver, typed):
    # Rust's receivers: Vx has no methods, so the value is a named parameter, and the rest of
    # the signature is still read (one error, at the receiver).
    _, d = parse_text(f"struct V {{ x: i32 }}\nimpl V {{\n  fn get({receiver}, k: i32) -> i32 "
                      f"{{ k }}\n}}\nfn main() {{}}")
    [got] = d.items
    assert (got.code, got.span.line, got.span.col) == ("E1001", 3, 10)
    assert got.message == (f"`{receiver}` is a method's receiver: Vx has no methods but its "
                           f"built-in ones, and a function of an impl block takes its value as "
                           f"a named parameter")
    taken = receiver[:-len("self")]
    assert got.help == [f"name the parameter and write its type, `{typed}`, and call the "
                        f"function through its type: `T::f({taken}x, ..)`"]
    _, fine = parse_text(f"struct V {{ x: i32 }}\nimpl V {{\n  fn get({typed}, k: i32) -> i32 "
                         f"{{ k }}\n}}\nfn main() {{}}")
    assert not fine.items


def test_a_generic_enum_says_enums_take_no_generic_parameters():
    # Rust's `enum Opt<T>`: one error, at the parameters, and the rest of the program is read.
    _, d = parse_text("enum Opt<T> { Has(T), Empty }\nfn main() { let x = 1 }")
    first, second = d.sorted()
    assert (first.code, first.span.line, first.span.col) == ("E1001", 1, 9)
    assert first.message == ("an enum takes no generic parameters: generic enums are not in "
                             "the language nano-vx reads (a struct may be generic)")
    assert "expected ';'" in second.message
    assert diags("enum OptI32 { Has(i32), Empty }") == []


def test_a_loop_label_says_vx_has_none_where_each_is_written():
    # Rust's `'outer:` and `break 'outer;`: one error at each label, the loops still read.
    got = diags("fn main() {\n  'outer: for i in 0..3 {\n    while true { break 'outer; }\n"
                "    loop { continue 'outer; }\n  }\n}")
    assert [(c, line, col) for c, line, col, _ in got] == [
        ("E1001", 2, 3), ("E1001", 3, 24), ("E1001", 4, 21)]
    assert got[0][3] == ("loop labels are not in the language nano-vx reads: `'outer` names no "
                         "loop, and `break` and `continue` leave the innermost one")
    assert diags("fn main() { for i in 0..3 { while true { break; } } }") == []


def test_a_lifetime_says_vx_has_none_where_each_is_written():
    # Rust's `<'a>` and `&'a S`, `&'a mut i32`: one error at each lifetime, which is read as
    # absent, so the signature still parses (the first was "expected a generic parameter",
    # and a reference's was no word of lifetimes).
    got = diags("struct S { a: i32 }\nfn pick<'a>(x: &'a S, y: &S) -> &'a S { x }\n"
                "fn bump<'b, T>(x: &'b mut i32, v: T) -> T { *x += 1; v }\nfn main() {}")
    assert [(c, line, col) for c, line, col, _ in got] == [
        ("E1001", 2, 9), ("E1001", 2, 17), ("E1001", 2, 34), ("E1001", 3, 9),
        ("E1001", 3, 20)]
    assert got[0][3] == ("lifetimes are not in the language nano-vx reads: `'a` names none, "
                         "and a reference is written without one")
    assert diags("struct S { a: i32 }\nfn pick(x: &S, y: &S) -> &S { x }\n"
                 "fn bump<T>(x: &mut i32, v: T) -> T { *x += 1; v }\nfn main() {}") == []


def test_a_case_guard_or_an_assignment_as_a_case_value_says_what_vx_takes():
    # Rust's `n if n < 0 =>` and `0 => s.0 += 1,`: each refused where written (they were
    # "expected '=>', found 'if'" and "expected a pattern or '}', found '+='"), and the rest
    # of the `match` read.
    got = diags("fn main() {\n  let v = -3;\n  let mut s = (0, 0);\n"
                "  let k = match v { n if n < 0 => -1, _ => 1 };\n"
                "  match v { 0 => s.0 += 1, 1 => s.1 = 2, _ => {} }\n}")
    assert [(c, line, col) for c, line, col, _ in got] == [
        ("E1001", 4, 23), ("E1001", 5, 18), ("E1001", 5, 33)]
    assert got[0][3] == "a case of a `match` takes no guard (`if ..` after its pattern) in Vx"
    assert got[1][3] == "an assignment is a statement in Vx, not a value a case can give"
    _, d = parse_text("fn main() {\n  let mut s = (0, 0);\n  match 1 { 0 => s.0 += 1, _ => {} }\n}")
    assert d.sorted()[0].help == ["make the case a block: `=> { s.0 += 1; }`"]
    assert diags("fn main() {\n  let v = -3;\n  let mut s = (0, 0);\n"
                 "  let k = match v { n => if n < 0 { -1 } else { 1 } };\n"
                 "  match v { 0 => { s.0 += 1; }, 1 => { s.1 = 2; }, _ => {} }\n}") == []


def test_a_tuple_pattern_says_what_a_pattern_is():
    # Rust's `(0, _) =>`: refused where written (it was "expected a pattern or '}', found
    # '('"), nested ones too, and the rest of the `match` read.
    got = diags("fn main() {\n  let v = 3;\n  let x = match (v, 1) { (0, _) => 0, _ => 1 };\n"
                "  let y = match v { 1 | (2, 3) => 0, _ => 1 };\n}")
    assert [(c, line, col) for c, line, col, _ in got] == [("E1001", 3, 26), ("E1001", 4, 25)]
    assert got[0][3].startswith("a tuple pattern is not in the language nano-vx reads")
    assert diags("fn main() {\n  let v = 3;\n  let p = (v, 1);\n"
                 "  let x = match p.0 { 0 => 0, _ => 1 };\n}") == []


def test_a_parameter_named_self_with_a_type_is_a_parameter():
    _, d = parse_text("struct V { x: i32 }\nimpl V {\n  fn get(self: V) -> i32 { self.x }\n}\n"
                      "fn main() {}")
    assert not d.items
