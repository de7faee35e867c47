#!/usr/bin/env python3
"""ke-import: a PyTorch model as one ke kernel.

    ke-import FILE.py [-o OUT.mlir] [--max-elements N] [--max-flops F]
                      [--expected FILE.tensors | --no-expected] [--name NAME]

FILE.py is in KernelBench's format: a `Model` class, `get_inputs()` and
`get_init_inputs()`. The model is built as KernelBench builds it
(torch.manual_seed(0), Model(*get_init_inputs()), get_inputs(), train mode),
with Dropout as the identity and BatchNorm on batch statistics without
running statistics, and exported by torch-mlir's FX importer to linalg on
tensors. The result is one `func.func` tagged `ke.kernel` whose arguments are
the tensor inputs, then the model's parameters and buffers (no weight
constants). Integer inputs get `ke.range` where their use says what is valid
(class labels, embedding and gather indices), else the range of the example.

Module-level integer constants (batch size first, then the largest) are
halved until the inputs with parameters and the outputs each hold at most
--max-elements elements and the model needs at most --max-flops FLOP
(matmuls and convolutions, as torch counts them); the header says what was
shrunk. The PyTorch outputs for the example inputs are written beside OUT
(OUT with .tensors for .mlir) for `ke-run --expected`.

As a library: `import_model(model, inputs, name)` returns an `Imported`
(the MLIR text, the inputs and PyTorch's outputs) for any nn.Module.
"""
import argparse
import ast
import json
import os
import re
import sys
import types

# Names of module-level constants that are not sizes: halving them changes
# what is computed, not how much.
NOT_SIZES = re.compile(r"kernel|stride|pad|dilation|group|^dim$|axis|eps|momentum|slope|"
                       r"scale|factor|bias|margin|alpha|beta|heads|classes|vocab|seed|bits|"
                       r"threshold|^min|^max|_min$|_max$",
                       re.IGNORECASE)

DTYPE_NAMES = {"float32": "f32", "float64": "f64", "float16": "f16", "bfloat16": "bf16",
               "int64": "i64", "int32": "i32", "int16": "i16", "int8": "i8", "uint8": "i8",
               "bool": "i1"}

# Ops that read an integer tensor as indices into another tensor's dimension:
# op name -> function(args) returning [(index tensor, size of the indexed dimension)].
def _index_uses(name, args):
    def size(tensor, dim):
        return int(tensor.shape[dim]) if tensor.dim() > 0 else 1
    if name in ("aten.embedding.default", "aten.embedding_bag.default",
                "aten._embedding_bag.default", "aten._embedding_bag_forward_only.default"):
        return [(args[1], size(args[0], 0))]
    if name in ("aten.nll_loss_forward.default", "aten.nll_loss2d_forward.default",
                "aten.nll_loss.default", "aten.nll_loss_nd.default",
                "aten.cross_entropy_loss.default", "aten.multi_margin_loss.default"):
        logits = args[0]
        return [(args[1], size(logits, 1 if logits.dim() > 1 else 0))]
    if name in ("aten.index_select.default", "aten.gather.default"):
        return [(args[2], size(args[0], args[1]))]
    if name in ("aten.scatter.src", "aten.scatter.value", "aten.scatter_add.default",
                "aten.scatter_reduce.two"):
        return [(args[2], size(args[0], args[1]))]
    if name in ("aten.index.Tensor", "aten.index_put.default", "aten.index_put_.default"):
        return [(index, size(args[0], dim)) for dim, index in enumerate(args[1])
                if index is not None]
    if name == "aten.one_hot.default" and len(args) > 1 and args[1] > 0:
        return [(args[0], int(args[1]))]
    return []


# Ops through which an integer tensor keeps its values (views, copies,
# reshapes): a use of the result is a use of the input.
_VALUE_PRESERVING = re.compile(r"aten\.(view|_unsafe_view|reshape|expand|unsqueeze|squeeze|"
                               r"flatten|clone|_to_copy|to|contiguous|permute|transpose|t|"
                               r"select|slice|alias|detach|lift_fresh|repeat|cat|stack)\b")


class Imported:
    """One imported kernel: its MLIR text, the example inputs in argument
    order (tensor inputs, then parameters and buffers), PyTorch's outputs for
    them, and the integer ranges found."""

    def __init__(self, mlir, arguments, argument_names, outputs, ranges, notes):
        self.mlir = mlir
        self.arguments = arguments
        self.argument_names = argument_names
        self.outputs = outputs
        self.ranges = ranges
        self.notes = notes


class ImportError_(Exception):
    """What the user must know when a model cannot be imported."""


# --- loading a KernelBench-format file ------------------------------------

def constant_value(node):
    """The value of a constant expression (`16384 * 4`, `(32, 64)`), else its
    source text."""
    allowed = (ast.Expression, ast.Constant, ast.Tuple, ast.List, ast.BinOp, ast.UnaryOp,
               ast.operator, ast.unaryop, ast.Load)
    expression = ast.Expression(node)
    if all(isinstance(n, allowed) for n in ast.walk(expression)):
        try:
            return eval(compile(expression, "<constant>", "eval"), {"__builtins__": {}})
        except Exception:
            pass
    return ast.unparse(node)


def shrink_assignment(node, shrunk, notes, path):
    """Rewrites the shrunk names' values in one module-level assignment and
    returns the names it set. A chained `height = width = 128` shares one
    value, so shrinking `height` shrinks `width` too; `depth, height, width =
    16, 32, 32` is rewritten element by element."""
    done = set()

    def replace(name, value_node):
        old, new = shrunk[name]
        original = constant_value(value_node)
        if original != old:
            notes.append(f"{name} is {original} in {os.path.basename(path)}, header says {old}")
        done.add(name)
        return ast.copy_location(ast.Constant(new), value_node)

    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    for target in targets:
        if isinstance(target, ast.Name) and target.id in shrunk and target.id not in done:
            node.value = replace(target.id, node.value)
        elif isinstance(target, ast.Name) and isinstance(node.value, ast.Tuple):
            # A shape: `input_shape = (32768,)`, its elements named name[i].
            for i, value_node in enumerate(node.value.elts):
                key = f"{target.id}[{i}]"
                if key in shrunk and key not in done:
                    node.value.elts[i] = replace(key, value_node)
        elif (isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple)
              and len(target.elts) == len(node.value.elts)):
            for i, element in enumerate(target.elts):
                if isinstance(element, ast.Name) and element.id in shrunk:
                    node.value.elts[i] = replace(element.id, node.value.elts[i])
    return done


def load_problem(path, shrunk):
    """Executes a KernelBench problem file as a module with the shrunk
    constants rewritten in its source, so that module-level values derived
    from them (`input_shape = (num_classes,)`) follow. Returns the module and
    notes on constants whose original value differs from `shrunk`'s."""
    with open(path) as f:
        tree = ast.parse(f.read(), filename=path)
    notes, rewritten = [], set()
    for node in tree.body:
        if isinstance(node, ast.Assign) or (isinstance(node, ast.AnnAssign) and node.value):
            rewritten |= shrink_assignment(node, shrunk, notes, path)
    module = types.ModuleType("kernelbench_" + re.sub(r"\W", "_", os.path.basename(path)[:-3]))
    module.__file__ = path
    sys.modules[module.__name__] = module
    exec(compile(ast.fix_missing_locations(tree), path, "exec"), module.__dict__)
    # A constant set some other way is set afterwards: get_inputs() and
    # get_init_inputs() read globals when called.
    for name in sorted(set(shrunk) - rewritten):
        if "[" in name:
            continue  # only ever from a plain tuple assignment, rewritten above
        notes.append(f"{name} is not a plain module-level assignment; set after loading")
        setattr(module, name, shrunk[name][1])
    return module, notes


def integer_constants(path):
    """Module-level names bound to positive integers, in source order, with
    their values: what shrinking may halve."""
    with open(path) as f:
        tree = ast.parse(f.read(), filename=path)
    found = {}
    for node in tree.body:
        if not (isinstance(node, ast.Assign) or (isinstance(node, ast.AnnAssign) and node.value)):
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            if isinstance(target, ast.Name):
                value = constant_value(node.value)
                if isinstance(value, int) and not isinstance(value, bool) and value > 1:
                    found.setdefault(target.id, value)
                elif isinstance(value, tuple) and isinstance(node.value, ast.Tuple):
                    for i, element in enumerate(value):
                        if isinstance(element, int) and not isinstance(element, bool) \
                                and element > 1:
                            found.setdefault(f"{target.id}[{i}]", element)
            elif isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                for element, value_node in zip(target.elts, node.value.elts):
                    value = constant_value(value_node)
                    if (isinstance(element, ast.Name) and isinstance(value, int)
                            and not isinstance(value, bool) and value > 1):
                        found.setdefault(element.id, value)
    return found


# --- building the model as KernelBench does -------------------------------

def prepare_model(torch, model):
    """Train mode as KernelBench runs it, Dropout as the identity, and
    BatchNorm on batch statistics without running statistics (so the kernel
    neither reads nor updates them). Returns notes for the header."""
    notes = []
    model.train()
    for name, sub in model.named_modules():
        if isinstance(sub, torch.nn.modules.dropout._DropoutNd):
            sub.eval()
        if isinstance(sub, torch.nn.modules.batchnorm._BatchNorm) and sub.track_running_stats:
            sub.track_running_stats = False
            sub.running_mean = None
            sub.running_var = None
            sub.num_batches_tracked = None
            notes.append(f"{name or 'model'}: running stats off (train-mode batch statistics)")
    return notes


def build(torch, module, on_meta):
    """Model and inputs from a loaded problem module, seeded as KernelBench
    seeds them."""
    torch.manual_seed(0)
    if on_meta:
        with torch.device("meta"):
            model = module.Model(*module.get_init_inputs())
            inputs = module.get_inputs()
    else:
        model = module.Model(*module.get_init_inputs())
        inputs = module.get_inputs()
    return model, list(inputs)


def measure_size(torch, model, inputs):
    """(elements of inputs and parameters, elements of outputs, FLOP) of one
    forward call, computed on meta tensors where possible."""
    from torch.utils.flop_counter import FlopCounterMode
    state = list(model.parameters()) + [b for b in model.buffers() if b is not None]
    in_elements = sum(t.numel() for t in list(inputs) + state if isinstance(t, torch.Tensor))
    counter = FlopCounterMode(display=False)
    with torch.no_grad(), counter:
        outputs = model(*inputs)
    out_elements = sum(t.numel() for t in flatten_outputs(torch, outputs))
    return in_elements, out_elements, counter.get_total_flops()


def flatten_outputs(torch, outputs):
    if isinstance(outputs, torch.Tensor):
        return [outputs]
    if isinstance(outputs, (tuple, list)):
        return [t for item in outputs for t in flatten_outputs(torch, item)]
    raise ImportError_(f"the model returns a {type(outputs).__name__}; ke kernels return tensors")


def shrink(torch, path, max_elements, max_flops):
    """The module-level constants to rewrite ({name: (old, new)}) so that the
    problem fits the limits: batch sizes first, then the largest sizes,
    halving one at a time. A halving that breaks the model (a size another
    must divide) is undone and that constant left alone."""
    sizes = {name: value for name, value in integer_constants(path).items()
             if not NOT_SIZES.search(name) or re.search(r"batch", name, re.IGNORECASE)}
    shrunk, frozen = {}, set()

    def current(name):
        return shrunk[name][1] if name in shrunk else sizes[name]

    def fits(candidate):
        module, _ = load_problem(path, candidate)
        prepare = lambda m: prepare_model(torch, m)
        try:
            model, inputs = build(torch, module, on_meta=True)
            prepare(model)
            size = measure_size(torch, model, inputs)
        except NotImplementedError:
            # An op without a meta kernel: measure for real (the sizes are
            # already at most what the file asks for).
            model, inputs = build(torch, module, on_meta=False)
            prepare(model)
            size = measure_size(torch, model, inputs)
        in_elements, out_elements, flops = size
        return in_elements <= max_elements and out_elements <= max_elements and \
            (max_flops <= 0 or flops <= max_flops)

    for _ in range(200):
        if fits(shrunk):
            return shrunk
        movable = [n for n in sizes if n not in frozen and current(n) > 1]
        if not movable:
            raise ImportError_(
                f"cannot shrink {os.path.basename(path)} under --max-elements {max_elements}"
                f" and --max-flops {max_flops:g}: no module-level size left to halve")
        batch = [n for n in movable if re.search(r"batch", n, re.IGNORECASE)]
        name = batch[0] if batch else max(movable, key=current)
        # Alone, or with a size it must equal (a [batch, n] tensor times a
        # [n] one with batch = n, as a hinge loss broadcasts its targets).
        partners = [None] + [n for n in movable if n != name and current(n) == current(name)]
        for partner in partners:
            trial = dict(shrunk)
            for n in [name] + ([partner] if partner else []):
                trial[n] = (sizes[n], max(1, current(n) // 2))
            try:
                fits(trial)
            except ImportError_:
                raise
            except Exception:
                continue
            shrunk = trial
            break
        else:
            frozen.add(name)
    raise ImportError_("shrinking did not converge in 200 halvings")


# --- integer ranges --------------------------------------------------------

def infer_ranges(torch, function, arguments):
    """{argument index: (lo, hi)} for the integer arguments: the indexed
    dimension's size where an op reads the argument as indices, else the
    example's [min, max + 1)."""
    from torch.utils._python_dispatch import TorchDispatchMode

    integer = {i for i, a in enumerate(arguments)
               if not a.dtype.is_floating_point and a.dtype != torch.bool}
    if not integer:
        return {}
    origin = {id(arguments[i]): i for i in integer}
    bounds = {}

    class Tracker(TorchDispatchMode):
        def __torch_dispatch__(self, op, types_, args=(), kwargs=None):
            kwargs = kwargs or {}
            result = op(*args, **kwargs)
            name = str(op)
            try:
                uses = _index_uses(name, list(args) + list(kwargs.values()))
            except Exception:
                uses = []
            for index, size in uses:
                source = origin.get(id(index))
                if source is not None:
                    bounds[source] = min(bounds.get(source, size), size)
            if _VALUE_PRESERVING.match(name):
                sources = {origin[id(a)] for a in args if id(a) in origin}
                for item in args:  # cat/stack take a list
                    if isinstance(item, (list, tuple)):
                        sources |= {origin[id(a)] for a in item if id(a) in origin}
                if len(sources) == 1 and isinstance(result, torch.Tensor):
                    origin[id(result)] = sources.pop()
            return result

    with torch.no_grad(), Tracker():
        function(*arguments)
    ranges = {}
    for i in sorted(integer):
        if i in bounds:
            ranges[i] = (0, bounds[i], "indexes a dimension of size %d" % bounds[i])
        else:
            lo, hi = int(arguments[i].min()), int(arguments[i].max()) + 1
            ranges[i] = (lo, hi, "the example's values")
    return ranges


# --- export ----------------------------------------------------------------

def _prefix_scan(torch, x, dim, combine, identity):
    """Inclusive prefix scan along `dim` in log2(n) steps of shifted
    combines (Hillis-Steele): only ops torch-mlir lowers to linalg."""
    dim = dim % x.dim() if x.dim() else 0
    n = x.shape[dim]
    shift = 1
    while shift < n:
        head = torch.full_like(x.narrow(dim, 0, shift), identity)
        shifted = torch.cat([head, x.narrow(dim, 0, n - shift)], dim)
        x = combine(x, shifted)
        shift *= 2
    return x


def decompositions(torch):
    """torch-mlir's decompositions, plus scans (torch-mlir lowers cumsum and
    cumprod to tm_tensor.scan, which is not upstream MLIR), less group norm's
    (torch-mlir lowers it without tables)."""
    from torch_mlir.extras.fx_decomp_util import get_decomposition_table
    table = dict(get_decomposition_table())
    aten = torch.ops.aten

    def cumsum(x, dim, dtype=None):
        x = x.to(dtype) if dtype is not None else x
        return _prefix_scan(torch, x, dim, torch.add, 0)

    def cumprod(x, dim, dtype=None):
        x = x.to(dtype) if dtype is not None else x
        return _prefix_scan(torch, x, dim, torch.mul, 1)

    table[aten.cumsum.default] = cumsum
    table[aten.cumprod.default] = cumprod
    # torch-mlir lowers group norm itself; PyTorch's decomposition leaves
    # constant gather tables (dense_resource globals), which a GPU kernel
    # cannot read from host memory (KernelBench's Gemm + GroupNorm problems
    # faulted on the H200).
    for op in (aten.group_norm.default, aten.native_group_norm.default):
        table.pop(op, None)
    return table


def import_model(model, inputs, name="kernel", notes=None):
    """Exports `model` called on `inputs` (tensors; other values are folded
    into the kernel as constants) as one ke kernel named `name`."""
    import torch
    from torch_mlir import fx, ir

    notes = list(notes or [])
    tensor_positions = [i for i, v in enumerate(inputs) if isinstance(v, torch.Tensor)]
    tensor_inputs = [inputs[i] for i in tensor_positions]
    state = dict(model.named_parameters())
    state.update({k: v for k, v in model.named_buffers() if v is not None})
    state_names = list(state)
    state_values = [state[k].detach() for k in state_names]
    n_inputs = len(tensor_inputs)

    def call(*arguments):
        full = list(inputs)
        for position, value in zip(tensor_positions, arguments[:n_inputs]):
            full[position] = value
        bound = dict(zip(state_names, arguments[n_inputs:]))
        return torch.func.functional_call(model, bound, tuple(full))

    class Functional(torch.nn.Module):
        def forward(self, *arguments):
            return call(*arguments)

    arguments = [t.detach() for t in tensor_inputs] + state_values
    with torch.no_grad():
        outputs = flatten_outputs(torch, call(*arguments))
    outputs = [o.detach().contiguous() for o in outputs]
    ranges = infer_ranges(torch, call, arguments)

    try:
        module = fx.export_and_import(Functional(), *arguments,
                                      output_type="linalg-on-tensors", func_name=name,
                                      decomposition_table=decompositions(torch))
    except Exception as error:
        lines = str(error).strip().splitlines()
        raise ImportError_("torch-mlir could not export the model: " + type(error).__name__ +
                           (": " + lines[0][:400] if lines else ""))

    with module.context:
        functions = [op for op in module.body.operations if op.operation.name == "func.func"]
        if len(functions) != 1:
            raise ImportError_(f"torch-mlir produced {len(functions)} functions, expected one")
        function = functions[0]
        # Ops left outside upstream MLIR (torch, tm_tensor): ke cannot lower
        # them, so say which instead of writing a kernel that fails later.
        foreign = {}

        def visit(op):
            dialect = op.name.split(".")[0]
            if dialect in ("torch", "torch_c", "tm_tensor"):
                foreign[op.name] = foreign.get(op.name, 0) + 1
            for region in op.regions:
                for block in region.blocks:
                    for inner in block.operations:
                        visit(inner.operation)

        visit(function.operation)
        if foreign:
            listed = ", ".join(f"{n} ({c})" for n, c in sorted(foreign.items()))
            raise ImportError_("torch-mlir left ops outside upstream MLIR, which ke cannot "
                               "lower: " + listed)
        function.attributes["ke.kernel"] = ir.UnitAttr.get()
        i64 = ir.IntegerType.get_signless(64)
        argument_attributes = []
        for i in range(len(arguments)):
            entries = {}
            if i in ranges:
                lo, hi, _ = ranges[i]
                entries["ke.range"] = ir.ArrayAttr.get(
                    [ir.IntegerAttr.get(i64, lo), ir.IntegerAttr.get(i64, hi)])
            argument_attributes.append(ir.DictAttr.get(entries))
        function.attributes["arg_attrs"] = ir.ArrayAttr.get(argument_attributes)
        text = str(module)

    names = [f"input{k}" for k in range(n_inputs)] + state_names
    for i, (lo, hi, why) in sorted(ranges.items()):
        notes.append(f"{names[i]}: ke.range [{lo}, {hi}) from {why}")
    return Imported(text, arguments, names, outputs, ranges, notes)


# --- files -----------------------------------------------------------------

def dtype_name(torch, dtype):
    name = str(dtype).replace("torch.", "")
    if name not in DTYPE_NAMES:
        raise ImportError_(f"no ke element type for {dtype}")
    return DTYPE_NAMES[name]


def write_tensors(torch, path, inputs, outputs):
    """The ke tensor file `ke-run --expected` reads: a magic line, one line
    of JSON describing the tensors, then their bytes (little-endian, dense,
    row-major; i1 as one byte), inputs first."""
    def describe(t):
        return {"dtype": dtype_name(torch, t.dtype), "shape": list(t.shape)}

    header = {"inputs": [describe(t) for t in inputs], "outputs": [describe(t) for t in outputs]}
    temporary = path + ".tmp"
    with open(temporary, "wb") as f:
        f.write(b"KETENSORS 1\n")
        f.write(json.dumps(header).encode() + b"\n")
        for t in list(inputs) + list(outputs):
            t = t.detach().cpu().contiguous()
            if t.dtype == torch.bool:
                t = t.to(torch.uint8)
            f.write(t.view(torch.uint8).numpy().tobytes() if t.dim() else
                    t.reshape(1).view(torch.uint8).numpy().tobytes())
    os.replace(temporary, path)


def kernel_name(path):
    """kb_l1_95_CrossEntropyLoss for .../level1/95_CrossEntropyLoss.py, else
    the file's stem as an identifier."""
    stem = os.path.splitext(os.path.basename(path))[0]
    level = re.search(r"level(\d+)$", os.path.basename(os.path.dirname(os.path.abspath(path))))
    name = re.sub(r"\W", "_", stem)
    if level:
        name = f"kb_l{level.group(1)}_{name}"
    if not re.match(r"[A-Za-z_]", name):
        name = "k_" + name
    return name


def import_file(path, max_elements, max_flops, name=None):
    """Imports a KernelBench-format file; returns (Imported, header lines)."""
    import torch

    module, _ = load_problem(path, {})
    for required in ("Model", "get_inputs", "get_init_inputs"):
        if not hasattr(module, required):
            raise ImportError_(f"no {required}: not a KernelBench-format file "
                               "(Model, get_inputs, get_init_inputs)")
    shrunk = shrink(torch, path, max_elements, max_flops)
    module, load_notes = load_problem(path, shrunk)
    model, inputs = build(torch, module, on_meta=False)
    notes = prepare_model(torch, model)
    imported = import_model(model, inputs, name or kernel_name(path), notes + load_notes)
    shapes = ", ".join(f"{n}[{', '.join(str(d) for d in t.shape)}]"
                       for n, t in zip(imported.argument_names, imported.arguments))
    level = re.search(r"(level\d+)$", os.path.basename(os.path.dirname(os.path.abspath(path))))
    header = []
    if level:
        header.append(f"// KernelBench {level.group(1)}/{os.path.splitext(os.path.basename(path))[0]}")
    header.append(f"// imported by ke-import from {os.path.basename(path)}: torch {torch.__version__}, "
                  "torch-mlir fx importer, linalg-on-tensors; args = get_inputs() then params/buffers")
    header.append(f"// source: {os.path.abspath(path)}")
    header.append(f"// args: {shapes}")
    if shrunk:
        header.append("// shrunk: " + ", ".join(f"{k} {old} -> {new}"
                                                for k, (old, new) in shrunk.items()))
    for note in imported.notes:
        header.append(f"// note: {note}")
    return imported, header


def main(argv=None):
    parser = argparse.ArgumentParser(prog="ke-import", description=__doc__.split("\n\n")[0])
    parser.add_argument("file", metavar="FILE.py")
    parser.add_argument("-o", "--output", metavar="OUT.mlir",
                        help="where to write the kernel (default: stdout)")
    parser.add_argument("--max-elements", type=int, default=4_200_000,
                        help="at most this many elements in the inputs with parameters, and "
                             "in the outputs (default 4200000)")
    parser.add_argument("--max-flops", type=float, default=2.2e9,
                        help="at most this many FLOP in matmuls and convolutions "
                             "(default 2.2e9; 0: no limit)")
    parser.add_argument("--expected", metavar="FILE.tensors",
                        help="where to write the example inputs and PyTorch's outputs "
                             "(default: beside OUT, OUT with .tensors)")
    parser.add_argument("--no-expected", action="store_true",
                        help="write no tensor file")
    parser.add_argument("--name", help="the kernel's function name")
    args = parser.parse_args(argv)
    if not os.path.isfile(args.file):
        print(f"ke-import: {args.file}: no such file", file=sys.stderr)
        return 2
    try:
        import torch  # noqa: F401
        import torch_mlir.fx  # noqa: F401
    except ImportError as error:
        print(f"ke-import: {error}; run scripts/install-import-deps.sh or set KE_PYTHON "
              "to a Python with torch and torch-mlir", file=sys.stderr)
        return 2
    try:
        imported, header = import_file(args.file, args.max_elements, args.max_flops, args.name)
    except ImportError_ as error:
        print(f"ke-import: {args.file}: {error}", file=sys.stderr)
        return 1
    except Exception as error:  # the user's model failed to build or run
        lines = str(error).strip().splitlines()
        print(f"ke-import: {args.file}: building or running the model failed: "
              f"{type(error).__name__}" + (f": {lines[0][:400]}" if lines else ""),
              file=sys.stderr)
        return 1
    text = "\n".join(header) + "\n" + imported.mlir
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    expected = args.expected
    if not expected and args.output and not args.no_expected:
        expected = os.path.splitext(args.output)[0] + ".tensors"
    if expected and not args.no_expected:
        import torch
        write_tensors(torch, expected, imported.arguments, imported.outputs)
        print(f"ke-import: PyTorch's outputs in {expected} (ke-run --expected {expected})",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
