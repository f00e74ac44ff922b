"""Calls sys.audit() N times and times the loop itself
(bench/tiny-function/run.py, the "cpython" rows): each call passes
CPython's USDT probe python:audit once its semaphore is set. (Not
python:function__entry: CPython 3.11 fires that one only while it traces,
with python:line enabled, and then per line too.)"""
import sys
import time

n = int(sys.argv[1])
audit = sys.audit
start = time.perf_counter_ns()
for _ in range(n):
    audit("bench.tick")
sys.stderr.write("loop-ns %d\n" % (time.perf_counter_ns() - start))
