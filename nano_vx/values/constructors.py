"""The tensor constructors and the values each takes: what check-tensor-constructors holds a
call to and what scalar inference relies on."""

# Each constructor and the values it takes after the extents list a `?` tensor gives first.
TAKES = {"new": 0, "uninit": 0, "fill": 1}


def values_given(node) -> int:
    """How many values a `TensorNew` gives its constructor: its arguments but the list of
    extents a tensor with `?` extents gives first."""
    return len(node.args) - any(d._prod == "DimAny" for d in node.type.dims)
