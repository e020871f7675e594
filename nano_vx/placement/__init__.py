"""Placement: where values live (types with spaces), how big a tile is, and who may read it.

Shared by infer-placement and the checks after it (linearity, visibility, capacity,
sub-space scheduling), so that every pass types an expression the same way.
"""
