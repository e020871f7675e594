"""The README's table of periods (section "The spatial lane's clock") is what
benchmarks/spatial_periods.py prints, so it stays true as the lane and the cost model
change."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_readme_table_is_what_the_script_prints():
    printed = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "spatial_periods.py")],
                             capture_output=True, text=True, check=True).stdout
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## The spatial lane's clock\n", 1)[1].split("\n## ", 1)[0]
    table = "".join(line + "\n" for line in section.splitlines() if re.match(r"\|", line))
    assert printed.count("\n") == 2 + 12
    assert table == printed
