"""Forward references that tie the grammar modules together (expressions hold blocks,
blocks hold statements and items, items hold expressions)."""

from pyparsing import Forward

EXPR = Forward().set_name("an expression")
TYPE = Forward().set_name("a type")
BLOCK = Forward().set_name("a block")
ITEM = Forward().set_name("an item (fn, const, struct, enum, import, Memory or Topology)")
# `if` as a value: read by the statements module, whose `if` chains it shares.
IF_EXPR = Forward().set_name("an `if` expression")
