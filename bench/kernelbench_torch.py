#!/usr/bin/env python3
"""PyTorch eager (and torch.compile) on the KernelBench problems that ke holds
as MLIR (../shared/kernelbench/levelN/*.mlir).

    bench/kernelbench_torch.py [--kernelbench-dir DIR] --threads T [--compile]
                               [--device cpu|cuda] FILE.mlir...

DIR holds KernelBench's problem sources as levelN/NAME.py (KernelBench's
KernelBench/ folder, a clone's root, or what bench/fetch_kernelbench.sh
extracts into build/bench/kernelbench-py). Each .mlir's header names its
problem (`// KernelBench level1/95_CrossEntropyLoss`), its arguments
(`// args: input0[1024, 4096], ...`: inputs, then parameters and buffers) and
the module-level constants changed to make it small (`// shrunk: batch_size
32768 -> 1024`). The problem is built as it was converted: those constants
rewritten, torch.manual_seed(0), Model(*get_init_inputs()), get_inputs(),
train mode (BatchNorm on batch statistics) with Dropout as the identity. The
shapes are checked against the header, then model(*inputs) is timed under
torch.no_grad(): warm-up, then the median of at least --min-runs runs filling
--min-seconds.

--tensors DIR also writes each problem's arguments (in the header's order)
and its eager outputs on the CPU as DIR/levelN/NAME.tensors, ke's tensor
file: `ke-run --expected` checks ke against PyTorch's outputs and times ke
on the very inputs PyTorch is timed on (with --check-only: nothing timed).
--check-only takes --jobs N on either device: nothing is timed, so N
problems are built and their tensors written at once (one process at a time
wrote 90 of the 100 shared problems' files in 600 s on a 16-core GPU host).

Prints one JSON line per file:
  {"file", "problem", "eager_ms", "compile_ms", "error", "threads", "torch"}
(and "tensors", the file written, with --tensors)
eager_ms / compile_ms are null where not measured (compile_ms without
--compile, or where torch.compile failed); error says why, else null.
Each problem runs in a child process with a time limit, so one that crashes
or hangs never stops the others.

With --device cuda, --jobs N builds and compiles N problems at once (most of
torch.compile's time is the host compiling) but times one at a time: a child
holds an exclusive lock on a file while it times and stops the other
children (and their compile workers) until it is done, so neither the GPU
nor the host is shared with anything else while a problem is measured.
(Without the stop, six compiling at once made eager read 1.18x slower,
geomean over 25 problems, 0.78x-2.0x each, on an H200 host of 16 cores.)
Rows come in the order the problems finish.
"""
import argparse
import ast
import concurrent.futures
import contextlib
import fcntl
import importlib.util
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

# The problem files are loaded (and shrunk) as ke-import loads them.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools",
                                "ke-import"))
from ke_import import load_problem, write_tensors  # noqa: E402

DEFAULT_SOURCES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build",
                               "bench", "kernelbench-py")

# The header's element types, as torch dtypes' names (torch is imported only
# in the child that measures).
MLIR_DTYPES = {"f32": "float32", "f64": "float64", "f16": "float16", "bf16": "bfloat16",
               "i64": "int64", "i32": "int32", "i16": "int16", "i8": "int8", "i1": "bool"}


def parse_header(path):
    """The problem, the argument shapes (and element types from the func
    signature) and the shrink of one converted .mlir file."""
    problem, args, shrunk, types_, source = None, None, {}, [], None
    with open(path) as f:
        for line in f:
            if line.startswith("// KernelBench "):
                problem = line.split()[2]
            elif line.startswith("// source: "):
                # ke-import names the file it imported: the problem itself.
                source = line[len("// source: "):].strip()
            elif line.startswith("// args:"):
                # `name[d0, d1]`; a 0-d argument is `name[]`.
                args = [(name, [int(d) for d in dims.replace(",", " ").split()])
                        for name, dims in re.findall(r"([\w.]+)\[([\d,\s]*)\]", line)]
            elif line.startswith("// shrunk:"):
                # `batch_size 32768 -> 1024`, `input_shape[0] 32768 -> 2048`.
                for name, old, new in re.findall(r"([\w\[\]]+) ([^,]+?) -> ([^,\n]+)", line[10:]):
                    shrunk[name] = (ast.literal_eval(old.strip()), ast.literal_eval(new.strip()))
            elif line.lstrip().startswith("func.func"):
                # The signature's argument types, `tensor<1024x4096xf32>`, in order.
                signature = line[:line.find(")")]
                types_ = [m.rsplit("x", 1)[-1] for m in re.findall(r"tensor<([^>]*)>", signature)]
                break
    if source and os.path.isfile(source):
        problem = source
    if problem is None or args is None:
        raise ValueError("no '// KernelBench levelN/NAME' (or '// source:') or '// args:' header")
    dtypes = [MLIR_DTYPES.get(t) for t in types_] if len(types_) == len(args) else [None] * len(args)
    return problem, [(name, shape, dtype) for (name, shape), dtype in zip(args, dtypes)], shrunk


def find_source(kernelbench_dir, problem):
    """levelN/NAME.py under DIR or under DIR/KernelBench (a clone's root);
    a problem that is a path already (ke-import's `// source:`, absolute or
    relative to the working directory) is itself."""
    if problem.endswith(".py") and os.path.isfile(problem):
        return problem
    for base in (kernelbench_dir, os.path.join(kernelbench_dir, "KernelBench")):
        path = os.path.join(base, problem + ".py")
        if os.path.isfile(path):
            return path
    raise FileNotFoundError(f"{problem}.py is not under {kernelbench_dir}")


def timed_ms(fn, min_seconds, min_runs, warmup=2):
    """Median wall time of fn() in ms after warm-up calls."""
    for _ in range(warmup):
        fn()
    samples, total = [], 0.0
    while len(samples) < min_runs or total < min_seconds:
        start = time.perf_counter()
        fn()
        elapsed = time.perf_counter() - start
        samples.append(elapsed)
        total += elapsed
    samples.sort()
    return samples[len(samples) // 2] * 1e3


def registration(lock_path, group):
    """The file by which a child of --jobs registers its process group (a
    session of its own): named by it, beside the lock."""
    return os.path.join(os.path.dirname(lock_path), str(group))


def registered_children(lock_path):
    """The process groups of the children of --jobs registered now."""
    return [int(name) for name in os.listdir(os.path.dirname(lock_path)) if name.isdigit()]


def signal_groups(groups, signum):
    for group in groups:
        try:
            os.killpg(group, signum)
        except (ProcessLookupError, PermissionError):
            pass  # finished meanwhile


@contextlib.contextmanager
def measuring_alone(lock_path):
    """Times the block alone: holds the exclusive lock on lock_path (none:
    nothing to hold) so that children run by --jobs never time at once, and
    stops the other children meanwhile so that their compilers do not load
    the host that launches the timed kernels."""
    if not lock_path:
        yield
        return
    with open(lock_path, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        stopped = [group for group in registered_children(lock_path)
                   if group != os.getpgid(0)]
        signal_groups(stopped, signal.SIGSTOP)
        try:
            yield
        finally:
            signal_groups(stopped, signal.SIGCONT)
            fcntl.flock(lock, fcntl.LOCK_UN)


def check_shapes(torch, args, inputs, model):
    """Mismatches between the built problem and the header's arguments: the
    tensor inputs in order (input0, input1, ...; the converter folded
    non-tensor inputs such as a Python float into the IR), then the
    parameters and buffers by name."""
    problems = []
    tensors = [value for value in inputs if isinstance(value, torch.Tensor)]
    state = dict(model.named_parameters())
    state.update(model.named_buffers())
    n_inputs = sum(1 for name, _, _ in args if re.fullmatch(r"input\d+", name))
    if n_inputs != len(tensors):
        problems.append(f"get_inputs() gives {len(tensors)} tensors, header has {n_inputs} inputs")
    for name, shape, dtype in args:
        match = re.fullmatch(r"input(\d+)", name)
        if match:
            index = int(match.group(1))
            value = tensors[index] if index < len(tensors) else None
        else:
            value = state.get(name)
        if value is None:
            problems.append(f"{name}: header says {shape}, problem has none")
        elif list(value.shape) != shape:
            problems.append(f"{name}: header says {shape}, problem has {list(value.shape)}")
        elif dtype and str(value.dtype) != "torch." + dtype:
            problems.append(f"{name}: header says {dtype}, problem has {value.dtype}")
    return problems


def write_problem_tensors(torch, directory, path, header_args, model, inputs):
    """DIR/levelN/NAME.tensors for FILE.mlir: the kernel's arguments in the
    header's order (the inputs, then parameters and buffers by name) and the
    model's eager outputs on the CPU, for ke-run --expected, which checks ke
    against them and times ke on these very inputs."""
    tensors = [value for value in inputs if isinstance(value, torch.Tensor)]
    state = dict(model.named_parameters())
    state.update(model.named_buffers())
    arguments = []
    for name, _, _ in header_args:
        match = re.fullmatch(r"input(\d+)", name)
        arguments.append(tensors[int(match.group(1))] if match else state[name])
    with torch.no_grad():
        outputs = model(*inputs)
    if isinstance(outputs, torch.Tensor):
        outputs = [outputs]
    level = os.path.basename(os.path.dirname(os.path.abspath(path)))
    target = os.path.join(directory, level, os.path.splitext(os.path.basename(path))[0] + ".tensors")
    os.makedirs(os.path.dirname(target), exist_ok=True)
    write_tensors(torch, target, arguments, list(outputs))
    return target


def describe(error):
    """An exception in one line: its type and its message's first line."""
    lines = str(error).strip().splitlines()
    return type(error).__name__ + (": " + lines[0][:300] if lines else "")


def measure(args, row):
    """The child's work for one .mlir; prints the row after each stage, so the
    parent keeps the eager timing if torch.compile then crashes or hangs."""
    import torch

    def emit():
        print(json.dumps(row), flush=True)

    row["torch"] = torch.__version__
    row["device"] = args.device
    torch.set_num_threads(args.threads)
    if args.device == "cuda":
        # f32 as ke computes it: no TF32 in matmuls or convolutions.
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
    problem, header_args, shrunk = parse_header(row["file"])
    row["problem"] = problem
    module, notes = load_problem(find_source(args.kernelbench_dir, problem), shrunk)
    if notes:
        row["note"] = "; ".join(notes)
    # The conversion recipe, in its order, so that random values (labels,
    # masks) are the converter's.
    torch.manual_seed(0)
    model = module.Model(*module.get_init_inputs())
    inputs = module.get_inputs()
    # Train mode as KernelBench runs it (nn.Module's default), but Dropout as
    # the identity, as in the converted MLIR. (BatchNorm still updates its
    # running statistics, as in KernelBench's own timing; the MLIR does not.)
    model.train()
    for sub in model.modules():
        if isinstance(sub, torch.nn.modules.dropout._DropoutNd):
            sub.eval()
    mismatches = check_shapes(torch, header_args, inputs, model)
    if mismatches:
        row["error"] = "shape mismatch: " + "; ".join(mismatches)
        emit()
        return
    if args.tensors:
        row["tensors"] = write_problem_tensors(torch, args.tensors, row["file"], header_args,
                                               model, inputs)
    if args.check_only:
        emit()
        return
    timed = timed_ms
    if args.device == "cuda":
        model = model.to("cuda")
        inputs = [value.to("cuda") if isinstance(value, torch.Tensor) else value
                  for value in inputs]
        # The bench kernels' CUDA timing: events after an L2 flush, as ke-run.
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                        "baselines"))
        from torch_bench import timed_cuda
        timed = lambda fn, seconds, runs: timed_cuda(fn, seconds, runs) / 1e6
    with torch.no_grad():
        with measuring_alone(args.measure_lock):
            row["eager_ms"] = timed(lambda: model(*inputs), args.min_seconds, args.min_runs)
        emit()
        if args.compile:
            try:
                compiled = torch.compile(model)
                # The first call compiles (outside the lock: other problems
                # may time meanwhile); the warm-up of timed_ms is after it.
                compiled(*inputs)
                with measuring_alone(args.measure_lock):
                    row["compile_ms"] = timed(lambda: compiled(*inputs), args.min_seconds,
                                              args.min_runs)
            except Exception as e:  # inductor without a C++ compiler, an op it lacks, ...
                row["error"] = "torch.compile: " + describe(e)
            emit()


def run_child(args, path):
    """Runs one file in a child process; returns its last row, with the reason
    added where the child failed before finishing."""
    row = {"file": path, "problem": None, "eager_ms": None, "compile_ms": None,
           "error": None, "threads": args.threads}
    try:  # named even if the child dies before it says anything
        row["problem"] = parse_header(path)[0]
    except Exception:
        pass
    command = [sys.executable, os.path.abspath(__file__), "--child",
               "--kernelbench-dir", args.kernelbench_dir, "--threads", str(args.threads),
               "--min-seconds", str(args.min_seconds), "--min-runs", str(args.min_runs),
               "--device", args.device, path]
    if args.compile:
        command.append("--compile")
    if args.check_only:
        command.append("--check-only")
    if args.tensors:
        command += ["--tensors", os.path.abspath(args.tensors)]
    if args.measure_lock:
        command += ["--measure-lock", args.measure_lock]
    # A session of its own, so that a timeout also ends inductor's compile
    # workers.
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, start_new_session=True)
    try:
        stdout, stderr = child.communicate(timeout=args.timeout)
        status = child.returncode
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        stdout, stderr = child.communicate()
        status = None
    if args.measure_lock:
        # Unregistered; and should it have died while measuring, the
        # children it stopped go on.
        with contextlib.suppress(FileNotFoundError):
            os.remove(registration(args.measure_lock, child.pid))
        signal_groups(registered_children(args.measure_lock), signal.SIGCONT)
    for line in stdout.splitlines():
        if line.startswith("{"):
            try:
                row.update(json.loads(line))
            except ValueError:
                pass
    if status is None:
        stage = "torch.compile" if row["eager_ms"] is not None else "eager"
        row["error"] = row["error"] or f"{stage}: timed out after {args.timeout} s"
    elif status != 0 and not row["error"]:
        last = [l for l in stderr.strip().splitlines() if l.strip()]
        reason = last[-1][:300] if last else ""
        how = f"killed by signal {-status}" if status < 0 else f"exited {status}"
        stage = "torch.compile" if row["eager_ms"] is not None else "setup/eager"
        row["error"] = f"{stage}: {how}" + (f": {reason}" if reason else "")
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", metavar="FILE.mlir")
    parser.add_argument("--kernelbench-dir", default=DEFAULT_SOURCES,
                        help="KernelBench's problem sources as levelN/NAME.py "
                             "(default: build/bench/kernelbench-py)")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--device", default="cpu", choices=["cpu", "cuda"],
                        help="cuda: CUDA events around each call after an L2 "
                             "flush, TF32 off (f32 like ke)")
    parser.add_argument("--compile", action="store_true", help="also time torch.compile")
    parser.add_argument("--min-seconds", type=float, default=0.5)
    parser.add_argument("--min-runs", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=900,
                        help="seconds for one problem, compilation included")
    parser.add_argument("--check-only", action="store_true",
                        help="build each problem and check its shapes, time nothing")
    parser.add_argument("--tensors", metavar="DIR",
                        help="also write DIR/levelN/NAME.tensors per problem: its "
                             "arguments and eager outputs (CPU), for ke-run --expected")
    parser.add_argument("--jobs", type=int, default=1,
                        help="cuda: build and compile this many problems at once, "
                             "timing one at a time; --check-only: build this many "
                             "at once on either device")
    parser.add_argument("--measure-lock", help=argparse.SUPPRESS)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    if args.jobs > 1 and args.device != "cuda" and not args.check_only:
        # On the CPU the other children's compilers would share the cores
        # that the measured one times on (--check-only times nothing).
        parser.error("--jobs above 1 needs --device cuda or --check-only")
    if args.child:
        if args.measure_lock:  # found by the other children's measuring_alone
            open(registration(args.measure_lock, os.getpgid(0)), "w").close()
        row = {"file": args.files[0], "problem": None, "eager_ms": None, "compile_ms": None,
               "error": None, "threads": args.threads}
        try:
            measure(args, row)
        except Exception as e:
            row["error"] = describe(e)
            print(json.dumps(row), flush=True)
        return
    if not os.path.isdir(args.kernelbench_dir):
        parser.error(f"{args.kernelbench_dir} is not a folder "
                     "(bench/fetch_kernelbench.sh makes build/bench/kernelbench-py)")
    # Said once here rather than once per problem by every child.
    if importlib.util.find_spec("torch") is None:
        sys.exit(f"bench/kernelbench_torch.py: {sys.executable} has no torch "
                 "(bench/.venv/bin/pip install torch)")
    if args.jobs == 1:
        for path in args.files:
            print(json.dumps(run_child(args, path)), flush=True)
        return
    with contextlib.ExitStack() as stack:
        folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="kernelbench-torch-"))
        args.measure_lock = os.path.join(folder, "measuring")
        pool = stack.enter_context(concurrent.futures.ThreadPoolExecutor(args.jobs))
        running = [pool.submit(run_child, args, path) for path in args.files]
        for done in concurrent.futures.as_completed(running):
            print(json.dumps(done.result()), flush=True)


if __name__ == "__main__":
    main()
