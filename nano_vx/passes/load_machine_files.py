"""load-machine-files: Lsrc -> Lsrc; `--machine FILE` and `--host FILE|default` join the program."""

from __future__ import annotations

from ..languages import Lsrc
from ..nanopass import Pass, child_nodes
from ..parser import parse, read_source
from ..source import Source

# What `--host default` declares: host memory with no capacity (it pages rather than fails).
DEFAULT_HOST = Source("<host default>", "Memory CPU_DRAM { managed: explicit }\n")

_KIND = {"MemoryDecl": "memory space", "TopologyDecl": "topology"}


def _run(tree, ctx):
    inputs = []
    for flag in ("machine", "host"):
        value = getattr(ctx, flag)
        if value is None:
            continue
        source = DEFAULT_HOST if (flag, value) == ("host", "default") else read_source(
            value, ctx.diagnostics)
        if source is not None:
            inputs.append((f"--{flag} {value}", parse(source, ctx.diagnostics)))
    if not inputs:
        return tree
    claimed = {(d._prod, d.name): ("the program", d) for d in _declarations(tree)}
    items = list(tree.items)
    for label, program in inputs:
        for item in program.items:
            if item._prod not in _KIND:
                ctx.diagnostics.error(
                    "E6016", item.span, f"the file of {label} holds a `{item._prod}`; machine "
                    f"and host files hold only Memory and Topology declarations",
                    input=label)
            elif _unclaimed(claimed, item, label, ctx.diagnostics):
                items.append(item)
    return tree.replace(items=tuple(items))


def _declarations(tree):
    """Every Memory/Topology declaration of the program, nested ones included (they are
    hoisted only by the next pass)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if node._prod in _KIND:
            yield node
        elif node._nt in ("Program", "Item", "Block", "Stmt", "Expr"):
            stack.extend(child_nodes(node))


def _unclaimed(claimed, item, label, diagnostics) -> bool:
    """Claim the item's name for its input; E6012 when another input claimed it first."""
    key = (item._prod, item.name)
    if key not in claimed:
        claimed[key] = (label, item)
        return True
    other_label, other = claimed[key]
    if other_label == label:
        return True  # twice in one file: hoist-nested-items reports E2008
    kind = _KIND[item._prod]
    diagnostics.error(
        "E6012", item.span,
        f"{kind} '{item.name}' is declared in two inputs: {other_label} and {label}",
        notes=[f"'{item.name}' is first declared in {other_label} at {other.span}"],
        help=[f"declare '{item.name}' in only one input"], name=item.name,
        inputs=[other_label, label])
    return False


load_machine_files = Pass("load-machine-files", Lsrc, Lsrc, """
Parse the files of `--machine FILE` and `--host FILE|default` and append their items; a space
or topology two inputs declare is E6012.

Machine and host files hold only `Memory` and `Topology` declarations (anything else is
E6016); their spans point into the file that declared them. `--host default` declares
`Memory CPU_DRAM { managed: explicit }`, with no capacity. A memory space or topology name
declared by two inputs (the program, the machine file, the host file) is E6012, naming
both places; the second declaration is dropped so that it is reported once.
""", run=_run)
