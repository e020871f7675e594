"""`nano-vx spatial`: the command that runs the spatial lane (`command.py`), and the bridge
from a Vx kernel into it (`vx_source.py`, checked against the reference interpreter's run of
the kernel in `vx_reference.py`)."""
