#!/usr/bin/env python3
"""The GPU bench table: ke's times next to PyTorch's, as Markdown.

    bench/gpu_table.py --best BEST.jsonl [--default DEFAULT.jsonl]
                       [--torch TORCH.jsonl] [--throughput THROUGHPUT.jsonl]
    bench/gpu_table.py KE.jsonl [KE2.jsonl ...] TORCH.jsonl

The first form is bench/gpu_search.sh's (bench/run.sh --target nvgpu):
BEST.jsonl and DEFAULT.jsonl are `ke-run --target nvgpu --json` lines of
the searched best kernels and of ke's default lowering; a kernel without a
best line (the search wrote nothing) counts with its default line.
THROUGHPUT.jsonl: gpu_search.sh's per-kernel search wall time and candidates
evaluated. The second form is bench/gpu_run.sh's: ke-gpu-run lines of the
knob sweep's bundles (kernel@knob; the bare kernel is the default), the best
correct bundle per kernel counts.

TORCH.jsonl: bench/baselines/torch_bench.py --device cuda --compile
({"kernel", "eager_ns", "compiled_ns"}). Times are medians, printed in us.
Below the table: geomean speedup (over the correct kernels with a baseline
time) and KernelBench's fast_1 and fast_2 (the share of all kernels that
are correct and more than 1x / 2x as fast as the baseline), against eager
and against torch.compile; and the search's candidates per minute.
"""
import argparse
import json
import math
import sys


def rows(path):
    """The JSON objects of a JSON-lines file (other lines skipped)."""
    if not path:
        return []
    result = []
    with open(path) as lines:
        for line in lines:
            line = line.strip()
            if line.startswith("{"):
                try:
                    result.append(json.loads(line))
                except ValueError:
                    pass
    return result


def by_kernel(path):
    """The last row per kernel."""
    return {row["kernel"]: row for row in rows(path) if "kernel" in row}


def median(row):
    return ((row or {}).get("time_ns") or {}).get("median")


def load_bundles(paths):
    """Per kernel: the default bundle and the best correct one over the knob
    variants (bundles named kernel@knob carry the knob)."""
    default, best = {}, {}
    for path in paths:
        for row in rows(path):
            name = row.get("kernel")
            if name is None:
                continue
            knob = (row.get("bundle") or "").rpartition("/")[2].partition("@")[2]
            row["knob"] = knob or "default"
            if not knob:
                default[name] = row
            time = median(row)
            old = best.get(name)
            if row.get("correct") and time:
                if not old or not old.get("correct") or not median(old) or time < median(old):
                    best[name] = row
            elif old is None:
                best[name] = row
    return default, best


def us(ns):
    return "n/a" if not ns else "%.1f" % (ns / 1e3)


def ratio(value):
    return "n/a" if value is None else "%.2fx" % value


def cell(text, width=60):
    text = " ".join(str(text).split()).replace("|", "/")
    return text if len(text) <= width else text[: width - 3] + "..."


def summary(label, speedups, correct, names, missing):
    """speedups: kernel -> baseline time / ke time (kernels with both)."""
    n = len(names)
    fast = lambda p: sum(1 for k in names if correct.get(k) and (speedups.get(k) or 0) > p)
    good = [speedups[k] for k in names if correct.get(k) and speedups.get(k)]
    geomean = math.exp(sum(map(math.log, good)) / len(good)) if good else None
    line = "vs %s: geomean %s over %d correct kernels; fast_1 %.2f (%d/%d); fast_2 %.2f (%d/%d)" % (
        label, ratio(geomean), len(good), fast(1) / n, fast(1), n, fast(2) / n, fast(2), n)
    if missing:
        line += "; no %s time for %d" % (label, missing)
    return line


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--best", help="ke-run JSON lines of the searched best kernels")
    parser.add_argument("--default", help="ke-run JSON lines of ke's default lowering")
    parser.add_argument("--torch", help="torch_bench.py --device cuda --compile output")
    parser.add_argument("--throughput", help="gpu_search.sh's throughput.jsonl")
    parser.add_argument("legacy", nargs="*", help="KE.jsonl [KE2.jsonl ...] TORCH.jsonl (ke-gpu-run bundles)")
    args = parser.parse_args()

    knobs = False
    if args.legacy:
        if args.best or args.default:
            parser.error("give either --best/--default or positional KE.jsonl ... TORCH.jsonl")
        if len(args.legacy) < 2:
            parser.error("positional form: KE.jsonl [KE2.jsonl ...] TORCH.jsonl")
        default, best = load_bundles(args.legacy[:-1])
        torch_path = args.torch or args.legacy[-1]
        knobs = True
    else:
        if not args.best and not args.default:
            parser.error("--best (or --default) is required")
        default, best = by_kernel(args.default), by_kernel(args.best)
        torch_path = args.torch
    torch = by_kernel(torch_path)
    throughput = {}
    for row in rows(args.throughput):
        if "kernel" in row:
            throughput[row["kernel"]] = row

    # Every kernel ke or PyTorch ran counts (a kernel ke has no line for is
    # not correct).
    names = sorted(set(default) | set(best) | set(torch))
    if not names:
        print("no ke results")
        return 1

    head = ["kernel", "correct", "ke default (us)", "ke best (us)"]
    if knobs:
        head.append("best knob")
    head += ["precision", "eager (us)", "torch.compile (us)", "vs eager", "vs compile"]
    if throughput:
        head += ["candidates", "per min"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))

    correct, vs_eager, vs_compiled, precision = {}, {}, {}, {}
    for name in names:
        ke = best.get(name)
        fallback = ke is None
        if fallback:
            ke = default.get(name, {})
        time = median(ke)
        correct[name] = bool(ke.get("correct")) and bool(time)
        # TF32 results are reported apart from exact ones (PyTorch runs
        # those kernels with allow_tf32 too).
        precision[name] = ke.get("precision") or "ieee"
        t = torch.get(name, {})
        eager, compiled = t.get("eager_ns"), t.get("compiled_ns")
        if time and eager:
            vs_eager[name] = eager / time
        if time and compiled:
            vs_compiled[name] = compiled / time
        if correct[name]:
            verdict = "yes"
        else:
            verdict = "no: " + cell(ke.get("error") or ke.get("not_runnable") or
                                     ("no result" if not ke else "no time"))
        line = [name, verdict, us(median(default.get(name))),
                us(time) + (" (default)" if fallback and time else "")]
        if knobs:
            line.append(ke.get("knob", "n/a"))
        # A wrong kernel's speedup means nothing: n/a.
        line += [precision[name], us(eager), us(compiled),
                 ratio(vs_eager.get(name) if correct[name] else None),
                 ratio(vs_compiled.get(name) if correct[name] else None)]
        if throughput:
            search = throughput.get(name, {})
            count, per_minute = search.get("candidates"), search.get("per_minute")
            line += ["n/a" if count is None else str(count),
                     "n/a" if per_minute is None else "%.1f" % per_minute]
        print("| " + " | ".join(line) + " |")

    print()
    print("correct: %d/%d" % (sum(correct.values()), len(names)))
    if torch:
        groups = [(p, [n for n in names if precision[n] == p])
                  for p in sorted(set(precision.values()))]
        for label, group in groups:
            prefix = "" if len(groups) == 1 else "%s kernels, " % label
            print(prefix + summary("eager", {n: v for n, v in vs_eager.items() if n in group},
                                   correct, group, sum(not torch.get(n, {}).get("eager_ns") for n in group)))
            print(prefix + summary("torch.compile", {n: v for n, v in vs_compiled.items() if n in group},
                                   correct, group, sum(not torch.get(n, {}).get("compiled_ns") for n in group)))
    else:
        print("PyTorch: no times (bench/baselines/torch_bench.py did not run or printed nothing)")
    if throughput:
        searched = [r for r in throughput.values() if r.get("candidates") is not None and r.get("seconds")]
        seconds = sum(r["seconds"] for r in searched)
        count = sum(r["candidates"] for r in searched)
        workers = sorted({r.get("workers") for r in searched if r.get("workers")})
        budgets = sorted({r.get("budget") for r in searched if r.get("budget")})
        if seconds > 0:
            print("search: %.1f candidates/min (%d candidates in %.0f s over %d kernels%s%s)" % (
                count * 60.0 / seconds, count, seconds, len(searched),
                ", workers=" + ",".join(map(str, workers)) if workers else "",
                ", budget=" + ",".join(map(str, budgets)) if budgets else ""))
        unread = len(throughput) - len(searched)
        if unread:
            print("search: candidates unknown for %d of %d kernels" % (unread, len(throughput)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
