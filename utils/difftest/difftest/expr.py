"""Expression trees with their type and value in each data model.

Every node is built by `make(kind, attrs, kids)`, which types it with gcc's
rules for both models and evaluates it where the operands are known; it
returns None when the operation would be undefined behaviour in either
model (signed overflow, a shift out of range, a division by zero, an access
out of bounds), so the generator and the reducer only ever hold well-defined
trees. A value of None means "not known to the generator" (an address, a
byte of a union): such values may be printed but never feed an operation
whose definedness depends on them.
"""

from . import ctypes as ct
from .world import ArrayT, StructDecl

M2 = ct.MODELS

SIZE_T = {"ILP32": ct.UINT, "LP64": ct.ULONG}
PTRDIFF_T = {"ILP32": ct.INT, "LP64": ct.LONG}
WCHAR_T = {"ILP32": ct.LONG, "LP64": ct.INT}


class Ptr:
    """A pointer the generator can follow: element `idx` of array object
    `obj` (an ArrayObject or a member array (Instance, field)), or the
    record Instance itself (idx 0)."""

    def __init__(self, obj, idx, elem):
        self.obj, self.idx, self.elem = obj, idx, elem

    def key(self):
        o = self.obj
        return (o[0].name, o[1]) if isinstance(o, tuple) else o.name

    def elems(self):
        o = self.obj
        if isinstance(o, tuple):
            return o[0].values[o[1]]
        return getattr(o, "values", None)


class Node:
    def __init__(self, kind, attrs, kids):
        self.kind = kind
        self.attrs = attrs
        self.kids = kids
        self.ty = {}
        self.val = {}
        self.lvalue = False
        self.bitfield = None  # (declared type, width) of a bit-field member
        self.features = set()
        for k in kids:
            if k is not None:
                self.features |= k.features

    def size(self):
        return 1 + sum(k.size() for k in self.kids if k is not None)

    def is_int(self):
        return all(getattr(self.ty[m], "is_int", False) for m in M2)

    def is_pointer(self):
        return all(getattr(self.ty[m], "is_pointer", False) for m in M2)

    def known(self):
        return all(isinstance(self.val[m], int) for m in M2)

    def render(self, lang):
        return RENDER[self.kind](self, lang)


# --------------------------------------------------------------------------
# Rendering


def _r(n, lang):
    return n.render(lang)


def _paren(n, lang):
    return "(" + n.render(lang) + ")"


RENDER = {
    "lit": lambda n, lang: n.attrs["text"],
    "arg": lambda n, lang: ("__arg%d" if lang == "script" else "a%d") %
    n.attrs["index"],
    "var": lambda n, lang: n.attrs["name"],
    "member": lambda n, lang: "%s%s%s" % (
        _paren(n.kids[0], lang), "->" if n.attrs["arrow"] else ".",
        n.attrs["field"]),
    "index": lambda n, lang: ("%s[%s]" % (_paren(n.kids[1], lang),
                                          _r(n.kids[0], lang))
                              if n.attrs.get("swapped") else
                              "%s[%s]" % (_paren(n.kids[0], lang),
                                          _r(n.kids[1], lang))),
    "deref": lambda n, lang: "*" + _paren(n.kids[0], lang),
    "addr": lambda n, lang: "&" + _paren(n.kids[0], lang),
    "unary": lambda n, lang: n.attrs["op"] + _paren(n.kids[0], lang),
    "binary": lambda n, lang: "%s %s %s" % (
        _paren(n.kids[0], lang), n.attrs["op"], _paren(n.kids[1], lang)),
    "cond": lambda n, lang: ("%s ?: %s" % (_paren(n.kids[0], lang),
                                           _paren(n.kids[2], lang))
                             if n.kids[1] is None else
                             "%s ? %s : %s" % (_paren(n.kids[0], lang),
                                               _paren(n.kids[1], lang),
                                               _paren(n.kids[2], lang))),
    "cast": lambda n, lang: "(%s)%s" % (
        n.attrs["type"].replace("@ARG", "__arg" if lang == "script"
                                else "a"), _paren(n.kids[0], lang)),
    "layout": lambda n, lang: n.attrs["text"].replace(
        "@ARG", "__arg" if lang == "script" else "a"),
    "generic": lambda n, lang: "_Generic(%s, %s)" % (
        _r(n.kids[0], lang), ", ".join("%s: %d" % (t, i) for t, i in
                                       n.attrs["assoc"])),
}


# --------------------------------------------------------------------------
# Typing and evaluation


def _wrap_or_none(t, m, v):
    if v is None:
        return None
    return t.wrap(m, v)


def _overflows(t, m, v):
    return t.signed and not t.fits(m, v)


def convert(v, frm, to, m):
    """v of type frm converted to integer type to (None stays None)."""
    if v is None:
        return None
    if isinstance(v, Ptr):
        return None
    if getattr(frm, "is_pointer", False):
        # gcc: a pointer converted to a wider integer is sign-extended.
        pbits = 32 if m == "ILP32" else 64
        v = ct.LLONG.wrap("LP64", v) if pbits == 64 else ct.INT.wrap(m, v)
    return to.wrap(m, v)


def value_type(n, m):
    """The type n's value has where an operator uses it: bit-fields as gcc
    promotes them, arrays decayed."""
    if n.bitfield is not None:
        decl, width = n.bitfield
        return ct.bitfield_value_type(decl, width, m)
    t = n.ty[m]
    if isinstance(t, ArrayT):
        return ct.PointerType("elem", "elem *")
    return t


class Invalid(Exception):
    """An operand that C does not allow there (a record as a value, say):
    the reducer's candidates can be ill-formed, and are then dropped."""


def rvalue(n, m):
    """(type, value) of n as an operand of an arithmetic operator."""
    t = value_type(n, m)
    if not getattr(t, "is_int", False) and not getattr(t, "is_pointer",
                                                         False):
        raise Invalid()
    if not getattr(t, "is_int", False):
        return t, n.val[m]
    return ct.promote(t, m), n.val[m]


def _arith(op, a, b, t, m):
    """a op b computed in integer type t, or "UB"."""
    if a is None or b is None:
        if op in ("/", "%") and b in (0, None):
            return "UB"
        if t.signed and op in "+-*":
            return "UB"
        return None
    if op == "+":
        r = a + b
    elif op == "-":
        r = a - b
    elif op == "*":
        r = a * b
    elif op in ("/", "%"):
        if b == 0:
            return "UB"
        q = abs(a) // abs(b)
        if (a < 0) != (b < 0):
            q = -q
        r = q if op == "/" else a - q * b
        if op == "%" and _overflows(t, m, q):
            return "UB"
    elif op == "&":
        r = a & b
    elif op == "|":
        r = a | b
    elif op == "^":
        r = a ^ b
    else:
        raise ValueError(op)
    if _overflows(t, m, r):
        return "UB"
    return t.wrap(m, r)


def _shift(op, a, b, t, m):
    bits = t.bits[m]
    if b is None or b < 0 or b >= bits:
        return "UB"
    if a is None:
        return "UB" if t.signed else None
    if op == "<<":
        if t.signed and (a < 0 or a << b > t.max(m)):
            return "UB"
        return t.wrap(m, a << b)
    return a >> b


def _compare(op, a, b):
    return int({"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b,
                "==": a == b, "!=": a != b}[op])


def _ptr_compare(op, p, q):
    if not isinstance(p, Ptr) or not isinstance(q, Ptr):
        if op in ("==", "!=") and (p == 0 or q == 0):
            nonnull = p if q == 0 else q
            if isinstance(nonnull, Ptr):
                return int(op == "!=")
        return "UB" if op not in ("==", "!=") else None
    if p.key() != q.key():
        return int(op == "!=") if op in ("==", "!=") else "UB"
    return _compare(op, p.idx, q.idx)


def truth(n, m):
    t = value_type(n, m)
    if not getattr(t, "is_int", False) and not getattr(t, "is_pointer",
                                                         False):
        raise Invalid()
    v = n.val[m]
    if isinstance(v, Ptr):
        return 1
    if v is None:
        return None
    return int(v != 0)


def make(kind, attrs, kids):
    """Builds and types a node; None if it is undefined in either model."""
    n = Node(kind, attrs, kids)
    n.features |= set(attrs.get("features", ()))
    for m in M2:
        n.val[m] = None
        try:
            if TYPERS[kind](n, m) == "UB":
                return None
        except (Invalid, AttributeError, KeyError, TypeError, IndexError):
            # An ill-formed shape (the reducer tries many): not C, dropped.
            return None
    return n


def _t_lit(n, m):
    n.ty[m] = n.attrs["types"][m]
    n.val[m] = n.attrs["values"][m]


def _t_arg(n, m):
    n.ty[m], n.val[m] = n.attrs["type"], n.attrs["value"]
    n.lvalue = False


def _t_var(n, m):
    n.ty[m] = n.attrs["type"]
    n.val[m] = n.attrs["value"][m]
    n.lvalue = True


def _t_member(n, m):
    base = n.kids[0]
    if n.attrs["arrow"]:
        p = base.val[m]
        if not isinstance(p, Ptr):
            return "UB"
        inst = p.obj
    else:
        inst = base.val[m]
    if isinstance(inst, tuple):
        # A member of a union that holds a u64: its little-endian low bits.
        f = base.ty[m].field(n.attrs["field"])
        n.ty[m] = f.type
        n.lvalue = True
        n.val[m] = f.type.wrap(m, inst[1])
        return None
    if inst is None:
        return "UB"
    f = inst.decl.field(n.attrs["field"])
    n.ty[m] = f.type
    n.lvalue = True
    n.attrs["packed"] = inst.decl.packed or base.attrs.get("packed", False)
    if f.width is not None:
        n.bitfield = (f.type, f.width)
    v = inst.values[f.name]
    t = f.type
    if isinstance(t, StructDecl) and t.union:
        n.val[m] = v  # ("u64", value): members read it below
    elif isinstance(t, ArrayT):
        n.val[m] = Ptr((inst, f.name), 0, t.elem)
    elif getattr(t, "is_pointer", False):
        if f.name == "ip":
            n.val[m] = Ptr(v[0], v[1], ct.INT)
        else:
            n.val[m] = Ptr(n.attrs["world"].leaf_inst, 0, None)
    elif isinstance(v, tuple):
        n.val[m] = None
    else:
        n.val[m] = v


def _t_index(n, m):
    base, idx = n.kids
    p = base.val[m]
    i = idx.val[m]
    if not idx.is_int() or not isinstance(p, Ptr) or i is None:
        return "UB"
    elems = p.elems()
    if elems is None or not 0 <= p.idx + i < len(elems):
        return "UB"
    n.ty[m] = p.elem
    n.val[m] = elems[p.idx + i]
    n.lvalue = True


def _t_deref(n, m):
    p = n.kids[0].val[m]
    if not isinstance(p, Ptr):
        return "UB"
    if p.elem is None:
        n.ty[m] = p.obj.decl
        n.val[m] = p.obj
        n.lvalue = True
        return None
    elems = p.elems()
    if elems is None or not 0 <= p.idx < len(elems):
        return "UB"
    n.ty[m] = p.elem
    n.val[m] = elems[p.idx]
    n.lvalue = True


def _t_addr(n, m):
    k = n.kids[0]
    if k.bitfield is not None:
        return "UB"
    n.ty[m] = ct.PointerType("x", "x *")
    if k.kind == "index":
        p = k.kids[0].val[m]
        n.val[m] = Ptr(p.obj, p.idx + k.kids[1].val[m], p.elem)
    else:
        n.val[m] = None


def _t_unary(n, m):
    op = n.attrs["op"]
    k = n.kids[0]
    if op == "!":
        n.ty[m] = ct.INT
        t = truth(k, m)
        n.val[m] = None if t is None else 1 - t
        return None
    t, v = rvalue(k, m)
    if not getattr(t, "is_int", False):
        return "UB"
    n.ty[m] = t
    if op == "-":
        if v is None:
            return "UB" if t.signed else None
        if _overflows(t, m, -v):
            return "UB"
        n.val[m] = t.wrap(m, -v)
    elif op == "~":
        n.val[m] = _wrap_or_none(t, m, None if v is None else ~v)
    else:
        n.val[m] = v


def _t_binary(n, m):
    op = n.attrs["op"]
    l, r = n.kids
    if op in ("&&", "||"):
        n.ty[m] = ct.INT
        a, b = truth(l, m), truth(r, m)
        if op == "&&":
            n.val[m] = 0 if a == 0 else (None if a is None or b is None
                                          else int(bool(b)))
        else:
            n.val[m] = 1 if a == 1 else (None if a is None or b is None
                                          else int(bool(b)))
        return None
    lt, lv = rvalue(l, m)
    rt, rv = rvalue(r, m)
    lp, rp = getattr(lt, "is_pointer", False), getattr(rt, "is_pointer",
                                                       False)
    if lp or rp:
        return _t_pointer_binary(n, m, op, lt, lv, rt, rv)
    if op in ("<<", ">>"):
        n.ty[m] = lt
        res = _shift(op, lv, rv, lt, m)
    else:
        t = ct.common(lt, rt, m)
        a, b = convert(lv, lt, t, m), convert(rv, rt, t, m)
        if op in ("<", ">", "<=", ">=", "==", "!="):
            n.ty[m] = ct.INT
            res = None if a is None or b is None else _compare(op, a, b)
        else:
            n.ty[m] = t
            res = _arith(op, a, b, t, m)
    if res == "UB":
        return "UB"
    n.val[m] = res


def _t_pointer_binary(n, m, op, lt, lv, rt, rv):
    lp, rp = lt.is_pointer, rt.is_pointer
    if op in ("<", ">", "<=", ">=", "==", "!="):
        n.ty[m] = ct.INT
        res = _ptr_compare(op, lv, rv)
    elif op == "-" and lp and rp:
        n.ty[m] = PTRDIFF_T[m]
        if not (isinstance(lv, Ptr) and isinstance(rv, Ptr) and
                lv.key() == rv.key()):
            return "UB"
        res = lv.idx - rv.idx
    elif op in ("+", "-") and (lp != rp):
        p, i = (lv, rv) if lp else (rv, lv)
        n.ty[m] = lt if lp else rt
        if not isinstance(p, Ptr) or i is None or p.elems() is None:
            return "UB"
        j = p.idx + (i if op == "+" else -i)
        if not 0 <= j <= len(p.elems()):
            return "UB"
        res = Ptr(p.obj, j, p.elem)
    else:
        return "UB"
    if res == "UB":
        return "UB"
    n.val[m] = res


def _t_cond(n, m):
    c, a, b = n.kids
    if a is None:
        a = c
    at, av = rvalue(a, m)
    bt, bv = rvalue(b, m)
    t_ = truth(c, m)
    if at.is_int and bt.is_int:
        t = ct.common(at, bt, m)
        av, bv = convert(av, at, t, m), convert(bv, bt, t, m)
    elif at.is_pointer and bt.is_pointer:
        t = at
    else:
        return "UB"
    n.ty[m] = t
    n.val[m] = None if t_ is None else (av if t_ else bv)


def _t_cast(n, m):
    to = n.attrs["to"][m] if isinstance(n.attrs["to"], dict) else \
        n.attrs["to"]
    ft, fv = rvalue(n.kids[0], m)
    n.ty[m] = to
    if to.is_pointer:
        if ft.is_pointer:
            n.val[m] = fv if n.attrs.get("keep_target") else None
        else:
            n.val[m] = None if fv is None else ct.ULONG.wrap(m, fv)
            n.attrs.setdefault("const_ptr", {})[m] = n.val[m]
        return None
    if ft.is_pointer and isinstance(fv, int):
        # A constant address: gcc sign-extends it when widening.
        bits = 32 if m == "ILP32" else 64
        sv = fv - (1 << bits) if fv >> (bits - 1) else fv
        n.val[m] = to.wrap(m, sv)
        return None
    n.val[m] = convert(fv, ft, to, m)


def _t_layout(n, m):
    n.ty[m] = n.attrs["types"][m]
    n.val[m] = n.attrs["values"][m]


def _t_generic(n, m):
    k = n.kids[0]
    t = value_type(k, m) if k.bitfield is None else \
        _generic_bitfield_type(k, m)
    n.ty[m] = ct.INT
    if getattr(t, "enum", None) is not None:
        return "UB"  # which integer type an enum is compatible with varies
    sel = None
    for spelling, i in n.attrs["assoc"]:
        if spelling == "default" and sel is None:
            sel = i
        if spelling != "default" and spelling == getattr(t, "spelling",
                                                         None):
            sel = i
            break
    if sel is None:
        return "UB"  # no association: not valid C
    n.val[m] = sel


def _generic_bitfield_type(k, m):
    decl, width = k.bitfield
    if width == decl.bits[m] or decl.rank == 1:
        return decl
    for t in (ct.INT, ct.SCHAR, ct.SHORT, ct.LONG, ct.LLONG):
        if width == t.bits[m]:
            return t if decl.signed else {
                ct.INT: ct.UINT, ct.SCHAR: ct.UCHAR, ct.SHORT: ct.USHORT,
                ct.LONG: ct.ULONG, ct.LLONG: ct.ULLONG}[t]
    return ct.bitfield_type(width, decl.signed)


TYPERS = {
    "lit": _t_lit, "arg": _t_arg, "var": _t_var, "member": _t_member,
    "index": _t_index, "deref": _t_deref, "addr": _t_addr,
    "unary": _t_unary, "binary": _t_binary, "cond": _t_cond,
    "cast": _t_cast, "layout": _t_layout, "generic": _t_generic,
}


def rebuild(n, kids):
    """n with new children, retyped; None if that is undefined."""
    attrs = dict(n.attrs)
    return make(n.kind, attrs, kids)
