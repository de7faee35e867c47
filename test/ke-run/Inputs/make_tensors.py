"""Writes a ke tensor file for add_one.mlir (x + 1 on 256 f32) without numpy:
    make_tensors.py OUT [--offset D] [--length N]
The outputs are x + 1 + D; --length changes the input's shape."""
import array
import json
import sys

out, offset, length = sys.argv[1], 0.0, 256
args = sys.argv[2:]
while args:
    flag, value = args[0], args[1]
    args = args[2:]
    if flag == "--offset":
        offset = float(value)
    elif flag == "--length":
        length = int(value)
x = array.array("f", [0.25 * i - 20.0 for i in range(length)])
y = array.array("f", [v + 1.0 + offset for v in x])
header = {"inputs": [{"dtype": "f32", "shape": [length]}],
          "outputs": [{"dtype": "f32", "shape": [length]}]}
with open(out, "wb") as f:
    f.write(b"KETENSORS 1\n" + json.dumps(header).encode() + b"\n")
    f.write(x.tobytes() + y.tobytes())
