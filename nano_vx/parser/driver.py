"""The program loop: one item at a time, resuming at the next item after a broken one."""

from __future__ import annotations

from pyparsing import ParseBaseException

from ..diagnostics import Diagnostics
from ..languages.lsrc import Lsrc
from ..source import Source, Span
from . import grammar, recovery, state
from .elements import skip_ws
from .limits import MAX_TREE_DEPTH, tree_depth

SPLIT_HELP = ("split the expression with `let` bindings: `let a = <some terms>; "
              "let b = a + <the next terms>;`",)


def parse_items(source: Source, text: str, skeleton: str, diagnostics: Diagnostics,
                unterminated=()):
    """The Program of the items of `text` (already blanked) that parse. A syntax error
    within the rest of the line of an unterminated string (E1002) is its echo, not news."""
    st = state.ParseState(source, skeleton)
    state.begin(st)
    try:
        items = _items(text, skeleton, st)
    finally:
        state.end()
    for (code, start), (end, message, help) in sorted(st.errors.items(),
                                                      key=lambda e: e[0][1]):
        if code == "E1001" and any(a <= start <= b for a, b in unterminated):
            continue
        diagnostics.error(code, Span(source, start, end), message, help=help)
    return Lsrc["Program"](tuple(items), span=Span(source, 0, len(source.text)))


def _items(text: str, skeleton: str, st: state.ParseState) -> list:
    items = []
    item = grammar.ITEM
    loc = skip_ws(text, 0)
    while loc < len(text):
        try:
            loc, toks = item._parse(text, loc, True, callPreParse=False)
            if _admitted(toks[0], text, st):
                items.append(toks[0])
        except ParseBaseException as exc:
            recovery.report(exc)
            loc = recovery.next_item(skeleton, max(exc.loc, loc + 1))
        except RecursionError:
            # Nesting that no bracket shows (a long `else if` chain, closures returning
            # closures) past what even the big stack of run_deep holds.
            tok, start, end = recovery.found(text, loc)
            st.error("E1003", start, end, "this item nests too deeply to parse")
            loc = recovery.next_item(skeleton, loc + 1)
        loc = skip_ws(text, loc)
    return items


def _admitted(item, text: str, st: state.ParseState) -> bool:
    """False after E1003 when the item's tree is deeper than MAX_TREE_DEPTH, reported where
    the path to its deepest node passes the limit."""
    depth, past = tree_depth(item)
    if past is None:
        return True
    tok, start, end = recovery.found(text, past.span.start)
    st.error("E1003", start, end,
             f"this nests {depth} levels deep, past the limit of {MAX_TREE_DEPTH} (every "
             f"operator, call, index, field, cast, statement and block is a level)",
             SPLIT_HELP)
    return False
