# lit configuration for ke's tests.
import os
import sys
import lit.formats

config.name = "ke"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.ke_obj_root, "test")

# The ke tools first, then LLVM's (FileCheck, not, mlir-opt).
config.environment["PATH"] = os.pathsep.join(
    [config.ke_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
# One shared cache of the calibrated peaks for the whole test run.
config.environment["KE_CACHE_DIR"] = os.path.join(config.ke_obj_root, "test", "cache")

config.substitutions.append(("%ke_plugin", os.path.join(config.ke_lib_dir, "libke-plugin.so")))
config.substitutions.append(("%mlir_opt", os.path.join(config.llvm_tools_dir, "mlir-opt")))
config.substitutions.append(("%bench", os.path.join(config.ke_src_root, "bench")))
config.substitutions.append(("%examples", os.path.join(config.ke_src_root, "examples")))
config.substitutions.append(("%python", sys.executable))

# Sanitized builds (scripts/test-sanitized.sh): the sanitizers' options reach
# every tool, and tests that cannot hold there say so (REQUIRES/UNSUPPORTED).
sanitizers = getattr(config, "ke_sanitize", "")
if "address" in sanitizers:
    config.available_features.add("asan")
for name in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
    if name in os.environ:
        config.environment[name] = os.environ[name]

# Tests of what ke-lower-cpu does on an x86 host with AVX.
try:
    with open("/proc/cpuinfo") as cpuinfo:
        if " avx " in cpuinfo.read().replace("\n", " "):
            config.available_features.add("x86-avx")
except OSError:
    pass

# ke-import's tests need a Python with torch and torch-mlir ($KE_PYTHON, else
# the venv scripts/install-import-deps.sh makes); the core build never does.
# Without one they are reported UNSUPPORTED, and the run says why.
import subprocess
config.substitutions.append(
    ("%ke_import", os.path.join(config.ke_src_root, "tools", "ke-import", "ke-import")))
import_python = os.path.abspath(os.environ.get("KE_PYTHON") or os.path.join(
    os.environ.get("KE_IMPORT_VENV") or os.path.join(config.ke_src_root, ".venv"), "bin", "python"))
has_torch_mlir = False
if os.path.isfile(import_python):
    try:
        has_torch_mlir = subprocess.run(
            [import_python, "-c", "import torch, torch_mlir.fx"], capture_output=True,
            timeout=120).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        pass
if has_torch_mlir:
    config.available_features.add("torch-mlir")
    config.environment["KE_PYTHON"] = import_python
else:
    lit_config.note("ke-import tests skipped: no Python with torch and torch-mlir at "
                    f"{import_python} (run scripts/install-import-deps.sh or set KE_PYTHON)")

# ke-report html's test renders the page in headless Chromium (Debian's
# chromium, installed by scripts/install-deps.sh).
import shutil
if shutil.which("chromium"):
    config.available_features.add("chromium")
else:
    lit_config.note("ke-report html's rendering test skipped: no chromium on PATH")

# The Slurm executor's tests run against a real one-node cluster on this
# machine (test/Slurm/cluster.sh: munged, slurmctld and slurmd from Debian's
# packages, every file under the build tree), started once for the run and
# stopped at its end.
import atexit
slurm_state = os.path.join(config.ke_obj_root, "test", "slurm-cluster")
cluster_script = os.path.join(config.ke_src_root, "test", "Slurm", "cluster.sh")
if all(shutil.which(tool) for tool in ("slurmctld", "slurmd", "munged", "srun")):
    started = subprocess.run([cluster_script, "start", slurm_state], capture_output=True,
                             text=True, timeout=120)
    if started.returncode == 0:
        config.available_features.add("slurm")
        config.environment["SLURM_CONF"] = os.path.join(slurm_state, "slurm.conf")
        atexit.register(lambda: subprocess.run([cluster_script, "stop", slurm_state],
                                               capture_output=True, timeout=60))
    else:
        lit_config.note("Slurm tests skipped: the test cluster did not start: " +
                        started.stderr.strip()[-400:])
else:
    lit_config.note("Slurm tests skipped: slurmctld, slurmd, munged or srun is not installed "
                    "(scripts/install-deps.sh installs them)")
