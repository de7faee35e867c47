#!/usr/bin/env python3
"""cuBLAS GEMMs through torch.mm, timed as ke-run times GPU kernels (CUDA
events around one call, L2 flushed before it, median): the baseline of
bench/gpu_gemm.sh. f32 with TF32 off (exact), tf32 with it on, bf16 inputs
with f32 results; B as [K][N] (layout nn) or a transposed view of [N][K]
(nt, x @ W.T). One JSON line per (type, layout, size)."""
import argparse
import json
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "baselines"))
import torch_bench  # noqa: E402  (its timing and TF32 switches)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", nargs="+", type=int, default=[1024, 2048, 4096])
    parser.add_argument("--types", nargs="+", default=["f32", "tf32", "bf16"])
    parser.add_argument("--layouts", nargs="+", default=["nn"])
    args = parser.parse_args()
    torch_bench.DEVICE = "cuda"
    for type_ in args.types:
        torch_bench.set_tf32(type_ == "tf32")
        for layout, n in [(layout, n) for layout in args.layouts for n in args.sizes]:
            a = torch.rand(n, n, device="cuda") * 2 - 1
            b = torch.rand(n, n, device="cuda") * 2 - 1
            if layout == "nt":
                b = b.t()
            if type_ == "bf16":
                fn = torch_bench.bf16_matmul_f32_out(a.bfloat16(), b.bfloat16())
            else:
                fn = lambda: a @ b  # noqa: E731
            ns = torch_bench.timed(fn)
            print(json.dumps({"library": "cublas", "type": type_, "layout": layout, "size": n,
                              "median_ns": ns,
                              "tflops": 2 * n ** 3 / ns / 1e3}), flush=True)
    torch_bench.set_tf32(False)


if __name__ == "__main__":
    main()
