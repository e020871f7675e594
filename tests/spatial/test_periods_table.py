"""The README's tables of the spatial lane's times are what their scripts print, so they stay
true as the lane and the cost model change: the periods of the reference programs (section
"The spatial lane's clock", benchmarks/spatial_periods.py) and the GEMMs on Wormhole beside
tt-metal's measurements (section "GEMMs on Wormhole against tt-metal",
benchmarks/gemm_wormhole.py)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
# gemm_wormhole.py takes about 25 CPU seconds: the clock and the timed oracle go through every
# K-block firing of the 4096^3 GEMMs on 64 cores (the timeout is for a loaded machine).
@pytest.mark.timeout(900)
@pytest.mark.parametrize("script, section, rows", [
    ("spatial_periods.py", "The spatial lane's clock", 12),
    ("gemm_wormhole.py", "GEMMs on Wormhole against tt-metal", 6),
])
def test_the_readme_table_is_what_the_script_prints(script, section, rows):
    printed = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script)],
                             capture_output=True, text=True, check=True).stdout
    readme = (ROOT / "README.md").read_text()
    text = readme.split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    table = "".join(line + "\n" for line in text.splitlines() if re.match(r"\|", line))
    assert printed.count("\n") == 2 + rows
    assert table == printed
