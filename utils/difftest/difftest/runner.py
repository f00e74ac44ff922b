"""Builds a campaign's gcc programs and script and runs them on every path.

Paths (each a way a probe fires in a real process):
  lp64          a gcc -m64 program, tsrun's default (in-process agent)
  lp64-ptrace   the same with tsrun --ptrace
  ilp32-qemu    a gcc -m32 program under `qemu-i386 -g PORT`, tsrun --remote
  ilp32-native  a gcc -m32 program run by tsrun itself, where tsrun can trace
                native 32-bit processes (probed once; skipped otherwise)

The traced program prints "C<id> <value>" for every case; the script prints
the same lines from its probe; a case whose lines differ is a mismatch.
"""

import json
import os
import re
import shlex
import subprocess
import sys

from . import ctypes as ct

HERE = os.path.dirname(os.path.abspath(__file__))
SRC_ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
REMOTE_SESSION = os.path.join(SRC_ROOT, "utils", "lit", "remote_session.py")
PATHS = ["lp64", "lp64-ptrace", "ilp32-qemu", "ilp32-native"]
PATH_MODEL = {"lp64": "LP64", "lp64-ptrace": "LP64", "ilp32-qemu": "ILP32",
              "ilp32-native": "ILP32"}
CASES_PER_PROBE = 40
CFLAGS = ["-O0", "-w", "-fno-strict-aliasing"]


class Tools:
    def __init__(self, bindir, timeout=300):
        self.tscc = os.path.join(bindir, "tscc")
        self.tsrun = os.path.join(bindir, "tsrun")
        self.timeout = timeout
        self.native32 = None  # probed on first use


def run(cmd, timeout, **kw):
    try:
        return subprocess.run(cmd, capture_output=True, text=True,
                              timeout=timeout, **kw)
    except subprocess.TimeoutExpired as e:
        return subprocess.CompletedProcess(cmd, -999, e.stdout or "",
                                           "timeout after %ds" % timeout)


class Program:
    """The C program, the script and the line of every case in each."""

    def __init__(self, gen, cases, workdir):
        self.gen = gen
        self.cases = cases
        self.dir = workdir
        os.makedirs(workdir, exist_ok=True)
        self.c_path = os.path.join(workdir, "prog.c")
        self.t_path = os.path.join(workdir, "probe.t")
        self.c_line = {}
        self.t_line = {}
        self._write()

    def chunks(self):
        return [self.cases[i:i + CASES_PER_PROBE]
                for i in range(0, len(self.cases), CASES_PER_PROBE)] or [[]]

    def _write(self):
        w = self.gen.world
        c = ["#include <stdio.h>", "#include <stddef.h>",
             w.c_declarations(), w.c_data()]
        t = ["// difftest seed %s" % self.gen.seed, w.c_declarations()]
        chunks = self.chunks()
        for k in range(len(chunks)):
            t.append(w.prototype("probe%d" % k) + ";")
        for case in self.cases:
            if case.kind == "assign" and case.storage != "auto":
                t.append(case.top_declaration())
        for k, chunk in enumerate(chunks):
            c.append("__attribute__((noinline)) %s {" %
                     w.prototype("probe%d" % k))
            t.append("@@uft:*:a.out:probe%d:entry" % k)
            t.append("{")
            for case in chunk:
                c.append("  " + case.statements("c"))
                self.c_line[_count_lines(c)] = case.id
                t.append("  " + case.statements("script"))
                self.t_line[_count_lines(t)] = case.id
            c.append("}")
            t.append("}")
        c.append("int main(void) {")
        c.append("  setvbuf(stdout, NULL, _IOLBF, 0);")
        c += w.main_prologue()
        for k in range(len(chunks)):
            c.append("  probe%d(%s);" % (k, w.call_args()))
        c.append("  return 0;")
        c.append("}")
        with open(self.c_path, "w") as f:
            f.write("\n".join(c) + "\n")
        with open(self.t_path, "w") as f:
            f.write("\n".join(t) + "\n")


def _count_lines(parts):
    return sum(p.count("\n") + 1 for p in parts)


def parse_values(text):
    out = {}
    for line in text.splitlines():
        m = re.match(r"^C(\d+) (\S+)$", line.strip())
        if m:
            out[int(m.group(1))] = m.group(2)
    return out


def compile_c(src, out, model, extra=(), timeout=300):
    flag = "-m32" if model == "ILP32" else "-m64"
    r = run(["gcc", flag] + CFLAGS + list(extra) + [src, "-o", out], timeout)
    return r


def run_native(exe, timeout, env=None):
    r = run([exe], timeout, env=env)
    if r.returncode != 0 and os.path.basename(exe).endswith("32"):
        r = run(["qemu-i386", exe], timeout, env=env)
    return r


def layout_values(gen, workdir, timeout=300):
    """Asks gcc for the value of every layout query in both models."""
    w = gen.world
    queries = gen.layout_queries()
    lines = ["#include <stdio.h>", "#include <stddef.h>",
             w.c_declarations(), w.c_data(), w.prototype("q") + " {"]
    for i, (text, _) in enumerate(queries):
        lines.append('  printf("Q%d %%llu\\n", (unsigned long long)(%s));' %
                     (i, text.replace("@ARG", "a")))
    lines += ["}", "int main(void) {"] + w.main_prologue() + [
        "  q(%s);" % w.call_args(), "  return 0;", "}"]
    os.makedirs(workdir, exist_ok=True)
    src = os.path.join(workdir, "layout.c")
    with open(src, "w") as f:
        f.write("\n".join(lines) + "\n")
    values = {}
    for model in ct.MODELS:
        exe = os.path.join(workdir, "layout%s" % model[-2:])
        r = compile_c(src, exe, model, timeout=timeout)
        if r.returncode != 0:
            raise RuntimeError("gcc rejected the layout queries:\n" +
                               r.stderr)
        out = run_native(exe, timeout)
        for line in out.stdout.splitlines():
            k, v = line.split()
            values.setdefault(int(k[1:]), {})[model] = int(v)
    result = {}
    for i, (text, feat) in enumerate(queries):
        if len(values.get(i, {})) == 2:
            result[text] = (values[i], feat)
    return result


class Outcome:
    def __init__(self):
        self.mismatches = {}  # path -> {case id: (want, got)}
        self.rejected = {}  # case id -> tscc's message
        self.ub = {}  # case id -> sanitizer report
        self.crash = None
        self.path_errors = {}  # path -> why it could not run
        self.checked = {}  # path -> cases compared


def ub_cases(prog, tools):
    """Cases the -fsanitize=undefined builds report, in either model."""
    bad = {}
    for model in ct.MODELS:
        exe = os.path.join(prog.dir, "ubsan%s" % model[-2:])
        r = compile_c(prog.c_path, exe, model,
                      ["-fsanitize=undefined"],
                      tools.timeout)
        if r.returncode != 0:
            raise RuntimeError("gcc rejected the program:\n" + r.stderr)
        env = dict(os.environ, UBSAN_OPTIONS="print_stacktrace=0")
        out = run_native(exe, tools.timeout, env)
        for line in out.stderr.splitlines():
            m = re.search(r"prog\.c:(\d+):\d+: runtime error: (.*)", line)
            if m and int(m.group(1)) in prog.c_line:
                bad.setdefault(prog.c_line[int(m.group(1))],
                               "%s: %s" % (model, m.group(2)))
    return bad


def _tscc(prog, tools, obj):
    return run([tools.tscc, "-w", "-ferror-limit=0", prog.t_path, "-o", obj],
               tools.timeout)


def _rejected_alone(prog, case, tools):
    """tscc's first error for \p case compiled on its own, or None if it
    compiles: a syntax error in one case can make tscc report errors at
    the lines of others, which must not be counted against them."""
    alone = Program(prog.gen, [case], os.path.join(prog.dir, "alone"))
    r = _tscc(alone, tools, os.path.join(alone.dir, "probe.o"))
    if r.returncode == 0:
        return None
    m = re.search(r"probe\.t:\d+:\d+: error: (.*)", r.stderr)
    return m.group(1) if m else r.stderr.strip()[-300:] or "tscc failed"


def compile_script(prog, tools, outcome):
    """Compiles the script; cases tscc rejects (each confirmed by compiling
    it alone) are recorded and dropped, and the script is written again
    without them. Returns the object's path, or None when tscc crashed or
    failed for no case."""
    obj = os.path.join(prog.dir, "probe.o")
    while True:
        r = _tscc(prog, tools, obj)
        if r.returncode == 0:
            return obj
        if r.returncode < 0 or r.returncode == -999:
            outcome.crash = "tscc died (%d): %s" % (r.returncode,
                                                    r.stderr[-2000:])
            return None
        named = {prog.t_line[int(m.group(1))]
                 for m in re.finditer(r"probe\.t:(\d+):\d+: error:",
                                      r.stderr)
                 if int(m.group(1)) in prog.t_line}
        # Confirm the named cases alone; if none is rejected alone, the
        # culprit is elsewhere: try every case.
        suspects = [c for c in prog.cases if c.id in named]
        bad = {}
        for group in (suspects, prog.cases):
            for case in group:
                msg = _rejected_alone(prog, case, tools)
                if msg is not None:
                    bad[case.id] = msg
            if bad:
                break
        if not bad:
            outcome.crash = "tscc failed outside any case:\n" + \
                r.stderr[-3000:]
            return None
        outcome.rejected.update(bad)
        prog.cases = [c for c in prog.cases if c.id not in bad]
        prog.c_line, prog.t_line = {}, {}
        prog._write()


def script_values(json_path):
    vals = {}
    try:
        with open(json_path) as f:
            for raw in f:
                try:
                    rec = json.loads(raw)
                except ValueError:
                    continue
                if rec.get("type") == "printf":
                    vals.update(parse_values(rec.get("text", "")))
    except OSError:
        pass
    return vals


def run_path(path, prog, obj, tools):
    """(program's values, script's values, error or None) on one path."""
    model = PATH_MODEL[path]
    exe = os.path.join(prog.dir, "prog%s" % model[-2:])
    if not os.path.exists(exe):
        r = compile_c(prog.c_path, exe, model, ["-g"], tools.timeout)
        if r.returncode != 0:
            return None, None, "gcc: " + r.stderr[-2000:]
    out_json = os.path.join(prog.dir, "%s.json" % path)
    if os.path.exists(out_json):
        os.unlink(out_json)
    base = [tools.tsrun, obj, "-f", "json", "-o", out_json]
    if path in ("lp64", "lp64-ptrace", "ilp32-native"):
        cmd = base + (["--ptrace"] if path == "lp64-ptrace" else []) + \
            ["--", exe]
        r = run(cmd, tools.timeout, cwd=prog.dir)
        program_out = r.stdout
    else:
        p_out = os.path.join(prog.dir, "%s.out" % path)
        cmd = [sys.executable, REMOTE_SESSION, "--stub",
               "qemu-i386 -g {port} %s" % shlex.quote(exe), "--out", p_out,
               "--"] + base + ["--remote", "127.0.0.1:{port0}=%s" % exe]
        r = run(cmd, tools.timeout, cwd=prog.dir)
        program_out = open(p_out).read() if os.path.exists(p_out) else ""
    want = parse_values(program_out)
    got = script_values(out_json)
    if r.returncode != 0 and not got:
        return want, got, "tsrun exited %d: %s" % (r.returncode,
                                                   r.stderr[-2000:])
    return want, got, None


def native32_supported(prog, obj, tools):
    """Whether this tsrun traces native 32-bit processes: one try with the
    campaign's own program (a 'not supported' answer or no records at all
    mean no, and the campaign uses qemu-i386 for ILP32)."""
    if tools.native32 is None:
        want, got, err = run_path("ilp32-native", prog, obj, tools)
        tools.native32 = err is None and bool(got)
        tools.native32_why = err or ("" if got else "no records")
    return tools.native32


def check(prog, tools, paths, outcome):
    """Compiles and runs prog on each path, filling outcome."""
    obj = compile_script(prog, tools, outcome)
    if obj is None:
        return
    for path in paths:
        if path == "ilp32-native" and not native32_supported(prog, obj,
                                                             tools):
            outcome.path_errors[path] = "unsupported: " + \
                tools.native32_why.strip()[:300]
            continue
        want, got, err = run_path(path, prog, obj, tools)
        if err:
            outcome.path_errors[path] = err
            continue
        diffs = {}
        for case in prog.cases:
            if case.id in outcome.ub:
                continue
            w, g = want.get(case.id), got.get(case.id)
            if w != g:
                diffs[case.id] = (w, g)
        outcome.mismatches[path] = diffs
        outcome.checked[path] = len(prog.cases)
