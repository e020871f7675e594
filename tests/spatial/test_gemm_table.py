"""The README's table of GEMMs on Wormhole (section "GEMMs on Wormhole against tt-metal") is
what benchmarks/gemm_wormhole.py prints, so it stays true as the lane, the matrix unit's
model and the planner change."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_readme_table_is_what_the_script_prints():
    printed = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "gemm_wormhole.py")],
                             capture_output=True, text=True, check=True).stdout
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## GEMMs on Wormhole against tt-metal\n", 1)[1].split("\n## ", 1)[0]
    table = "".join(line + "\n" for line in section.splitlines() if re.match(r"\|", line))
    assert printed.count("\n") == 2 + 6
    assert table == printed
