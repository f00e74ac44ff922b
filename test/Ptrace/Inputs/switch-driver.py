"""Runs tsrun (its command line after '--') and answers its announcements.

  switch-driver.py [--pid-to-fifo] FIFO -- COMMAND ARGS...

Creates FIFO; every time tsrun says on stderr that a signal switched
collection or that a snapshot was written, writes one byte to FIFO, which
releases the traced program (Inputs/switcher.c) waiting there. Prints the
announcements it saw, then tsrun's exit status. No timing: the program goes
on only once tsrun has acted on its signal.

COMMAND is tsrun, or a wrapper that runs it (remote_session.py); with
--pid-to-fifo the driver first writes the pid of the tsrun process among
COMMAND's descendants to FIFO, for a program that is no child of tsrun.
"""
import os
import re
import subprocess
import sys
import time

ANSWERED = re.compile(r"^tsrun: (collection (stopped|started) \(SIG|snapshot: )")


def descendants(pid):
    """Pids of pid's descendants, from /proc."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open("/proc/%s/stat" % entry) as f:
                    stat = f.read()
            except OSError:
                continue
            ppid = int(stat[stat.rindex(")") + 2:].split()[1])
            children.setdefault(ppid, []).append(int(entry))
    todo, found = [pid], []
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def find_tsrun(proc):
    """Waits until tsrun runs among proc's descendants; its pid."""
    while proc.poll() is None:
        for pid in [proc.pid] + descendants(proc.pid):
            try:
                with open("/proc/%d/comm" % pid) as f:
                    if f.read().strip() == "tsrun":
                        return pid
            except OSError:
                pass
        time.sleep(0.01)  # polling for a condition, not waiting for time
    sys.exit("switch-driver.py: tsrun never ran")


def main():
    pid_to_fifo = sys.argv[1] == "--pid-to-fifo"
    if pid_to_fifo:
        del sys.argv[1]
    fifo = sys.argv[1]
    cmd = sys.argv[sys.argv.index("--") + 1:]
    if os.path.exists(fifo):
        os.unlink(fifo)
    os.mkfifo(fifo)
    # Read-write, so that opening never waits for the program either.
    fd = os.open(fifo, os.O_RDWR)
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True)
    if pid_to_fifo:
        os.write(fd, b"%d\n" % find_tsrun(proc))
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
