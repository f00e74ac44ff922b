#!/usr/bin/env python3
"""A traced process stops or dies in the middle of its clauses; another one,
traced in the same session, must be counted exactly all the same.

  wedge-driver.py TSRUN OBJ PROG stop-kill|lock-die

Both programs are hostile.c, launched by one tsrun; "steady-until" calls
work() between two bytes written to a FIFO and says how often.

  stop-kill  `PROG hot`: two threads call poke() without end. Once it is
             hot it gets SIGSTOP (job control: every thread stops, one of
             them perhaps in a clause), the steady program runs, then it
             gets SIGKILL, and the steady program runs on.
  lock-die   `PROG lock-die`: a thread takes the store's lock, holds it
             until the other calls have timed out on it, and dies with it.
             Then the steady program runs.

Prints the status of tsrun ("tsrun hung" if it does not end), whether the
steady program was counted exactly (the script's @work against what it
said), and each distinct warning.
"""
import os
import re
import signal
import subprocess
import sys
import tempfile
import time


def fifo(d, name):
    path = os.path.join(d, name)
    os.mkfifo(path)
    return path


def wait_for_line(path, *parts):
    """Until a line of the file at path has every one of parts."""
    while True:
        with open(path) as f:
            if any(all(p in line for p in parts) for line in f):
                return
        time.sleep(0.02)


def main(tsrun, obj, prog, mode):
    with tempfile.TemporaryDirectory() as d:
        event, go = fifo(d, "event"), fifo(d, "go")
        out_path, err_path = os.path.join(d, "out"), os.path.join(d, "err")
        first = ("%s hot 20000 %s" % (prog, event) if mode == "stop-kill"
                 else "%s lock-die 200 %s" % (prog, event))
        with open(out_path, "w") as out, open(err_path, "w") as err:
            ts = subprocess.Popen([tsrun, obj, "-c", first,
                                   "-c", "%s steady-until %s" % (prog, go)],
                                  stdout=out, stderr=err)

            def give_up(signum, frame):
                ts.kill()
                print("tsrun hung")
                sys.stdout.flush()
                os._exit(1)
            signal.signal(signal.SIGALRM, give_up)
            signal.alarm(150)
            with open(event) as f:
                said = f.readline().strip()
            with open(go, "w") as g:
                g.write("x")
                g.flush()
                if mode == "stop-kill":
                    pid = int(said)
                    os.kill(pid, signal.SIGSTOP)
                    # How long each phase lasts changes nothing that is
                    # checked: only that the steady program runs meanwhile.
                    time.sleep(0.3)
                    os.kill(pid, signal.SIGKILL)
                    # tsrun's status is that of the first launched command
                    # it sees end: the steady one ends only once tsrun has
                    # seen this one killed (on a loaded machine it could
                    # take longer than any fixed time).
                    wait_for_line(err_path, "pid %d " % pid,
                                  "killed by SIGKILL")
                time.sleep(0.3)
                g.write("x")
            ts.wait()
            signal.alarm(0)
        output = open(out_path).read()
        errors = open(err_path).read()
    print("tsrun status:", ts.returncode)
    said = re.search(r"steady calls (\d+)", output)
    counted = re.search(r"^@work: (\d+)$", output, re.M)
    if said and counted and said.group(1) == counted.group(1):
        print("steady: exact")
    else:
        print("steady: said %s, counted %s" %
              (said and said.group(1), counted and counted.group(1)))
    seen = {}
    for line in errors.splitlines():
        if "warning:" in line:
            seen[line] = seen.get(line, 0) + 1
    for line, count in seen.items():
        print("warning x %d: %s" % (count, line))


if __name__ == "__main__":
    main(*sys.argv[1:5])
