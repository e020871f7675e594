"""SVG from DOT text, through Graphviz's `dot` or the `graphviz-pure` binary.

`graphviz-pure` is installed with the project (from PyPI), so it is looked for next to the
running interpreter first (a virtualenv that is not activated has no `bin/` on PATH). Any
failure raises RenderError naming what was tried: a blank picture would hide the bug.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

TIMEOUT_SECONDS = 120


class RenderError(Exception):
    """No renderer was found, or the renderer refused the graph."""


def find_renderer() -> str:
    """The path of `dot` on PATH, else of `graphviz-pure` beside sys.executable or on PATH."""
    beside = Path(sys.executable).parent / "graphviz-pure"
    tried = ["dot on PATH", str(beside), "graphviz-pure on PATH"]
    found = shutil.which("dot") or (str(beside) if beside.is_file() else None)
    found = found or shutil.which("graphviz-pure")
    if found is None:
        raise RenderError("no Graphviz renderer found; tried " + ", ".join(tried)
                          + " (pip install graphviz-pure, or install Graphviz)")
    return found


def render_svg(dot_text: str) -> str:
    """The SVG picture of a DOT graph."""
    exe = find_renderer()
    try:
        done = subprocess.run([exe, "-Tsvg"], input=dot_text.encode("utf-8"),
                              capture_output=True, timeout=TIMEOUT_SECONDS, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise RenderError(f"{exe} -Tsvg could not run: {exc}") from exc
    err = done.stderr.decode("utf-8", "replace").strip()
    if done.returncode != 0 or not done.stdout.strip():
        raise RenderError(f"{exe} -Tsvg failed (exit {done.returncode}): {err or 'no output'}")
    return done.stdout.decode("utf-8")
