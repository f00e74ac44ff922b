#!/usr/bin/env python3
"""wait_for_port.py HOST PORT TIMEOUT_S: exits 0 once HOST:PORT accepts a TCP
connection (the stub is listening), 1 after TIMEOUT_S seconds.

A readiness handshake for tests and scripts that start a GDB stub: it polls
the real condition (a listening socket in the kernel's tables) instead of
sleeping for a guessed time, and never connects, because qemu-user's stub
serves only the first connection it accepts.
"""
import os
import sys
import time


def listening(port):
    # Look the port up in the kernel's socket tables instead of connecting:
    # a GDB stub accepts only one connection, and a probe connection would use
    # it up.
    want = ":%04X" % port
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                next(f)
                for line in f:
                    fields = line.split()
                    if fields[1].endswith(want) and fields[3] == "0A":  # LISTEN
                        return True
        except OSError:
            pass
    return False


def main():
    host, port, timeout = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if listening(port):
            return 0
        time.sleep(0.01)
    print(f"wait_for_port: nothing listening on {host}:{port} after {timeout}s",
          file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
