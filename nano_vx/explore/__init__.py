"""`nano-vx explore`: a program through every pass, as one self-contained HTML page.

`record.py` runs a lane and keeps each pass's trees, time, diagnostics and facts; `page.py`
turns a recording into the page's data and HTML (`assets.py` holds its stylesheet and
script); `command.py` is the subcommand. docs/seeing.md shows the page.
"""
