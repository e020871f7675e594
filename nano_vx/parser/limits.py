"""How deep the parser lets a program nest.

MAX_DEPTH bounds brackets (checked on the text before parsing) and chains that nest the
tree without brackets (`else if`, prefix operators). MAX_NESTING bounds the grammar's own
recursion (closures returning closures, types within types), which counts a few levels per
bracket, hence the factor. Both are verified to parse from any caller thanks to
nano_vx.deep.run_deep (tests/parser/test_limits.py)."""

from pyparsing import ParseSyntaxException

MAX_DEPTH = 256
MAX_NESTING = 4 * MAX_DEPTH


class TooDeep(ParseSyntaxException):
    """Raised where the grammar's recursion passes MAX_NESTING; reported as E1003."""
