#!/usr/bin/env python3
"""Fits the coefficients of ke's f32 erf (lib/Codegen/Common/RationalErf.cpp).

erf(x) ~ x P(x^2) / Q(x^2) on [0, 4], Q(0) = 1 and P(0) = 2/sqrt(pi) (so the
first-order term near 0 is exact), minimizing the largest relative error:
least squares linearized by the previous denominator (Sanathanan-Koerner)
and reweighted toward the largest errors (Lawson). Then evaluates the f32
coefficients as the rewrite does (Horner's rule with fused multiply-adds,
each step rounded to f32, the quotient clamped to [-1, 1]) against
math.erf on f32 values up to 4 and beyond.

Needs mpmath (in bench/.venv, or Debian's python3-mpmath); takes about a minute.
Usage: scripts/fit-rational-erf.py [P terms (7)] [Q terms beyond 1 (4)]
"""
import math
import struct
import sys

from mpmath import cos, erf, lu_solve, matrix, mp, mpf, pi, sqrt

mp.dps = 50
NUMERATOR_TERMS = int(sys.argv[1]) if len(sys.argv) > 1 else 7
DENOMINATOR_TERMS = int(sys.argv[2]) if len(sys.argv) > 2 else 4
LIMIT = mpf(4)  # erf(4) rounds to 1 in f32
SAMPLES = 600
ITERATIONS = 60

xs = [LIMIT * (1 - cos(pi * (i + mpf(0.5)) / SAMPLES)) / 2 for i in range(SAMPLES)]
fs = [erf(x) for x in xs]
first = 2 / sqrt(pi)


def evaluate(p, q, x):
    numerator = sum(c * x ** (2 * j + 1) for j, c in enumerate(p))
    denominator = sum(c * x ** (2 * k) for k, c in enumerate(q))
    return numerator / denominator, denominator


unknowns = NUMERATOR_TERMS - 1 + DENOMINATOR_TERMS
weights = [mpf(1)] * SAMPLES
previous = [mpf(1)] * SAMPLES
best = None
for _ in range(ITERATIONS):
    normal = matrix(unknowns, unknowns)
    rhs = matrix(unknowns, 1)
    for x, f, w, d in zip(xs, fs, weights, previous):
        row = [x ** (2 * j + 1) for j in range(1, NUMERATOR_TERMS)]
        row += [-f * x ** (2 * k) for k in range(1, DENOMINATOR_TERMS + 1)]
        scale = w / (d * f) ** 2
        target = f - first * x
        for a in range(unknowns):
            rhs[a] += scale * row[a] * target
            for b in range(unknowns):
                normal[a, b] += scale * row[a] * row[b]
    c = lu_solve(normal, rhs)
    p = [first] + [c[j] for j in range(NUMERATOR_TERMS - 1)]
    q = [mpf(1)] + [c[NUMERATOR_TERMS - 1 + k] for k in range(DENOMINATOR_TERMS)]
    errors, previous = [], []
    for x, f in zip(xs, fs):
        value, denominator = evaluate(p, q, x)
        errors.append(abs(value - f) / f)
        previous.append(denominator)
    if best is None or max(errors) < best[0]:
        best = (max(errors), p, q)
    total = sum(w * e for w, e in zip(weights, errors))
    weights = [w * e / total for w, e in zip(weights, errors)]

largest, p, q = best
print(f"largest relative error, exact arithmetic: {float(largest):.3g}")


def f32(value):
    return struct.unpack("f", struct.pack("f", value))[0]


p32 = [f32(float(c)) for c in p]
q32 = [f32(float(c)) for c in q]


def erf32(x):
    x = f32(min(max(x, -float(LIMIT)), float(LIMIT)))
    square = f32(x * x)

    def horner(coefficients):
        total = coefficients[-1]
        for c in reversed(coefficients[:-1]):
            total = f32(total * square + c)
        return total

    return min(max(f32(f32(horner(p32) * x) / horner(q32)), -1.0), 1.0)


# Every f32 from 2^-20 up to 4 whose low 8 mantissa bits are zero (2^15 per
# binade), then a few beyond the clamp.
worst, where = 0.0, 0.0
bits = struct.unpack("I", struct.pack("f", 2.0 ** -20))[0]
last = struct.unpack("I", struct.pack("f", 4.0))[0]
samples = [struct.unpack("f", struct.pack("I", b))[0] for b in range(bits, last + 1, 256)]
for x in samples + [4.5, 6.0, float("inf")]:
    error = abs(erf32(x) - math.erf(x))
    if error > worst:
        worst, where = error, x
print(f"largest absolute error in f32 on (0, inf]: {worst:.3g} at {where}")
print("numerator (x, x^3, ...):", ", ".join(repr(c) for c in p32))
print("denominator (1, x^2, ...):", ", ".join(repr(c) for c in q32))
