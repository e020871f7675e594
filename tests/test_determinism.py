"""Every dump format and every diagnostic form is the same bytes whatever PYTHONHASHSEED.

Each seed gets a fresh process, which runs the command line (`nano_vx.cli.main`, argv as a
user types it) over every example: `--dump-after=all` to a --dump-dir in each format, the
text diffs, and `--error-format=json` and `human`, with the built-in model and with a
declared machine. One process per seed rather than one per command keeps this to seconds;
the seeds then differ in every set and dict of strings the compiler iterates. The four dump
formats are written by one run (`--dump-format=text,dot,svg,json`), not one compile each.

What does not depend on the seed is not done here. A picture is Graphviz's function of its
DOT text, which the seeds' dot dumps compare: an svg dump holds the digest of the DOT text it
would draw, so the seeds' svg files are compared (which exist, what they draw) without
drawing some 2,000 pictures of 170 graphs, 80 s of CPU time; tests/dump/test_dump_dot.py
draws each distinct graph the examples dump. A process builds a program's native code once
for its runs (tests/compiled.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
EXAMPLES = sorted((ROOT / "examples").rglob("*.vx"))
SEEDS = ("0", "1", "2")
MACHINE = ["--host", "default", "--machine", str(ROOT / "machines" / "h100-sxm.vx")]

# name -> the options of one run; a run's dumps go to a directory named after it.
RUNS = {
    # Every format from one run, as a user asks for them (tests/test_cli.py checks that each
    # file is the one a run in that format alone writes).
    "dump-formats": ["--action", "check", "--dump-after=all", "--dump-format=text,dot,svg,json"],
    "dump-diff": ["--action", "check", "--dump-before=all", "--dump-diff"],
    "dump-text-machine": ["--action", "check", "--dump-after=all", *MACHINE],
    "errors-json": ["--error-format=json"],
    "errors-json-machine": ["--error-format=json", *MACHINE],
    "errors-human-machine": MACHINE,
}

RUNNER = """
import hashlib, io, json, sys
from pathlib import Path
from nano_vx.cli import main
from nano_vx.dump import render
from compiled import share_native_builds

out, runs, examples = Path(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3:]

def picture_of(dot_text):
    return "the picture of the DOT text " + hashlib.sha256(dot_text.encode()).hexdigest()

render.render_svg = picture_of
share_native_builds()
for example in examples:
    for name, options in runs.items():
        where = out / Path(example).name / name
        where.mkdir(parents=True)
        argv = [example, *options]
        if name.startswith("dump-"):
            argv.append(f"--dump-dir={where / 'dumps'}")
        stdout, stderr = io.StringIO(), io.StringIO()
        code = main(argv, stdout=stdout, stderr=stderr)
        (where / "stdout").write_text(stdout.getvalue(), encoding="utf-8")
        (where / "stderr").write_text(stderr.getvalue(), encoding="utf-8")
        (where / "status").write_text(str(code))
"""


def outputs(seed: str, where: Path) -> dict[str, bytes]:
    path = [str(TESTS), *filter(None, [os.environ.get("PYTHONPATH")])]  # for tests/compiled.py
    env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": os.pathsep.join(path)}
    done = subprocess.run(
        [sys.executable, "-c", RUNNER, str(where), json.dumps(RUNS), *map(str, EXAMPLES)],
        env=env, cwd=ROOT, capture_output=True, text=True, timeout=840, check=False)
    assert done.returncode == 0, done.stderr
    return {str(p.relative_to(where)): p.read_bytes() for p in sorted(where.rglob("*"))
            if p.is_file()}


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_every_dump_and_diagnostic_is_the_same_under_every_hash_seed(tmp_path):
    with ThreadPoolExecutor(len(SEEDS)) as pool:
        results = list(pool.map(lambda s: outputs(s, tmp_path / f"seed-{s}"), SEEDS))
    first, *others = results
    assert len(first) > len(EXAMPLES) * len(RUNS) * 3, "every run wrote its files"
    assert any(name.endswith(".svg") for name in first)
    for seed, other in zip(SEEDS[1:], others):
        assert sorted(other) == sorted(first), f"seed {seed} wrote other files"
        differ = [name for name in first if other[name] != first[name]]
        assert not differ, f"PYTHONHASHSEED={SEEDS[0]} and ={seed} differ in {differ}"
