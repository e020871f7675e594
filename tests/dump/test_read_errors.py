"""A dump that does not read back is one E1007 at the line and column where it stopped
fitting, saying what the production being read expected there and after what; never a
traceback. One test per kind of error, each with the dump repaired reading back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nano_vx.diagnostics import Diagnostics
from nano_vx.dump.json_form import dumps_json
from nano_vx.resume.read import json_languages, languages, read_dump

ILS = ", ".join(languages())
JSON_ILS = ", ".join(json_languages())


def refused(text: str):
    """(line, column, message) of the one diagnostic reading `text` reports."""
    diagnostics = Diagnostics()
    assert read_dump(text, "dump.txt", diagnostics) is None
    [d] = diagnostics.items
    assert d.code == "E1007" and d.severity == "error" and d.span.source.name == "dump.txt"
    return d.span.line, d.span.col, d.message


def admitted(text: str):
    diagnostics = Diagnostics()
    got = read_dump(text, "dump.txt", diagnostics)
    assert got is not None and not diagnostics.items, diagnostics.render()
    return got


def test_a_dump_without_its_header():
    assert refused("fn main() {}\n") == (
        1, 1, "a dump starts with a line naming its IL, '// IL: NAME'; this one starts with "
              "'fn main() {}'")
    assert refused("") == (
        1, 1, "a dump starts with a line naming its IL, '// IL: NAME'; this one starts with "
              "nothing")
    admitted("// IL: Lsrc\nfn main() {}\n")


def test_a_header_naming_no_il():
    assert refused("// IL: Lfoo\nfn main() {}\n") == (1, 8, f"no IL is named 'Lfoo'; the ILs "
                                                             f"are {ILS}")
    assert refused("// IL:\nfn main() {}\n") == (1, 7, f"the header names no IL; the ILs are "
                                                       f"{ILS}")


def test_mlir_text_is_read_by_mlir():
    assert refused("// IL: Lmlir\nmodule {\n  func.func @main(\n}\n") == (
        3, 19, "MLIR: expected non-function type")


def test_a_statement_that_does_not_fit_its_production():
    dump = "// IL: Lresolved\nfn main() -> i32 {\n    let x@@40;\n    return x;\n}\n"
    assert refused(dump.replace("@@", " ")) == (3, 11, "expected ':' or '=' after 'x' in Let, "
                                                       "found '40'")
    admitted(dump.replace("@@", " = "))


def test_a_placed_transfer_missing_a_hops_cost():
    dump = ("// IL: Lrouted\nfn main() {\n    let a: Tensor<u8, [4], Memory::GPU_HBM> = "
            "transfer[sync, CPU_DRAM -> GPU_HBM@@, cost 50](Tensor<u8, [4]>::fill(1), "
            "Memory::GPU_HBM);\n}\n")
    assert refused(dump.replace("@@", "")) == (3, 81, "expected '(' after 'CPU_DRAM -> "
                                                      "GPU_HBM' in Transfer, found ','")
    admitted(dump.replace("@@", " (50)"))


def test_a_field_of_the_generic_form_that_does_not_fit_its_kind():
    dump = ("// IL: Lrouted\nfn main() {\n    let a: i32 = Transfer(value: 1, dest: "
            "Memory::GPU_HBM, mark: sync, src: Memory::CPU_DRAM, route: @@);\n}\n")
    assert refused(dump.replace("@@", "5")) == (3, 102, "expected a Route after "
                                                        "'src: Memory::CPU_DRAM' in Transfer, "
                                                        "found '5'")
    admitted(dump.replace("@@", "route[CPU_DRAM -> GPU_HBM (50); cost 50]"))


@pytest.mark.parametrize("il, body, bad, good, where, message", [
    ("Lscalars", "    @print(5@@);", "i33", "i32", (3, 13),
     "expected a scalar type after '5' in Int, found 'i33'"),
    ("Lblocks", "bb0:\n    goto @@;", "block1", "bb0", (4, 10),
     "expected a block's label (bb0) after 'goto' in Goto, found 'block1'"),
])
def test_a_terminal_its_kind_does_not_admit(il, body, bad, good, where, message):
    dump = f"// IL: {il}\nfn main() -> void {{\n{body}\n}}\n"
    assert refused(dump.replace("@@", bad)) == (*where, message)
    admitted(dump.replace("@@", good))


def test_text_after_the_program():
    assert refused("// IL: Lsrc\nfn main() {}\n}\n") == (
        3, 1, "expected the end of the dump, found '}'")


def test_nesting_deeper_than_the_reader_follows_is_a_diagnostic():
    deep = "(" * 50_000 + "1" + ")" * 50_000
    assert refused(f"// IL: Lsrc\nfn main() {{ let x = {deep}; }}\n") == (
        2, 1, "the dump nests deeper than the reader follows")


def _json(tree: dict, language="Lsrc") -> str:
    return json.dumps({"language": language, **tree} if language else tree)


def _program(*items) -> dict:
    return {"node": "Program", "span": None, "fields": {"items": list(items)}}


MAIN = {"node": "Fn", "span": None, "fields": {
    "name": "main", "generics": [], "params": [], "on": None, "ret": None, "bounds": [],
    "body": {"node": "Block", "span": None, "fields": {"stmts": [], "value": None}}}}


@pytest.mark.parametrize("text, where, message", [
    ('{"language": "Lsrc", "node": ', (1, 30), "not JSON: Expecting value"),
    (_json(_program(), None), (1, 1),
     f'a JSON dump names its IL in "language"; this one names none; the ILs are {JSON_ILS}'),
    (_json(_program(), "Lfoo"), (1, 1),
     f"a JSON dump names its IL in \"language\"; no IL is named 'Lfoo'; the ILs are "
     f"{JSON_ILS}"),
    (_json(_program(), {"line": 1}), (1, 1),
     "a JSON dump names its IL in \"language\"; no IL is named {'line': 1}; the ILs are "
     f"{JSON_ILS}"),
    (_json(_program({"node": "Fn", "fields": {}})), (1, 76),
     "Fn needs its field name (name: name)"),
    (_json(_program({"node": "Break", "span": None, "fields": {}})), (1, 76),
     "Program.items: expected Item, not a Break (Stmt)"),
    (_json(_program({"node": "Frob", "fields": {}})), (1, 76), "Lsrc has no production Frob"),
    (_json({"node": "Local", "span": None, "fields": {"name": 5}}, "Lresolved"), (1, 1),
     "Local.name: expected uname, got int 5"),
])
def test_a_json_dump_that_does_not_fit(text, where, message):
    assert refused(text) == (*where, message)


def test_a_spatial_programs_json_dump_reads_back(tmp_path):
    from nano_vx.spatial.parse import parse_spatial
    from nano_vx.spatial.text import language_of

    root = Path(__file__).resolve().parent.parent.parent
    graph = parse_spatial((root / "examples" / "spatial" / "gemv.sdf").read_text())
    language, back = admitted(dumps_json(graph, language=language_of(graph)))
    assert language is language_of(graph) and back == graph


def test_a_json_dump_reads_back_with_spans_into_it():
    text = _json(_program(MAIN))
    language, tree = admitted(text)
    fn = tree.items[0]
    assert language.name == "Lsrc" and fn.name == "main"
    assert text[fn.span.start:fn.span.end] == json.dumps(MAIN)
