"""A topology's `replicas:`: how many pins `try_pin` may hold on it at once."""

import pytest

from nano_vx.model import build_model
from nano_vx.model.describe import describe_model
from nano_vx.parser import parse_text

POOL = "Memory Pool { capacity: 1 MiB }\n"


def built(fields: str):
    program, diagnostics = parse_text(POOL + f"Topology Pair {{ memory: Memory::Pool{fields} }}\n")
    assert not diagnostics.has_errors, diagnostics.render()
    return build_model(program.items, diagnostics), diagnostics


def test_replicas_is_read_and_one_when_left_out():
    model, diagnostics = built(", replicas: 2")
    assert not diagnostics.items and model.topologies["Pair"].replicas == 2
    assert "topology Pair: holds Pool, sees [Pool], 2 replicas\n" in describe_model(model)
    model, _ = built("")
    assert model.topologies["Pair"].replicas == 1 and model.topologies["GPU"].replicas == 1
    assert "topology Pair: holds Pool, sees [Pool]\n" in describe_model(model)


@pytest.mark.parametrize("value, code, says", [
    ("0", "E6008", "`replicas` of topology 'Pair' is 0; it must be positive"),
    ("1.5", "E6016", "`replicas` of topology 'Pair' must be a whole number"),
    ("many", "E6016", "`replicas` of topology 'Pair' must be a whole number"),
    ("2 KiB", "E6016", "`replicas` of topology 'Pair' must be a whole number"),
])
def test_a_malformed_count_is_refused_and_the_topology_keeps_one(value, code, says):
    model, diagnostics = built(f", replicas: {value}")
    [d] = diagnostics.items
    assert d.code == code and says in d.message, d.message
    assert model.topologies["Pair"].replicas == 1
