"""C integer and pointer types as gcc sees them on i386 (ILP32) and x86-64
(LP64), and the arithmetic the generator needs to keep expressions free of
undefined behaviour.

The generator evaluates every expression it builds in both models with these
rules, so that it only emits operations whose operands it knows to be in
range. It is not the oracle (gcc is): a mistake here can only make the
generator emit an expression with undefined behaviour, which the
-fsanitize=undefined build of the program then reports and the campaign
drops.
"""

MODELS = ("ILP32", "LP64")


class IntType:
    """An integer type: its C spelling, value bits and signedness per model,
    and its conversion rank (gcc prefers long long to long to int at equal
    precision). `bitfield` marks gcc's N-bit type of a bit-field wider than
    int and narrower than its declared type."""

    def __init__(self, spelling, bits, signed, rank, bitfield=False,
                 enum=None):
        self.spelling = spelling
        self.bits = bits if isinstance(bits, dict) else {
            m: bits for m in MODELS}
        self.signed = signed
        self.rank = rank
        self.bitfield = bitfield
        self.enum = enum  # the EnumDecl for enum types

    is_pointer = False
    is_int = True

    def __repr__(self):
        return self.spelling

    def min(self, m):
        return -(1 << (self.bits[m] - 1)) if self.signed else 0

    def max(self, m):
        return (1 << (self.bits[m] - (1 if self.signed else 0))) - 1

    def wrap(self, m, v):
        """v converted to this type (gcc: modulo 2^N, also for signed)."""
        if self.rank == 1:  # _Bool
            return 1 if v else 0
        n = self.bits[m]
        v &= (1 << n) - 1
        if self.signed and v >> (n - 1):
            v -= 1 << n
        return v

    def fits(self, m, v):
        return self.min(m) <= v <= self.max(m)


def _std(spelling, bits, signed, rank):
    return IntType(spelling, bits, signed, rank)


BOOL = _std("_Bool", 1, False, 1)
CHAR = _std("char", 8, True, 2)
SCHAR = _std("signed char", 8, True, 2)
UCHAR = _std("unsigned char", 8, False, 2)
SHORT = _std("short", 16, True, 3)
USHORT = _std("unsigned short", 16, False, 3)
INT = _std("int", 32, True, 4)
UINT = _std("unsigned int", 32, False, 4)
LONG = _std("long", {"ILP32": 32, "LP64": 64}, True, 5)
ULONG = _std("unsigned long", {"ILP32": 32, "LP64": 64}, False, 5)
LLONG = _std("long long", 64, True, 6)
ULLONG = _std("unsigned long long", 64, False, 6)

STANDARD = [BOOL, CHAR, SCHAR, UCHAR, SHORT, USHORT, INT, UINT, LONG, ULONG,
            LLONG, ULLONG]
# Types a bit-field may be declared with, and their widths per model.
BITFIELD_BASES = [BOOL, CHAR, SCHAR, UCHAR, SHORT, USHORT, INT, UINT, LONG,
                  ULONG, LLONG, ULLONG]


def storage_bytes(t, m):
    if t.is_pointer:
        return 4 if m == "ILP32" else 8
    if t.rank == 1:
        return 1
    return t.bits[m] // 8


class PointerType:
    is_pointer = True
    is_int = False

    def __init__(self, pointee, spelling):
        self.pointee = pointee  # a name: "int", "struct T0", "char", "void"
        self.spelling = spelling

    def __repr__(self):
        return self.spelling


_BITFIELD_TYPES = {}


def bitfield_type(bits, signed):
    key = (bits, signed)
    if key not in _BITFIELD_TYPES:
        base = "long long" if signed else "unsigned long long"
        _BITFIELD_TYPES[key] = IntType("%s:%d" % (base, bits), bits, signed,
                                       7, bitfield=True)
    return _BITFIELD_TYPES[key]


def bitfield_value_type(declared, width, m):
    """The type gcc gives the value of a bit-field of `declared` type and
    `width` bits where it is used in an operator (after the promotions):
    int below 32 bits, int/unsigned int at 32, the declared type at its
    full width, and gcc's N-bit type in between."""
    if declared.rank == 1:
        return INT
    if width < 32:
        return INT
    if width == 32:
        return INT if declared.signed else UINT
    if width == declared.bits[m]:
        return promote(declared, m)
    return bitfield_type(width, declared.signed)


def enum_promoted(enum, m):
    """gcc's promotion of an enum: int or unsigned int when it fits in 32
    bits, else the 64-bit integer type of the model (long in LP64, long long
    in ILP32) with the enum's signedness."""
    if enum.bits <= 32:
        return INT if enum.signed else UINT
    if m == "LP64":
        return LONG if enum.signed else ULONG
    return LLONG if enum.signed else ULLONG


def promote(t, m):
    if t.enum is not None:
        return enum_promoted(t.enum, m)
    if t.bitfield:
        return t
    if t.rank < 4:
        return INT
    return t


def common(a, b, m):
    """gcc's usual arithmetic conversions (c_common_type) of two promoted
    integer types: greater precision wins; at equal precision long long,
    then long, then the unsigned one."""
    if a is b:
        return a
    if a.bits[m] != b.bits[m]:
        return a if a.bits[m] > b.bits[m] else b
    uns = not a.signed or not b.signed
    for signed_t, unsigned_t in ((LLONG, ULLONG), (LONG, ULONG)):
        if unsigned_t in (a, b):
            return unsigned_t
        if signed_t in (a, b):
            return unsigned_t if uns else signed_t
    if a.bitfield or b.bitfield or a.rank == b.rank:
        return b if a.signed else a
    return b if a.signed else a
