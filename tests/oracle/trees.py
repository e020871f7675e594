"""Short constructors for hand-built Lsrc trees, for the cases text cannot state (later ILs'
productions) and to test the interpreter without the parser."""

from nano_vx.languages.l0_source import Lsrc

N = Lsrc.nodes


def var(name):
    return N["Var"](name)


def lit(v):
    if type(v) is bool:
        return N["Bool"](v)
    return N["Int"](v) if type(v) is int else N["Float"](v)


def ex(v):
    """An expression from a node, a Python number, or a variable name."""
    if isinstance(v, str):
        return var(v)
    if isinstance(v, (int, float)):
        return lit(v)
    return v


def bin_(op, left, right):
    return N["Binary"](op, ex(left), ex(right))


def call(name, *args, targs=()):
    return N["Call"](var(name), tuple(targs), tuple(ex(a) for a in args))


def let(name, value, ty=None, mut=False):
    return N["Let"](name, mut, ty, ex(value))


def assign(target, value, op="="):
    return N["Assign"](ex(target), op, ex(value))


def block(*stmts, value=None):
    return N["Block"](tuple(stmts), ex(value) if value is not None else None)


def print_(v):
    return N["ExprStmt"](call("print", v))


def scalar(name):
    return N["Scalar"](name)


def tensor_t(elem, *dims):
    return N["TensorType"](scalar(elem), tuple(N["DimInt"](d) if type(d) is int else d
                                               for d in dims), None)


def fn(name, *stmts, params=(), ret=None, generics=(), value=None):
    return N["Fn"](name, tuple(generics), tuple(params), None, ret, (), block(*stmts, value=value))


def program(*items):
    return N["Program"](tuple(items))


def main(*stmts, ret=None, value=None):
    return program(fn("main", *stmts, ret=ret, value=value))
