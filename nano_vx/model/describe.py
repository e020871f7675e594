"""The memory model as text, for the dump after check-memory-declarations: what the passes
after it route and judge against, including the built-in parts no declaration shows."""

from __future__ import annotations

from .memory_model import Model
from .routing import cost_text
from .units import show_rate


def describe_model(model: Model) -> str:
    kind = "a machine model" if model.has_machine else "the built-in model"
    lines = [f"{kind}: {len(model.spaces)} memory spaces, {len(model.topologies)} "
             f"topologies, {len(model.edges)} transfer edges"]
    for s in model.spaces.values():
        facts = [f"capacity {s.capacity} B" if s.capacity is not None else "no capacity"]
        facts += [f"granule {s.granule} B"] if s.granule else []
        facts += [f"bandwidth {show_rate(s.bandwidth_bps)}"] if s.bandwidth_bps else []
        facts += [f"within {s.within}"] if s.within else []
        facts += [f"scope {s.scope}"] if s.scope else []
        facts += [f"managed {s.managed}"]
        facts += [f"{s.replicas} replicas"] if s.replicas > 1 else []
        facts += ["overcommit"] if s.overcommit else []
        lines.append(f"memory {s.name}: " + ", ".join(facts))
    for t in model.topologies.values():
        facts = [f"holds {t.memory}", f"sees [{', '.join(t.visible)}]"]
        facts += [f"{t.replicas} replicas"] if t.replicas > 1 else []
        facts += [f"arch {t.arch}"] if t.arch else []
        facts += [f"dtypes [{', '.join(t.dtypes)}]"] if t.dtypes is not None else []
        lines.append(f"topology {t.name}: " + ", ".join(facts))
    for e in model.edges:
        facts = [f"cost {cost_text(e.cost)}"]
        facts += [f"derived from {show_rate(e.bandwidth_bps)} along within:"] if e.derived \
            else []
        facts += [e.ordering] if e.ordering else []
        facts += ["copy_engine"] if e.copy_engine else []
        lines.append(f"edge {e.src} -> {e.dst}: " + ", ".join(facts))
    for cycle in model.cycles:
        lines.append(f"cycle cut: {' -> '.join(cycle)}")
    return "".join(line + "\n" for line in lines)
