"""Random, well-defined C expressions over a World's data.

`Generator(seed, features).cases(n, layout)` draws n cases from one seed:
most print one expression's value, some run a short sequence of
assignments and compound assignments on a script variable and print it.
Expressions cover every operator, casts among the integer types, enums,
bit-fields narrow and wide, members through pointers, nested records and
unions, array subscripts, pointer arithmetic and differences, layout
queries (sizeof, _Alignof, __alignof__, offsetof), `?:` and the constructs
listed in FEATURES, each of which can be left out.
"""

import random

from . import ctypes as ct
from . import expr as ex
from .expr import Ptr, make
from .world import ArrayT, StructDecl, World

# Constructs a campaign may leave out (--without), e.g. to measure a
# compiler that does not support them yet.
FEATURES = {
    "swapidx": "i[arr]",
    "arrcond": "an array as a ?: condition",
    "parentype": "type names with a parenthesised declarator",
    "charprefix": "L'a', u'a' and U'a'",
    "strlit": "\"abc\"[i] and sizeof(\"abc\")",
    "elvis": "GNU x ?: y",
    "typeof": "__typeof__",
    "generic": "_Generic",
    "complit": "compound literals",
}

BIN_OPS = ["+", "-", "*", "/", "%", "<<", ">>", "<", ">", "<=", ">=", "==",
           "!=", "&", "^", "|", "&&", "||"]
CAST_TYPES = ct.STANDARD
GENERIC_TYPES = ["int", "unsigned int", "long", "unsigned long", "long long",
                 "unsigned long long", "char", "signed char",
                 "unsigned char", "short", "unsigned short", "_Bool"]


class Case:
    def __init__(self, cid, kind, node=None, var=None, steps=None):
        self.id = cid
        self.kind = kind  # "expr" or "assign"
        self.node = node
        self.var = var  # IntType of the script variable
        self.steps = steps or []  # [(op, Node)]; the first is "="

    def size(self):
        if self.kind == "expr":
            return self.node.size()
        return sum(1 + n.size() for _, n in self.steps)

    def features(self):
        if self.kind == "expr":
            return set(self.node.features)
        out = set()
        for _, n in self.steps:
            out |= n.features
        return out

    def statements(self, lang):
        """The case as C statements (lang "c" or "script"), one line."""
        fmt = 'printf("C%d %%llu\\n", (unsigned long long)(%s));'
        if self.kind == "expr":
            return fmt % (self.id, self.node.render(lang))
        v = "v%d" % self.id
        decl = ("__auto %s %s;" if lang == "script" else "%s %s;") % (
            self.var.spelling, v)
        if lang == "script" and self.storage != "auto":
            decl = ""  # declared at the top of the script
        elif "*" in self.var.spelling and lang == "script":
            decl = "__auto %s%s;" % (self.var.spelling, v)
        body = " ".join("%s %s %s;" % (v, op, n.render(lang))
                        for op, n in self.steps)
        return "{ %s %s %s }" % (decl, body, fmt % (self.id, v))

    def describe(self):
        text = self.statements("script")
        if self.kind == "assign" and self.storage != "auto":
            text = self.top_declaration() + " " + text
        return text

    storage = "auto"  # or "thread", "global": the script variable's class

    def top_declaration(self):
        """The script's top-level declaration of a __thread or __global
        variable of an assignment case."""
        return "__%s %s v%d;" % (self.storage, self.var.spelling.replace(
            " *", " *"), self.id)


def literal_types(value, radix, suffix):
    """C's type list for an integer constant, per model."""
    u = "u" in suffix
    size = suffix.replace("u", "")
    if size == "ll":
        cands = [ct.ULLONG] if u else ([ct.LLONG] if radix == 10 else
                                       [ct.LLONG, ct.ULLONG])
    elif size == "l":
        cands = [ct.ULONG, ct.ULLONG] if u else (
            [ct.LONG, ct.LLONG] if radix == 10 else
            [ct.LONG, ct.ULONG, ct.LLONG, ct.ULLONG])
    else:
        cands = [ct.UINT, ct.ULONG, ct.ULLONG] if u else (
            [ct.INT, ct.LONG, ct.LLONG] if radix == 10 else
            [ct.INT, ct.UINT, ct.LONG, ct.ULONG, ct.LLONG, ct.ULLONG])
    out = {}
    for m in ct.MODELS:
        out[m] = next((t for t in cands if t.fits(m, value)), None)
        if out[m] is None:
            return None
    return out


class Generator:
    def __init__(self, seed, without=()):
        self.seed = seed
        self.rng = random.Random(seed)
        self.world = World(self.rng)
        self.without = set(without)
        self.layout = {}
        self.next_id = 0

    def on(self, feature):
        return feature not in self.without

    # -- layout leaves ------------------------------------------------------
    def layout_queries(self):
        """Texts of sizeof/_Alignof/__alignof__/offsetof leaves whose values
        the runner asks gcc for (per model) before expressions are drawn."""
        w = self.world
        out = []
        types = [t.spelling for t in ct.STANDARD] + [
            e.type.spelling for e in w.enums] + [
            s.spelling for s in w.structs] + ["int *", "struct T *",
                                              "char[5]", "long[3]"]
        if self.on("parentype"):
            types += ["int (*)[3]", "void (*)(int)", "short (*)[3]",
                      "long (*)(void)", "char (*(*)[2])[7]"]
        for t in types:
            for op in ("sizeof", "_Alignof", "__alignof__"):
                out.append(("%s(%s)" % (op, t), "parentype" if "(*" in t
                            else None))
        top = w.top_decl
        for f in top.fields:
            if f.width is None:
                out.append(("offsetof(struct T, %s)" % f.name, None))
                for op in ("sizeof", "__alignof__", "_Alignof"):
                    out.append(("%s(@ARG1->%s)" % (op, f.name), None))
        # The types of promoted and converted members, through sizeof:
        # a wide bit-field's N-bit type has 8 bytes, a narrow one is an int.
        for f in top.fields:
            if isinstance(f.type, ct.IntType):
                for form in ("sizeof(@ARG1->%s + 0)", "sizeof(-@ARG1->%s)",
                             "sizeof(@ARG1->%s << 1)",
                             "sizeof(@ARG1->%s + 1LL)"):
                    out.append((form % f.name, None))
                if self.on("elvis"):
                    out.append(("sizeof(@ARG1->%s ?: 0)" % f.name, "elvis"))
        out.append(("offsetof(struct T, arr[1])", None))
        out.append(("offsetof(struct T, sub.%s)" % next(
            f.name for f in w.leaf_decl.fields if f.width is None), None))
        out.append(("__alignof__(*@ARG1)", None))
        out.append(("__alignof__(@ARG1->arr[0])", None))
        out.append(("sizeof @ARG1->arr", None))
        for i, (t, _) in enumerate(w.params):
            out.append(("__alignof__(@ARG%d)" % (i + 1), None))
            out.append(("sizeof(@ARG%d)" % (i + 1), None))
        if self.on("strlit"):
            out += [('sizeof("abc")', "strlit"), ('sizeof "ab\\0c"',
                                                  "strlit")]
        if self.on("typeof"):
            out += [("sizeof(__typeof__(@ARG3))", "typeof"),
                    ("sizeof(__typeof__(@ARG1->arr))", "typeof"),
                    ("sizeof(__typeof__(@ARG4 + 1L))", "typeof")]
        if self.on("complit"):
            out += [("sizeof((int[5]){1})", "complit"),
                    ("sizeof((struct L){0})", "complit")]
        return out

    def set_layout(self, values):
        self.layout = values

    # -- leaves -------------------------------------------------------------
    def int_literal(self):
        rng = self.rng
        pick = rng.random()
        if pick < 0.15:
            return self.char_literal()
        value = rng.choice([0, 1, 2, 3, 5, 7, 8, 16, 31, 32, 33, 63, 64, 100,
                            127, 128, 255, 256, 0x7fff, 0xffff, 0x7fffffff,
                            0x80000000, 0xffffffff, 0x100000000,
                            0x7fffffffffffffff, 0x8000000000000000,
                            0xffffffffffffffff, rng.randint(0, 1000),
                            rng.getrandbits(rng.choice([8, 16, 31, 32, 48,
                                                        64]))])
        radix = rng.choice([10, 10, 16, 8])
        suffix = rng.choice(["", "", "", "u", "l", "ul", "ll", "ull", "U",
                             "LL", "uLL", "lu"])
        types = literal_types(value, radix, suffix.lower())
        if types is None:
            radix, suffix = 16, "ull"
            types = literal_types(value, radix, suffix)
        text = {10: "%d", 16: "0x%x", 8: "0%o"}[radix] % value
        if radix == 8 and value == 0:
            text = "0"
        return make("lit", {"text": text + suffix, "types": types,
                            "values": {m: value for m in ct.MODELS}}, [])

    def char_literal(self):
        rng = self.rng
        forms = [("'a'", 97), ("'\\n'", 10), ("'\\xff'", -1), ("'\\377'", -1),
                 ("'\\0'", 0), ("'z'", 122), ("'\\x7f'", 127)]
        text, value = rng.choice(forms)
        types = {m: ct.INT for m in ct.MODELS}
        feats = []
        if self.on("charprefix") and rng.random() < 0.5:
            prefix = rng.choice(["L", "u", "U"])
            feats = ["charprefix"]
            if value < 0:
                value = 255
            if prefix == "L":
                types = dict(ex.WCHAR_T)
            else:
                types = {m: ct.USHORT if prefix == "u" else ct.UINT
                         for m in ct.MODELS}
            text = prefix + text
        return make("lit", {"text": text, "types": types, "features": feats,
                            "values": {m: value for m in ct.MODELS}}, [])

    def enumerator(self):
        e = self.rng.choice(self.world.enums)
        name, value = self.rng.choice(e.values)
        return make("lit", {"text": name, "values": {m: value for m in
                                                      ct.MODELS},
                            "types": {m: e.enumerator_type(value, m)
                                      for m in ct.MODELS}}, [])

    def arg(self, index):
        t, v = self.world.params[index - 1]
        if t.is_pointer:
            if v[0] in ("top", "top2"):
                v = Ptr(self.world.instance(v[0]), 0, None)
            else:
                v = Ptr(v[0], v[1], ct.INT)
        return make("arg", {"index": index, "type": t, "value": v}, [])

    def scalar_arg(self):
        idx = [i + 1 for i, (t, _) in enumerate(self.world.params)
               if not t.is_pointer]
        return self.arg(self.rng.choice(idx))

    def layout_leaf(self):
        choices = [(t, v) for t, v in self.layout.items()]
        if not choices:
            return self.int_literal()
        text, (vals, feat) = self.rng.choice(sorted(choices))
        return make("layout", {"text": text, "values": vals,
                               "types": dict(ex.SIZE_T),
                               "features": [feat] if feat else []}, [])

    def struct_base(self):
        """A node designating a struct T object or pointer: (node, arrow)."""
        a = self.arg(self.rng.choice([1, 2]))
        if self.rng.random() < 0.2:
            return make("deref", {}, [a]), False
        return a, True

    def member(self, want_int=True):
        rng = self.rng
        base, arrow = self.struct_base()
        decl = self.world.top_decl
        path = rng.random()
        if path < 0.25:
            # Into the nested leaf: a->sub.x or a->lp->x.
            if rng.random() < 0.5:
                base = make("member", {"arrow": arrow, "field": "sub",
                                       "world": self.world}, [base])
                arrow = False
            else:
                base = make("member", {"arrow": arrow, "field": "lp",
                                       "world": self.world}, [base])
                arrow = True
            decl = self.world.leaf_decl
        f = rng.choice(decl.fields)
        if f.name in ("sub", "lp"):
            f = decl.field("arr")
        node = make("member", {"arrow": arrow, "field": f.name,
                               "world": self.world}, [base])
        if isinstance(f.type, StructDecl):  # the union
            u = rng.choice(f.type.fields)
            return make("member", {"arrow": False, "field": u.name,
                                   "world": self.world}, [node])
        if isinstance(f.type, ArrayT):
            return self.subscript(node, f.type.count)
        if getattr(f.type, "is_pointer", False):
            if f.name == "ip":
                return self.subscript(node, 2)
            return make("member", {"arrow": True, "field": rng.choice(
                [x.name for x in self.world.leaf_decl.fields
                 if isinstance(x.type, ct.IntType)]), "world": self.world},
                [node])
        return node

    def subscript(self, base, count):
        rng = self.rng
        k = rng.randint(0, count - 1)
        idx = make("lit", {"text": str(k), "values": {m: k for m in
                                                       ct.MODELS},
                           "types": {m: ct.INT for m in ct.MODELS}}, [])
        form = rng.random()
        if form < 0.15:
            p = make("binary", {"op": "+"}, [base, idx])
            return make("deref", {}, [p]) if p else None
        attrs = {}
        if self.on("swapidx") and form < 0.3:
            attrs = {"swapped": True, "features": ["swapidx"]}
        return make("index", attrs, [base, idx])

    def pointer(self):
        rng = self.rng
        w = self.world
        pick = rng.random()
        if pick < 0.3:
            return self.arg(rng.choice([1, 2, len(w.params)]))
        base, arrow = self.struct_base()
        if pick < 0.5:
            return make("member", {"arrow": arrow, "field": "ip",
                                   "world": w}, [base])
        arr = make("member", {"arrow": arrow, "field": "arr", "world": w},
                   [base])
        count = w.top_decl.field("arr").type.count
        k = rng.randint(0, count)
        lit = make("lit", {"text": str(k), "values": {m: k for m in
                                                       ct.MODELS},
                           "types": {m: ct.INT for m in ct.MODELS}}, [])
        if pick < 0.7:
            return make("binary", {"op": "+"}, [arr, lit])
        if pick < 0.85 and k < count:
            return make("addr", {}, [make("index", {}, [arr, lit])])
        return arr

    def byte_read(self):
        """A byte of a struct T object read through an unsigned char
        pointer: casts between pointer types and reads of target memory at
        a computed offset. Its value depends on the layout, so the
        generator does not know it."""
        sizes = self.layout.get("sizeof(struct T)")
        if not sizes:
            return self.int_literal()
        k = self.rng.randint(0, min(sizes[0].values()) - 1)
        a = self.rng.choice([1, 2])
        return make("layout", {
            "text": "((unsigned char *)@ARG%d)[%d]" % (a, k),
            "values": {m: None for m in ct.MODELS},
            "types": {m: ct.UCHAR for m in ct.MODELS}}, [])

    def leaf(self):
        pick = self.rng.random()
        if pick < 0.04:
            return self.byte_read()
        if pick < 0.22:
            return self.int_literal()
        if pick < 0.3:
            return self.enumerator()
        if pick < 0.45:
            return self.scalar_arg()
        if pick < 0.8:
            return self.member()
        if pick < 0.9:
            return self.layout_leaf()
        return self.special_leaf()

    def special_leaf(self):
        """Leaves that exercise one FEATURE each."""
        rng = self.rng
        opts = [f for f in ("strlit", "complit", "parentype") if self.on(f)]
        if not opts:
            return self.int_literal()
        f = rng.choice(opts)
        if f == "strlit":
            s, i = rng.choice([("abc", 1), ("hello", 4), ("x\\ty", 1),
                               ("\\xff", 0), ("ab", 2)])
            chars = {"abc": [97, 98, 99, 0], "hello": [104, 101, 108, 108,
                                                       111, 0],
                     "x\\ty": [120, 9, 121, 0], "\\xff": [-1, 0],
                     "ab": [97, 98, 0]}[s]
            return make("lit", {"text": '"%s"[%d]' % (s, i),
                                "values": {m: chars[i] for m in ct.MODELS},
                                "types": {m: ct.CHAR for m in ct.MODELS},
                                "features": ["strlit"]}, [])
        if f == "complit":
            v = rng.randint(-50, 300)
            t = rng.choice([ct.INT, ct.UCHAR, ct.LLONG, ct.SHORT])
            arr = [rng.randint(0, 200) for _ in range(3)]
            k = rng.randint(0, 2)
            text, val = rng.choice([
                ("(%s){%d}" % (t.spelling, v), t.wrap("LP64", v)),
                ("(%s[3]){%d, %d, %d}[%d]" % (t.spelling, arr[0], arr[1],
                                              arr[2], k),
                 t.wrap("LP64", arr[k]))])
            return make("lit", {"text": text, "values": {m: val for m in
                                                          ct.MODELS},
                                "types": {m: t for m in ct.MODELS},
                                "features": ["complit"]}, [])
        return make("layout", {
            "text": "sizeof(*(short (*)[3])0)", "features": ["parentype"],
            "values": {m: 6 for m in ct.MODELS}, "types": dict(ex.SIZE_T)},
            [])

    # -- composite expressions ----------------------------------------------
    def int_expr(self, depth):
        for _ in range(12):
            n = self._int_expr_once(depth)
            if n is not None and n.is_int():
                return n
        return self.int_literal()

    def _int_expr_once(self, depth):
        rng = self.rng
        if depth <= 0 or rng.random() < 0.2:
            return self.leaf()
        pick = rng.random()
        sub = lambda: self.int_expr(depth - 1)  # noqa: E731
        if pick < 0.45:
            return self.binary(depth)
        if pick < 0.57:
            return make("unary", {"op": rng.choice(["-", "~", "!", "+"])},
                        [sub()])
        if pick < 0.72:
            t = rng.choice(CAST_TYPES + [e.type for e in self.world.enums])
            return make("cast", {"type": t.spelling, "to": t}, [sub()])
        if pick < 0.8:
            return self.conditional(depth)
        if pick < 0.9:
            return self.pointer_expr()
        if pick < 0.95 and self.on("generic"):
            return self.generic(depth)
        if self.on("typeof"):
            return self.typeof_cast(depth)
        return sub()

    def binary(self, depth):
        rng = self.rng
        op = rng.choice(BIN_OPS)
        l, r = self.int_expr(depth - 1), self.int_expr(depth - 1)
        n = make("binary", {"op": op}, [l, r])
        if n is not None:
            return n
        # Guard the right operand the way csmith does, within range.
        if op in ("<<", ">>"):
            mask = make("lit", {"text": "7", "values": {"ILP32": 7,
                                                        "LP64": 7},
                                "types": {m: ct.INT for m in ct.MODELS}},
                        [])
            r2 = make("binary", {"op": "&"}, [r, mask])
            if r2 is not None:
                return make("binary", {"op": op}, [l, r2])
        if op in ("+", "-", "*", "/", "%"):
            ul = make("cast", {"type": "unsigned long long",
                               "to": ct.ULLONG}, [l])
            if ul is not None:
                return make("binary", {"op": op}, [ul, r])
        return None

    def conditional(self, depth):
        rng = self.rng
        c = self.int_expr(depth - 1)
        if self.on("arrcond") and rng.random() < 0.1:
            base, arrow = self.struct_base()
            c = make("member", {"arrow": arrow, "field": "arr",
                                "world": self.world,
                                "features": ["arrcond"]}, [base])
        if self.on("elvis") and rng.random() < 0.2:
            return make("cond", {"features": ["elvis"]},
                        [c, None, self.int_expr(depth - 1)])
        return make("cond", {}, [c, self.int_expr(depth - 1),
                                 self.int_expr(depth - 1)])

    def pointer_expr(self):
        """An integer computed from pointers: differences, comparisons,
        truth values and conversions of addresses."""
        rng = self.rng
        p, q = self.pointer(), self.pointer()
        if p is None or q is None:
            return None
        pick = rng.random()
        if pick < 0.35:
            return make("binary", {"op": "-"}, [p, q])
        if pick < 0.6:
            return make("binary", {"op": rng.choice(["<", "<=", "==", "!=",
                                                     ">", ">="])}, [p, q])
        if pick < 0.65:
            return make("unary", {"op": "!"}, [p])
        if pick < 0.7:
            zero = make("lit", {"text": "0", "values": {m: 0 for m in
                                                        ct.MODELS},
                                "types": {m: ct.INT for m in ct.MODELS}},
                        [])
            if rng.random() < 0.5:
                return make("binary", {"op": rng.choice(["==", "!="])},
                            [p, zero])
            return make("cast", {"type": "_Bool", "to": ct.BOOL}, [p])
        if pick < 0.85:
            t = rng.choice([ct.ULONG, ct.LLONG, ct.ULLONG, ct.LONG])
            return make("cast", {"type": t.spelling, "to": t}, [p])
        # A constant address converted to a wider or equal integer.
        addr = rng.choice([0xfffffff0, 0x80000000, 0xffffffff, 0x1000,
                           0x7ffffff0])
        lit = make("lit", {"text": "0x%xU" % addr, "values": {
            m: addr for m in ct.MODELS}, "types": {
            m: ct.UINT for m in ct.MODELS}}, [])
        pt = rng.choice([ct.PointerType("struct T", "struct T *"),
                         ct.PointerType("int", "int *"),
                         ct.PointerType("char", "char *"),
                         ct.PointerType("void", "void *")])
        cp = make("cast", {"type": pt.spelling, "to": pt}, [lit])
        t = rng.choice([ct.LLONG, ct.ULLONG, ct.LONG, ct.ULONG])
        return make("cast", {"type": t.spelling, "to": t}, [cp])

    def generic(self, depth):
        k = self.int_expr(depth - 1)
        names = list(GENERIC_TYPES)
        self.rng.shuffle(names)
        names = names[:self.rng.randint(2, len(names))]
        assoc = [(t, i + 1) for i, t in enumerate(names)]
        if self.rng.random() < 0.7:
            assoc.append(("default", 0))
        return make("generic", {"assoc": assoc, "default": 0,
                                "features": ["generic"]}, [k])

    def typeof_cast(self, depth):
        k = self.int_expr(depth - 1)
        src = self.scalar_arg()
        if k is None or src is None:
            return None
        t = src.attrs["type"]
        return make("cast", {"type": "__typeof__(@ARG%d)" % src.attrs[
            "index"], "to": t, "features": ["typeof"]}, [k])

    # -- cases --------------------------------------------------------------
    def case(self):
        cid = self.next_id
        self.next_id += 1
        if self.rng.random() < 0.15:
            return self.assign_case(cid)
        return Case(cid, "expr", node=self.int_expr(self.rng.randint(1, 4)))

    def pointer_assign_case(self, cid):
        """A script pointer variable moved with += and -=: pointer
        arithmetic on a variable of each model's pointer width."""
        rng = self.rng
        init = self.pointer()
        if init is None or not init.is_pointer() or not all(
                isinstance(init.val[m], Ptr) and init.val[m].elems()
                for m in ct.MODELS):
            return None
        t = ct.PointerType("int", "int *")
        steps = [("=", init)]
        p = init.val["LP64"]
        idx, count = p.idx, len(p.elems())
        for _ in range(rng.randint(1, 3)):
            k = rng.randint(0, count)
            op = "+=" if k >= idx else "-="
            d = abs(k - idx)
            steps.append((op, make("lit", {
                "text": str(d), "values": {m: d for m in ct.MODELS},
                "types": {m: ct.INT for m in ct.MODELS}}, [])))
            idx = k
        if p.elem is not ct.INT:
            return None
        return Case(cid, "assign", var=t, steps=steps)

    def assign_case(self, cid):
        rng = self.rng
        if rng.random() < 0.2:
            c = self.pointer_assign_case(cid)
            if c is not None:
                return c
        t = rng.choice([x for x in ct.STANDARD if x.rank > 1] +
                       [e.type for e in self.world.enums])
        steps = []
        value = {}
        init = self.int_expr(2)
        for m in ct.MODELS:
            it, iv = ex.rvalue(init, m)
            value[m] = ex.convert(iv, it, t, m) if isinstance(iv, int) \
                else None
        steps.append(("=", init))
        for _ in range(rng.randint(1, 3)):
            op = rng.choice(["+=", "-=", "*=", "/=", "%=", "<<=", ">>=",
                             "&=", "^=", "|="])
            e = self.int_expr(2)
            var = make("var", {"name": "v%d" % cid, "type": t,
                               "value": value}, [])
            n = make("binary", {"op": op[:-1]}, [var, e])
            if n is None or not n.known():
                continue
            steps.append((op, e))
            value = {m: t.wrap(m, n.val[m]) for m in ct.MODELS}
        case = Case(cid, "assign", var=t, steps=steps)
        # Thread-locals have the model's widths, as autos do; a global
        # integer keeps its LP64 width in ILP32 processes by design
        # (docs/language.md), so only types of one width in both models
        # are globals here.
        pick = rng.random()
        if pick < 0.2:
            case.storage = "thread"
        elif pick < 0.35 and not t.is_pointer and \
                t.bits["ILP32"] == t.bits["LP64"]:
            case.storage = "global"
        return case

    def cases(self, count):
        return [self.case() for _ in range(count)]
