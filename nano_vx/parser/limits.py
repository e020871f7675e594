"""How deep the parser lets a program nest.

MAX_DEPTH bounds brackets (checked on the text before parsing) and chains that nest the
tree without brackets and are read in a loop: prefix operators, and `else if` links, which
nest blocks (the links of the chains a chain is written in count too). MAX_NESTING bounds
the grammar's own recursion (closures returning closures, types within types), which counts
a few levels per bracket, hence the factor. Both are verified to parse from any caller thanks
to nano_vx.deep.run_deep (tests/parser/test_parser_limits.py).

MAX_TREE_DEPTH bounds what every pass, dump and the interpreter then walk: the depth of each
item's tree, counted in nodes, whatever built it. Chains of binary operators, calls, indexes,
fields, casts and dimensions are read in loops and nest without brackets (a left-associative
chain of N operators is N levels deep), and brackets stack on them (a chain inside each of
200 nested parentheses). The walkers recurse, at most 4 Python frames per level (profiled
for every kind of chain), on the deep thread of nano_vx.deep: a recursion limit of 200,000
frames and a 512 MiB stack. Measured before this bound existed, every pass and dump format
worked on a chain 45,000 levels deep and check-visibility failed first, near 50,000. 20,000
keeps a margin of 2.5 and admits what people write (expressions of a few thousand terms in
generated code); tests/test_deep_input.py runs the pipeline, the interpreter and the dumps
at this bound."""

from __future__ import annotations

from pyparsing import ParseSyntaxException

from ..nanopass import child_nodes

MAX_DEPTH = 256
MAX_NESTING = 4 * MAX_DEPTH
MAX_TREE_DEPTH = 20_000


class TooDeep(ParseSyntaxException):
    """Raised where the grammar's recursion passes MAX_NESTING; reported as E1003."""


def tree_depth(root, bound: int = MAX_TREE_DEPTH):
    """(the depth of `root`'s tree in nodes, the first node in source order at depth
    bound + 1, or None when the tree is no deeper than `bound`). Level by level, without
    recursion: the trees measured here are the ones too deep to recurse over."""
    level, depth, past = [root], 0, None
    while level:
        depth += 1
        if depth == bound + 1:
            past = min(level, key=lambda node: node.span.start)
        level = [child for node in level for child in child_nodes(node)]
    return depth, past
