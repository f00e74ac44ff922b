#!/usr/bin/env python3
"""Scrapes `tsrun --metrics 127.0.0.1:0` while its traced program waits.

usage: scrape.py METRICS-OUT END-OUT TSRUN ARGS... -- PROG

tsrun runs with -v and -o END-OUT; its note says where it serves. PROG is
started by tsrun with two FIFOs: it says "ready" on the first once its
work is done and waits on the second, so the scrape sees final values
(a handshake, no sleeps). The scrape is written to METRICS-OUT; also
prints what other requests get: another path, another method, HEAD, and a
request line longer than the server accepts.
"""
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import urllib.error
import urllib.request


def main():
    metrics_out, end_out = sys.argv[1], sys.argv[2]
    sep = sys.argv.index("--")
    tsrun, prog = sys.argv[3:sep], sys.argv[sep + 1:]
    with tempfile.TemporaryDirectory() as d:
        ready, go = os.path.join(d, "ready"), os.path.join(d, "go")
        os.mkfifo(ready)
        os.mkfifo(go)
        ts = subprocess.Popen(tsrun + ["-v", "--metrics", "127.0.0.1:0",
                                       "-o", end_out, "--"] + prog +
                              [ready, go],
                              stderr=subprocess.PIPE, text=True)
        addr = None
        for line in ts.stderr:
            m = re.search(r"serving metrics at http://(\S+)/metrics", line)
            if m:
                addr = m.group(1)
                break
        if not addr:
            sys.exit("tsrun never said where it serves metrics")
        rest = []
        drain = threading.Thread(target=lambda: rest.extend(ts.stderr),
                                 daemon=True)
        drain.start()
        try:
            data = talk(addr, ready)
        except BaseException:
            # The program must not wait forever for a release that will not
            # come: tsrun is killed, and kills the program it launched.
            ts.kill()
            raise
        open(metrics_out, "wb").write(data)
        with open(go, "w") as f:
            f.write("go\n")
        ts.wait(timeout=120)
        drain.join(timeout=120)
        print("tsrun status:", ts.returncode)


def request(addr, req):
    """Sends raw bytes; returns the response's status line and body size."""
    host, port = addr.rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=30) as c:
        c.sendall(req)
        answer = b""
        while True:
            chunk = c.recv(65536)
            if not chunk:
                break
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    return head.split(b"\r\n")[0].decode(), len(body)


def talk(addr, ready):
    with open(ready) as f:
        print("prog says:", f.readline().strip())
    url = "http://%s/metrics" % addr
    with urllib.request.urlopen(url, timeout=30) as r:
        print("status:", r.status, r.headers["Content-Type"])
        data = r.read()
    try:
        urllib.request.urlopen("http://%s/other" % addr, timeout=30)
    except urllib.error.HTTPError as e:
        print("other path:", e.code)
    for name, req in [
            ("post", b"POST /metrics HTTP/1.1\r\nHost: x\r\n\r\n"),
            ("head", b"HEAD /metrics HTTP/1.1\r\nHost: x\r\n\r\n"),
            ("garbage", b"\x00\x01 nonsense\r\n\r\n"),
            ("huge", b"GET /" + b"a" * 20000 + b" HTTP/1.1\r\n\r\n"),
            # Never finishes its request: the server gives up on it (after
            # 2 s) and closes without an answer.
            ("unfinished", b"GET /metrics HTTP/1.1\r\n")]:
        print("%s: %s, %d body bytes" % ((name,) + request(addr, req)))
    with urllib.request.urlopen(url, timeout=30) as r:
        print("again:", r.status, "same" if r.read() == data else "changed")
    return data


main()
