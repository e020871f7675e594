"""The tensor constructors and the values each takes: what check-tensor-constructors holds a
call to and what scalar inference relies on."""

# Each constructor and the values it takes after the extents list a `?` tensor gives first.
TAKES = {"new": 0, "uninit": 0, "fill": 1}
