"""The Graphviz dump of a program made of basic blocks (Lblocks, Lmlir): its control-flow
graph. Each function is a cluster, each block a box holding its code as the text dump writes
it, each jump an edge (a two-way branch's labelled `true` and `false`), so the picture reads
as a compiler textbook draws a CFG. Node ids are the function's position and the label."""

from __future__ import annotations

from .dot_syntax import HEADER, INDENT, dot_quote, joined


def has_blocks(program) -> bool:
    """Whether a program's functions are basic blocks."""
    return any(item._prod == "Func" or item._prod == "Fn" and "blocks" in item._fields
               for item in getattr(program, "items", ()))


def cfg_dot_parts(program) -> tuple[str, str]:
    """The graph without its title, in its two parts (dot_syntax)."""
    opening = ["digraph CFG {"]
    # Code in a fixed-width font, lines left-aligned (`\l`), as a listing reads.
    opening += [INDENT + h.replace('"Helvetica", fontsize=10', '"Courier", fontsize=9')
                for h in HEADER]
    out: list[str] = []
    edges = []
    functions = [i for i in program.items if i._prod in ("Fn", "Func") and _blocks(i)]
    signatures = {i.name: i for i in program.items if i._prod in ("Func", "Declare")}
    for k, fn in enumerate(functions):
        out.append(f"{INDENT}subgraph cluster_{k} {{")
        out.append(f"{INDENT * 2}label = {dot_quote(_heading(fn))};")
        for block in _blocks(fn):
            label, lines = _code(block, fn, signatures)
            text = "".join(line.replace("\\", "\\\\").replace('"', '\\"') + "\\l"
                           for line in [label, *lines])
            out.append(f'{INDENT * 2}f{k}_{block.label} [label="{text}"];')
            for target, says in _jumps(block):
                note = f' [label="{says}"]' if says else ""
                edges.append(f"{INDENT}f{k}_{block.label} -> f{k}_{target}{note};")
        out.append(f"{INDENT}}}")
    out += edges
    out.append("}")
    return joined(opening, out)


def _blocks(fn):
    return fn.blocks


def _heading(fn) -> str:
    if fn._prod == "Func":
        args = ", ".join(f"%{a.name}: {a.type}" for a in fn.args)
        results = ", ".join(fn.results)
        return f"func {fn.name}({args})" + (f" -> {results}" if results else "")
    from .text import to_text

    params = ", ".join(to_text(p).strip() for p in fn.params)
    return f"fn {fn.name}({params}) -> {to_text(fn.ret).strip()}"


def _code(block, fn, signatures) -> tuple[str, list[str]]:
    if fn._prod == "Func":
        from .mlir_text import block_lines

        return block_lines(block, fn, signatures)
    from .text import to_text

    return f"{block.label}:", [to_text(s).rstrip("\n") for s in (*block.stmts, block.exit)]


def _jumps(block):
    """(target label, edge label) of each way out of a block."""
    exit_ = block.term if hasattr(block, "term") else block.exit
    kind = exit_._prod
    if kind in ("Goto", "Br"):
        return [(exit_.target if kind == "Goto" else exit_.dest, "")]
    if kind in ("Branch", "CondBr"):
        return [(exit_.then, "true"), (exit_.orelse, "false")]
    return []
