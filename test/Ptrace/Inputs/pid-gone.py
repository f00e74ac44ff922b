"""Prints 'gone' when the process whose pid is in the file given has ended
(a zombie not yet reaped counts as ended), 'alive STATE' otherwise."""
import sys

pid = open(sys.argv[1]).read().split()[0]
try:
    stat = open("/proc/%s/stat" % pid).read()
    state = stat.rsplit(")", 1)[1].split()[0]
except OSError:
    state = "X"
print("gone" if state in "ZX" else "alive " + state)
