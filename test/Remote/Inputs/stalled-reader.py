#!/usr/bin/env python3
"""A burst of records while tsrun's output is stalled, with handshakes only.

  stalled-reader.py PROGOUT MARK -- COMMAND... ({fifo} in it)

Runs COMMAND (remote_session.py and tsrun), where `{fifo}` is replaced by
a FIFO this driver reads: tsrun writes its trace there. The driver reads
nothing until the traced program has printed MARK into PROGOUT (its last
line: it made every call, so its records are all written by then; tsrun
has been blocked in a write since the FIFO filled). Then it reads the
whole trace, prints it, and prints COMMAND's exit status. So the thread
buffers had to hold the burst by themselves.
"""
import fcntl
import os
import subprocess
import sys
import tempfile
import time


def main(progout, mark, argv):
    with tempfile.TemporaryDirectory() as d:
        fifo = os.path.join(d, "trace")
        os.mkfifo(fifo)
        # Opened without waiting for a writer, then made blocking: reads
        # wait for tsrun's writes, and end when tsrun closes it.
        fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        fcntl.fcntl(fd, fcntl.F_SETFL, 0)
        # A PROGOUT left by an earlier run must not end the wait at once.
        if os.path.exists(progout):
            os.unlink(progout)
        session = subprocess.Popen([a.replace("{fifo}", fifo) for a in argv])
        while session.poll() is None:
            if os.path.exists(progout):
                with open(progout) as p:
                    if mark in p.read():
                        break
            time.sleep(0.01)  # polling for the handshake, not a timing
        with os.fdopen(fd) as f:
            sys.stdout.write(f.read())
        print("session status:", session.wait())


if __name__ == "__main__":
    sep = sys.argv.index("--")
    main(sys.argv[1], sys.argv[2], sys.argv[sep + 1:])
