"""The declarations and data a campaign's expressions read: enums, structs
(bit-fields wide and narrow, packed and aligned, nested records, unions,
arrays, pointers to other objects), their instances with known values, and
the probe function's typed arguments.

Everything is drawn from one random.Random, so a seed always gives the same
world; the C text is the same for the traced program and the script's
declaration section.
"""

from . import ctypes as ct


class EnumDecl:
    def __init__(self, name, values):
        self.name = name
        self.values = values  # [(enumerator, value)]
        lo = min(v for _, v in values)
        hi = max(v for _, v in values)
        self.signed = lo < 0
        self.bits = 32 if (-(1 << 31) <= lo and hi < (1 << 32)) else 64
        if self.signed and hi >= (1 << 31):
            self.bits = 64
        self.type = ct.IntType("enum " + name, {m: self.bits
                                                for m in ct.MODELS},
                               self.signed, 4 if self.bits == 32 else 6,
                               enum=self)

    def c_text(self):
        body = ", ".join("%s = %s" % (n, _c_literal(v)) for n, v in
                         self.values)
        return "enum %s { %s };" % (self.name, body)

    def enumerator_type(self, value, m):
        """gcc: an enumerator that fits in int is an int, else it has the
        enum's (promoted) type."""
        if -(1 << 31) <= value < (1 << 31):
            return ct.INT
        return ct.enum_promoted(self, m)


def _c_literal(v):
    if -(1 << 31) <= v < (1 << 31):
        return str(v)
    if v == -(1 << 63):
        return "(-9223372036854775807LL - 1)"  # no literal has this value
    if v < 0:
        return "(%dLL)" % v
    return "%dULL" % v


class ArrayT:
    def __init__(self, elem, count):
        self.elem = elem  # IntType or a StructDecl
        self.count = count

    is_pointer = False
    is_int = False


class Field:
    def __init__(self, name, type_, width=None, spelling=None):
        self.name = name
        self.type = type_  # IntType, PointerType, ArrayT or StructDecl
        self.width = width  # bit-field width
        self.spelling = spelling or ""
        self.aligned = None


class StructDecl:
    is_pointer = False
    is_int = False

    def __init__(self, name, union=False, packed=False):
        self.name = name
        self.union = union
        self.packed = packed
        self.fields = []

    @property
    def spelling(self):
        return ("union " if self.union else "struct ") + self.name

    def field(self, name):
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(name)

    def c_text(self):
        lines = []
        for f in self.fields:
            lines.append("  " + _field_decl(f) + ";")
        attr = " __attribute__((packed))" if self.packed else ""
        return "%s {\n%s\n}%s;" % (self.spelling, "\n".join(lines), attr)


def type_spelling(t):
    if isinstance(t, StructDecl):
        return t.spelling
    return t.spelling


def _field_decl(f):
    t = f.type
    if isinstance(t, ArrayT):
        text = "%s %s[%d]" % (type_spelling(t.elem), f.name, t.count)
    elif t.is_pointer:
        text = "%s *%s" % (t.pointee, f.name)
    else:
        text = "%s %s" % (type_spelling(t), f.name)
    if f.width is not None:
        text += " : %d" % f.width
    if f.aligned:
        text += " __attribute__((aligned(%d)))" % f.aligned
    return text


class Instance:
    """A global object of a struct type with known member values: ints for
    integer members, lists for arrays, Instances for nested records and
    (object, index) targets for pointer members."""

    def __init__(self, name, decl):
        self.name = name
        self.decl = decl
        self.values = {}


class ArrayObject:
    """A global array whose elements the generator knows."""

    def __init__(self, name, elem, values):
        self.name = name
        self.elem = elem
        self.values = values


INTERESTING = [0, 1, 2, 3, 7, 8, 15, 16, 31, 32, 63, 64, 100, 127, 128, 255,
               256, 1000, 4095, 65535, 65536, 0x7fff, 0x8000, 0x7fffffff,
               0x80000000, 0xffffffff, 0x12345678, 0x89abcdef,
               0x7fffffffffffffff, 0xfedcba9876543210]


def random_value(rng, t, m="LP64"):
    """A value of integer type t that is valid in both models (for `long`
    the ILP32 range)."""
    lo = max(t.min(x) for x in ct.MODELS) if t.signed else 0
    hi = min(t.max(x) for x in ct.MODELS)
    if t.rank == 1:
        return rng.choice([0, 1])
    pick = rng.random()
    if pick < 0.15:
        return rng.choice([lo, hi, 0, 1, -1 if t.signed else hi])
    if pick < 0.6:
        v = rng.choice(INTERESTING)
        if rng.random() < 0.4 and t.signed:
            v = -v
        if lo <= v <= hi:
            return v
        return t.wrap("ILP32", v) if lo <= t.wrap("ILP32", v) <= hi else 0
    if pick < 0.8:
        return rng.randint(max(lo, -300), min(hi, 300))
    return rng.randint(lo, hi)


class World:
    """Types, data and the probe's parameters of one campaign program."""

    def __init__(self, rng):
        self.rng = rng
        self.enums = []
        self.structs = []
        self.instances = []
        self.arrays = []
        self.params = []  # [(IntType|PointerType, value)]
        self._build()

    # -- construction -----------------------------------------------------
    def _build(self):
        rng = self.rng
        self.enums = [
            EnumDecl("es", [("ES_A", 0), ("ES_B", 1), ("ES_C", 200)]),
            EnumDecl("en", [("EN_M", -3), ("EN_Z", 0), ("EN_P", 70000)]),
            EnumDecl("eb", [("EB_S", 5), ("EB_BIG", 0x1234567890)]),
        ]
        self.ints = ArrayObject("g_ints", ct.INT,
                                [random_value(rng, ct.INT) for _ in range(6)])
        self.arrays.append(self.ints)
        leaf = self._make_struct("L", nested=None, allow_union=True)
        top = self._make_struct("T", nested=leaf, allow_union=False)
        self.structs += [leaf, top]
        self.leaf_decl, self.top_decl = leaf, top
        self.leaf_inst = self._instantiate("g_leaf", leaf)
        self.top_inst = self._instantiate("g_top", top)
        self.top2_inst = self._instantiate("g_top2", top)
        self.params = self._make_params()

    def _make_struct(self, name, nested, allow_union):
        rng = self.rng
        s = StructDecl(name, packed=rng.random() < 0.25)
        n = 0

        def fname():
            nonlocal n
            n += 1
            return "m%d" % n

        for _ in range(rng.randint(5, 9)):
            t = rng.choice(ct.STANDARD + [e.type for e in self.enums])
            s.fields.append(Field(fname(), t))
        for _ in range(rng.randint(2, 5)):
            base = rng.choice(ct.BITFIELD_BASES)
            maxw = min(base.bits[m] for m in ct.MODELS)
            if base.rank == 1:
                width = 1
            elif maxw == 64 and rng.random() < 0.6:
                width = rng.randint(33, 63)
            else:
                width = rng.randint(1, maxw)
            s.fields.append(Field(fname(), base, width=width))
        elem = rng.choice([ct.INT, ct.UCHAR, ct.SHORT, ct.LLONG, ct.ULONG])
        s.fields.append(Field("arr", ArrayT(elem, rng.randint(2, 5))))
        s.fields.append(Field("ip", ct.PointerType("int", "int *")))
        if nested is not None:
            s.fields.append(Field("sub", nested))
            s.fields.append(Field("lp", ct.PointerType(nested.spelling,
                                                       nested.spelling +
                                                       " *")))
        if allow_union:
            u = StructDecl(name + "U", union=True)
            u.fields = [Field("u64", ct.ULLONG), Field("u32", ct.UINT),
                        Field("u8", ct.UCHAR)]
            self.structs.append(u)
            s.fields.append(Field("un", u))
        if not s.packed and rng.random() < 0.3:
            f = rng.choice([f for f in s.fields if f.width is None and
                            isinstance(f.type, ct.IntType)])
            f.aligned = rng.choice([8, 16])
        rng.shuffle(s.fields)
        return s

    def _instantiate(self, name, decl):
        rng = self.rng
        inst = Instance(name, decl)
        for f in decl.fields:
            t = f.type
            if isinstance(t, StructDecl) and t.union:
                inst.values[f.name] = ("u64", random_value(rng, ct.ULLONG))
            elif isinstance(t, StructDecl):
                inst.values[f.name] = self._instantiate(name + "_" + f.name,
                                                        t)
            elif isinstance(t, ArrayT):
                inst.values[f.name] = [random_value(rng, t.elem)
                                       for _ in range(t.count)]
            elif t.is_pointer and f.name == "ip":
                inst.values[f.name] = (self.ints, rng.randint(0, 3))
            elif t.is_pointer:
                inst.values[f.name] = None  # set once the leaf exists
            elif f.width is not None:
                inst.values[f.name] = self._bitfield_value(t, f.width)
            elif t.enum is not None:
                inst.values[f.name] = rng.choice(t.enum.values)[1]
            else:
                inst.values[f.name] = random_value(rng, t)
        if "lp" in inst.values:
            inst.values["lp"] = ("leaf", 0)
        self.instances.append(inst)
        return inst

    def _bitfield_value(self, t, width):
        rng = self.rng
        if t.rank == 1:
            return rng.choice([0, 1])
        if t.signed:
            lo, hi = -(1 << (width - 1)), (1 << (width - 1)) - 1
        else:
            lo, hi = 0, (1 << width) - 1
        # 1 does not fit a signed 1-bit field (its values are -1 and 0).
        return rng.choice([v for v in (lo, hi, 0, 1) if lo <= v <= hi] +
                          [rng.randint(lo, hi), rng.randint(lo, hi)])

    def _make_params(self):
        rng = self.rng
        params = [(ct.PointerType("struct T", "struct T *"), ("top", 0)),
                  (ct.PointerType("struct T", "struct T *"), ("top2", 0))]
        scalars = ct.STANDARD[1:] + [e.type for e in self.enums]
        for _ in range(5):
            t = rng.choice(scalars)
            v = (rng.choice(t.enum.values)[1] if t.enum is not None
                 else random_value(rng, t))
            params.append((t, v))
        # The last argument points into an array on main()'s stack, a copy
        # of g_ints: a 32-bit process's stack may lie above 2 GiB.
        self.stack_ints = ArrayObject("s_ints", ct.INT,
                                      list(self.ints.values))
        params.append((ct.PointerType("int", "int *"),
                       (self.stack_ints, rng.randint(0, 2))))
        return params

    def main_prologue(self):
        """Statements at the start of main(): the stack copy of g_ints."""
        return ["  int s_ints[%d];" % len(self.ints.values),
                "  for (int i = 0; i < %d; ++i)" % len(self.ints.values),
                "    s_ints[i] = g_ints[i];"]

    # -- text ---------------------------------------------------------------
    def c_declarations(self):
        parts = [e.c_text() for e in self.enums]
        parts += [s.c_text() for s in self.structs]
        return "\n".join(parts) + "\n"

    def prototype(self, fname):
        ps = ", ".join("%s a%d" % (t.spelling, i + 1)
                       for i, (t, _) in enumerate(self.params))
        return "void %s(%s)" % (fname, ps)

    def c_data(self):
        out = ["int g_ints[%d] = {%s};" % (len(self.ints.values), ", ".join(
            _c_literal(v) for v in self.ints.values))]
        # The leaf first: the others point at it.
        for inst in [self.leaf_inst, self.top_inst, self.top2_inst]:
            out.append("%s %s = %s;" % (inst.decl.spelling, inst.name,
                                        self._init_text(inst)))
        return "\n".join(out) + "\n"

    def _init_text(self, inst):
        parts = []
        for f in inst.decl.fields:
            v = inst.values[f.name]
            t = f.type
            if isinstance(t, StructDecl) and t.union:
                text = "{.%s = %s}" % (v[0], _c_literal(v[1]))
            elif isinstance(t, StructDecl):
                text = self._init_text(v)
            elif isinstance(t, ArrayT):
                text = "{%s}" % ", ".join(_c_literal(x) for x in v)
            elif t.is_pointer and f.name == "ip":
                text = "&g_ints[%d]" % v[1]
            elif t.is_pointer:
                text = "&g_leaf"
            elif t.enum is not None:
                text = dict((b, a) for a, b in t.enum.values)[v]
            else:
                text = _c_literal(v)
            parts.append(".%s = %s" % (f.name, text))
        return "{" + ", ".join(parts) + "}"

    def call_args(self):
        out = []
        for t, v in self.params:
            if t.is_pointer and v[0] == "top":
                out.append("&g_top")
            elif t.is_pointer and v[0] == "top2":
                out.append("&g_top2")
            elif t.is_pointer:
                out.append("&%s[%d]" % (v[0].name, v[1]))
            elif t.enum is not None:
                out.append(dict((b, a) for a, b in t.enum.values)[v])
            else:
                out.append("(%s)%s" % (t.spelling, _c_literal(v)))
        return ", ".join(out)

    def instance(self, key):
        return {"top": self.top_inst, "top2": self.top2_inst,
                "leaf": self.leaf_inst}[key]
