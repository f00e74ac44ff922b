"""Shrinks a mismatching case to a minimal one that still mismatches.

Each round builds every one-step simplification of the case (a subtree
replaced by one of its operands, or by a literal of its value and type; a
compound-assignment step dropped), keeps those the generator's evaluator
still finds well defined, checks them all at once as the cases of one
program (sanitizer builds included) on the failing path, and continues with
the smallest that still mismatches.
"""

import copy
import os

from . import ctypes as ct
from . import expr as ex
from . import runner
from .gen import Case
from .world import _c_literal


def _positions(node, path=()):
    yield path, node
    for i, k in enumerate(node.kids):
        if k is not None:
            yield from _positions(k, path + (i,))


def _replace(node, path, new):
    if not path:
        return new
    kids = list(node.kids)
    kids[path[0]] = _replace(node.kids[path[0]], path[1:], new)
    if kids[path[0]] is None:
        return None
    return ex.rebuild(node, kids)


def _literal_for(node):
    """A literal of node's value and type, when both are the same in the
    two models and the type can be spelled."""
    if not node.known() or node.kind == "lit":
        return None
    ts = [node.ty[m] for m in ct.MODELS]
    vs = [node.val[m] for m in ct.MODELS]
    if vs[0] != vs[1] or ts[0] is not ts[1] or not getattr(
            ts[0], "is_int", False) or ts[0].bitfield or ts[0].enum:
        return None
    v = vs[0]
    text = "(%s)%s" % (ts[0].spelling, _c_literal(v))
    return ex.make("lit", {"text": text, "types": {m: ts[0] for m in
                                                    ct.MODELS},
                           "values": {m: v for m in ct.MODELS}}, [])


def expr_candidates(root):
    out = []
    for path, node in _positions(root):
        repl = [k for k in node.kids if k is not None]
        lit = _literal_for(node)
        if lit is not None:
            repl.append(lit)
        for r in repl:
            if r.size() >= node.size():
                continue
            new = _replace(root, path, r)
            if new is not None and (new.is_int() or new.is_pointer()):
                out.append(new)
    return out


def candidates(case):
    out = []
    if case.kind == "expr":
        for n in expr_candidates(case.node):
            out.append(Case(0, "expr", node=n))
        return out
    for i in range(1, len(case.steps)):
        out.append(Case(0, "assign", var=case.var,
                        steps=case.steps[:i] + case.steps[i + 1:]))
    # Simplify step expressions only where the step stays well defined;
    # the runner's sanitizer builds have the last word.
    for i, (op, n) in enumerate(case.steps):
        for e in expr_candidates(n):
            steps = list(case.steps)
            steps[i] = (op, e)
            out.append(Case(0, "assign", var=case.var, steps=steps))
    if len(case.steps) == 1:
        out.append(Case(0, "expr", node=case.steps[0][1]))
    return out


def reduce_case(gen, case, path, tools, workdir, log=lambda s: None,
                max_rounds=40):
    """The smallest case found that still mismatches on path."""
    best = case
    rejected_mode = case_rejected(case)
    for rnd in range(max_rounds):
        cands = {}
        for c in candidates(best):
            text = c.statements("script")
            if c.size() < best.size() and text not in cands:
                cands[text] = c
        if not cands:
            break
        batch = sorted(cands.values(), key=lambda c: c.size())
        for i, c in enumerate(batch):
            c.id = i
        prog = runner.Program(gen, batch, os.path.join(workdir,
                                                       "round%d" % rnd))
        outcome = runner.Outcome()
        outcome.ub = runner.ub_cases(prog, tools)
        runner.check(prog, tools, [] if rejected_mode else [path], outcome)
        failing = set(outcome.mismatches.get(path, {}))
        if rejected_mode:
            failing = set(outcome.rejected)
        failing -= set(outcome.ub)
        pick = next((c for c in batch if c.id in failing), None)
        if pick is None:
            break
        log("  round %d: %d candidates, now %d nodes: %s" % (
            rnd, len(batch), pick.size(), pick.describe()))
        best = copy.copy(pick)
        best.rejected = rejected_mode
    return best


def case_rejected(case):
    return getattr(case, "rejected", False)
