"""Checks tsreport's exports of a binary trace against tsreport's own
rendering of it (`tsreport -f json`, whose "text" is the text output).

usage: check_export.py ctf METADATA BABELTRACE2-OUTPUT TSREPORT-JSON FORMAT-FILE
       check_export.py perfetto TRACE.json METADATA TSREPORT-JSON FORMAT-FILE

ctf: BABELTRACE2-OUTPUT is `babeltrace2 --clock-cycles DIR`. Every event's
printf format (from the metadata's comment above its class, or the format
file's stanza for a trace() hook) applied to its CTF field values must give
exactly the text tsreport printed for the record with the same time, pid,
tid and data model, and the two sets of records must be equal.

perfetto: the Chrome JSON must have balanced B/E events per thread (same
name), time that never goes back on a thread, a process_name and a
thread_name for every thread with events, and exactly tsreport's records
(time, pid, tid, text), with typed args that format to that text.

Prints summary lines; exits 1 with the differences otherwise.
"""
import json
import re
import sys


def unescape(s):
    return re.sub(r"\\x([0-9a-f]{2})", lambda m: chr(int(m.group(1), 16)), s)


def class_formats(metadata):
    """Event class name -> the printf format in the comment above it."""
    out = {}
    for m in re.finditer(r"/\* (.*?) \*/\nevent \{\n  name = \"(.*?)\";",
                         metadata):
        out[m.group(2)] = unescape(m.group(1).replace("*\\/", "*/"))
    return out


class Parser:
    """babeltrace2's text: { name = value, ... } with strings, integers,
    enums ( "LABEL" : container = N ) and arrays [ [0] = v, ... ]."""

    def __init__(self, text):
        self.s, self.i = text, 0

    def ws(self):
        while self.i < len(self.s) and self.s[self.i] == " ":
            self.i += 1

    def expect(self, tok):
        self.ws()
        if not self.s.startswith(tok, self.i):
            raise ValueError("expected %r at %r" % (tok, self.s[self.i:]))
        self.i += len(tok)

    def value(self):
        self.ws()
        c = self.s[self.i]
        if c == '"':
            self.i += 1
            out = ""
            while self.s[self.i] != '"':
                if self.s[self.i] == "\\":
                    self.i += 1
                    out += {"n": "\n", "t": "\t"}.get(self.s[self.i],
                                                      self.s[self.i])
                else:
                    out += self.s[self.i]
                self.i += 1
            self.i += 1
            return out
        if c == "(":
            self.expect("(")
            label = self.value()
            self.expect(": container =")
            self.value()
            self.expect(")")
            return label
        if c == "{":
            return self.struct()
        if c == "[":
            self.expect("[")
            items = []
            self.ws()
            while self.s[self.i] != "]":
                self.expect("[")
                self.value()
                self.expect("] =")
                items.append(self.value())
                self.ws()
                if self.s[self.i] == ",":
                    self.i += 1
                self.ws()
            self.i += 1
            return items
        m = re.compile(r"-?(0x[0-9a-fA-F]+|0[0-7]*|[0-9.e+-]+)").match(
            self.s, self.i)
        self.i = m.end()
        text = m.group(0)
        if re.fullmatch(r"-?0x[0-9a-fA-F]+", text):
            return int(text, 16)
        if re.fullmatch(r"-?0[0-7]+", text):
            return int(text, 8)
        return float(text) if re.search(r"[.e]", text) else int(text)

    def struct(self):
        self.expect("{")
        out = {}
        self.ws()
        while self.s[self.i] != "}":
            m = re.compile(r"[A-Za-z_][A-Za-z0-9_]*").match(self.s, self.i)
            self.i = m.end()
            self.expect("=")
            out[m.group(0)] = self.value()
            self.ws()
            if self.s[self.i] == ",":
                self.i += 1
            self.ws()
        self.i += 1
        return out


LINE = re.compile(r"^\[(\d+)\] \(\+[^)]*\) (\S+): ")


def format_text(fmt, args):
    """What C's printf prints for these (already converted) values."""
    args = list(args)

    def one(m):
        flags, width, conv = m.group(1), m.group(2), m.group(4)
        if conv == "%":
            return "%"
        v = args.pop(0)
        if conv in "xXo" and v == 0:
            flags = flags.replace("#", "")  # C: %#x of 0 is "0"
        return ("%" + flags + width + conv) % v

    text = re.sub(r"%([-+ #0]*)([0-9]*(?:\.[0-9]+)?)(hh|h|ll|l|q|L|j|z|t)?"
                  r"([diouxXcsfeEgG%])", one, fmt)
    return text if text.endswith("\n") else text + "\n"


def stack_text(frames):
    """A stktrace() record as text output prints it."""
    return "".join("        %s\n" % f for f in frames)


def ctf_records(lines, formats):
    out = []
    for line in lines:
        m = LINE.match(line)
        if not m:
            raise SystemExit("unexpected babeltrace2 line: " + line)
        p = Parser(line[m.end():])
        ctx = p.struct()
        p.expect(",")
        fields = p.struct()
        name = m.group(2)
        if name == "stack":
            if fields["frames_count"] != len(fields["frames"]):
                raise SystemExit("bad frame count: " + line)
            text = stack_text(fields["frames"])
        elif name not in formats:
            raise SystemExit("no format for event class " + name)
        else:
            args = [fields["arg%d" % (k + 1)] for k in range(len(fields))]
            text = format_text(formats[name], args)
        out.append((int(m.group(1)), ctx["pid"], ctx["tid"],
                    ctx["data_model"], text))
    return out


def load_formats(metadata_path, format_file):
    formats = class_formats(open(metadata_path).read())
    for line in open(format_file):
        m = re.match(r"\s*(\S+)\s+(\w+)\s+\"(.*)\"\s*$", line)
        if m and not line.lstrip().startswith("#"):
            formats[m.group(2)] = m.group(3).encode().decode("unicode_escape")
    return formats


def tsreport_records(path, with_model=True):
    want = []
    for line in open(path):
        j = json.loads(line)
        if j.get("type") == "stack":
            j["text"] = stack_text(j["frames"])
        if "text" in j and j.get("type") in ("printf", "trace", "stack"):
            rec = (j["time_ns"], j["pid"], j["tid"])
            if with_model:
                rec += (j["data_model"],)
            want.append(rec + (j["text"],))
    return want


def compare(got, want):
    if sorted(got) != sorted(want):
        for r in sorted(set(want) - set(got)):
            print("only in tsreport:", r)
        for r in sorted(set(got) - set(want)):
            print("only in CTF:", r)
        sys.exit(1)


def check_ctf(metadata, bt_output, tsreport_json, format_file):
    got = ctf_records(open(bt_output).read().splitlines(),
                      load_formats(metadata, format_file))
    compare(got, tsreport_records(tsreport_json))
    times = [r[0] for r in got]
    if times != sorted(times):
        sys.exit("CTF events are not in time order")
    for dm in sorted({r[3] for r in got}):
        n = sum(1 for r in got if r[3] == dm)
        print("ctf %s: %d records equal" % (dm, n))


def perfetto_value(v):
    return int(v, 16) if isinstance(v, str) and re.fullmatch(
        r"0x[0-9a-f]+", v) else v


def check_perfetto(trace_json, metadata, tsreport_json, format_file):
    formats = load_formats(metadata, format_file)
    doc = json.load(open(trace_json))
    events = doc["traceEvents"]
    # tsrun's own records (pid 0 there) use a pid no process can have.
    session_pid = doc["otherData"]["tsrun_pid"]
    if any(e["pid"] == 0 or e["tid"] == 0 for e in events):
        sys.exit("pid or tid 0 (the idle task for Perfetto) in the trace")
    names = {}
    tracks = {}
    got = []
    for e in events:
        key = (e["pid"], e["tid"])
        if e["ph"] == "M":
            names[(e["name"], key if e["name"] == "thread_name" else
                   e["pid"])] = e["args"]["name"]
            continue
        tr = tracks.setdefault(key, {"stack": [], "ts": -1, "slices": {},
                                     "instants": 0})
        if e["ts"] < tr["ts"]:
            sys.exit("time goes back on %s: %r" % (key, e))
        tr["ts"] = e["ts"]
        if e["ph"] == "B":
            tr["stack"].append(e["name"])
        elif e["ph"] == "E":
            if not tr["stack"] or tr["stack"][-1] != e["name"]:
                sys.exit("unbalanced E on %s: %r" % (key, e))
            tr["stack"].pop()
            tr["slices"][e["name"]] = tr["slices"].get(e["name"], 0) + 1
        elif e["ph"] == "i":
            tr["instants"] += 1
        else:
            sys.exit("unexpected event %r" % e)
        a = e["args"]
        nargs = len([k for k in a if re.fullmatch(r"arg\d+", k)])
        if a["event"] == "stack":
            typed = stack_text(a["frames"])
        else:
            typed = format_text(formats[a["event"]],
                                [perfetto_value(a["arg%d" % (k + 1)])
                                 for k in range(nargs)])
        if typed != a["text"] + "\n":
            sys.exit("args %r do not format to the text %r" % (a, a["text"]))
        pid, tid = (0, 0) if e["pid"] == session_pid else key
        got.append((round(e["ts"] * 1000), pid, tid, a["text"] + "\n"))
    compare(got, tsreport_records(tsreport_json, with_model=False))
    for key, tr in sorted(tracks.items()):
        if tr["stack"]:
            sys.exit("unclosed slices on %s: %r" % (key, tr["stack"]))
        if ("process_name", key[0]) not in names or \
                ("thread_name", key) not in names:
            sys.exit("unnamed track %r" % (key,))
        slices = " ".join("%s=%d" % kv for kv in sorted(tr["slices"].items()))
        print("perfetto track %s: slices %s; %d instants" % (
            names[("process_name", key[0])], slices or "none",
            tr["instants"]))


if sys.argv[1] == "ctf":
    check_ctf(*sys.argv[2:6])
else:
    check_perfetto(*sys.argv[2:6])
