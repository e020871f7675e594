"""The Pygments lexers: every example and every IL dump tokenizes without an error token, the
keywords are the parser's, and the tokens of a line are the ones a reader expects."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Comment, Error, Keyword, Name, Number, Operator, Punctuation, String

from nano_vx.cli import main
from nano_vx.highlight import highlight_lines, lexer_for
from nano_vx.highlight.lexer import (BUILTIN_TYPES, CONSTANTS, CONTROL, DECLARATIONS, SCALARS,
                                     VECTOR_BUILDERS, SdfLexer, VxLexer)
from nano_vx.parser.lexical import RESERVED

ROOT = Path(__file__).resolve().parents[2]
VX_EXAMPLES = sorted(ROOT.glob("examples/**/*.vx"))
SDF_EXAMPLES = sorted(ROOT.glob("examples/**/*.sdf"))


def errors(lexer, text: str) -> list[str]:
    return [value for kind, value in lexer.get_tokens(text) if kind in Error]


def test_there_are_examples_to_tokenize():
    assert len(VX_EXAMPLES) >= 20 and len(SDF_EXAMPLES) >= 4


@pytest.mark.parametrize("path", VX_EXAMPLES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_vx_example_tokenizes_without_an_error_token(path):
    assert errors(VxLexer(), path.read_text()) == []


@pytest.mark.parametrize("path", SDF_EXAMPLES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_spatial_example_tokenizes_without_an_error_token(path):
    assert errors(SdfLexer(), path.read_text()) == []


_BANNER = re.compile(r"^\*\*\* IR Dump After (\S+) \((\S+) -> (\S+)\) \*\*\*$", re.M)


def dumps(argv: list[str]) -> list[tuple[str, str, str]]:
    """(pass, output IL, text) of each dump `nano-vx ARGV` prints."""
    out = io.StringIO()
    main(argv, stdout=out, stderr=io.StringIO())
    text = out.getvalue()
    found = list(_BANNER.finditer(text))
    ends = [m.start() for m in found[1:]] + [len(text)]
    return [(m.group(1), m.group(3), text[m.end():end]) for m, end in zip(found, ends)]


def test_every_il_dump_of_the_front_and_back_end_tokenizes_without_an_error_token():
    shown = dumps([str(ROOT / "examples/math.vx"), "--dump-after=all",
                   "--stop-after=select-instructions"])
    assert shown[-1][:2] == ("select-instructions", "Lmlir") and len(shown) > 40
    for name, language, text in shown:
        assert errors(lexer_for(language), text) == [], name


def test_every_il_dump_of_the_spatial_lane_tokenizes_without_an_error_token():
    shown = dumps(["spatial", str(ROOT / "examples/spatial/gemv.sdf"), "--target", "wormhole",
                   "--dump-after=all", "--corpus=1"])
    assert [language for _, language, _ in shown][-1] == "Schoreographed"
    for name, language, text in shown:
        assert type(lexer_for(language)) is SdfLexer
        program = text[:text.index("\n}\n") + 3]  # the lane's report follows the last one
        assert errors(SdfLexer(), program) == [], name


def test_the_lexer_knows_every_keyword_of_the_parser():
    parser = "\n".join(p.read_text() for p in (ROOT / "nano_vx/parser").glob("*.py"))
    written = set(re.findall(r'kw\("(\w+)"\)', parser))
    assert len(written) > 30
    known = set(DECLARATIONS + CONTROL + SCALARS + BUILTIN_TYPES + CONSTANTS
                + VECTOR_BUILDERS)
    assert (RESERVED | written) - known == set()


def kinds(text: str) -> list[tuple[object, str]]:
    return [(k, v) for k, v in VxLexer().get_tokens(text) if v.strip()]


def test_a_line_of_vx_is_the_tokens_a_reader_expects():
    assert kinds('#[inline] fn f(x: Tensor<f32, [4], Memory::GPU_HBM>) { '
                 'let y = 0x1Fu8 + 2.5e3f32; print("a\\n"); } // done') == [
        (Name.Decorator, "#["), (Name.Decorator, "inline"), (Name.Decorator, "]"),
        (Keyword.Declaration, "fn"), (Name.Function, "f"), (Punctuation, "("), (Name, "x"),
        (Punctuation, ":"), (Name.Builtin, "Tensor"), (Operator, "<"), (Keyword.Type, "f32"),
        (Punctuation, ","), (Punctuation, "["), (Number.Integer, "4"), (Punctuation, "]"),
        (Punctuation, ","), (Keyword.Type, "Memory"), (Punctuation, "::"),
        (Name.Namespace, "GPU_HBM"), (Operator, ">"), (Punctuation, ")"), (Punctuation, "{"),
        (Keyword.Declaration, "let"), (Name, "y"), (Operator, "="), (Number.Hex, "0x1F"),
        (Keyword.Type, "u8"), (Operator, "+"), (Number.Float, "2.5e3"), (Keyword.Type, "f32"),
        (Punctuation, ";"), (Name.Function, "print"), (Punctuation, "("), (String, '"'),
        (String, "a"), (String.Escape, "\\n"), (String, '"'), (Punctuation, ")"),
        (Punctuation, ";"), (Punctuation, "}"), (Comment.Single, "// done")]


def test_sizes_units_dump_names_and_blocks_are_tokens_of_their_own():
    assert kinds("capacity: 64 KiB, bandwidth: 128 B/cyc") == [
        (Name, "capacity"), (Punctuation, ":"), (Number.Integer, "64"),
        (Keyword.Constant, "KiB"), (Punctuation, ","), (Name, "bandwidth"), (Punctuation, ":"),
        (Number.Integer, "128"), (Keyword.Constant, "B/cyc")]
    assert kinds("bb2: @print(r#1 + @larger$i32(3, 9)); goto bb1;") == [
        (Name.Label, "bb2"), (Punctuation, ":"), (Name.Function, "@print"), (Punctuation, "("),
        (Name, "r#1"), (Operator, "+"), (Name.Function, "@larger$i32"), (Punctuation, "("),
        (Number.Integer, "3"), (Punctuation, ","), (Number.Integer, "9"), (Punctuation, ")"),
        (Punctuation, ")"), (Punctuation, ";"), (Keyword, "goto"), (Name, "bb1"),
        (Punctuation, ";")]


def test_contract_clauses_are_marked():
    assert kinds("fn f(n: i32) -> i32 requires n >= 0 ensures return > n")[9:] == [
        (Keyword.Reserved, "requires"), (Name, "n"), (Operator, ">="), (Number.Integer, "0"),
        (Keyword.Reserved, "ensures"), (Keyword, "return"), (Operator, ">"), (Name, "n")]


def test_what_is_not_vx_is_an_error_token():
    assert errors(VxLexer(), "let x = 1 ~ 2; let c = 'a';") == ["~", "'", "'"]


def test_a_spatial_program_marks_its_items_at_the_start_of_a_line():
    tokens = [(k, v) for k, v in SdfLexer().get_tokens(
        "spatial g {\n    load load_a A -> a\n    compute mm matmul_acc(a, b) -> c\n}\n")
        if v.strip()]
    assert tokens[:6] == [(Keyword.Declaration, "spatial"), (Name.Class, "g"),
                          (Punctuation, "{"), (Keyword.Declaration, "load"), (Name, "load_a"),
                          (Name, "A")]
    assert (Name.Function, "matmul_acc") in tokens and (Keyword.Declaration, "compute") in tokens


def test_pygments_finds_the_lexers_by_name_and_file_name():
    assert type(get_lexer_by_name("vx")) is VxLexer
    assert type(get_lexer_for_filename("gemm.sdf")) is SdfLexer
    assert type(get_lexer_for_filename("prog.vx")) is VxLexer


def test_highlighted_lines_are_one_fragment_per_line_and_escaped():
    lines = highlight_lines("let a = b < c;\n\n// <x>\n")
    assert len(lines) == 3 and lines[1] == ""
    assert lines[0] == ('<span class="kd">let</span><span class="w"> </span><span class="n">a'
                        '</span><span class="w"> </span><span class="o">=</span><span class="w">'
                        ' </span><span class="n">b</span><span class="w"> </span><span class="o">'
                        '&lt;</span><span class="w"> </span><span class="n">c</span><span '
                        'class="p">;</span>')
    assert lines[2] == '<span class="c1">// &lt;x&gt;</span>'


def test_vec_and_splat_are_builtins_only_where_a_vector_follows():
    assert kinds("let vec = splat(1.0) + vec<2 x f32>(a, b); vec;")[:8] == [
        (Keyword.Declaration, "let"), (Name, "vec"), (Operator, "="), (Name.Builtin, "splat"),
        (Punctuation, "("), (Number.Float, "1.0"), (Punctuation, ")"), (Operator, "+")]
    assert (Name.Builtin, "vec") in kinds("vec<2 x f32>(a, b)")
