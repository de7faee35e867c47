#!/usr/bin/env python3
"""ke-run, with the verdicts of chosen candidates forged: runs the real
ke-run (on PATH, or $REAL_KE_RUN) with the same arguments, logs each
candidate's file name to $FORGE_LOG, then rewrites the report of candidates
whose file name contains one of $FORGE_SLOW (comma-separated) as 1000 times
slower, or one of $FORGE_WRONG as not correct. Lets a test decide what the
search's re-timing finds."""
import json
import os
import shutil
import subprocess
import sys


def main():
    real = os.environ.get("REAL_KE_RUN") or shutil.which("ke-run")
    args = sys.argv[1:]
    status = subprocess.call([real] + args)
    candidate = os.path.basename(args[0]) if args else ""
    with open(os.environ["FORGE_LOG"], "a") as log:
        log.write(candidate + "\n")
    report = next((a.split("=", 1)[1] for a in args if a.startswith("--report=")), None)
    marks = lambda name: [m for m in os.environ.get(name, "").split(",") if m]
    slow = any(m in candidate for m in marks("FORGE_SLOW"))
    wrong = any(m in candidate for m in marks("FORGE_WRONG"))
    if report and (slow or wrong) and os.path.exists(report):
        with open(report) as f:
            verdict = json.loads(f.readline())
        if slow and verdict.get("time_ns"):
            for key in ("median", "min"):
                verdict["time_ns"][key] *= 1000
        if wrong:
            verdict["correct"] = False
            verdict["error"] = "compare: forged by the test"
        with open(report, "w") as f:
            f.write(json.dumps(verdict) + "\n")
    sys.exit(status)


if __name__ == "__main__":
    main()
