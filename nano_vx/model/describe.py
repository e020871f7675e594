"""The memory model as text, for the dump after check-memory-declarations: what the passes
after it route and judge against, including the built-in parts no declaration shows."""

from __future__ import annotations

from .memory_model import Model
from .routing import cost_text


def describe_model(model: Model) -> str:
    kind = "a machine model" if model.has_machine else "the built-in model"
    lines = [f"{kind}: {len(model.spaces)} memory spaces, {len(model.topologies)} "
             f"topologies, {len(model.edges)} transfer edges"]
    for s in model.spaces.values():
        facts = [f"capacity {s.capacity} B" if s.capacity is not None else "no capacity"]
        facts += [f"granule {s.granule} B"] if s.granule else []
        facts += [f"within {s.within}"] if s.within else []
        facts += [f"scope {s.scope}"] if s.scope else []
        facts += [f"managed {s.managed}"]
        facts += [f"{s.replicas} replicas"] if s.replicas > 1 else []
        facts += ["overcommit"] if s.overcommit else []
        lines.append(f"memory {s.name}: " + ", ".join(facts))
    for t in model.topologies.values():
        replicas = f", {t.replicas} replicas" if t.replicas > 1 else ""
        lines.append(f"topology {t.name}: holds {t.memory}, sees [{', '.join(t.visible)}]"
                     f"{replicas}")
    for e in model.edges:
        lines.append(f"edge {e.src} -> {e.dst}: cost {cost_text(e.cost)}")
    for cycle in model.cycles:
        lines.append(f"cycle cut: {' -> '.join(cycle)}")
    return "".join(line + "\n" for line in lines)
