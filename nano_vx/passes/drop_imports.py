"""drop-imports: Lsrc -> Lonefile."""

from __future__ import annotations

from ..languages import Lonefile, Lsrc
from ..nanopass import Pass

drop_imports = Pass("drop-imports", Lsrc, Lonefile, """
Drop each `import a::b;`, with a warning (W1031): nano-vx compiles one file.

What an import would bring is not there, so a name the program uses from it is E2001 where it
is used; an import nothing uses costs nothing but the warning.
""")


@drop_imports.on("Import", splice=True)
def _import(run, node):
    path = "::".join(node.path)
    run.ctx.diagnostics.warning(
        "W1031", node.span, f"`import {path};` brings nothing: nano-vx compiles one file",
        help=["declare what the program uses in this file"], path=list(node.path))
    return ()


@drop_imports.on("ItemStmt", splice=True)
def _item_stmt(run, node):
    """An import inside a block (the parser reads none there, Lsrc holds one) goes with its
    statement: the statement cannot hold no item."""
    if node.item._prod == "Import":
        return _import(run, node.item)
    return run.rebuild(node)
