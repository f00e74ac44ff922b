#!/usr/bin/env python3
"""Rewrites code that qemu-i386 has already run, through its GDB stub.

  qemu_smc.py PORT PROG

PROG (a static i386 build of smc.c, behind `qemu-i386 -g PORT`) runs f()
1000 times and stops at checkpoint(). There this driver does what tsrun
does to put the in-process agent into a qemu-i386 guest, and prints what
qemu did at each step:

- a system call made by pointing the thread at an `int $0x80` of the
  program's own code and single-stepping it (how the first page is mapped);
- an `M` packet to code qemu has translated (qemu 7.2 refuses it: the page
  is write-protected for translation-block invalidation);
- the same `M` after an mprotect(PROT_READ|PROT_WRITE|PROT_EXEC) made from
  a page of ours (not from the page being written, which stepping would
  translate again): qemu drops the page's translated blocks when it
  becomes writable, and accepts the write; then mprotect puts PROT_EXEC
  back without PROT_WRITE.

The program's own printout shows whether the new f() is what runs.
"""
import socket
import struct
import sys
import time

MPROTECT, MMAP2 = 125, 192
PROT_RWX, PROT_RX = 7, 5
MAP_PRIVATE_ANON = 0x22
NEW_F = bytes.fromhex("b802000000c3")  # mov $2,%eax; ret
GADGET = bytes.fromhex("cd809090")  # int $0x80; nops


class Stub:
    def __init__(self, port):
        deadline = time.time() + 10
        while True:
            try:
                self.sock = socket.create_connection(("127.0.0.1", port))
                break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.05)
        self.sock.settimeout(10)
        self.buf = b""

    def request(self, payload):
        data = payload.encode()
        self.sock.sendall(b"$%s#%02x" % (data, sum(data) & 0xFF))
        return self.reply()

    def reply(self):
        while True:
            start = self.buf.find(b"$")
            end = self.buf.find(b"#", start + 1) if start >= 0 else -1
            if start >= 0 and end >= 0 and len(self.buf) >= end + 3:
                body = self.buf[start + 1:end]
                self.buf = self.buf[end + 3:]
                self.sock.sendall(b"+")
                return body.decode()
            chunk = self.sock.recv(4096)
            if not chunk:
                raise EOFError("the stub closed the connection")
            self.buf += chunk


def symbols_and_text(path):
    """(symbol name -> address, [(vaddr, bytes)] of executable segments)."""
    data = open(path, "rb").read()
    phoff, shoff = struct.unpack_from("<II", data, 0x1C)
    phentsize, phnum, shentsize, shnum = struct.unpack_from("<HHHH", data, 0x2A)
    text = []
    for i in range(phnum):
        ptype, off, vaddr, _, filesz, _, flags, _ = struct.unpack_from(
            "<8I", data, phoff + i * phentsize)
        if ptype == 1 and flags & 1:
            text.append((vaddr, data[off:off + filesz]))
    syms = {}
    shdrs = [struct.unpack_from("<10I", data, shoff + i * shentsize)
             for i in range(shnum)]
    for sh in shdrs:
        if sh[1] != 2:  # SHT_SYMTAB
            continue
        strtab = shdrs[sh[6]]
        for off in range(sh[4], sh[4] + sh[5], 16):
            name, value = struct.unpack_from("<II", data, off)
            end = data.index(b"\0", strtab[4] + name)
            syms[data[strtab[4] + name:end].decode()] = value
    return syms, text


class Guest:
    def __init__(self, stub, regs_hex):
        self.stub = stub
        self.saved = regs_hex
        self.regs = [struct.unpack("<I", bytes.fromhex(regs_hex[i:i + 8]))[0]
                     for i in range(0, 16 * 8, 8)]

    def set_regs(self, regs):
        words = "".join(struct.pack("<I", r & 0xFFFFFFFF).hex() for r in regs)
        assert self.stub.request("G" + words + self.saved[16 * 8:]) == "OK"

    def syscall(self, at, nr, *args):
        regs = list(self.regs)
        regs[0] = nr
        for slot, value in zip([3, 1, 2, 6, 7, 5], args):
            regs[slot] = value
        regs[8] = at
        self.set_regs(regs)
        self.stub.request("s")
        g = self.stub.request("g")
        result = struct.unpack("<i", bytes.fromhex(g[0:8]))[0]
        after = struct.unpack("<I", bytes.fromhex(g[64:72]))[0]
        assert self.stub.request("G" + self.saved) == "OK"
        return result, after


def main():
    port, prog = int(sys.argv[1]), sys.argv[2]
    syms, text = symbols_and_text(prog)
    f, checkpoint = syms["f"], syms["checkpoint"]
    int80 = next(vaddr + seg.index(b"\xcd\x80\xc3")
                 for vaddr, seg in text if b"\xcd\x80\xc3" in seg)
    stub = Stub(port)
    assert stub.request("Z0,%x,1" % checkpoint) == "OK"
    stop = stub.request("c")
    print("stopped at checkpoint:", stop.startswith("T05"))
    guest = Guest(stub, stub.request("g"))

    page, after = guest.syscall(int80, MMAP2, 0, 4096, PROT_RWX,
                                MAP_PRIVATE_ANON, 0xFFFFFFFF, 0)
    print("mmap2 by a stepped int $0x80: %s" %
          ("ok" if 0 < page < 0xFFFFF000 else "failed (%d)" % page))
    print("the step ran one more instruction: %s" % (after != int80 + 2))
    print("M to a fresh page:", stub.request(
        "M%x,%x:%s" % (page, len(GADGET), GADGET.hex())))

    reply = stub.request("M%x,%x:%s" % (f, len(NEW_F), NEW_F.hex()))
    print("M to translated code:",
          "refused" if reply.startswith("E") else "accepted")
    f_page = f & ~0xFFF
    res, _ = guest.syscall(page, MPROTECT, f_page, 4096, PROT_RWX)
    print("mprotect rwx:", res)
    print("M to translated code after mprotect:", "refused" if stub.request(
        "M%x,%x:%s" % (f, len(NEW_F), NEW_F.hex())).startswith("E")
        else "accepted")
    res, _ = guest.syscall(page, MPROTECT, f_page, 4096, PROT_RX)
    print("mprotect r-x:", res)
    print("f now:", stub.request("m%x,%x" % (f, len(NEW_F))))
    assert stub.request("z0,%x,1" % checkpoint) == "OK"
    stub.sock.sendall(b"$c#63")
    print("exit:", stub.reply())


if __name__ == "__main__":
    main()
