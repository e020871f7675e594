"""number-texts: Lsplit -> Lsplit.

Same IL: a string the program holds is an integer, and what the program prints is what it
printed, so the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lsplit import Lsplit as L
from ..nanopass import descendants, Pass
from ..scalars import infer_program
from ..scalars.aggregate_values import pure
from ..scalars.aggregates import Names
from ..scalars.terms import Tensor, find
from ..values.literals import typed_by_place


@dataclass
class State:
    texts: list = field(default_factory=list)  # a string's number is the index of its text
    types: dict = field(default_factory=dict)  # item name -> {id(value printed): its type}
    ranks: dict = field(default_factory=dict)  # item name -> {local holding a tensor: rank}
    flow: Flow | None = None  # the texts each place may hold
    item: str | None = None  # the item being rebuilt
    names: Names | None = None  # fresh names of the function being rebuilt
    fn: object = None  # the function being rebuilt


number_texts = Pass("number-texts", L, L, """
Make each string the program holds (in a variable, a parameter, a result, a closure's
argument, an aggregate's part, an `if`'s value) the number of its text, and each `print` of
one a choice of the text by that number.

`fn pick(c: bool) -> str { if c { "yes" } else { "no" } }` is `fn pick(c: bool) -> i32 { if
c { 0 } else { 1 } }`, and `print(pick(b))` is `let text = pick(b); print(if text == 0 {
"yes" } else { "no" })`: native code prints a string only as written in the `print`, which
it keeps in the print's site (a choice among texts is one line, its conditions choosing, as
an enum printed is), and holds no string anywhere else. The texts are numbered once for the
whole program, in the order they are first written, so a string crosses a call, a closure
or a copy as the number it is, and `str` written anywhere is `i32` (but in a struct's or an
enum's declaration, which only says how it prints); which values are strings the scalar
inference says, run to type strings as it types any scalar. A `print` chooses among the
texts its value may hold (Flow); a string printed where it is written (`print("hi")`, or a
part of an aggregate's literal `print` is given) stays as it is.

A `print` of a string a call computes that a statement (an expression statement, a `let`,
a `return`, an `if`'s condition, the value of an assignment to a local that nothing the value
calls could change, `k = k + g(print(pick(i)))`) or a block's value computes whenever it is computed, as
an argument of a call, an operand (but right of `&&` or `||`) or a cast's value, has a `let` go before the
statement for each operand computed before it (a print before it too) and then for its
string, so that each computes once, in its order: `g(tick(), print(pick(b)))` is `let arg =
tick(); let text = pick(b); g(arg, print(..))`. So does the value of an assignment to an
element of a tensor local made other than by `::uninit()` that nothing the value calls
could change nor the value names, which the interpreter locates (its indices computed and
checked) before the value: `t[i] = g(print(pick(i)))` is `let place = &mut t[i]; let text
= pick(i); *place = g(print(..))`.

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
    printed = _printed_as_written(program)
    values = [n for n in descendants(program) if n._prod == "Str" and id(n) not in printed]
    if not values and not any(n._prod == "NamedType" and n.name == "str"
                              for n in descendants(program)):
        return program
    inferred = infer_program(program, texts=True)
    if inferred.refused:
        return program
    run.state.types = {name: {key: find(t) for key, t in infer.printed_terms.items()}
                       for name, infer in inferred.items.items()}
    run.state.ranks = {name: {local: len(t.dims) for local, term in infer.env.items()
                              if isinstance(t := find(term), Tensor)}
                       for name, infer in inferred.items.items()}
    if any(_unbound(item, run.state.types, run.state.ranks) for item in program.items
           if item._prod == "Fn"):
        return program
    # With no string made, none is printed: a text to choose keeps the choice well formed.
    run.state.texts = list(dict.fromkeys(n.value for n in values)) or [""]
    run.state.flow = Flow(program)
    items = []
    for item in program.items:
        run.state.item = getattr(item, "name", None)
        items.append(run.walk(item))
    return program.replace(items=tuple(items))


def _printed_as_written(program) -> set:
    """id() of each string a `print` is given as written: its argument, or a part of the
    aggregate literal it is given."""
    found = set()
    for node in descendants(program):
        if _print_call(node) is not None:
            stack = [node.args[0]]
            while stack:
                e = stack.pop()
                if e._prod == "Str":
                    found.add(id(e))
                else:
                    stack += _parts(e)
    return found


def _unbound(fn, types: dict, ranks: dict) -> bool:
    """Whether a `print` inside an expression (not one a statement (_SLOTS) or a block's
    value computes on its way (_reached), where it is bound by a `let` first) is given a
    string a call computes, which a choice of its text would compute once per text (types,
    ranks: each function's)."""
    types, ranks = types[fn.name], ranks.get(fn.name, {})
    tops = [b.value for b in descendants(fn) if b._prod == "Block" and b.value is not None] + \
        [getattr(s, _slot(s, fn, ranks)) for s in descendants(fn)
         if _slot(s, fn, ranks) is not None]
    at_statements = {id(p) for top in tops if top is not None for p in _reached(top, types)}
    return any(_print_call(n) is not None and id(n) not in at_statements and
               _computed_string(n, types) for n in descendants(fn))


def _computed_string(call, types: dict) -> bool:
    """Whether `print` call is given a string a call computes (types: the function's)."""
    return any(types.get(id(e)) == "str" and not pure(e) for e in _leaves(_print_call(call)))


def _reached(e, types: dict) -> list:
    """The `print`s given a string a call computes that e computes whenever it is computed:
    e itself, or one an argument of a call of a function or a closure variable, or an operand
    of an operator other than `&&` and `||` computes (each computed, in order, after those
    before it); not one inside such a print's own argument."""
    if _print_call(e) is not None and _computed_string(e, types):
        return [e]
    return [p for operand in _operands(e) for p in _reached(operand, types)]


def _operands(e) -> tuple:
    """e's operands, each computed, in order, whenever e is: a call's arguments, an
    operator's operands, a cast's value, an `if`'s condition; none for any other node."""
    if e._prod == "Call" and e.callee._prod in ("Global", "Local"):
        return e.args
    if e._prod == "Binary" and e.op not in ("&&", "||"):
        return e.left, e.right
    field = _OPERAND.get(e._prod)
    return (getattr(e, field),) if field else ()


# The one operand of an expression computed whenever it is.
_OPERAND = {"IfExpr": "cond", "Cast": "value", "Unary": "operand"}


# A statement's field that may compute `print`s (_reached), and its other fields a pass
# walks (`let`s before the statement compute what the prints are given as the statement did).
_SLOTS = {"ExprStmt": ("expr", ()), "Let": ("value", ("type",)), "Return": ("value", ()),
          "If": ("cond", ("then", "orelse")), "Assign": ("value", ("target",))}


def _slot(s, fn, ranks: dict) -> str | None:
    """The field of statement s that may compute `print`s (_SLOTS), None for none. An
    assignment's value is one only where it is all the statement computes before its write:
    its place a local (a compound assignment, `k += ..`, reads k before its value: one that
    nothing the value calls could change, no closure capturing it and no `&mut` lending it),
    or an element of a tensor local nothing the value calls could change and the value does
    not name (_element: the interpreter locates the element, its indices computed and
    checked, before the value), and no literal in it typed by the place (`x = (1 << 40) +
    ..` of an i64 x), which a `let` before the statement would type otherwise."""
    if s._prod not in _SLOTS:
        return None
    if s._prod != "Assign":
        return _SLOTS[s._prod][0]
    if fn is None or typed_by_place(s.value):
        return None
    if s.target._prod != "Local":
        return "value" if _element(s, fn, ranks) else None
    changed = s.op != "=" and _changeable(fn, s.target.name)
    return None if changed else "value"


def _changeable(fn, name: str) -> bool:
    """Whether a call could change local `name` of fn: a closure captures it, or a `&mut`
    lends it."""
    return any(n._prod == "Local" and n.name == name for c in descendants(fn)
               if c._prod == "Closure" for n in descendants(c)) or \
        any(n._prod == "Borrow" and n.mutable and n.value._prod == "Local" and
            n.value.name == name for n in descendants(fn))


def _element(s, fn, ranks: dict) -> bool:
    """Whether assignment s writes an element (an index per extent) of a tensor local that
    nothing its value calls could change, nor the value names: `let place = &mut t[i];`
    before the statement then locates it where the interpreter does, and `*place = ..`
    writes it. The local is a `let`'s of a tensor made other than by `::uninit()`, never
    assigned whole: track-uninit-elements follows no reference to an element."""
    base, depth = s.target, 0
    while base._prod == "Index":
        base, depth = base.base, depth + 1
    if base._prod != "Local" or ranks.get(base.name) != depth or _changeable(fn, base.name):
        return False
    nodes = list(descendants(fn))
    made = [n.value for n in nodes if n._prod == "Let" and n.name == base.name]
    return len(made) == 1 and made[0]._prod in ("TensorNew", "TensorLit") and \
        getattr(made[0], "ctor", None) != "uninit" and \
        not any(n._prod == "Assign" and n.target._prod == "Local" and
                n.target.name == base.name for n in nodes) and \
        not any(n._prod == "Local" and n.name == base.name for n in descendants(s.value))


def _leaves(e) -> list:
    """What `print` is given, or the parts of the aggregate literal it is given."""
    parts = _parts(e)
    return [leaf for part in parts for leaf in _leaves(part)] if parts else [e]


def _print_call(e):
    """The argument of `print(x)`, None for any other node."""
    if e._prod == "Call" and e.callee._prod == "Global" and e.callee.name == "print" and \
            len(e.args) == 1:
        return e.args[0]
    return None


def _parts(e) -> list:
    """The values a literal of an aggregate `print` is given is made of (an `if` choosing an
    enum's variant: its arms' values), none for any other value."""
    if e._prod == "StructLit":
        return [f.value for f in e.fields]
    if e._prod in ("Tuple", "EnumValue"):
        return list(e.elems if e._prod == "Tuple" else e.args)
    arms = (e.then, e.orelse) if e._prod == "IfExpr" else ()
    if arms and all(not arm.stmts and arm.value is not None and _parts(arm.value)
                    for arm in arms):
        return [arm.value for arm in arms]
    return []


@number_texts.on("StructDecl", "EnumDecl")
def _declared(run, node):
    return node  # an aggregate printed holds its strings' texts


@number_texts.on("NamedType")
def _named(run, node):
    return L["Scalar"]("i32", span=node.span) if node.name == "str" else node


@number_texts.on("Str")
def _str(run, node):
    return L["Int"](run.state.texts.index(node.value), span=node.span)


@number_texts.on("Fn")
def _fn(run, fn):
    run.state.names, run.state.fn = Names(fn), fn
    return run.rebuild(fn)


@number_texts.on("Block")
def _block(run, block):
    types = run.state.types[run.state.item]
    stmts = []
    for s in block.stmts:
        slot = _slot(s, run.state.fn, run.state.ranks.get(run.state.item, {}))
        value = getattr(s, slot) if slot is not None else None
        if value is None or not _reached(value, types):
            stmts.append(run.walk(s))
            continue
        located = {"target": _located(run, run.walk(s.target), s.span, stmts)} \
            if s._prod == "Assign" and s.target._prod == "Index" else {}
        printed = _ordered(run, value, stmts)
        rest = {f: getattr(s, f) and run.walk(getattr(s, f)) for f in _SLOTS[s._prod][1]
                if f not in located}
        stmts.append(s.replace(**rest, **located, **{slot: printed}))
    value = block.value
    if value is not None:
        value = _ordered(run, value, stmts) if _reached(value, types) else run.walk(value)
    return block.replace(stmts=tuple(stmts), value=value)


def _located(run, element, span, lets: list):
    """`*place`, after `let place = &mut element;` in `lets`: the element located, and its
    indices checked, where the interpreter does so for an assignment (span: its)."""
    name = run.state.names.fresh("place")
    lets.append(L["Let"](name, False, L["OpaqueType"](span=span),
                         L["Borrow"](element, True, span=span), span=span))
    return L["Deref"](L["Local"](name, span=span), span=span)


def _ordered(run, e, lets: list):
    """e, each `print` it computes on its way (_reached) given its string by a `let` in
    `lets`, after a `let` each for what e computes before that print (but a number as
    written; a print before it too), so that all compute in their order."""
    types = run.state.types[run.state.item]
    if _print_call(e) is not None and _computed_string(e, types):
        return _printing(run, e, lets)
    operands = []
    reaching = [bool(_reached(operand, types)) for operand in _operands(e)]
    last = max(i for i, reaches in enumerate(reaching) if reaches)
    for i, operand in enumerate(_operands(e)):
        rebuilt = _ordered(run, operand, lets) if reaching[i] else run.walk(operand)
        operands.append(_bound(run, rebuilt, lets) if i < last else rebuilt)
    if e._prod == "IfExpr":
        return e.replace(cond=operands[0], then=run.walk(e.then), orelse=run.walk(e.orelse))
    if e._prod in _OPERAND:
        return e.replace(**{_OPERAND[e._prod]: operands[0]})
    return e.replace(args=tuple(operands)) if e._prod == "Call" else \
        e.replace(left=operands[0], right=operands[1])


def _bound(run, e, lets: list):
    """e (rebuilt), bound to `lets` first unless a number as written."""
    if e._prod in ("Int", "Float", "Bool"):
        return e
    name = run.state.names.fresh("arg")
    lets.append(L["Let"](name, False, L["OpaqueType"](span=e.span), e, span=e.span))
    return L["Local"](name, span=e.span)


@number_texts.on("Call")
def _call(run, call):
    return _printing(run, call, None) if _print_call(call) is not None else run.rebuild(call)


def _printing(run, call, lets: list | None):
    """`print(x)`, x's strings chosen (_chosen); `lets`: where to bind a string a call
    computes, None inside an expression (_unbound: none is)."""
    return call.replace(args=(_chosen(run, call.args[0], lets),))


def _chosen(run, e, lets: list):
    """What `print` is given, each string in it that is not written there a choice of its
    text; a string computed other than by reading a variable is bound first (to `lets`,
    unless None: it is then computed without a call, and again for each text)."""
    if e._prod == "Str":
        return e
    parts = _parts(e)
    if parts:
        if e._prod == "IfExpr":
            arms = [arm.replace(value=_chosen(run, arm.value, lets))
                    for arm in (e.then, e.orelse)]
            return e.replace(cond=run.walk(e.cond), then=arms[0], orelse=arms[1])
        if e._prod == "StructLit":
            return e.replace(fields=tuple(f.replace(value=_chosen(run, f.value, lets))
                                          for f in e.fields))
        chosen = tuple(_chosen(run, p, lets) for p in parts)
        return e.replace(elems=chosen) if e._prod == "Tuple" else e.replace(args=chosen)
    if run.state.types[run.state.item].get(id(e)) != "str":
        return run.walk(e)
    number = run.walk(e)
    if lets is not None and number._prod not in ("Local", "Global"):
        name = run.state.names.fresh("text")
        lets.append(L["Let"](name, False, L["OpaqueType"](span=e.span), number, span=e.span))
        number = L["Local"](name, span=e.span)
    held = run.state.flow.texts(run.state.item, e, run.state.texts)
    return _choice(held, number, e.span)


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
