"""Reading a dump back: the text (or JSON) of any IL into that IL's tree, spans pointing into
the dump. `nano-vx dump.txt` starts here.

A text dump starts with the line naming its IL (`// IL: Lresolved`, writer.il_header); a JSON
dump names it in its root object's "language"; a spatial program's text names it in its
header (`spatial NAME: Stiled {`). Lmlir's text is MLIR's: a dump naming Lmlir, or any file
named `.mlir`, is read by MLIR's parser (`mlir.py`). What does not read back is one E1007
naming the line, the column and what was expected there, never an exception.
"""

from __future__ import annotations

import json
import re

from ..deep import run_deep
from ..diagnostics import Diagnostics
from ..dump.json_form import JsonFormError, from_json, load_with_places
from ..dump.lexemes import NumberTooLong
from ..dump.writer import HEADER_PREFIX
from ..source import Source, Span

CODE = "E1007"
_HEADER = re.compile(re.escape(HEADER_PREFIX.strip()) + r"[ \t]*(\S*)[ \t]*(?:\n|\Z)")
# Printed as MLIR text, which MLIR's parser reads, not the tree reader.
MLIR_TEXT = frozenset({"Lmlir"})
MLIR_SUFFIX = ".mlir"


def languages() -> dict:
    """Every IL a text dump can name, by name: the pipeline's."""
    from ..pipeline import LANGUAGES

    return LANGUAGES


def json_languages() -> dict:
    """Every IL a JSON dump can name: the pipeline's and the spatial lane's."""
    from ..spatial_pipeline import SPATIAL_LANGUAGES

    return {**languages(), **SPATIAL_LANGUAGES}


def read_dump(text: str, path: str = "<dump>", diagnostics: Diagnostics | None = None):
    """(language, tree) of a dump, or None when it does not read back; why is reported to
    `diagnostics` (E1007)."""
    return read_source(Source(path, text), diagnostics)


def read_source(source: Source, diagnostics: Diagnostics | None = None):
    """read_dump, of a Source the caller holds (its compilation's), so the tree's spans and
    the compilation's diagnostics point into the same one. The tree is read, not checked:
    read_checked checks what a resumed run is to take."""
    return _deep(_read, source, diagnostics)


def read_checked(source: Source, diagnostics: Diagnostics | None = None):
    """The dump a resumed run takes: read_source, and checked as a tree the passes may take
    (`resume/check.py`). None, reported, when it does not read back or is not such a
    tree."""
    return _deep(_read_checked, source, diagnostics)


def _deep(read, source: Source, diagnostics: Diagnostics | None):
    diagnostics = diagnostics if diagnostics is not None else Diagnostics()
    try:
        return run_deep(read, source, diagnostics)
    except RecursionError:
        _error(diagnostics, source, 0, "the dump nests deeper than the reader follows")
        return None


def _read_checked(source: Source, diagnostics: Diagnostics):
    from ..dump.state import read_state
    from .check import well_formed

    read = _read(source, diagnostics)
    if read is None or read[0].name not in languages():  # a spatial program: validated
        return read                                       # by `nano-vx spatial`
    # A fault of the state lines is reported when the run reads them.
    state = read_state(source, Diagnostics())
    if state is not None and any(d.severity == "error" for d in state.reported):
        return read  # no pass runs: the run the dump comes from stopped there, and its
        # tree may be what the error it reported says
    return read if well_formed(*read, source, diagnostics, state) else None


def is_dump(text: str, name: str = "") -> bool:
    """Does the text start as a dump does (its IL's line, or a JSON object), or is it MLIR's
    (a file named `.mlir`), rather than a program?"""
    head = text.lstrip()
    return head.startswith(HEADER_PREFIX.strip()) or head.startswith("{") or \
        name.endswith(MLIR_SUFFIX)


def _read(source: Source, diagnostics: Diagnostics):
    text = source.text
    start = len(text) - len(text.lstrip())
    if text.startswith("{", start):
        return read_json_dump(source, diagnostics)
    if text.startswith("spatial", start):
        return _read_spatial(source, diagnostics)
    m = _HEADER.match(text)
    if (m.group(1) in MLIR_TEXT) if m else source.name.endswith(MLIR_SUFFIX):
        return _read_mlir(source, diagnostics)
    if m is None:
        first = text.split("\n", 1)[0].strip()
        shown = f"'{first[:40]}'" if first else "nothing"
        _error(diagnostics, source, 0, f"a dump starts with a line naming its IL, "
                                       f"'{HEADER_PREFIX}NAME'; this one starts with {shown}")
        return None
    name = m.group(1)
    known = languages()
    if name not in known:
        why = (f"no IL is named '{name}'; the ILs are {', '.join(known)}" if name
               else f"the header names no IL; the ILs are {', '.join(known)}")
        _error(diagnostics, source, m.start(1), why, end=m.end(1))
        return None
    tree = read_tree(source, known[name], m.end(), diagnostics)
    return None if tree is None else (known[name], tree)


def _read_mlir(source: Source, diagnostics: Diagnostics):
    from ..languages.lmlir import Lmlir
    from .mlir import read_mlir

    tree = read_mlir(source, diagnostics)
    return None if tree is None else (Lmlir, tree)


def read_tree(source: Source, language, start: int, diagnostics: Diagnostics,
              kind: str | None = None):
    """The node of `kind` (by default the language's entry, a whole program) that the text
    after `start` is, in `language`; or None, reported."""
    from ..driver import paused_collector
    from ..dump.reader import ReadFailure, Reader

    try:
        # The reader allocates dicts, tuples and lists by the million, each freed by its
        # reference count, while its memo grows: the cyclic collector, walking the memo and
        # the rest of the process again and again and finding nothing (the reader makes no
        # cycles), was a quarter of the time of reading an example's dumps.
        with paused_collector():
            return run_deep(Reader(source, language, start).read, kind)
    except ReadFailure as failure:
        _error(diagnostics, source, failure.pos, failure.message)
    except RecursionError:
        _error(diagnostics, source, start, "the dump nests deeper than the reader follows")
    return None


def _read_spatial(source: Source, diagnostics: Diagnostics):
    from ..spatial.parse import SpatialSyntaxError, parse_spatial
    from ..spatial.text import language_of

    try:
        graph = parse_spatial(source.text, source.name)
    except SpatialSyntaxError as err:
        offset = source.line_starts[err.line - 1] + err.column - 1
        _error(diagnostics, source, offset, err.message)
        return None
    return language_of(graph), graph


def _error(diagnostics: Diagnostics, source: Source, start: int, message: str,
           end: int | None = None) -> None:
    end = end if end is not None and end > start else min(start + 1, len(source.text))
    diagnostics.error(CODE, Span(source, start, end), message)


def read_json_dump(source: Source, diagnostics):
    """(language, tree) of a JSON dump, spans pointing at each node's object in it; or None,
    with an E1007 where the JSON stops being a tree of its IL."""
    try:
        data, places = load_with_places(source.text)
    except json.JSONDecodeError as err:
        _error(diagnostics, source, err.pos, f"not JSON: {err.msg}")
        return None
    except NumberTooLong as err:
        at = source.text.find(err.digits)
        _error(diagnostics, source, at, str(err), end=at + len(err.digits))
        return None
    name = data.get("language") if type(data) is dict else None
    known = json_languages()
    if type(name) is not str or name not in known:  # a name, not an object or a list
        where = places.get(id(data), (0, 1))[0]
        named = f"no IL is named {name!r}" if name is not None else "this one names none"
        _error(diagnostics, source, where, f'a JSON dump names its IL in "language"; {named}; '
                                           f"the ILs are {', '.join(known)}")
        return None

    def spans(obj):
        start, end = places[id(obj)]
        return Span(source, start, end)
    try:
        return known[name], from_json(data, known[name], spans=spans)
    except JsonFormError as err:
        start = places.get(id(err.where), (0, 1))[0]
        _error(diagnostics, source, start, err.message)
        return None
