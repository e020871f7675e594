"""The spatial lane as a table: its passes in their pinned order, and every IL they join.
A program written by hand in any of these ILs enters the lane at the pass that reads it."""

from __future__ import annotations

from .nanopass import Pipeline
from .spatial_passes.from_vx import from_vx
from .spatial_passes.fuse_readers import fuse_readers
from .spatial_passes.place import place
from .spatial_passes.relay_tokens import relay_tokens
from .spatial_passes.schedule import schedule
from .spatial_passes.size_buffers import size_buffers
from .spatial_passes.synthesize_handshakes import synthesize_handshakes
from .spatial_passes.tile import tile

SPATIAL_PIPELINE = Pipeline([
    tile,
    place,
    size_buffers,
    fuse_readers,
    relay_tokens,
    synthesize_handshakes,
    schedule,
], given=("target",))

# A Vx kernel enters the lane through from-vx, once the front end has checked its program.
VX_PIPELINE = Pipeline([from_vx, *SPATIAL_PIPELINE], given=("target",))

SPATIAL_LANGUAGES = {lang.name: lang for lang in SPATIAL_PIPELINE.languages()}


def passes_from(language_name: str) -> list:
    """The passes a program of this IL goes through: from the one that reads it on."""
    names = [p.input.name for p in SPATIAL_PIPELINE]
    if language_name not in names:
        return []
    return SPATIAL_PIPELINE.passes[names.index(language_name):]
