"""number-texts: Lsplit -> Lsplit.

Same IL: a string the program holds is an integer, and what the program prints is what it
printed, so the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lsplit import Lsplit as L
from ..nanopass import descendants, Pass
from ..scalars.printed_strings import parts, print_call, printed_as_written, string_types


@dataclass
class State:
    texts: list = field(default_factory=list)  # a string's number is the index of its text
    types: dict = field(default_factory=dict)  # item name -> {id(value printed): its type}
    flow: Flow | None = None  # the texts each place may hold
    item: str | None = None  # the item being rebuilt


number_texts = Pass("number-texts", L, L, """
Make each string the program holds (in a variable, a parameter, a result, a closure's
argument, an aggregate's part, an `if`'s value) the number of its text, and each `print` of
one a choice of the text by that number.

`fn pick(c: bool) -> str { if c { "yes" } else { "no" } }` is `fn pick(c: bool) -> i32 { if
c { 0 } else { 1 } }`, and `print(text)` of a `let text = pick(b);` is `print(if text == 0 {
"yes" } else { "no" })`: native code prints a string only as written in the `print`, which
it keeps in the print's site (a choice among texts is one line, its conditions choosing, as
an enum printed is), and holds no string anywhere else. The texts are numbered once for the
whole program, in the order they are first written, so a string crosses a call, a closure
or a copy as the number it is, and `str` written anywhere is `i32` (but in a struct's or an
enum's declaration, which only says how it prints); which values are strings the scalar
inference says, run to type strings as it types any scalar. A `print` chooses among the
texts its value may hold (Flow); a string printed where it is written (`print("hi")`, or a
part of an aggregate's literal `print` is given) stays as it is. A string a call computes
that a `print` is given, bind-printed-strings bound to a `let` before the statement, so
the choice reads a variable; any other (a string computed without a call) the choice
computes again for each text it tests.

Numbering is the whole program's or none: a program the inference refuses elsewhere, or
one printing a string a call computes where no `let` goes before the `print` (right of
`&&`, an assignment to another place, an element of a tensor the value reads; a choice
would call once per text; a `while`'s condition
move-printing-loop-conditions made an `if`'s), is left as it is,
so the interpreter running it after the gate's refusal meets no number where a string was;
the gate refuses its strings in their own words.
""", state=State)


@number_texts.on("Program")
def _program(run, program):
    typed = string_types(program)
    if typed is None:
        return program
    run.state.types = typed[0]
    printed = printed_as_written(program)
    values = [n for n in descendants(program) if n._prod == "Str" and id(n) not in printed]
    # With no string made, none is printed: a text to choose keeps the choice well formed.
    run.state.texts = list(dict.fromkeys(n.value for n in values)) or [""]
    run.state.flow = Flow(program)
    items = []
    for item in program.items:
        run.state.item = getattr(item, "name", None)
        items.append(run.walk(item))
    return program.replace(items=tuple(items))


@number_texts.on("StructDecl", "EnumDecl")
def _declared(run, node):
    return node  # an aggregate printed holds its strings' texts


@number_texts.on("NamedType")
def _named(run, node):
    return L["Scalar"]("i32", span=node.span) if node.name == "str" else node


@number_texts.on("Str")
def _str(run, node):
    return L["Int"](run.state.texts.index(node.value), span=node.span)


@number_texts.on("Call")
def _call(run, call):
    if print_call(call) is None:
        return run.rebuild(call)
    return call.replace(args=(_chosen(run, call.args[0]),))


def _chosen(run, e):
    """What `print` is given, each string in it that is not written there a choice of its
    text (bind-printed-strings bound one a call computes to a variable; any other is
    computed again for each text, which computing it without a call allows)."""
    if e._prod == "Str":
        return e
    made = parts(e)
    if made:
        if e._prod == "IfExpr":
            arms = [arm.replace(value=_chosen(run, arm.value)) for arm in (e.then, e.orelse)]
            return e.replace(cond=run.walk(e.cond), then=arms[0], orelse=arms[1])
        if e._prod == "StructLit":
            return e.replace(fields=tuple(f.replace(value=_chosen(run, f.value))
                                          for f in e.fields))
        chosen = tuple(_chosen(run, p) for p in made)
        return e.replace(elems=chosen) if e._prod == "Tuple" else e.replace(args=chosen)
    if run.state.types[run.state.item].get(id(e)) != "str":
        return run.walk(e)
    held = run.state.flow.texts(run.state.item, e, run.state.texts)
    return _choice(held, run.walk(e), e.span)


def _choice(texts: list, number, span):
    """The text of the string numbered `number`, one of `texts` (its number, its text):
    `if number == k { text } else { .. }`, the last text what no test chose."""
    k, text = texts[0]
    if len(texts) == 1:
        return L["Str"](text, span=span)
    test = L["Binary"]("==", number, L["Int"](k, span=span), span=span)
    return L["IfExpr"](test, False, L["Block"]((), L["Str"](text, span=span), span=span),
                       L["Block"]((), _choice(texts[1:], number, span), span=span),
                       span=span)


_ANY = ("any",)  # a place any string may reach: every text


class Flow:
    """Where each string may go: the places of a program (a local, a function's result, a
    constant, a text as written) joined where a value goes from one to another, as
    union-find; a reference is one place with what it names. A closure's parameters and
    result and a function not only called by name (launched, or a value) join _ANY: the
    numbering does not follow them (print and the math built-ins keep no string). Types agree
    wherever a value goes, so a class of places holding strings holds no other value."""

    def __init__(self, program):
        self.parent: dict = {}
        self.written: dict = {}  # id() of each string written -> its text
        fns = {i.name for i in program.items if i._prod == "Fn"}
        self.consts = {i.name for i in program.items if i._prod == "ConstItem"}
        callees = {id(n.callee) for n in descendants(program) if n._prod == "Call"}
        loose = {n.name for n in descendants(program) if n._prod == "Global" and
                 n.name in fns and id(n) not in callees} | \
            {n.kernel for n in descendants(program) if n._prod == "Launch"}
        self.params = {i.name: [p.name for p in i.params] for i in program.items
                       if i._prod == "Fn"}
        for item in program.items:
            if item._prod == "ConstItem" and item.value is not None:
                self.join(("const", item.name), self.place(item.name, item.value))
            if item._prod != "Fn":
                continue
            if item.name in loose:
                for p in item.params:
                    self.join(("local", item.name, p.name), _ANY)
                self.join(("ret", item.name), _ANY)
            self.walk(item)

    def find(self, key):
        parent = self.parent.setdefault(key, key)
        if parent != key:
            parent = self.parent[key] = self.find(parent)
        return parent

    def join(self, a, b):
        self.parent[self.find(a)] = self.find(b)

    def place(self, fn: str, e):
        """The place e's value comes from."""
        if e._prod == "Str":  # each written on its own: one text in two places joins neither
            self.written[id(e)] = e.value
            return ("text", id(e))
        if e._prod == "Local":
            return ("local", fn, e.name)
        if e._prod == "Global" and e.name in self.consts:
            return ("const", e.name)
        if e._prod == "Call" and e.callee._prod == "Global" and e.callee.name in self.params:
            return ("ret", e.callee.name)
        if e._prod == "IfExpr" and e.then.value is not None and e.orelse.value is not None:
            here = ("if", id(e))
            self.join(here, self.place(fn, e.then.value))
            self.join(here, self.place(fn, e.orelse.value))
            return here
        if e._prod == "Unsafe" and e.body.value is not None:
            return self.place(fn, e.body.value)
        if e._prod in ("Borrow", "Deref"):  # a reference is one place with what it names
            return self.place(fn, e.value)
        return _ANY

    def walk(self, fn):
        ret = ("ret", fn.name)
        if fn.body.value is not None:
            self.join(ret, self.place(fn.name, fn.body.value))
        for n in descendants(fn.body):
            if n._prod == "Let":
                self.join(("local", fn.name, n.name), self.place(fn.name, n.value))
            elif n._prod == "Assign":
                self.join(self.place(fn.name, n.target), self.place(fn.name, n.value))
            elif n._prod == "Return" and n.value is not None:
                # one inside a closure too: the closure's result is _ANY's, every text
                self.join(ret, self.place(fn.name, n.value))
            elif n._prod == "Call" and n.callee._prod == "Global" and \
                    n.callee.name in self.params:
                for name, arg in zip(self.params[n.callee.name], n.args):
                    self.join(("local", n.callee.name, name), self.place(fn.name, arg))
            elif n._prod == "Launch" or n._prod == "Call" and n.callee._prod != "Global":
                for arg in n.args:
                    self.join(_ANY, self.place(fn.name, arg))
            elif n._prod == "Closure":
                for p in n.params:
                    self.join(("local", fn.name, p.name), _ANY)
                if n.body.value is not None:
                    self.join(_ANY, self.place(fn.name, n.body.value))
            elif n._prod == "Block" and n.value is not None:
                self.place(fn.name, n.value)  # an `if` a block gives joins its arms

    def texts(self, fn: str, e, texts: list) -> list:
        """The texts e may hold, each with its number, in the program's order."""
        where = self.find(self.place(fn, e))
        if where == self.find(_ANY):
            return list(enumerate(texts))
        held = {t for key, t in self.written.items() if self.find(("text", key)) == where}
        return [(k, t) for k, t in enumerate(texts) if t in held] or [(0, texts[0])]
