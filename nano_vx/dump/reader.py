"""The reader of the text dump: any IL's text back into that IL's nodes, through the same forms
that write it (forms.py), so it is written once for every IL.

For a field of nonterminal K at some position, the reader tries every production K accepts:
first the forms that start with something of their own (a keyword, a literal, a name), then
the operator forms, grown from each operand found (precedence climbing: an operand binds as
tightly as its form's precedence, or as tightly as anything when it is in parentheses). Every
way the text fits is kept, one per end position, the longest first, so that a form reading
on can fall back on a shorter operand (`if x {}`: `x` is the condition, not a struct literal
`x {}` followed by nothing). Results are memoised per (K, position), each with the
precedence it binds with, so a statement is read once however many forms try it, and a
position that needs a tighter operand takes those that bind tightly enough; K asked for
again from before the white space of a position it was read at takes what was read there,
recording again the failures that reading it again would (messages do not change). Two
readings that end at the same place are told apart by writing each back: the one that
writes the text it was read from wins.

What does not fit is reported at the furthest position any form reached, with what was
expected there, after what, and in which production.
"""

from __future__ import annotations

import re
import weakref

from ..nanopass.nodes import NodeError
from ..source import Source, Span
from .forms import Choice, Form, GenericForm, Lit, Opt, Slot, article, fields_view
from .lexemes import STARTS, ReadFailure, lexeme, read_bare
from .writer import ATOM, CLOSURE, FORMS, GROUPED, Writer

_SKIP = re.compile(r"(?:\s+|//[^\n]*)*")
_SPACE = re.compile(r"\s+|//[^\n]*")


class Reader:
    def __init__(self, source: Source, language, start: int = 0):
        self.source = source
        self.text = source.text
        self.language = language
        self.terminals = language.terminals
        self.start = start
        self.memo: dict = {}
        # (id of a reading's node, its precedence, start, end) -> whether it writes back as
        # its text: every reading kept is held in `memo`, so its id stays its own.
        self.faithful: dict[tuple, bool] = {}
        self.squeezed: dict[tuple[int, int], str] = {}  # (start, end) -> _squeeze of the text
        self.skips: dict[int, int] = {}  # position -> past the white space and comments there
        # (kind, style, position) -> a terminal read there, or None: a name at the start of an
        # expression is read by half a dozen forms.
        self.read_terminals: dict[tuple, tuple | None] = {}
        # What the forms say of the language is the same for every dump of it: worked out
        # once a language, not once a dump (a dump is read in ~30 ms, and redoing it was 6%).
        tables = _TABLES.get(language)
        if tables is None:
            tables = _TABLES[language] = ({}, {})
        self.forms, self.fields = tables
        self.far = -1
        self.failures: list[tuple] = []  # (what was expected, production, piece before)
        self.context: list[list] = []
        # A kind read at a position and again at one before it (before the white space: a
        # block's value and its statement's expression) reads the same: the second is not
        # read again but takes the first's readings, and records the failures reading it
        # again would (`_replay`), so that messages stay as they were. (kind, position past
        # the white space, stmt) -> the _Found read there first.
        self.by_start: dict[tuple, _Found] = {}
        # Each read under way: the failures it records itself (not those of the reads under
        # it, which a read again would find memoised), and the frame it was asked from.
        self.logs: list[list] = []
        self.callers: list = []
        # How many times a read took what a read under way had found so far: a read that
        # did is not shared, since read again it would see all of it.
        self.partial = 0

    # -- the whole text --------------------------------------------------------------------

    def read(self, kind: str | None = None):
        """The node of `kind` (the language's entry) that the whole text is, or
        ReadFailure."""
        for node, end, _ in self.nodes(kind or self.language.entry, self.start, CLOSURE):
            if self.skip(end) == len(self.text):
                return node
            self.fail(self.skip(end), "the end of the dump")
        raise ReadFailure(max(self.far, self.start), self.message())

    def message(self) -> str:
        if not self.failures:
            return f"expected {article(self.language.entry)}"
        expected, prod, piece = self.failures[-1]
        wanted = [e for e, p, a in self.failures if (p, a) == (prod, piece)]
        if expected.startswith(("a ", "an ")):
            # What a field of a nonterminal wanted, not each way one could start.
            wanted = [e for e in wanted if e.startswith(("a ", "an "))]
        alternatives = list(dict.fromkeys(wanted[-3:]))
        text = f"expected {' or '.join(alternatives)}"
        after = _shown(self.text[self.skip(piece[0]):piece[1]]).lstrip(",; ") if piece else ""
        if after:
            text += f" after '{after}'"
        if prod:
            text += f" in {prod}"
        at = self.skip(self.far)
        found = self.text[at:at + 1]
        return text + (f", found '{_token(self.text, at)}'" if found else ", found the end")

    # -- positions and failures ------------------------------------------------------------

    def skip(self, pos: int) -> int:
        # Every form tried at a position skips its white space again: once is enough.
        end = self.skips.get(pos)
        if end is None:
            end = self.skips[pos] = _SKIP.match(self.text, pos).end()
        return end

    def fail(self, pos: int, expected: str) -> None:
        if pos < self.far:
            return
        if pos > self.far:
            self.far, self.failures = pos, []
        frame = self.context[-1] if self.context else None
        prod, after = frame if frame is not None else (None, None)
        self.failures.append((expected, prod, after))
        if self.logs:
            # In the frame the read was asked from: read again, it would be another's.
            asked = frame is self.callers[-1]
            self.logs[-1].append((pos, expected, None if asked else (prod, after)))

    def _replay(self, log) -> None:
        """Record the failures of a read again, as reading it again would."""
        for pos, expected, where in log:
            if pos < self.far:
                continue
            if pos > self.far:
                self.far, self.failures = pos, []
            if where is None:
                frame = self.context[-1] if self.context else None
                where = (frame[0], frame[1]) if frame is not None else (None, None)
            self.failures.append((expected, *where))

    def after(self, start: int, end: int) -> None:
        """What a failure in the production being read comes after, for its message (a
        piece that reads several parts says where it got to)."""
        if self.context:
            self.context[-1][1] = (start, end)

    def lit(self, word: str, pos: int) -> int | None:
        p = self.skips.get(pos)
        if p is None:
            p = self.skip(pos)
        text = self.text
        if text.startswith(word, p):
            end = p + len(word)
            # Whether the word ends as a name does is asked once a word, not once a read.
            wordy = _WORDY.get(word)
            if wordy is None:
                wordy = _WORDY[word] = _word_char(word[-1])
            if not wordy or end >= len(text) or not _word_char(text[end]):
                return end
        if p >= self.far:
            self.fail(p, f"'{word}'")
        return None

    def unique(self, states) -> list:
        """The states with one per position, the first (preferred) kept."""
        if len(states) < 2:
            return states
        seen, out = set(), []
        for state in states:
            if state[0] not in seen:
                seen.add(state[0])
                out.append(state)
        return out

    # -- the language ----------------------------------------------------------------------

    def field(self, prod: str, name: str):
        got = self.fields.get((prod, name))
        if got is None:
            cls = self.language.nodes[prod]
            got = self.fields[(prod, name)] = cls._declared[cls._fields.index(name)]
        return got

    def admits(self, prod: str, name: str):
        return self.language.terminals[self.field(prod, name).kind].predicate

    def terminal(self, kind: str, style: str | None, pos: int):
        key = (kind, style, pos)
        got = self.read_terminals.get(key, key)
        if got is key:
            p = self.skip(pos)
            admits = self.terminals[kind].predicate
            lex = lexeme(kind, style)
            got = lex.read(self.text, p) if lex else read_bare(self.text, p, admits, kind)
            if got is not None and not admits(got[0]):
                got = None
            self.read_terminals[key] = got
        if got is None:
            lex = lexeme(kind, style)
            self.fail(self.skip(pos), lex.what if lex else article(kind))
        return got

    def bare(self, field, pos: int):
        """A terminal field's value as the generic form writes it."""
        p = self.skip(pos)
        admits = self.language.terminals[field.kind].predicate
        if field.mult == "*":
            at = self.lit("[", p)
            items = []
            while at is not None:
                close = self.lit("]", at)
                if close is not None:
                    return tuple(items), close
                if items:
                    at = self.lit(",", at)
                    if at is None:
                        return None
                got = read_bare(self.text, self.skip(at), admits, field.kind)
                if got is None:
                    self.fail(self.skip(at), article(field.kind))
                    return None
                items.append(got[0])
                at = got[1]
            return None
        if field.mult == "?" and self.text.startswith("_", p) \
                and not _word_char(self.text[p + 1:p + 2] or " "):
            return None, p + 1
        got = read_bare(self.text, p, admits, field.kind)
        if got is None:
            self.fail(p, article(field.kind))
        return got

    def forms_for(self, kind: str):
        """(prefix forms, operator forms) of the productions a field of `kind` accepts, each
        with its node class; the generic forms last."""
        got = self.forms.get(kind)
        if got is not None:
            return got
        lang = self.language
        accepted = lang.accepts[kind]
        prefix, infix, generic = [], [], []
        for nt in lang.nonterminals.values():
            if nt.name not in accepted:
                continue
            for p in nt.productions:
                cls = lang.nodes[p.name]
                form = FORMS.get((p.name, cls._fields))
                if form is not None:
                    (infix if self._operator(form, cls) else prefix).append((form, cls))
                generic.append((GenericForm(p.name, cls._declared), cls))
        # Forms that start with their own kind (`a | b`) come last: they read what the
        # others found at the same place.
        own = [fc for fc in prefix if self._own_lead(*fc)]
        keyword = [fc for fc in prefix if isinstance(fc[0].pieces[0], (Lit, Choice))]
        rest = [fc for fc in prefix if fc not in keyword and fc not in own]
        prefix = keyword + rest + generic
        prefix = [(form, cls, self._starts(form.pieces, cls)) for form, cls in prefix]
        infix = [(form, cls, self._starts(form.pieces[1:], cls)) for form, cls in infix]
        own = [(form, cls, None) for form, cls in own]
        got = self.forms[kind] = _ByFirst(prefix), _ByFirst(own), _ByFirst(infix)
        return got

    def _own_lead(self, form, cls) -> bool:
        if form.lead is None:
            return False
        f = cls._declared[cls._fields.index(form.lead.field)]
        return f.kind in self.language.nonterminals and cls._nt in self.language.accepts[f.kind]

    def _starts(self, pieces, cls) -> frozenset | None:
        """The characters the text of some pieces can start with; None: any."""
        for i, piece in enumerate(pieces):
            if isinstance(piece, Lit) and not piece.words:
                continue
            if isinstance(piece, Opt):
                inner, rest = self._starts(piece.pieces, cls), self._starts(pieces[i + 1:], cls)
                return None if inner is None or rest is None else inner | rest
            if isinstance(piece, Slot):
                f = cls._declared[cls._fields.index(piece.field)]
                return STARTS.get(piece.style or f.kind) if f.kind in self.language.terminals \
                    else None
            return piece.starts()
        return None

    def _operator(self, form, cls) -> bool:
        if form.line or not self._own_lead(form, cls):
            return False
        return cls._declared[cls._fields.index(form.lead.field)].mult == ""

    # -- reading ---------------------------------------------------------------------------

    def sequence(self, form, pieces, states):
        """Read `pieces` in order from `states`, keeping the production and the text of the
        piece before as the context of a failure."""
        frame = [form.prod, None]
        context = self.context
        context.append(frame)
        skips = self.skips
        try:
            for piece in pieces:
                if not states:
                    break
                before = states[0][0]
                states = piece.read(self, form, states)
                if states:
                    end = states[0][0]
                    if end > before and end > (skips.get(before) or self.skip(before)):
                        frame[1] = (before, end)
            return states
        finally:
            context.pop()

    def partial_need(self, slot, form, vals) -> int:
        """The precedence an operand needs, when the fields read so far decide it."""
        if slot.prec in ("=", "+"):
            try:
                return slot.need(form, fields_view(vals), None)
            except (AttributeError, KeyError, TypeError):
                return CLOSURE
        return CLOSURE

    def nodes(self, kind: str, pos: int, min_prec: int, stmt: bool = False):
        """Every node of `kind` the text at `pos` starts with that binds at least as tightly
        as `min_prec`, one per end position, the longest first: [(node, end, the precedence
        it binds with)]. `stmt`: read as statements are written (a form that is not a whole
        line ends in `;`)."""
        key = (kind, pos, stmt)
        found = self.memo.get(key)
        if found is not None:
            got = found.cache.get(min_prec)  # _Found.at's answer, without the call
            if got is not None:
                return got
            if not found.done:
                self.partial += 1
            return found.at(min_prec)
        start = self.skip(pos)
        at = (kind, start, stmt)
        same = self.by_start.get(at)
        if same is not None:
            self.memo[key] = same
            self._replay(same.log)
            return same.at(min_prec)
        # While it is being read, a form that starts with its own kind (`a | b`) sees
        # what was found so far.
        found = self.memo[key] = _Found()
        partial = self.partial
        log = []
        self.logs.append(log)
        self.callers.append(self.context[-1] if self.context else None)
        self._read_forms(kind, start, stmt, found)
        found.done = True
        if not found.ends:
            self.fail(start, article(kind))
        self.logs.pop()
        self.callers.pop()
        if partial == self.partial and at not in self.by_start:
            found.log = log
            self.by_start[at] = found
        return found.at(min_prec)

    def _read_forms(self, kind, start, stmt, found):
        prefix, own, infix = self.forms.get(kind) or self.forms_for(kind)
        first = self.text[start:start + 1]
        self._prefixed(prefix.by_char.get(first) or prefix.get(first), start, stmt, found)
        if not stmt:
            self._grouped(kind, start, found)
        if own.entries:
            self._prefixed(own.get(first), start, stmt, found)
        if not stmt:
            self._operators(infix, start, found)

    def _prefixed(self, forms, start, stmt, found):
        sequence = self.sequence
        for form, cls in forms:
            # form.read, without the call.
            for end, vals in sequence(form, form.pieces, [(start, {})]):
                if stmt and not form.line:
                    end = self.lit(";", end)
                    if end is None:
                        continue
                node = self.build(form, cls, vals, start, end)
                if node is not None:
                    self._add(found, node, end, ATOM if form.line else form.prec_of(node),
                              start)

    def _grouped(self, kind, start, found):
        inner = self.lit("(", start)
        if inner is None:
            return
        for node, end, _ in self.nodes(kind, inner, CLOSURE):
            close = self.lit(")", end)
            if close is not None:
                self._add(found, node, close, GROUPED, start)

    def _operators(self, infix, start, found):
        """Grow every operand found into the operator forms that start with it."""
        todo = [(end, node, eff) for end in sorted(found.ends) for node, eff in found.ends[end]]
        while todo:
            end0, left, eff0 = todo.pop(0)
            at = self.skip(end0)
            for form, cls in infix.get(self.text[at:at + 1]):
                lead = form.lead.field
                if left._nt not in self.language.accepts[self.field(form.prod, lead).kind]:
                    continue
                states = [(end0, {lead: left, ("prec", lead): eff0})]
                for end, vals in self.sequence(form, form.tail, states):  # skip_lead
                    node = self.build(form, cls, vals, start, end)
                    if node is not None:
                        eff = form.prec_of(node)
                        if self._add(found, node, end, eff, start):
                            todo.append((end, node, eff))

    def build(self, form, cls, vals, start: int, end: int):
        """The node the fields read make, or None when it breaks a rule of its form."""
        marked = form.marked
        if marked:
            derived = [k[1] for k in vals if type(k) is tuple and k[0] == "derive"]
            if derived:
                view = fields_view(vals)
                for name in derived:
                    vals[name] = vals[("derive", name)](view)
                    if vals[name] is None:
                        return None
        try:
            node = cls(*[vals[f] for f in cls._fields], span=Span(self.source, start, end))
        except (NodeError, KeyError):
            return None
        if marked:
            inferred = [k[1] for k in vals if type(k) is tuple and k[0] == "inferred"]
            if inferred:  # forms.Inferred: the type carries its node's span
                node = node.replace(**{f: getattr(node, f).replace(span=node.span)
                                       for f in inferred})
        if isinstance(form, Form):
            if not form.fits(node):
                return None
            for slot in form.checked:
                eff = vals.get(("prec", slot.field))
                child = getattr(node, slot.field)
                if eff is not None and eff < slot.need(form, node, child):
                    return None
        return node

    def _add(self, found, node, end, eff, start) -> bool:
        """Keep a reading ending at `end`; of several, the one written back as it reads
        first."""
        readings = found.ends.get(end)
        if readings is None:
            found.ends[end] = [(node, eff)]
            return True
        if any(e == eff and n == node for n, e in readings):
            return False
        if not self._faithful(readings[0], start, end) and self._faithful((node, eff), start,
                                                                          end):
            readings.insert(0, (node, eff))
        else:
            readings.append((node, eff))
        return True

    def _faithful(self, reading, start, end) -> bool:
        node, eff = reading
        key = (id(node), eff, start, end)
        said = self.faithful.get(key)
        if said is None:
            w = Writer()
            w.node(node)
            text = "".join(w.parts)
            if eff == GROUPED:
                text = f"({text})"
            read = self.squeezed.get((start, end))
            if read is None:
                read = self.squeezed[(start, end)] = _squeeze(self.text[start:end])
            said = self.faithful[key] = _squeeze(text) == read
        return said


# language -> (forms_for's tables by kind, field's declarations by (production, name)).
_TABLES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class _Found:
    """The readings of one kind at one position, by end position."""

    __slots__ = ("ends", "done", "cache", "log")

    def __init__(self):
        self.ends: dict[int, list] = {}
        self.done = False
        self.cache: dict[int, list] = {}
        self.log: list = []  # the failures reading it records itself: (pos, expected, where)

    def at(self, min_prec: int) -> list:
        got = self.cache.get(min_prec)
        if got is None:
            got = []
            for end in sorted(self.ends, reverse=True):
                for node, eff in self.ends[end]:
                    if eff >= min_prec:
                        got.append((node, end, eff))
                        break
            if self.done:
                self.cache[min_prec] = got
        return got


class _ByFirst:
    """Forms by the first character their text can have, in their order."""

    def __init__(self, entries):
        self.entries = entries
        self.by_char: dict[str, list] = {}

    def get(self, char: str) -> list:
        got = self.by_char.get(char)
        if got is None:
            got = self.by_char[char] = [(form, cls) for form, cls, starts in self.entries
                                        if starts is None or char in starts]
        return got


_WORDY: dict[str, bool] = {}  # a literal word -> whether it ends with a name's character


def _word_char(c: str) -> bool:
    return c.isalnum() or c == "_"


def _squeeze(text: str) -> str:
    """Text with its layout left out: a space for each run of white space and comments."""
    return " ".join(_SPACE.sub(" ", text).split())


def _shown(text: str) -> str:
    """A piece of text as a message quotes it: on one line, and not too long."""
    text = " ".join(_SPACE.sub(" ", text).split())
    return text if len(text) <= 40 else "..." + text[-37:]


def _token(text: str, at: int) -> str:
    m = re.compile(r"[A-Za-z0-9_#$]+|\S").match(text, at)
    return m.group() if m else text[at:at + 1]
