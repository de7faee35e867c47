"""Writes a ke tensor file for channel_sums.mlir without numpy: every input
0.1f, the outputs the exact sums rounded once to f32 (what f64 accumulation
gives; plain f32 loops round on every addition, about 0.1 % off).
    make_channel_sums.py OUT"""
import array
import json
import sys

count = 2 * 4 * 65536
x = array.array("f", [0.1] * count)
term = x[0]  # 0.1 as f32
y = array.array("f", [term * 2 * 65536] * 4)
header = {"inputs": [{"dtype": "f32", "shape": [2, 4, 65536]}],
          "outputs": [{"dtype": "f32", "shape": [4]}]}
with open(sys.argv[1], "wb") as f:
    f.write(b"KETENSORS 1\n" + json.dumps(header).encode() + b"\n")
    f.write(x.tobytes() + y.tobytes())
