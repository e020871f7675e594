"""Run one pass alone on IL text: how a pass's test holds small inputs of its own IL,
written by hand, next to whole programs.

    def test_an_edge(run_pass, snapshot_txt):
        ran = run_pass("check-capacity", '''
            // IL: Lrouted
            fn main() { ... }
        ''')
        assert ran.codes == ["E6009"]
        assert ran.dump == snapshot_txt

The text is a dump of the pass's input IL (what `--dump-before=PASS` prints, or a file
`--dump-dir` wrote), indented as you like. The facts the pass reads are rebuilt as a resumed
run rebuilds them (nano_vx/resume.py): the memory model from the declarations in the text, a
fact carried in a `// fact NAME: ...` line. The output is checked against the pass's output
IL, as in every run.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

from nano_vx.context import Compilation
from nano_vx.diagnostics import Diagnostics
from nano_vx.driver import render
from nano_vx.resume.read import read_source
from nano_vx.pipeline import NATIVE
from nano_vx.dump.state import read_state
from nano_vx.resume import rebuild_facts
from nano_vx.source import Source


@dataclass
class OnePass:
    text: str  # the output IL's dump, starting with its `// IL:` line
    tree: object  # the output tree
    diagnostics: Diagnostics
    before: object  # the tree read from the input text, to run beside the output
    before: object = None  # the input tree, as read from the text
    ctx: object = None  # the compilation: the facts the pass left (`ctx.describe(FACT)`)

    @property
    def codes(self) -> list[str]:
        """The diagnostics' codes, in source order."""
        return self.diagnostics.codes()

    @property
    def report(self) -> str:
        """The diagnostics as a user reads them."""
        return self.diagnostics.render()

    @property
    def dump(self) -> str:
        """The output and, after it as comments, the diagnostics: one text to snapshot."""
        said = "".join(f"// {line}".rstrip() + "\n" for line in self.report.splitlines())
        return self.text + said


def run_pass(name: str, text: str, *, path: str = "case.il", **options) -> OnePass:
    """Run the pass `name` on `text`, a dump of its input IL; `options` are the compilation's
    (`emit_seam_certs=True`, `verify_seams=True`, ...). Text that does not read as the pass's
    input IL fails the test with the reader's diagnostic."""
    p = NATIVE.get(name)
    source = Source(path, textwrap.dedent(text).lstrip("\n"))
    diagnostics = Diagnostics()
    if p.input is None:  # parse reads the program's text
        language, tree, facts = None, source, {}
    else:
        read = read_source(source, diagnostics)
        state = read_state(source, diagnostics) if read else None
        assert state is not None, diagnostics.render()
        language, tree = read
        assert language is p.input, f"{name} reads {p.input.name}, not {language.name}"
        facts = state.facts
    ctx = Compilation(source, diagnostics, **options)
    rebuild_facts(ctx, tree, language, [p], NATIVE, facts)
    out = p(tree, ctx)
    return OnePass(render(out, "text", name, p.output), out, diagnostics, tree, ctx)
