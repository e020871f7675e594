"""The real dumps read back: for every example, `--dump-dir` writes the text after every pass
(the back end's too), and each file, read back, is the tree that pass made, printing the same
text (the facts an analysis leaves follow it as comments, which the reader skips). The JSON
dumps read back the same way. Lmlir's text is MLIR's: it reads back through MLIR, its values
renamed (tests/backend/test_mlir_readback.py checks it is the same module)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from example_trees import EXAMPLES, ROOT, trees_after_each_pass

from nano_vx.cli import main
from nano_vx.diagnostics import Diagnostics
from nano_vx.resume.read import read_dump
from nano_vx.dump.text import to_text
from nano_vx.pipeline import NATIVE

# Slow (the whole suite's, not the inner loop's): every dump of the examples read back; each
# pass's test_handwritten_* reads its IL's text in the inner loop.
pytestmark = pytest.mark.slow

LAST = NATIVE.passes[-1].name


def dump_files(path: Path, where: Path, fmt: str) -> Path:
    main([str(path), f"--dump-dir={where}", f"--dump-format={fmt}", "--action", "check",
          f"--stop-after={LAST}"], stdout=io.StringIO(), stderr=io.StringIO())
    return where


def facts_only(rest: str) -> bool:
    return all(line.startswith("// ") for line in rest.splitlines())


def what_is_read(text: str) -> str:
    """The dump without the comments the reader skips (an analysis's facts, the state of the
    run), but for the line naming its IL."""
    return "".join(line for line in text.splitlines(keepends=True)
                   if not line.startswith("//") or line.startswith("// IL:"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: str(p.relative_to(ROOT / "examples")))
def test_every_text_dump_of_an_example_reads_back_as_its_tree(path, tmp_path):
    where = dump_files(path, tmp_path, "text")
    # Four passes in five hand their tree on unchanged, and the reader is a function of what
    # it reads: a dump that reads as an earlier one did is checked against that reading.
    readings = {}
    for index, p, tree in trees_after_each_pass(path):
        file = where / f"{index:02d}b-after-{p.name}.txt"
        text = file.read_text()
        read = what_is_read(text)
        got = readings.get(read)
        if got is None:
            diagnostics = Diagnostics()
            got = read_dump(text, str(file), diagnostics)
            if p.output.name == "Lmlir":
                assert got is not None and got[0] is p.output, diagnostics.render()
                continue
            assert got is not None, f"{file.name}\n{diagnostics.render()}"
            got = readings[read] = (*got, to_text(got[1], got[0]))
        language, back, printed = got
        assert language is p.output and back == tree, file.name
        assert text.startswith(printed) and facts_only(text[len(printed):]), file.name


def test_the_json_dumps_of_an_example_read_back_as_its_trees(tmp_path):
    path = ROOT / "examples" / "tour.vx"
    where = dump_files(path, tmp_path, "json")
    for index, p, tree in trees_after_each_pass(path):
        file = where / f"{index:02d}b-after-{p.name}.json"
        diagnostics = Diagnostics()
        got = read_dump(file.read_text(), str(file), diagnostics)
        assert got is not None, diagnostics.render()
        assert got[0] is p.output, file.name
        if p.output.name == "Lmlir":
            # Lmlir's `Ret.values` hides Node.values, which == compares by: its MLIR text.
            assert to_text(got[1]) == to_text(tree)
        else:
            assert got[1] == tree, file.name


def test_a_spatial_programs_text_reads_back_through_the_spatial_parser():
    from nano_vx.spatial.parse import parse_spatial
    from nano_vx.spatial.text import language_of

    graph = parse_spatial((ROOT / "examples" / "spatial" / "gemv.sdf").read_text())
    language, back = read_dump(to_text(graph), "gemv.sdf")
    assert language is language_of(graph) and back == graph
    diagnostics = Diagnostics()
    assert read_dump(to_text(graph).replace("{", "(", 1), "gemv.sdf", diagnostics) is None
    [d] = diagnostics.items
    assert (d.code, d.span.line, d.span.col, d.message) == (
        "E1007", 1, 25, "expected '{' after the program's header, found '('")


def test_a_dump_before_a_pass_names_the_il_the_pass_reads(tmp_path):
    main([str(ROOT / "examples" / "math.vx"), f"--dump-dir={tmp_path}", "--action", "check",
          "--dump-before=infer-placement"], stdout=io.StringIO(), stderr=io.StringIO())
    [file] = tmp_path.glob("*a-before-infer-placement.txt")
    language, _ = read_dump(file.read_text(), str(file))
    assert file.read_text().startswith("// IL: Lmono\n") and language.name == "Lmono"
