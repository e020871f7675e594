"""A unified diff of two text dumps, for `--dump-diff`."""

from __future__ import annotations

import difflib


def diff_text(before: str, after: str, before_name: str = "before",
              after_name: str = "after") -> str:
    """The unified diff from `before` to `after`; "" when they are equal."""
    if before == after:
        return ""
    lines = difflib.unified_diff(before.splitlines(keepends=True),
                                 after.splitlines(keepends=True), before_name, after_name)
    # A last line without a newline would run into the next hunk header.
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                   for line in lines)
