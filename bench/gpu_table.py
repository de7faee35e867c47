#!/usr/bin/env python3
"""The GPU bench table: ke-gpu-run's JSON lines next to PyTorch's.

    bench/gpu_table.py KE.jsonl [KE2.jsonl ...] TORCH.jsonl

KE.jsonl: ke-gpu-run (or ke-run --target nvgpu --json) output; TORCH.jsonl:
bench/baselines/torch_bench.py --device cuda --compile. Prints a Markdown
table with the speedups over PyTorch eager and torch.compile, the geomean
over eager, and KernelBench's fast_1 / fast_2 against eager (the share of
kernels that are correct and more than 1x / 2x as fast).
"""
import json
import math
import sys


def load(path):
    rows = {}
    for line in open(path):
        line = line.strip()
        if line.startswith("{"):
            row = json.loads(line)
            rows[row["kernel"]] = row
    return rows


def load_ke(paths):
    """Per kernel: the default bundle and the best correct one over the
    thread-block tiles (bundles named kernel@tile carry the tile)."""
    default, best = {}, {}
    for path in paths:
        for line in open(path):
            line = line.strip()
            if not line.startswith("{"):
                continue
            row = json.loads(line)
            name = row["kernel"]
            tile = row.get("bundle", "").partition("@")[2] or "default"
            row["tile"] = tile
            if tile == "default":
                default[name] = row
            time = (row.get("time_ns") or {}).get("median")
            if row.get("correct") and time:
                old = best.get(name)
                if not old or time < old["time_ns"]["median"]:
                    best[name] = row
            elif name not in best:
                best[name] = row
    return default, best


def main():
    default, ke = load_ke(sys.argv[1:-1])
    torch = load(sys.argv[-1])
    print("| kernel | correct | ke default (us) | ke best (us) | best tile | eager (us) | torch.compile (us) | vs eager | vs compile |")
    print("|---|---|---|---|---|---|---|---|---|")
    speedups, fast1, fast2 = [], 0, 0
    for name in sorted(set(ke) | set(torch)):
        k, t = ke.get(name, {}), torch.get(name, {})
        time = (k.get("time_ns") or {}).get("median")
        eager, compiled = t.get("eager_ns"), t.get("compiled_ns")
        correct = bool(k.get("correct"))
        vs_eager = eager / time if time and eager else None
        vs_compiled = compiled / time if time and compiled else None
        if correct and vs_eager:
            speedups.append(vs_eager)
            fast1 += vs_eager > 1
            fast2 += vs_eager > 2
        fmt = lambda v, scale=1e3: "n/a" if v is None else "%.1f" % (v / scale)
        ratio = lambda v: "n/a" if v is None else "%.2fx" % v
        d = (default.get(name, {}).get("time_ns") or {}).get("median")
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            name, "yes" if correct else "NO: " + str(k.get("error")),
            fmt(d), fmt(time), k.get("tile", "n/a"), fmt(eager), fmt(compiled),
            ratio(vs_eager), ratio(vs_compiled)))
    n = len(set(ke) | set(torch))
    geomean = math.exp(sum(map(math.log, speedups)) / len(speedups)) if speedups else 0
    print()
    print("correct: %d/%d; geomean vs eager %.2fx; fast_1 %.2f; fast_2 %.2f" % (
        sum(bool(r.get("correct")) for r in ke.values()), n, geomean, fast1 / n, fast2 / n))


if __name__ == "__main__":
    main()
