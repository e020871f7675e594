"""The Graphviz form of a spatial program: stages as nodes and streams as edges; once stages
are placed, the mesh's sites are clusters holding their stages, and from Ssized on every
edge is a buffer labelled with its depth (and bytes), from Shandshaked on with its handshake.
DRAM tensors are cylinders, joined to their loads and stores by dashed edges. Ids follow the
program's order, so the same program always gives the same bytes."""

from __future__ import annotations

from ..spatial.program import Program, outs
from .dot_syntax import INDENT, dot_quote, joined


def spatial_dot_parts(graph) -> tuple[str, str]:
    """The graph without its title, in its two parts (dot_syntax)."""
    p = Program(graph)
    ids = {name: f"s{i}" for i, name in enumerate(p.stages)}
    tensor_ids = {name: f"t{i}" for i, name in enumerate(p.tensors)}
    opening = ["digraph spatial {", f"{INDENT}graph [rankdir=LR];",
               f'{INDENT}node [shape=box, fontname="Helvetica", fontsize=10];',
               f'{INDENT}edge [fontname="Helvetica", fontsize=9];']
    out: list[str] = []
    for name, t in p.tensors.items():
        label = f"{name}\n{t.dtype}{list(t.shape)}\nDRAM {t.role}"
        out.append(f"{INDENT}{tensor_ids[name]} [shape=cylinder, label={dot_quote(label)}];")
    if p.places:
        by_site: dict = {}
        for stage, (site, _) in p.places.items():
            by_site.setdefault(site, []).append(stage)
        for n, site in enumerate(sorted(by_site)):
            out.append(f"{INDENT}subgraph cluster_{n} {{")
            out.append(f"{INDENT * 2}label = {dot_quote(f'site {site}')};")
            out += [f"{INDENT * 2}{_stage(p, ids, s)}" for s in by_site[site]]
            out.append(f"{INDENT}}}")
        placed = set(p.places)
        out += [f"{INDENT}{_stage(p, ids, s)}" for s in p.stages if s not in placed]
    else:
        out += [f"{INDENT}{_stage(p, ids, s)}" for s in p.stages]
    for name, st in p.stages.items():
        if st._prod == "Load":
            out.append(f"{INDENT}{tensor_ids[st.tensor]} -> {ids[name]} [style=dashed];")
        elif st._prod == "Store":
            out.append(f"{INDENT}{ids[name]} -> {tensor_ids[st.tensor]} [style=dashed];")
        for port in outs(st):
            out.append(f"{INDENT}{_edge(p, ids, name, port)}")
    out.append("}")
    return joined(opening, out)


def _stage(p: Program, ids, name: str) -> str:
    st = p.stages[name]
    what = (f"{st._prod.lower()} {st.tensor}" if st._prod in ("Load", "Store")
            else "scalar" if st._prod == "Scalar" else st.op)
    lines = [name, what]
    if name in p.places:
        lines.append(p.places[name][1])
    return f"{ids[name]} [label={dot_quote(chr(10).join(lines))}];"


def _edge(p: Program, ids, producer: str, port) -> str:
    stream = port.stream
    end = p.consumer(stream)
    lines = [stream]
    if port.rate != 1 or end.rate != 1:
        lines.append(f"{port.rate} : {end.rate}")
    b = p.buffers.get(stream)
    if b is not None:
        lines.append(f"depth {b.depth} ({b.bytes:,} B)")
    h = p.handshakes.get(stream)
    if h is not None:
        lines.append(h.kind.replace("_", " "))
    group = p.group_of_stream.get(stream)
    style = ", style=bold" if group else ""
    if group:
        lines.append(f"multicast {group}")
    return f"{ids[producer]} -> {ids[end.stage]} [label={dot_quote(chr(10).join(lines))}{style}];"
