"""Runs TSRUN ARGS... -- PROG outlive K FIFO, and once tsrun says (-v) that
it follows the child (which then waits on FIFO), lets the child go on.
Prints tsrun's stdout, then its stderr. If tsrun ends without saying so
(the old behaviour), the child is let go on all the same, so that a failing
run leaves nothing behind.

    follow-driver.py FIFO TSRUN ARG...
"""
import os
import subprocess
import sys
import threading

fifo, cmd = sys.argv[1], sys.argv[2:]
if os.path.exists(fifo):
    os.unlink(fifo)
os.mkfifo(fifo)
p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                     text=True)
err, out = [], []
followed = threading.Event()


def read_err():
    for line in p.stderr:
        err.append(line)
        if "followed without ptrace" in line:
            followed.set()


def read_out():
    out.append(p.stdout.read())


readers = [threading.Thread(target=read_err), threading.Thread(target=read_out)]
for r in readers:
    r.start()
# Whichever comes first: tsrun follows the child, or tsrun has exited.
while not followed.wait(0.05) and p.poll() is None:
    pass
# The child reads the line once its parent is gone; opening the FIFO for
# writing waits for it.
with open(fifo, "w") as f:
    f.write("go\n")
p.wait(timeout=120)
for r in readers:
    r.join(timeout=120)
sys.stdout.write("".join(out))
sys.stdout.write("".join(err))
sys.exit(p.returncode)
