#!/usr/bin/env python3
"""Patches one field of a compiled probe object, as a hostile or corrupted
object would have it, for the loader and helper-validation tests.

usage: patch-object.py MODE IN.o OUT.o
  clause-offset    LP64 action of clause 0 moved by one byte
  call-addend      the first call relocation (R_X86_64_PLT32) in the LP64
                   text sent 4 MiB away
  data-addend      the first R_X86_64_PC32 in the LP64 text sent 4 MiB away
  map-key-size     the key size passed to the first map lookup becomes
                   0x10000000 (more than the clause's stack)
  map-id           the first non-zero map id passed to a map lookup
                   becomes 0x7fff
  agg-key-size     the key size passed to the first aggregation update
                   becomes 4 (the table's is 8)
  bad-ctx          the first `movq %rbx, %rdi` (the context, passed to a
                   helper) becomes `movq %r12, %rdi` (the helper table)
  memset-length    the length of the first call to memset becomes 1 GiB
  spin             clause 0's LP64 action starts with `jmp .`
  i386-entry       the i386 stream's action of clause 0 moved by one byte
  i386-rows        the i386 stream table claims 1000 rows
  i386-image       the i386 stream's image is made an x86-64 one
  i386-reloc       the first relocation of the i386 image gets type 10
                   (R_386_GOTPC, which a statically relocated image has not)
  abi-1.5          the header's minor version becomes 5 (streams are 1.6)

Only the standard library: the tests must not need pyelftools. Exits 2 if
the object does not have what the mode patches (the test is then wrong, not
the runtime).
"""
import re
import struct
import subprocess
import sys


class Elf:
    def __init__(self, data):
        self.data = bytearray(data)
        (self.shoff,) = struct.unpack_from("<Q", data, 0x28)
        self.shentsize, self.shnum, self.shstrndx = struct.unpack_from(
            "<HHH", data, 0x3A)
        self.sections = []
        for i in range(self.shnum):
            off = self.shoff + i * self.shentsize
            name, typ, flags, addr, offset, size, link, info, align, entsize = \
                struct.unpack_from("<IIQQQQIIQQ", data, off)
            self.sections.append(dict(name=name, type=typ, offset=offset,
                                      size=size, link=link, info=info,
                                      entsize=entsize))
        strtab = self.sections[self.shstrndx]
        for s in self.sections:
            start = strtab["offset"] + s["name"]
            s["sname"] = bytes(self.data[start:self.data.index(0, start)]).decode()

    def section(self, name):
        for i, s in enumerate(self.sections):
            if s["sname"] == name:
                return i, s
        sys.exit("patch-object: no section " + name)

    def relocs_for(self, target):
        for s in self.sections:
            if s["type"] == 4 and s["info"] == target:  # SHT_RELA
                for off in range(s["offset"], s["offset"] + s["size"], 24):
                    yield off


def text_patch(obj, helper_slot, register, value):
    """Rewrites the `movl $imm32, %REG` that loads an argument of the first
    call through helper table slot HELPER_SLOT (callq *SLOT(%r12), or
    through a register loaded from there) that has one since the previous
    call."""
    out = subprocess.run(["llvm-objdump", "-d", "--section=tscc_text_lp64",
                          "--no-show-raw-insn", sys.argv[2]],
                         capture_output=True, text=True, check=True).stdout
    last_mov = None
    slot_regs = set()  # registers the helper's address was loaded into
    for line in out.splitlines():
        # Numbers are decimal or hex, depending on llvm-objdump's version.
        load = re.search(r"movq\s+(0x[0-9a-f]+|\d+)\(%r12\), %(\w+)$", line)
        if load and int(load.group(1), 0) == helper_slot:
            slot_regs.add(load.group(2))
        m = re.match(r"\s*([0-9a-f]+):\s+movl\s+\$(0x[0-9a-f]+|\d+), %" +
                     register + r"$", line)
        if m:
            last_mov = int(m.group(1), 16)
        call = re.search(r"callq\s+\*(?:(0x[0-9a-f]+|\d+)\(%r12\)|%(\w+))$",
                         line)
        through_slot = call and (
            int(call.group(1), 0) == helper_slot if call.group(1)
            else call.group(2) in slot_regs)
        if through_slot and last_mov is not None:
            break
        if "callq" in line:
            last_mov = None
    else:
        sys.exit("patch-object: no call through helper slot %d with a "
                 "movl $imm, %%%s before it" % (helper_slot, register))
    _, text = obj.section("tscc_text_lp64")
    # movl $imm32, %r32: b8+r imm32 (or 41 b8+r imm32 for r8d-r15d).
    at = text["offset"] + last_mov
    if obj.data[at] == 0x41:
        at += 1
    struct.pack_into("<I", obj.data, at + 1, value)


def patch_i386(obj, mode):
    """Patches the i386 stream (abi.h, tscc_streams)."""
    _, table = obj.section("tscc_streams")
    _, images = obj.section("tscc_stream_images")
    base = table["offset"]
    if mode == "i386-rows":
        struct.pack_into("<I", obj.data, base, 1000)
        return
    # struct tscc_stream: u16 machine, u8 dm, u8 class, u32 clauses,
    # u64 image_offset, image_size, entries_offset.
    image_off, image_size, entries = struct.unpack_from("<QQQ", obj.data,
                                                        base + 8 + 8)
    image = images["offset"] + image_off
    if mode == "i386-entry":
        # tscc_stream_entry of clause 0: pred off, size, action off, size.
        at = base + entries + 8
        (off,) = struct.unpack_from("<I", obj.data, at)
        struct.pack_into("<I", obj.data, at, off + 1)
    elif mode == "i386-image":
        struct.pack_into("<H", obj.data, image + 18, 62)  # EM_X86_64
    elif mode == "i386-reloc":
        (shoff,) = struct.unpack_from("<I", obj.data, image + 0x20)
        shentsize, shnum = struct.unpack_from("<HH", obj.data, image + 0x2E)
        for i in range(shnum):
            sh = image + shoff + i * shentsize
            (typ,) = struct.unpack_from("<I", obj.data, sh + 4)
            (offset,) = struct.unpack_from("<I", obj.data, sh + 16)
            if typ == 9:  # SHT_REL: r_offset, r_info
                info = image + offset + 4
                (r,) = struct.unpack_from("<I", obj.data, info)
                struct.pack_into("<I", obj.data, info, (r & ~0xff) | 10)
                return
        sys.exit("patch-object: no SHT_REL in the i386 image")
    else:
        sys.exit("patch-object: unknown mode " + mode)


def main():
    mode, src, dst = sys.argv[1:4]
    obj = Elf(open(src, "rb").read())
    if mode == "abi-1.5":
        # tscc_header: magic[8], u16 abi_major, u16 abi_minor.
        _, header = obj.section("tscc_header")
        struct.pack_into("<H", obj.data, header["offset"] + 10, 5)
    elif mode == "clause-offset":
        _, clauses = obj.section("tscc_clauses")
        # tscc_clause: 24 bytes (id, flags, probes...), then
        # stream[ILP32], stream[LP64] {pred_off, pred_size, act_off, act_size}
        at = clauses["offset"] + 24 + 16 + 8
        (off,) = struct.unpack_from("<I", obj.data, at)
        struct.pack_into("<I", obj.data, at, off + 1)
    elif mode in ("call-addend", "data-addend"):
        want = 4 if mode == "call-addend" else 2  # R_X86_64_PLT32 / PC32
        idx, _ = obj.section("tscc_text_lp64")
        for off in obj.relocs_for(idx):
            (info,) = struct.unpack_from("<Q", obj.data, off + 8)
            if info & 0xffffffff == want:
                (addend,) = struct.unpack_from("<q", obj.data, off + 16)
                struct.pack_into("<q", obj.data, off + 16, addend + (4 << 20))
                break
        else:
            sys.exit("patch-object: no relocation of type %d" % want)
    elif mode == "map-key-size":
        # Helper table: 16 bytes of header, then read_mem, read_str, emit,
        # clock_ns, map_lookup (slot 48), ...; the key size is in %ecx.
        text_patch(obj, 48, "ecx", 0x10000000)
    elif mode == "map-id":
        text_patch(obj, 48, "esi", 0x7fff)  # the map id is in %esi
    elif mode == "agg-key-size":
        text_patch(obj, 64, "ecx", 4)  # agg_update is slot 64
    elif mode == "memset-length":
        out = subprocess.run(["llvm-objdump", "-dr", "--section=tscc_text_lp64",
                              "--no-show-raw-insn", src],
                             capture_output=True, text=True, check=True).stdout
        last_mov = None
        for line in out.splitlines():
            m = re.match(r"\s*([0-9a-f]+):\s+movl\s+\$(0x[0-9a-f]+|\d+), %edx$",
                         line)
            if m:
                last_mov = int(m.group(1), 16)
            if "R_X86_64_PLT32" in line and "memset" in line:
                break
        else:
            sys.exit("patch-object: no call to memset")
        if last_mov is None:
            sys.exit("patch-object: no movl $imm, %edx before memset")
        _, text = obj.section("tscc_text_lp64")
        struct.pack_into("<I", obj.data, text["offset"] + last_mov + 1, 1 << 30)
    elif mode == "spin":
        _, clauses = obj.section("tscc_clauses")
        (off,) = struct.unpack_from("<I", obj.data,
                                    clauses["offset"] + 24 + 16 + 8)
        _, text = obj.section("tscc_text_lp64")
        obj.data[text["offset"] + off:text["offset"] + off + 2] = b"\xeb\xfe"
    elif mode == "bad-ctx":
        _, text = obj.section("tscc_text_lp64")
        body = bytes(obj.data[text["offset"]:text["offset"] + text["size"]])
        at = body.find(bytes([0x48, 0x89, 0xdf]))
        if at < 0:
            sys.exit("patch-object: no movq %rbx, %rdi")
        obj.data[text["offset"] + at:text["offset"] + at + 3] = \
            bytes([0x4c, 0x89, 0xe7])
    elif mode.startswith("i386-"):
        patch_i386(obj, mode)
    else:
        sys.exit("patch-object: unknown mode " + mode)
    open(dst, "wb").write(obj.data)


if __name__ == "__main__":
    main()
