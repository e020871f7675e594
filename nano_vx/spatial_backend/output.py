"""`nano-vx spatial PROGRAM --target T --lower BACKEND [--lower-dir DIR]`: lower the scheduled
program, check its census, and write the files to DIR (and DIR/census.txt) or, without DIR,
every file to stdout under a `// ---- FILE ----` line."""

from __future__ import annotations

import os

from . import lower


def lower_program(graph, target, backend: str, directory: str | None, out) -> None:
    """Raises LowerError for a program the backend refuses, OSError when DIR cannot be
    written, and AssertionError when the census is not a bijection (a bug of the backend)."""
    lowered = lower(graph, target, backend)
    problems = lowered.problems(graph)
    if problems:
        raise AssertionError("the census of the lowering is not a bijection: "
                             + "; ".join(problems[:4]))
    if directory is None:
        for name, text in lowered.files.items():
            out.write(f"// ---- {name} ----\n{text}")
        return
    os.makedirs(directory, exist_ok=True)
    files = dict(lowered.files)
    files["census.txt"] = "\n".join(lowered.census.lines()) + "\n"
    for name, text in files.items():
        with open(os.path.join(directory, name), "w", encoding="utf-8") as fh:
            fh.write(text)
    counts = ", ".join(_count(sum(e.kind == k for e in lowered.census.entries), k)
                       for k in ("buffer", "semaphore", "kernel", "group", *lowered.extra))
    units = lowered.census.units()
    calls = (f"; compute-API calls: {units['matrix']} matrix-unit, {units['vector']} "
             f"vector-unit" if lowered.census.calls else "")
    out.write(f"lowered to {backend} in {directory}: {_count(len(lowered.files), 'file')}, "
              f"census of {counts} (a bijection){calls}\n")
    for name, text in files.items():
        out.write(f"  wrote {os.path.join(directory, name)} ({text.count(chr(10))} lines)\n")


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"
