"""Prints how many bytes symbol TO lies after symbol FROM in EXE, as the
symbol table says (nm), in hex: what a FUNC+OFFSET probe at TO is written
with when FROM is the function. With --sed PLACEHOLDER, prints the sed
command that puts it into a script instead.

usage: symbol-distance.py [--sed PLACEHOLDER] EXE FROM TO
"""
import subprocess
import sys

args = sys.argv[1:]
placeholder = None
if args[0] == "--sed":
    placeholder, args = args[1], args[2:]
exe, sym_from, sym_to = args
addresses = {}
for line in subprocess.run(["nm", exe], capture_output=True, text=True,
                           check=True).stdout.splitlines():
    fields = line.split()
    if len(fields) == 3:
        addresses[fields[2]] = int(fields[0], 16)
distance = "0x%x" % (addresses[sym_to] - addresses[sym_from])
print("s/%s/%s/" % (placeholder, distance) if placeholder else distance)
