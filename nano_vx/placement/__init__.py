"""Placement: where values live (types with spaces), how big a tile is, the locals of a typed
function, and the working sets one analysis finds and two passes read.

Shared by infer-placement and the passes after it (check-visibility, summarize-working-sets,
check-capacity, schedule-sub-spaces), so that every pass types an expression the same way.
"""
