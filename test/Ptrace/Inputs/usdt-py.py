# Python code for usdt-python.t: imports and calls, so that the
# interpreter's function__entry and line USDT probes fire thousands of times.
import json
def work(n):
    return json.dumps([n, n * 2])
total = 0
for i in range(7):
    total += len(work(i))
print(total)
