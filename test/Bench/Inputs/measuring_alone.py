"""Runs kernelbench_torch.py's measuring_alone (the file given) beside a
registered child of --jobs and prints that child's state before, during
and after the measured block: running, stopped, running."""
import importlib.util
import os
import subprocess
import sys
import tempfile
import time

spec = importlib.util.spec_from_file_location("kernelbench_torch", sys.argv[1])
kernelbench_torch = importlib.util.module_from_spec(spec)
spec.loader.exec_module(kernelbench_torch)


def state(pid):
    """'stopped' or 'running' (sleeping counts), once the state settles."""
    deadline = time.time() + 5
    while True:
        with open(f"/proc/{pid}/stat") as stat:
            letter = stat.read().rsplit(")", 1)[1].split()[0]
        now = "stopped" if letter in "Tt" else "running"
        if time.time() > deadline or now == expected:
            return now
        time.sleep(0.01)


with tempfile.TemporaryDirectory() as folder:
    lock = os.path.join(folder, "measuring")
    # A child of its own session, registered as --jobs' children register.
    other = subprocess.Popen(["sleep", "60"], start_new_session=True)
    open(kernelbench_torch.registration(lock, other.pid), "w").close()
    try:
        expected = "running"
        print("before:", state(other.pid))
        with kernelbench_torch.measuring_alone(lock):
            expected = "stopped"
            print("measuring:", state(other.pid))
        expected = "running"
        print("after:", state(other.pid))
    finally:
        other.kill()
        other.wait()
