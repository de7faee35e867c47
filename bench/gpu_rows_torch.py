#!/usr/bin/env python3
"""The baselines of bench/gpu_rows.sh, timed as ke-run times GPU kernels
(CUDA events around one call, L2 flushed before it, median): a
device-to-device copy of the rows (the bandwidth the row kernels are held
to), and PyTorch eager and torch.compile on the bench's softmax, layernorm
and rmsnorm at the same shape. One JSON line each."""
import argparse
import json
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "baselines"))
import torch_bench  # noqa: E402  (its CUDA timing)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=16384)
    parser.add_argument("--cols", type=int, default=4096)
    args = parser.parse_args()
    torch_bench.DEVICE = "cuda"
    rows, cols = args.rows, args.cols
    x = torch.rand(rows, cols, device="cuda") * 2 - 1
    y = torch.empty_like(x)
    gamma = torch.rand(cols, device="cuda") * 2 - 1
    beta = torch.rand(cols, device="cuda") * 2 - 1
    moved = 2 * x.numel() * x.element_size()  # read once, written once
    ns = torch_bench.timed(lambda: y.copy_(x))
    print(json.dumps({"library": "copy", "rows": rows, "cols": cols,
                      "median_ns": ns, "bytes": moved,
                      "gb_per_s": moved / ns}), flush=True)
    kernels = {
        "softmax": lambda s: torch.softmax(s, dim=1),
        "layernorm": lambda s: torch.nn.functional.layer_norm(s, (cols,), gamma, beta, 1e-5),
        "rmsnorm": lambda s: s * torch.rsqrt(s.pow(2).mean(-1, keepdim=True) + 1e-6) * gamma,
    }
    for name, fn in kernels.items():
        row = {"library": "torch", "kernel": name, "rows": rows, "cols": cols,
               "bytes": moved, "eager_ns": torch_bench.timed(lambda: fn(x))}
        try:
            compiled = torch.compile(fn)
            row["compiled_ns"] = torch_bench.timed(lambda: compiled(x))
        except Exception as error:  # noqa: BLE001  (report, keep the others)
            row["compile_error"] = str(error)[-500:]
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
