"""A dump given back to nano-vx is untrusted input: whatever was done to it (a line cut, a
number made huge, a label or a name changed, a type that no longer fits), the resumed run
ends in a diagnostic (E1007) and never in a traceback, a back-end failure (exit 70) or a
native run of a program its IL does not allow. Each case is shown refused, and the dump it
was made from (or the edit done right) shown resumed."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from nano_vx.cli import main

# Slow (the whole suite's, not the inner loop's): dumps edited to break, resumed.
pytestmark = pytest.mark.slow

PROGRAM = """\
const K: i32 = 3;
fn add(a: i32, b: i32) -> i32 {
    return a + b;
}
fn main() -> i32 {
    let x = 40;
    let mut s = 0;
    for i in 0..3 {
        s = s + i;
    }
    assert(s == 3);
    let ok = x > 2;
    if ok {
        print(add(x, K));
    }
    return 0;
}
"""
WHOLE_RUN = (0, "43\n")
LONG = "4" * 5000


def run(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def dumps(tmp_path_factory) -> dict:
    """The program's dump after each pass, by pass name (its JSON dumps as NAME.json)."""
    root = tmp_path_factory.mktemp("hostile")
    program = root / "program.vx"
    program.write_text(PROGRAM)
    text, js = root / "text", root / "json"
    assert run(program, "--dump-dir", text, "--dump-after=all")[:2] == WHOLE_RUN
    assert run(program, "--dump-dir", js, "--dump-after=type-scalars,choose-memory-cells",
               "--dump-format=json", "--action", "emit-mlir")[0] == 0
    found = {f.name.split("-", 2)[2].rsplit(".", 1)[0]: f for f in text.iterdir()}
    found.update({f.name.split("-", 2)[2]: f for f in js.iterdir()})
    return found


def edited(dumps, tmp_path, name: str, old: str, new: str, suffix: str = "txt") -> Path:
    text = dumps[name].read_text()
    assert old in text, f"{old!r} is not in the dump after {name}"
    path = tmp_path / f"edited.{suffix}"
    path.write_text(text.replace(old, new, 1))
    return path


def refused(path: Path, message: str, *args) -> str:
    code, out, err = run(path, *args)
    assert (code, out) == (1, ""), err
    assert err.startswith(f"error[E1007]: {message}"), err
    assert "Traceback" not in err and "internal compiler error" not in err
    return err


# -- the state lines ----------------------------------------------------------------------

@pytest.mark.parametrize("value", ["[1, 2]", '"x"', "3", "null"])
def test_a_reported_line_that_is_no_json_object_is_e1007(dumps, tmp_path, value):
    path = tmp_path / "edited.txt"
    path.write_text(dumps["type-scalars"].read_text() + f"// reported by parse: {value}\n")
    refused(path, "the state line '// reported by parse:' does not read: expected a JSON "
                  "object")


@pytest.mark.parametrize("field, value", [
    ("severity", '"fatal"'), ("code", '"E0000"'), ("notes", '"x"'), ("labels", "[1]"),
    ("span", '{"file": "x"}'), ("message", "7"),
])
def test_a_reported_diagnostic_with_a_field_of_another_form_is_e1007(dumps, tmp_path, field,
                                                                     value):
    diagnostic = {"severity": "warning", "code": "W1031", "message": "m"}
    line = json.dumps(diagnostic)[:-1] + f', "{field}": {value}}}'
    path = tmp_path / "edited.txt"
    path.write_text(dumps["type-scalars"].read_text() + f"// reported by parse: {line}\n")
    refused(path, "the state line '// reported by parse:' does not read: ")


def reported_at(dumps, tmp_path, file: str | None, line: int) -> tuple[Path, tuple]:
    """The dump with a warning reported at `file` (None: the dump itself), `line`."""
    path = tmp_path / "edited.txt"
    diagnostic = {"severity": "warning", "code": "W1031", "message": "an import",
                  "span": {"file": file or str(path), "line": line, "column": 1,
                           "end_line": line, "end_column": 6}}
    path.write_text(dumps["type-scalars"].read_text()
                    + f"// reported by drop-imports: {json.dumps(diagnostic)}\n")
    return path, run(path)


@pytest.mark.parametrize("file, line", [("/etc/passwd", 1), ("/etc/passwd", -1),
                                        ("program.vx", 2), (None, -1), (None, 10_000)])
def test_a_reported_span_outside_the_dump_is_a_note_and_no_file_is_read(dumps, tmp_path,
                                                                         file, line):
    path, (code, out, err) = reported_at(dumps, tmp_path, file, line)
    file = file or str(path)
    assert (code, out) == WHOLE_RUN
    assert err.startswith("warning[W1031]: an import\n")
    assert f"= note: reported at {file}:{line}:1" in err
    assert "root:" not in err and "-->" not in err


def test_a_reported_span_inside_the_dump_shows_the_dump_line(dumps, tmp_path):
    path, (code, out, err) = reported_at(dumps, tmp_path, None, 2)
    assert (code, out) == WHOLE_RUN
    assert f"--> {path}:2:1" in err and "const K: i32 = 3i32;" in err


# -- numbers ------------------------------------------------------------------------------

@pytest.mark.parametrize("name, old", [("resolve-names", "40"), ("type-scalars", "40i32")])
def test_an_integer_of_thousands_of_digits_in_a_text_dump_is_e1007(dumps, tmp_path, name, old):
    path = edited(dumps, tmp_path, name, old, old.replace("40", LONG))
    err = refused(path, "an integer of 5000 digits; a dump's integers have at most 4000")
    assert f"--> {path}:" in err
    assert run(edited(dumps, tmp_path, name, old, old.replace("40", "41")))[:2] == (0, "44\n")


def test_an_integer_of_thousands_of_digits_in_a_json_dump_is_e1007(dumps, tmp_path):
    path = edited(dumps, tmp_path, "type-scalars.json", '"value": 40', f'"value": {LONG}',
                  "json")
    refused(path, "an integer of 5000 digits; a dump's integers have at most 4000")
    path = edited(dumps, tmp_path, "type-scalars.json", '"value": 40', '"value": 41', "json")
    assert run(path)[:2] == (0, "44\n")


def test_an_integer_of_thousands_of_digits_in_a_state_line_is_e1007(dumps, tmp_path):
    path = edited(dumps, tmp_path, "check-native-subset", "// fact proved_requires: {}",
                  f'// fact proved_requires: {{"main": [{LONG}]}}')
    refused(path, "the state line '// fact proved_requires:' does not read: an integer of "
                  "5000 digits")


def test_a_literal_its_type_does_not_hold_is_e1007(dumps, tmp_path):
    path = edited(dumps, tmp_path, "type-scalars", "let x: ~i32 = 40i32;",
                  "let x: ~i32 = 4294967296i32;")
    refused(path, "the Lscalars dump is not well formed: the literal 4294967296, which i32 "
                  "does not hold (in 'main')")


# -- the back end's ILs: scope ------------------------------------------------------------

@pytest.mark.parametrize("old, new, message", [
    ("goto bb6;", "goto bb66;", "a jump to bb66, which labels no block"),
    ("branch ok, bb5, bb6;", "branch ok, bb5, bb9;", "a jump to bb9, which labels no block"),
    ("let ok: ~bool = x > 2i32;", "let ok: ~bool = zz > 2i32;",
     "the variable 'zz', which is not bound here"),
    ("@add(x, @K)", "@nope(x, @K)", "a call of 'nope', which names no function"),
    ("@add(x, @K)", "@add(x, @J)", "'J', which names no constant"),
    ("@add(x, @K)", "@add(x)", "a call with 1 arguments of a function taking 2"),
    ("bb7:\n", "bb8:\n", "a second block labelled bb8"),
    ("cells s, i_next", "cells s, i_next, q", "the cell 'q', which names no local"),
    ("let i: ~i32 = i_next;", "let i: ~i32 = i_next;\n    let x: ~i32 = 7i32;",
     "a second binding of 'x' in one function"),
    ("const K: i32 = 3i32;", "const K: i32 = @K;", "the constant 'K' depends on itself"),
])
def test_an_lcells_dump_naming_what_is_not_there_is_e1007(dumps, tmp_path, old, new, message):
    refused(edited(dumps, tmp_path, "choose-memory-cells", old, new), f"the Lcells dump is not well formed: {message}")


def test_a_local_used_where_its_let_does_not_dominate_is_e1007(dumps, tmp_path):
    # The loop's body (bb2) binds `i`, and comes before bb6, which the loop's exit reaches
    # without passing through it; `ok`, bound in bb8 on every way to bb6, is there.
    path = edited(dumps, tmp_path, "choose-memory-cells", "    return 0i32;",
                  "    @print(i);\n    return 0i32;")
    err = refused(path, "the Lcells dump is not well formed: the variable 'i', which is not "
                        "bound here (in 'main')")
    assert "@print(i);" in err
    path = edited(dumps, tmp_path, "choose-memory-cells", "    return 0i32;",
                  "    @print(ok);\n    return 0i32;")
    assert run(path)[:2] == (0, "43\ntrue\n")


def test_the_lcells_dump_as_written_resumes(dumps):
    assert run(dumps["choose-memory-cells"])[:2] == WHOLE_RUN
    assert run(dumps["choose-memory-cells.json"])[:2] == WHOLE_RUN
    assert run(dumps["explicate-control"])[:2] == WHOLE_RUN


# -- the back end's ILs: types ------------------------------------------------------------

@pytest.mark.parametrize("old, new, message", [
    ("let x: ~i32 = 40i32;", "let x: bool = 300i32;",
     "a value of type i32 where bool is expected"),
    ("let x: ~i32 = 40i32;", "let x: i7 = 40i32;", "a struct or generic type"),
    ("let x: ~i32 = 40i32;", "let x: ~i64 = 40i64;", "a value of type i64 where i32 is "
                                                      "expected"),
    ("return a +[i32] b;", "return a +[i32] true;", "a value of type bool where i32 is "
                                                    "expected"),
    ("return a +[i32] b;", "return a +[bool] b;", "a value of type i32 where bool is "
                                                  "expected"),
    ("assert(s == 3i32);", "break;", "`break` outside a loop"),
    ("assert(s == 3i32);", "assert(s);", "a value of type i32 where bool is expected"),
    ("return 0i32;", "return 0.5f64;", "a value of type f64 where i32 is expected"),
])
def test_an_lscalars_dump_whose_types_do_not_fit_is_e1007(dumps, tmp_path, old, new, message):
    refused(edited(dumps, tmp_path, "type-scalars", old, new),
            f"the Lscalars dump is not well formed: {message}")


def test_a_bool_holding_300_does_not_run_natively(dumps, tmp_path):
    path = edited(dumps, tmp_path, "type-scalars", "let x: ~i32 = 40i32;",
                  "let x: bool = 300i32;")
    refused(path, "the Lscalars dump is not well formed", "--action", "emit-mlir")


def test_a_json_dump_whose_locals_became_globals_is_e1007(dumps, tmp_path):
    data = json.loads(dumps["type-scalars.json"].read_text())

    def rename(node):
        if isinstance(node, dict):
            if node.get("node") == "Local" and node["fields"]["name"] == "x":
                node["node"] = "Global"
            for value in node.values():
                rename(value)
        elif isinstance(node, list):
            for value in node:
                rename(value)
    rename(data)
    path = tmp_path / "renamed.json"
    path.write_text(json.dumps(data))
    refused(path, "the Lscalars dump is not well formed: 'x', which names no constant "
                  "(in 'main')")
    assert run(dumps["type-scalars.json"])[:2] == WHOLE_RUN


def test_the_lscalars_dump_as_written_resumes(dumps, tmp_path):
    assert run(dumps["type-scalars"])[:2] == WHOLE_RUN
    # i8 holds 200's bits, -56, as the interpreter and native code both read them.
    path = edited(dumps, tmp_path, "type-scalars", "@print(@add(x, @K));", "@print(200i8);")
    assert run(path)[:2] == (0, "-56\n")
    assert run(path, "--action", "interpret")[:2] == (0, "-56\n")


# -- what does not read at all ------------------------------------------------------------

def test_a_truncated_dump_is_e1007(dumps, tmp_path):
    text = dumps["choose-memory-cells"].read_text()
    end = text.index("// after:")
    for cut in (end // 3, end // 2, end - 20):
        path = tmp_path / "cut.txt"
        path.write_text(text[:cut])
        code, out, err = run(path)
        assert (code, out) == (1, "") and err.startswith("error[E1007]: "), err
    path.write_text(text.replace("// after: choose-memory-cells", "// after: choose-mem"))
    assert run(path)[0] == 2  # a usage error: the run is to start after no pass


def test_a_truncated_json_dump_is_e1007(dumps, tmp_path):
    path = tmp_path / "cut.json"
    path.write_text(dumps["type-scalars.json"].read_text()[:500])
    refused(path, "not JSON: ")


def test_a_dump_naming_an_il_that_is_not_is_e1007(dumps, tmp_path):
    refused(edited(dumps, tmp_path, "choose-memory-cells", "// IL: Lcells", "// IL: Lnope"),
            "no IL is named 'Lnope'; the ILs are Lsrc, ")
    refused(edited(dumps, tmp_path, "type-scalars.json", '"language": "Lscalars"',
                   '"language": "Lnope"', "json"),
            'a JSON dump names its IL in "language"; no IL is named \'Lnope\'')


def test_a_dump_naming_another_il_than_its_text_is_e1007(dumps, tmp_path):
    # Lcells' blocks are no Lscalars, and Lscalars' typed literals no Lresolved.
    refused(edited(dumps, tmp_path, "choose-memory-cells", "// IL: Lcells", "// IL: Lscalars"),
            "expected ")
    refused(edited(dumps, tmp_path, "type-scalars", "// IL: Lscalars", "// IL: Lresolved"),
            "expected ")


def test_a_dump_of_mlir_that_does_not_verify_is_e1007(dumps, tmp_path):
    refused(edited(dumps, tmp_path, "select-instructions", "func.return", "cf.br ^bb0"),
            "MLIR: ")


# -- the front end's ILs past resolve-names -----------------------------------------------

VALUES = """\
fn main() -> i32 {
    let t = Tensor<i32, [2]>::fill(7);
    let n = 3;
    let y = if n > 2 { t[0] } else { t[1] };
    {
        let inner = y + 1;
        print(inner);
    }
    return 0;
}
"""


@pytest.fixture(scope="module")
def front_end(tmp_path_factory) -> dict:
    """The dumps of VALUES after the passes past the front end's checks, by pass name."""
    root = tmp_path_factory.mktemp("front_end")
    program = root / "values.vx"
    program.write_text(VALUES)
    passes = "check-value-types,outline-kernels,insert-seam-assumes,drop-type-declarations"
    assert run(program, "--dump-dir", root / "text", "--dump-after", passes)[:2] == (0, "8\n")
    return {f.name.split("-", 2)[2].rsplit(".", 1)[0]: f for f in (root / "text").iterdir()}


@pytest.mark.parametrize("name", ["check-value-types", "insert-seam-assumes",
                                  "drop-type-declarations"])
@pytest.mark.parametrize("old, new, message", [
    # `inner` used after the block that binds it ends
    ("    return 0;", "    @print(inner);\n    return 0;",
     "the variable 'inner', which is not bound here (in 'main')"),
    ("    let n: ~i32 = 3;", "    let n: ~i32 = 3;\n    let n: ~i32 = 4;",
     "a second binding of 'n' in one function (in 'main')"),
    ("        t[1]\n", "        @print(1);\n",
     "an `if` used as a value with an arm that neither gives one nor leaves (in 'main')"),
])
def test_a_front_end_dump_out_of_scope_or_without_a_value_is_e1007(front_end, tmp_path, name,
                                                                    old, new, message):
    il = front_end[name].read_text().split("\n", 1)[0][len("// IL: "):]
    refused(edited(front_end, tmp_path, name, old, new),
            f"the {il} dump is not well formed: {message}")


@pytest.mark.parametrize("name", ["check-value-types", "insert-seam-assumes",
                                  "drop-type-declarations"])
def test_a_front_end_dump_edited_within_the_rules_resumes(front_end, tmp_path, name):
    assert run(front_end[name])[:2] == (0, "8\n")
    path = edited(front_end, tmp_path, name, "        let inner", "        let mut inner")
    assert run(path)[:2] == (0, "8\n")
    path = edited(front_end, tmp_path, name, "        t[1]\n", "        return 5;\n")
    assert run(path)[:2] == (0, "8\n")  # an arm that leaves needs no value


def test_a_constructor_without_its_argument_is_e1007_from_ltyped_on(front_end, tmp_path):
    for name, il in (("check-value-types", "Lrouted"), ("insert-seam-assumes", "Lassumed")):
        path = edited(front_end, tmp_path, name, "::fill(7)", "::fill()")
        refused(path, f"the {il} dump is not well formed: `::fill` with 0 arguments "
                      f"(in 'main')")


def test_an_item_declared_twice_is_e1007(dumps, front_end, tmp_path):
    refused(edited(front_end, tmp_path, "insert-seam-assumes", "fn main()",
                   "fn main() -> i32 {\n    return 1;\n}\n\nfn main()"),
            "the Lassumed dump is not well formed: a second item named 'main'")
    refused(edited(dumps, tmp_path, "type-scalars", "const K: i32 = 3i32;",
                   "const K: i32 = 3i32;\nconst K: i32 = 4i32;"),
            "the Lscalars dump is not well formed: a second item named 'K'")


def test_a_dump_that_stopped_with_an_error_reports_it_and_runs_no_pass(front_end, tmp_path):
    # Its tree may be what the error says (resolve-names leaves an unknown name unbound):
    # nothing runs on it, so nothing is checked but its state lines.
    error = {"severity": "error", "code": "E2001", "message": "there is no 'inner' here"}
    path = edited(front_end, tmp_path, "insert-seam-assumes", "    return 0;",
                  "    @print(inner);\n    return 0;")
    path.write_text(path.read_text() + f"// reported by resolve-names: {json.dumps(error)}\n")
    code, out, err = run(path)
    assert (code, out) == (1, "") and err.startswith("error[E2001]: there is no 'inner' here")
    assert "E1007" not in err


def test_a_json_field_holding_an_object_where_a_terminal_goes_is_e1007(dumps, tmp_path):
    path = edited(dumps, tmp_path, "type-scalars.json", '"type": "i32"', '"type": {"a": 1}',
                  "json")
    code, out, err = run(path)
    assert (code, out) == (1, "") and err.startswith("error[E1007]: "), err
    path = edited(dumps, tmp_path, "type-scalars.json", '"op": "+"', '"op": {"a": 1}', "json")
    refused(path, 'Binary.op: expected binop, not {"a": 1}')


def test_an_ltyped_dump_is_held_to_the_constructor_checks_once_they_ran(tmp_path):
    program = tmp_path / "p.vx"
    program.write_text(VALUES)
    run(program, "--dump-dir", tmp_path, "--action", "check", "--dump-after",
        "infer-placement,check-tensor-constructors")
    for name, code in (("infer-placement", "E3010"), ("check-tensor-constructors", "E1007")):
        path = edited({name: next(tmp_path.glob(f"*-after-{name}.txt"))}, tmp_path, name,
                      "::fill(7)", "::fill()")
        code_, out, err = run(path)
        assert (code_, out) == (1, "") and err.startswith(f"error[{code}]: "), err
