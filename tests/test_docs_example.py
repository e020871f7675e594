"""docs/adding-a-pass.md stays true: its code blocks are the example's files, and the example
pass and analysis do what the page says."""

import io
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # docs/example_pass is importable from the repository root

from docs.example_pass.find_negated_literals import find_negated_literals  # noqa: E402
from docs.example_pass.fold_negative_literals import fold_negative_literals  # noqa: E402
from docs.example_pass.interpreter import run_program  # noqa: E402
from docs.example_pass.language import Lnegint  # noqa: E402
from docs.example_pass.pipeline import PIPELINE_WITH_FOLD  # noqa: E402
from nano_vx.context import Compilation  # noqa: E402
from nano_vx.dump.text import to_text  # noqa: E402
from nano_vx.languages import Lresolved  # noqa: E402
from nano_vx.nanopass import AnalysisRun, Pipeline, PipelineError  # noqa: E402
from nano_vx.nanopass import descendants as nodes, diff_languages  # noqa: E402
from nano_vx.oracle import run_program as run_reference  # noqa: E402
from nano_vx.parser import parse_text  # noqa: E402
from nano_vx.pipeline import PIPELINE  # noqa: E402
from nano_vx.source import Source  # noqa: E402

DOC = ROOT / "docs" / "adding-a-pass.md"
# A marker line, then a fenced block: `file` is a whole file, `excerpt` a verbatim part of
# one, `output` what an expression the test knows prints.
BLOCK = re.compile(r"<!-- (file|excerpt|output): (.+?) -->\n```\w*\n(.*?)```", re.S)


def refusal(name):
    """What Pipeline says of the real table with the pass `name` left out."""
    try:
        Pipeline([p for p in PIPELINE.passes if p.name != name])
    except PipelineError as e:
        return f"{e}\n"
    return "accepted\n"


OUTPUTS = {
    "diff_languages(Lresolved, Lnegint)": lambda: diff_languages(Lresolved, Lnegint),
    'refusal("summarize-working-sets")': lambda: refusal("summarize-working-sets"),
}

PROGRAM = """\
fn main() -> i32 {
  let m: i8 = -128;
  print(m);
  print(-(-5));
  print(3 - -2);
  let x = 7;
  print(-x);
  print(twice(-21));
  return 0;
}

fn twice(a: i32) -> i32 {
  a * 2
}
"""
PRINTS = "-128\n5\n5\n-7\n-42\n"

# A declaration's fields and a tensor's dimension: what the analysis's walk never enters.
DECLARED = """\
Memory Scratch {
  within: Memory::GPU_HBM,
  capacity: 64 KiB,
}

fn main() {
  let t = Tensor<i32, [4]>::fill(-1);
  print(t[0]);
}
"""


def run_upto_fold(text):
    """The tree fold-negative-literals read, and the one it wrote."""
    tree, diagnostics = parse_text(text, "example.vx")
    ctx = Compilation(Source("example.vx", text), diagnostics)
    for p in PIPELINE_WITH_FOLD.passes[1:]:
        before, tree = tree, p(tree, ctx)
        assert not diagnostics.has_errors, diagnostics.render()
    return before, tree


def printed(run, program):
    out = io.StringIO()
    assert run(program, out=out) == 0
    return out.getvalue()


def test_marked_blocks_match_their_sources():
    blocks = BLOCK.findall(DOC.read_text())
    assert {kind for kind, _, _ in blocks} == {"file", "excerpt", "output"}
    for kind, what, text in blocks:
        if kind == "file":
            assert (ROOT / what).read_text() == text, f"{what} differs from the page"
        elif kind == "excerpt":
            assert text in (ROOT / what).read_text(), f"the excerpt of {what} is stale"
        else:
            assert OUTPUTS[what]() == text, f"the page shows stale output of {what}"


def test_every_example_file_is_shown():
    shown = {what for kind, what, _ in BLOCK.findall(DOC.read_text()) if kind == "file"}
    files = {str(p.relative_to(ROOT)) for p in (ROOT / "docs" / "example_pass").glob("*.py")}
    assert files - shown == {"docs/example_pass/__init__.py"}


def test_fold_output_snapshot(snapshot_txt):
    before, after = run_upto_fold(PROGRAM)
    assert find_negated_literals.collect(after).negated == []
    assert to_text(after) == snapshot_txt


def test_folds_exactly_the_negated_literals():
    _, after = run_upto_fold(PROGRAM)
    assert sorted(n.value for n in nodes(after) if n._prod == "NegInt") == [2, 5, 21, 128]
    # `-(-5)` keeps its outer minus, over the folded literal; `-x` is not a literal.
    negations = [n.operand._prod for n in nodes(after) if n._prod == "Unary"]
    assert sorted(negations) == ["Local", "NegInt"]


def test_unchanged_subtrees_are_shared():
    before, after = run_upto_fold(PROGRAM)
    assert after.items[1] is before.items[1]  # `twice` has no negative literal
    text = "fn main() { print(1 - 2); }\n"
    before, after = run_upto_fold(text)
    assert after is before


def test_the_program_prints_the_same_before_and_after():
    before, after = run_upto_fold(PROGRAM)
    assert printed(run_reference, before) == PRINTS
    assert printed(run_program, after) == PRINTS


def test_the_pass_is_last_in_its_pipeline():
    assert PIPELINE_WITH_FOLD.passes[-1] is fold_negative_literals
    assert PIPELINE_WITH_FOLD.languages()[-1] is Lnegint


def test_the_analysis_finds_what_the_fold_leaves():
    before, after = run_upto_fold(PROGRAM)
    found = find_negated_literals.collect(before)  # an Lresolved tree is an Lnegint tree
    assert [n.operand.value for n in found.negated] == [128, 5, 2, 21]
    assert find_negated_literals.collect(after).negated == []


def test_the_analysis_returns_its_input_unchanged():
    before, after = run_upto_fold(PROGRAM)
    ctx = Compilation(Source("example.vx", PROGRAM))
    assert find_negated_literals(before, ctx) is before
    assert find_negated_literals(after, ctx) is after
    assert not ctx.diagnostics.items


def test_the_walk_does_not_enter_what_cannot_hold_a_unary(monkeypatch):
    before, _ = run_upto_fold(DECLARED)
    met = set()
    walk = AnalysisRun.walk
    monkeypatch.setattr(AnalysisRun, "walk",
                        lambda run, node, *acc: met.add(node._prod) or walk(run, node, *acc))
    assert len(find_negated_literals.collect(before).negated) == 1
    # Never met: the declaration's fields and their values, the tensor's dimension.
    assert {n._prod for n in nodes(before)} - met == {"DeclField", "Quantity", "DimInt",
                                                      "MemRef"}
