"""`?` extents from the command line: the extents come when the program runs, the reference
interpreter runs them, and the default action runs them in native code, printing the same."""

import io
import re

from nano_vx.cli import main

PROGRAM = """\
fn main() {
  let n = 2 + 1;
  let d = Tensor<i32, [?]>::fill([n], 7);
  print(d);
  let z = Tensor<f32>([n, 2]);
  print(z);
  print(z.extent(0) * 10 + z.extent(1));
}
"""
PRINTS = "[7, 7, 7]\n[[0, 0], [0, 0], [0, 0]]\n32\n"


def _run(path, *args):
    out, err = io.StringIO(), io.StringIO()
    code = main([str(path), *args], stdout=out, stderr=err)
    return code, out.getvalue(), re.findall(r"^(?:error|warning)\[([EW]\d{4})\]", err.getvalue(),
                                            re.M)


def test_the_interpreter_gives_the_extents_when_the_program_runs(tmp_path):
    path = tmp_path / "dynamic.vx"
    path.write_text(PROGRAM)
    assert _run(path, "--action", "interpret") == (0, PRINTS, [])


def test_the_default_action_runs_them_natively(tmp_path):
    path = tmp_path / "dynamic.vx"
    path.write_text(PROGRAM)
    assert _run(path) == (0, PRINTS, [])


def test_a_negative_extent_stops_the_program(tmp_path):
    path = tmp_path / "negative.vx"
    path.write_text("fn main() {\n  let n = 0 - 2;\n  let d = Tensor<i32, [?]>::new([n]);\n"
                    "  print(d);\n}\n")
    assert _run(path, "--action", "interpret") == (1, "", ["E9006"])
