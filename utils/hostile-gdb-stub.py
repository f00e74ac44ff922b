#!/usr/bin/env python3
"""A GDB remote stub that misbehaves on purpose, for testing tsrun.

  hostile-gdb-stub.py --port PORT --mode MODE [--ready-file F] [--size N]
                      [--library PATH]

Listens on 127.0.0.1:PORT, serves one connection, and exits when the client
closes it. Until its misbehaviour starts it acts like a small, well-behaved
stub for a process that is stopped at its first instruction: qSupported,
'?', qOffsets, thread lists, Z0/z0, D and k, with memory reads answered as
faults. The process it pretends to run is this script itself (its pid is
the thread id), so a tracer on this machine that signals "the target" hits
the stub.

Modes (what goes wrong):
  silent             accepts the connection, reads, never answers
  silent-after-first answers qSupported, then never answers again
  bad-checksums      every reply has a wrong checksum, however often NAKed
  endless-acks       acknowledges each packet, then sends '+' forever
  xfer-more          offers qXfer:features:read and always answers 'm' and
                     as much data as asked for
  threads-more       names no thread in its stop reply, and answers every
                     qsThreadInfo with 'm' (more threads) forever
  no-stop            never stops the target after a resume, not even for the
                     interrupt byte (and ignores SIGINT)
  silent-on-stop     after a resume reports a SIGTRAP stop, then never
                     answers again
  unterminated       answers '?' with '$' and --size bytes without '#'
  huge-packet        claims PacketSize=--size; answers '?' with a valid
                     packet of --size bytes
  console-flood      after a resume sends 'O' console packets forever (and
                     ignores SIGINT)
  rle-bomb           claims a 1 MiB PacketSize; answers '?' with a valid
                     run-length encoded packet of --size bytes on the wire
                     ("0*~" repeated: 98 bytes each, expanded)
  signal-storm       after a resume reports a signal (SIGALRM) and answers
                     every resumption that passes it on with another one;
                     the --size-th creates the ready file (a busy target
                     that gets signals all the time, as a stub may say)
  deep-calls         reports, resumption after resumption, a hit at the
                     first breakpoint tsrun sets, each with the stack 16
                     bytes deeper, as if the function recursed forever;
                     the --size-th creates the ready file (x86-64 registers,
                     no target description; steps are answered at once)
  library            offers qXfer:libraries-svr4 naming --library PATH
                     (say a FIFO) as a loaded library; exits on a resume

--image ELF makes memory reads inside the loaded segments of ELF (at its
link addresses: the stub says qOffsets Text=0) return the file's bytes,
so that tsrun finds the program it was given (deep-calls).

--ready-file F is created when the misbehaviour starts (the first packet
for silent; the resume for no-stop and console-flood), for tests that must
act exactly then (send tsrun a signal) without guessing how long to wait.
"""
import argparse
import os
import signal
import socket
import sys


def load_segments(path):
    """(vaddr, bytes) of each PT_LOAD of an ELF64 file."""
    import struct
    data = open(path, "rb").read()
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    segs = []
    for i in range(phnum):
        typ, _, off, vaddr, _, filesz, _, _ = struct.unpack_from(
            "<IIQQQQQQ", data, phoff + i * phentsize)
        if typ == 1:
            segs.append((vaddr, data[off:off + filesz]))
    return segs


def image_byte(c, addr, default):
    for vaddr, data in c.segments:
        if vaddr <= addr < vaddr + len(data):
            return data[addr - vaddr]
    return default


def checksum(payload):
    return sum(payload) & 0xFF


def frame(payload, good=True):
    if isinstance(payload, str):
        payload = payload.encode()
    s = checksum(payload)
    if not good:
        s ^= 0x55
    return b"$" + payload + b"#" + b"%02x" % s


class Conn:
    def __init__(self, sock, args):
        self.sock = sock
        self.args = args
        self.segments = load_segments(args.image) if args.image else []
        self.buf = b""
        self.ack = True
        self.first = True
        self.muted = False
        self.storm = 0
        self.entry = None      # deep-calls: the first breakpoint
        self.sp = 0x7ffff0000000
        self.stepped = False

    def ready(self):
        if self.args.ready_file:
            open(self.args.ready_file, "w").close()

    def send(self, data):
        self.sock.sendall(data)

    def reply(self, payload):
        self.send(frame(payload, good=self.args.mode != "bad-checksums"))

    def packets(self):
        """Yields payloads (and '\x03' for an interrupt) until EOF."""
        while True:
            # Incoming packets are small: no need to be clever.
            while True:
                if self.buf.startswith(b"\x03"):
                    self.buf = self.buf[1:]
                    yield b"\x03"
                    continue
                if self.buf[:1] in (b"+", b"-"):
                    if self.buf[:1] == b"-" and self.args.mode == "bad-checksums":
                        self.buf = self.buf[1:]
                        yield b"-"
                        continue
                    self.buf = self.buf[1:]
                    continue
                start = self.buf.find(b"$")
                if start < 0:
                    self.buf = b""
                    break
                end = self.buf.find(b"#", start)
                if end < 0 or end + 2 >= len(self.buf):
                    self.buf = self.buf[start:]
                    break
                payload = self.buf[start + 1:end]
                self.buf = self.buf[end + 3:]
                if self.first:
                    self.first = False
                    if self.args.mode == "silent":
                        self.ready()
                if self.ack and not self.muted and self.args.mode != "silent":
                    self.send(b"+")
                yield payload
            data = self.sock.recv(65536)
            if not data:
                return
            self.buf += data


def supported(args):
    features = ["PacketSize=1000", "QStartNoAckMode+"]
    if args.mode == "xfer-more":
        features.append("qXfer:features:read+")
    if args.mode == "library":
        features.append("qXfer:libraries-svr4:read+")
    if args.mode == "huge-packet":
        features[0] = "PacketSize=%x" % args.size
    if args.mode == "rle-bomb":
        features[0] = "PacketSize=100000"
    return ";".join(features)


def stop_reply():
    return "T05thread:%x;" % os.getpid()


def send_repeated(c, unit, count):
    """Sends a valid packet "T05" + unit * count, in pieces."""
    total = checksum(b"T05") + checksum(unit) * count
    c.send(b"$T05")
    piece = unit * (65536 // len(unit))
    per = 65536 // len(unit)
    while count >= per:
        c.send(piece)
        count -= per
    c.send(unit * count + b"#%02x" % (total & 0xFF))


def flood_console(c):
    line = frame("O" + b"flood flood flood flood flood flood flood\n".hex())
    chunk = line * 1024
    while True:
        c.send(chunk)


def answer(c, p):
    """The reply to one packet, acting as a good stub; None: no reply."""
    mode = c.args.mode
    if p.startswith(b"qSupported"):
        return supported(c.args)
    if p == b"QStartNoAckMode":
        c.reply("OK")
        c.ack = False
        return None
    if p == b"?":
        if mode == "unterminated":
            c.send(b"$T05")
            chunk = b"0" * 65536
            for _ in range(c.args.size // len(chunk)):
                c.send(chunk)
            c.muted = True
            return None
        if mode == "huge-packet":
            send_repeated(c, b"0", c.args.size - 3)
            return None
        if mode == "rle-bomb":
            send_repeated(c, b"0*~", c.args.size // 3)
            return None
        if mode == "threads-more":
            return "S05"  # no thread id: the client asks for the list
        return stop_reply()
    if p.startswith(b"qXfer:features:read:"):
        # As much as asked for, and always "more".
        length = int(p.rsplit(b",", 1)[1], 16)
        return "m" + "<" * length
    if p.startswith(b"qXfer:libraries-svr4:read:"):
        if not p.endswith(b":0,fe0") and b":0," not in p:
            return "l"
        return ('l<library-list-svr4 version="1.0"><library name="%s" '
                'lm="0x1000" l_addr="0x0" l_ld="0x0"/></library-list-svr4>'
                % c.args.library)
    if p == b"qOffsets":
        return "Text=0;Data=0;Bss=0"
    if p == b"qfThreadInfo":
        return "m%x" % os.getpid()
    if p == b"qsThreadInfo":
        return "m%x" % os.getpid() if mode == "threads-more" else "l"
    if p.startswith(b"Hg") or p.startswith(b"Hc"):
        return "OK"
    if p.startswith(b"Z0") or p.startswith(b"z0"):
        if mode == "deep-calls" and c.entry is None and p.startswith(b"Z0"):
            c.entry = int(p.split(b",")[1], 16)
        return "OK"
    if p.startswith(b"m"):
        if mode == "deep-calls":
            # Every word in memory is the same return address, except the
            # program's own image.
            addr, length = (int(x, 16) for x in p[1:].split(b","))
            ret = (0x5000).to_bytes(8, "little")
            return bytes(image_byte(c, addr + i, ret[(addr + i) % 8])
                         for i in range(length)).hex()
        return "E01"
    if p == b"g":
        if mode == "deep-calls" and c.entry is not None:
            regs = [0] * 17
            regs[7] = c.sp
            regs[16] = c.entry + (4 if c.stepped else 0)
            return "".join(r.to_bytes(8, "little").hex() for r in regs) + "00" * 4
        return "00" * 8 * 24
    if p == b"s" and mode == "deep-calls":
        c.stepped = True
        return stop_reply()
    if p == b"c" or p.startswith(b"vCont;c") or p.startswith(b"C"):
        if mode == "deep-calls":
            c.storm += 1
            if c.storm == c.args.size:
                c.ready()
            c.stepped = False
            c.sp -= 16
            return stop_reply()
        if mode == "signal-storm":
            c.storm += 1
            if c.storm == c.args.size:
                c.ready()
            return "T0ethread:%x;" % os.getpid()
        if mode == "silent-on-stop":
            c.reply(stop_reply())
            c.muted = True
            return None
        if mode == "console-flood":
            c.ready()
            flood_console(c)
        if mode == "no-stop":
            c.ready()
        if mode == "library":
            return "W00"
        return None  # the target runs until interrupted
    if p == b"\x03":
        if mode == "no-stop":
            return None
        return "T02thread:%x;" % os.getpid()
    if p.startswith(b"D"):
        c.reply("OK")
        raise EOFError
    if p == b"k" or p.startswith(b"vKill"):
        raise EOFError
    return ""


def serve(c):
    mode = c.args.mode
    last = b""
    for p in c.packets():
        if c.muted or mode == "silent":
            continue
        if p == b"-":
            c.send(last)  # asked again: as broken as before
            continue
        r = answer(c, p)
        if mode == "endless-acks" and p.startswith(b"qSupported"):
            while True:
                c.send(b"+" * 65536)
        if r is not None:
            last = frame(r, good=mode != "bad-checksums")
            c.send(last)
        if mode == "silent-after-first":
            c.muted = True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--mode", required=True)
    ap.add_argument("--ready-file")
    ap.add_argument("--size", type=int, default=8 << 20)
    ap.add_argument("--library", default="/nonexistent")
    ap.add_argument("--image")
    args = ap.parse_args()
    if args.mode in ("no-stop", "console-flood"):
        # A tracer on this machine sends "the target" (us) SIGINT to stop
        # it: this target does not stop.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", args.port))
    ls.listen(1)
    sock, _ = ls.accept()
    ls.close()
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        serve(Conn(sock, args))
    except (EOFError, BrokenPipeError, ConnectionResetError):
        pass
    sock.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
