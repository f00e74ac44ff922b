"""Runs tsrun (its command line after '--') and answers its announcements.

  switch-driver.py FIFO -- TSRUN ARGS...

Creates FIFO; every time tsrun says on stderr that a signal switched
collection or that a snapshot was written, writes one byte to FIFO, which
releases the traced program (Inputs/switcher.c) waiting there. Prints the
announcements it saw, then tsrun's exit status. No timing: the program goes
on only once tsrun has acted on its signal.
"""
import os
import re
import subprocess
import sys

ANSWERED = re.compile(r"^tsrun: (collection (stopped|started) \(SIG|snapshot: )")


def main():
    fifo = sys.argv[1]
    cmd = sys.argv[sys.argv.index("--") + 1:]
    if os.path.exists(fifo):
        os.unlink(fifo)
    os.mkfifo(fifo)
    # Read-write, so that opening never waits for the program either.
    fd = os.open(fifo, os.O_RDWR)
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True)
    for line in proc.stderr:
        sys.stdout.write("stderr: " + line)
        sys.stdout.flush()
        if ANSWERED.match(line):
            os.write(fd, b"x")
    status = proc.wait()
    print("tsrun status: %d" % status)
    os.close(fd)
    os.unlink(fifo)


main()
