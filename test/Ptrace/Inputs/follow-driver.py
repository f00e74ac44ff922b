"""Runs TSRUN ARGS... -- PROG outlive K FIFO, and once tsrun says (-v) that
it follows the child (which then waits on FIFO), lets the child go on.
Prints tsrun's stdout, then its stderr.

    follow-driver.py FIFO TSRUN ARG...
"""
import os
import subprocess
import sys

fifo, cmd = sys.argv[1], sys.argv[2:]
if os.path.exists(fifo):
    os.unlink(fifo)
os.mkfifo(fifo)
p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                     text=True)
err = []
for line in p.stderr:
    err.append(line)
    if "followed without ptrace" in line:
        with open(fifo, "w") as f:
            f.write("go\n")
        break
rest_out, rest_err = p.communicate(timeout=120)
sys.stdout.write(rest_out)
sys.stdout.write("".join(err) + rest_err)
sys.exit(p.returncode)
