#!/usr/bin/env python3
"""PyTorch eager (and torch.compile where available) on the bench kernels.

The same computations and shapes as bench/kernels/*.mlir, timed like ke-run
(warm-up, then repeats until enough time has passed; median). Prints one
JSON line per kernel: {"kernel", "eager_ns", "compiled_ns", "blas_ns"}.
blas_ns is numpy's matmul (OpenBLAS sgemm) for the GEMM kernels.
"""
import argparse
import json
import math
import time

import torch

try:
    import numpy
except ImportError:  # numpy is optional
    numpy = None


DEVICE = "cpu"


def timed_cuda(fn, min_seconds=0.3, min_runs=5):
    """CUDA events around each call, L2 flushed before it (as ke-gpu-run)."""
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    fn()
    fn()
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    samples = []
    while len(samples) < min_runs or sum(samples) / 1e9 < min_seconds:
        flush.zero_()
        torch.cuda.synchronize()
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        samples.append(start.elapsed_time(stop) * 1e6)
        if len(samples) >= 1000:
            break
    samples.sort()
    return samples[len(samples) // 2]


def timed(fn, min_seconds=0.3, min_runs=5):
    if DEVICE == "cuda":
        return timed_cuda(fn, min_seconds, min_runs)
    fn()
    fn()
    samples = []
    total = 0.0
    while len(samples) < min_runs or total < min_seconds:
        start = time.perf_counter_ns()
        fn()
        elapsed = time.perf_counter_ns() - start
        samples.append(elapsed)
        total += elapsed / 1e9
    samples.sort()
    return samples[len(samples) // 2]


def r(*shape):
    return torch.rand(*shape, device=DEVICE) * 2 - 1


def kernels():
    k = {}
    a, b = r(1024, 1024), r(1024, 1024)
    k["matmul"] = (lambda: a @ b, (a, b))
    a2, b2, bias = r(512, 512), r(512, 512), r(512)
    k["matmul_bias_relu"] = (lambda: torch.relu(a2 @ b2 + bias), (a2, b2))
    ba, bb = r(8, 256, 256), r(8, 256, 256)
    k["batch_matmul"] = (lambda: torch.bmm(ba, bb), None)
    x = r(1, 64, 56, 56)  # NCHW for torch; same arithmetic as NHWC/HWCF
    w = r(64, 64, 3, 3)
    k["conv2d"] = (lambda: torch.nn.functional.conv2d(x, w), None)
    s = r(512, 1024)
    k["softmax"] = (lambda: torch.softmax(s, dim=1), None)
    g, bt = r(1024), r(1024)
    k["layernorm"] = (lambda: torch.nn.functional.layer_norm(s, (1024,), g, bt, 1e-5), None)
    k["rmsnorm"] = (lambda: s * torch.rsqrt(s.pow(2).mean(-1, keepdim=True) + 1e-6) * g, None)
    ge = r(4096, 1024)
    k["gelu"] = (lambda: torch.nn.functional.gelu(ge, approximate="tanh"), None)
    red = r(2048, 2048)
    k["reduction"] = (lambda: red.sum(dim=1), None)
    k["column_reduction"] = (lambda: red.sum(dim=0), None)
    q, kk, v = r(256, 64), r(256, 64), r(256, 64)
    k["attention"] = (lambda: torch.softmax(q @ kk.T / 8.0, dim=1) @ v, None)
    table = r(10000, 128)
    idx = torch.randint(0, 10000, (4096,), device=DEVICE)
    k["gather"] = (lambda: table[idx], None)
    table64 = r(10000, 64)
    bags = torch.randint(0, 10000, (512, 8), device=DEVICE)
    k["embedding_bag"] = (lambda: torch.nn.functional.embedding_bag(bags, table64, mode="sum"), None)
    ids = torch.randint(0, 4096, (65536,), device=DEVICE)
    remap = torch.randint(-64, 64, (4096,), dtype=torch.int32, device=DEVICE)
    k["id_remap"] = (lambda: remap[ids], None)
    # Tensor-core GEMMs, at the precision ke's kernels name: bf16 inputs
    # with f32 results (products and sums in f32), and f32 under TF32.
    mm_f32 = bf16_matmul_f32_out()
    abf, bbf = r(1024, 1024).bfloat16(), r(1024, 1024).bfloat16()
    k["matmul_bf16"] = (lambda: mm_f32(abf, bbf), None)
    a2bf, b2bf = a2.bfloat16(), b2.bfloat16()
    k["matmul_bias_relu_bf16"] = (lambda: torch.relu(mm_f32(a2bf, b2bf) + bias), None)
    # Scores and softmax in f32, probabilities rounded to bf16 (as ke's).
    qbf, kbf, vbf = q.bfloat16(), kk.bfloat16(), v.bfloat16()
    k["attention_bf16"] = (
        lambda: mm_f32(torch.softmax(mm_f32(qbf, kbf.T) / 8.0, dim=1).bfloat16(), vbf),
        None,
    )
    k["matmul_tf32"] = (lambda: a @ b, None)
    return k


def bf16_matmul_f32_out():
    """(a, b) -> a @ b with f32 results: torch.mm's out_dtype where this
    PyTorch has it (CUDA), else the bf16 product widened (one more small
    kernel)."""
    a = torch.ones(16, 16, device=DEVICE, dtype=torch.bfloat16)
    try:
        torch.mm(a, a, out_dtype=torch.float32)
        return lambda x, y: torch.mm(x, y, out_dtype=torch.float32)
    except (TypeError, RuntimeError):
        return lambda x, y: (x @ y).float()


def set_tf32(allowed):
    """PyTorch's TF32 switches (cuBLAS and cuDNN): off except for the
    kernels whose ke version allows TF32, so both sides compute alike."""
    if DEVICE == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = allowed
        torch.backends.cudnn.allow_tf32 = allowed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--kernels", nargs="*")
    parser.add_argument("--compile", action="store_true", help="also time torch.compile")
    parser.add_argument("--device", default="cpu", help="cpu or cuda")
    args = parser.parse_args()
    global DEVICE
    DEVICE = args.device
    torch.set_num_threads(args.threads)
    for name, (fn, gemm) in kernels().items():
        if args.kernels and name not in args.kernels:
            continue
        set_tf32(name.endswith("_tf32"))
        row = {"kernel": name, "eager_ns": timed(fn), "compiled_ns": None, "blas_ns": None}
        if args.compile and hasattr(torch, "compile"):
            try:
                row["compiled_ns"] = timed(torch.compile(fn))
            except Exception:  # no compiler toolchain for inductor, etc.
                row["compiled_ns"] = None
        if gemm is not None and numpy is not None and DEVICE == "cpu":
            na, nb = gemm[0].numpy(), gemm[1].numpy()
            row["blas_ns"] = timed(lambda: na @ nb)
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
