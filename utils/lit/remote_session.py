#!/usr/bin/env python3
"""Runs a tracer against programs behind GDB stubs, for lit tests.

  remote_session.py --stub 'qemu-i386 -g {port} %t32 args' --out %t.p32 \
                    [--stub 'gdbserver 127.0.0.1:{port} %t64' --out %t.p64] \
                    -- %tsrun %t.o --remote 127.0.0.1:{port0}=%t32 ...

Each --stub command is started with `{port}` replaced by a free TCP port; its
standard output goes to the matching --out file (the traced program's own
printout, to compare with the tracer's). The helper waits until every stub
listens - by looking for its listening socket in the kernel's tables, never
by connecting, since qemu-user serves only the first connection - and then
runs the tracer command with `{portN}` replaced by the N-th stub's port. If a
stub cannot bind its port (another process took it between our probe and its
bind) it is restarted on another port.

The exit status is the tracer's. Stubs still running after the tracer ended
are killed and reported on stderr with status 1, so a test cannot pass while
a traced program was left stuck.
"""
import argparse
import os
import shlex
import socket
import subprocess
import sys
import time

ATTEMPTS = 20
READY_TIMEOUT_S = 30


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def socket_inodes(pid):
    """Inodes of the sockets process pid has open."""
    inodes = set()
    fd_dir = "/proc/%d/fd" % pid
    try:
        for fd in os.listdir(fd_dir):
            try:
                target = os.readlink(os.path.join(fd_dir, fd))
            except OSError:
                continue
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
    except OSError:
        pass
    return inodes


def family(pid):
    """pid and its descendants (a stub started by a wrapper such as
    `unshare --fork` listens in a child)."""
    pids, todo = [], [pid]
    while todo:
        p = todo.pop()
        pids.append(p)
        try:
            for task in os.listdir("/proc/%d/task" % p):
                with open("/proc/%d/task/%s/children" % (p, task)) as f:
                    todo += [int(c) for c in f.read().split()]
        except OSError:
            pass
    return pids


def listening_on(pid, port):
    """Whether process pid or a descendant listens on port (not just
    anyone)."""
    inodes = set()
    for p in family(pid):
        inodes |= socket_inodes(p)
    want = ":%04X" % port
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                next(f)
                for line in f:
                    fields = line.split()
                    if (fields[1].endswith(want) and fields[3] == "0A"
                            and fields[9] in inodes):
                        return True
        except OSError:
            pass
    return False


def start_stub(template, out_path):
    """Starts one stub; returns (process, port) once it listens."""
    last_err = ""
    for _ in range(ATTEMPTS):
        port = free_port()
        argv = shlex.split(template.replace("{port}", str(port)))
        out = open(out_path, "wb") if out_path else subprocess.DEVNULL
        err_path = (out_path or os.devnull) + ".stub-stderr"
        err = open(err_path, "wb") if out_path else subprocess.DEVNULL
        proc = subprocess.Popen(argv, stdout=out, stderr=err,
                                stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + READY_TIMEOUT_S
        # Poll the real condition: the stub's own listening socket, or its
        # death (a failed bind).
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                break
            if listening_on(proc.pid, port):
                return proc, port
            time.sleep(0.005)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
            last_err = "stub did not listen within %ds" % READY_TIMEOUT_S
            continue
        last_err = "stub exited with status %d" % proc.returncode
        if out_path and os.path.exists(err_path):
            last_err += ": " + open(err_path, errors="replace").read().strip()
    sys.exit("remote_session.py: cannot start '%s': %s" % (template, last_err))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stub", action="append", default=[])
    ap.add_argument("--out", action="append", default=[])
    ap.add_argument("--timeout", type=float, default=120,
                    help="seconds before the tracer is considered hung")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    cmd = args.command
    if cmd and cmd[0] == "--":
        cmd = cmd[1:]
    if not args.stub or not cmd:
        ap.error("need at least one --stub and a command after --")
    outs = args.out + [None] * (len(args.stub) - len(args.out))

    stubs = [start_stub(t, o) for t, o in zip(args.stub, outs)]
    argv = []
    for word in cmd:
        for i, (_, port) in enumerate(stubs):
            word = word.replace("{port%d}" % i, str(port))
        argv.append(word)
    try:
        rc = subprocess.call(argv, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        print("remote_session.py: the tracer did not finish", file=sys.stderr)
        rc = 124
    for proc, port in stubs:
        try:
            # A detached or finished target lets its stub exit by itself.
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            print("remote_session.py: stub on port %d was still running" % port,
                  file=sys.stderr)
            rc = rc or 1
    return rc


if __name__ == "__main__":
    sys.exit(main())
