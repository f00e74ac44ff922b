#!/usr/bin/env python3
"""Differential tester: random well-defined C expressions evaluated by gcc
-m32/-m64 programs and by a tscc script's probes, on every tsrun path.

  utils/difftest/difftest.py --seed 1 --cases 200
  utils/difftest/difftest.py --seeds 1-20 --cases 150 --paths lp64,ilp32-qemu
  utils/difftest/difftest.py --seed 7 --cases 200 --only 113   # one case

Every failure prints its seed and case id; a mismatch or a rejected case is
shrunk to a minimal one (unless --no-reduce). The exit status is 1 if any
case mismatched, was rejected or crashed tscc. docs/internals.md describes
the tester.
"""

import argparse
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from difftest import gen as gen_mod  # noqa: E402
from difftest import reduce as reduce_mod  # noqa: E402
from difftest import runner  # noqa: E402


def parse_seeds(args):
    if args.seeds:
        lo, _, hi = args.seeds.partition("-")
        return list(range(int(lo), int(hi or lo) + 1))
    return [args.seed]


def run_seed(seed, args, tools, paths, totals, out):
    g = gen_mod.Generator(seed, args.without)
    wdir = os.path.join(args.workdir, "seed%d" % seed)
    g.set_layout(runner.layout_values(g, os.path.join(wdir, "layout"),
                                      tools.timeout))
    cases = g.cases(args.cases)
    if args.only is not None:
        cases = [c for c in cases if c.id in args.only]
    prog = runner.Program(g, cases, os.path.join(wdir, "run"))
    outcome = runner.Outcome()
    outcome.ub = runner.ub_cases(prog, tools)
    runner.check(prog, tools, paths, outcome)
    totals["cases"] += len(cases)
    totals["ub"] += len(outcome.ub)
    totals["rejected"] += len(outcome.rejected)
    for path in paths:
        if path in outcome.path_errors:
            totals["path_errors"].setdefault(path, outcome.path_errors[path])
            continue
        totals["checked"][path] = totals["checked"].get(path, 0) + \
            outcome.checked.get(path, 0)
        totals["mismatched"][path] = totals["mismatched"].get(path, 0) + \
            len(outcome.mismatches.get(path, {}))
    by_id = {c.id: c for c in cases}
    failures = []
    if outcome.crash:
        totals["crashes"] += 1
        out("seed %d: CRASH %s" % (seed, outcome.crash))
    for cid, msg in sorted(outcome.rejected.items()):
        case = by_id[cid]
        case.rejected = True
        out("seed %d case %d: REJECTED: %s\n  %s" % (seed, cid, msg,
                                                     case.describe()))
        failures.append((case, None))
    for path in paths:
        for cid, (want, got) in sorted(outcome.mismatches.get(path,
                                                               {}).items()):
            out("seed %d case %d: MISMATCH on %s: gcc %s, script %s\n  %s" % (
                seed, cid, path, want, got, by_id[cid].describe()))
            failures.append((by_id[cid], path))
    if args.no_reduce:
        return
    seen = set()
    for case, path in failures:
        if case.id in seen:
            continue
        seen.add(case.id)
        small = reduce_mod.reduce_case(
            g, case, path or paths[0], tools,
            os.path.join(wdir, "reduce%d" % case.id),
            log=out if args.verbose else (lambda s: None))
        out("seed %d case %d reduced (%s): %s" % (
            seed, case.id, path or "rejected", small.describe()))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.
                                 RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seeds", help="a range A-B of seeds")
    ap.add_argument("--cases", type=int, default=100,
                    help="cases per seed (default 100)")
    ap.add_argument("--paths", default=",".join(runner.PATHS),
                    help="comma-separated: " + ", ".join(runner.PATHS))
    ap.add_argument("--bindir", default=os.path.join(runner.SRC_ROOT,
                                                     "build", "bin"))
    ap.add_argument("--tscc", help="the tscc to test (default: BINDIR/tscc)")
    ap.add_argument("--workdir", help="keep the programs here")
    ap.add_argument("--without", default="",
                    help="leave out constructs: " +
                    ", ".join(sorted(gen_mod.FEATURES)))
    ap.add_argument("--only", type=lambda s: [int(x) for x in s.split(",")],
                    help="check only these case ids of the seed")
    ap.add_argument("--no-reduce", action="store_true")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    args.without = [f for f in args.without.split(",") if f]
    for f in args.without:
        if f not in gen_mod.FEATURES:
            ap.error("unknown construct '%s'" % f)
    paths = [p for p in args.paths.split(",") if p]
    for p in paths:
        if p not in runner.PATHS:
            ap.error("unknown path '%s'" % p)
    tools = runner.Tools(args.bindir, args.timeout)
    if args.tscc:
        tools.tscc = os.path.abspath(args.tscc)
    keep = args.workdir is not None
    if not keep:
        args.workdir = tempfile.mkdtemp(prefix="difftest.")
    totals = {"cases": 0, "ub": 0, "rejected": 0, "crashes": 0,
              "generator_errors": 0,
              "checked": {}, "mismatched": {}, "path_errors": {}}

    def out(s):
        print(s, flush=True)

    try:
        for seed in parse_seeds(args):
            try:
                run_seed(seed, args, tools, paths, totals, out)
            except RuntimeError as e:
                # gcc refused what the generator wrote: a tester bug, which
                # must not hide the other seeds' results.
                totals["generator_errors"] += 1
                out("seed %d: GENERATOR ERROR (not a tscc failure): %s" % (
                    seed, str(e)[:2000]))
    finally:
        if not keep:
            shutil.rmtree(args.workdir, ignore_errors=True)
    bad = totals["rejected"] + totals["crashes"] + totals["generator_errors"]
    for p in paths:
        if p in totals["path_errors"] and p not in totals["checked"]:
            out("path %s: not run: %s" % (p, totals["path_errors"][p]))
            if not totals["path_errors"][p].startswith("unsupported"):
                bad += 1
            continue
        out("path %s: %d cases checked, %d mismatched" % (
            p, totals["checked"].get(p, 0), totals["mismatched"].get(p, 0)))
        bad += totals["mismatched"].get(p, 0)
    out("difftest: %d cases generated, %d dropped for undefined behaviour, "
        "%d rejected by tscc, %d tscc crashes" % (
            totals["cases"], totals["ub"], totals["rejected"],
            totals["crashes"]) + (", %d seeds with generator errors" % totals[
                "generator_errors"] if totals["generator_errors"] else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
