#!/usr/bin/env bash
# The GPU bench, in two halves, because the GPU machine need not have MLIR:
#
#   bench/gpu_run.sh --make-bundles DIR [TILES [ROWS [THREAD_TILES [SHARED [WARPS]]]]]
#                                         # where ke is built: compile every
#                                         # bench kernel for nvgpu (sm_90)
#                                         # into DIR/<kernel> (host code with
#                                         # PTX, inputs, reference outputs),
#                                         # DIR/<kernel>@<tile> for each
#                                         # thread-block tile of TILES
#                                         # (default "16x16 1x128 2x128 32x8")
#                                         # and DIR/<kernel>@r<N> for each
#                                         # most-threads-per-row N of ROWS
#                                         # (default "0 128 1024"; 0: rows
#                                         # reduced sequentially per thread)
#                                         # and, for GEMMs and convolutions,
#                                         # DIR/<kernel>@t<tile> for each
#                                         # outputs-per-thread tile of
#                                         # THREAD_TILES (default
#                                         # "2x1 2x2 4x1 1x4") and
#                                         # DIR/<kernel>@s<N> for each
#                                         # shared-memory tile N of SHARED
#                                         # (default "0 32 128"; 0: no
#                                         # staging) and DIR/<kernel>@w<N>
#                                         # for each warps-per-staged-block
#                                         # N of WARPS (default "4 16")
#   bench/gpu_run.sh --run DIR [OUT]      # on the GPU machine: build
#                                         # ke-gpu-run with g++ alone, run the
#                                         # bundles, PyTorch eager and
#                                         # torch.compile, print the table
#
# Where one machine has both, `ke-run --target nvgpu` does it in one go.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
case "${1:-}" in
  --make-bundles)
    dir="${2:?bench/gpu_run.sh --make-bundles DIR [TILES]}"
    tiles="${3-16x16 1x128 2x128 32x8}"
    rows="${4-0 128 1024}"
    thread_tiles="${5-2x1 2x2 4x1 1x4}"
    shared_tiles="${6-0 32 128}"
    warps_choices="${7-4 16}"
    "$root/scripts/build.sh" >&2 || exit 1
    mkdir -p "$dir"
    for kernel in "$root"/bench/kernels/*.mlir; do
      "$root/build/bin/ke-run" "$kernel" --target nvgpu --bundle "$dir" \
        --seeds 1 --check-only || echo "bench: $(basename "$kernel") failed" >&2
    done
    # The GPU schedule knob (threads per block, ke.gpu_block_tile): one
    # small bundle per choice, sharing the default bundle's data.
    share_data() {
      rm -f "$1"/in-* "$1"/expected-*
      echo "data ../$2" >> "$1/bundle.txt"
    }
    for kernel in "$root"/bench/kernels/*.mlir; do
      name=$(basename "$kernel" .mlir)
      for tile in $tiles; do
        "$root/build/bin/ke-run" "$kernel" --target nvgpu --bundle "$dir" \
          --seeds 1 --check-only --gpu-block-tile="${tile//x/,}" > /dev/null || continue
        share_data "$dir/$name@$tile" "$name"
      done
      # Outputs per thread of GEMMs and convolutions.
      if grep -qE "matmul|conv" "$kernel"; then
        for tile in $thread_tiles; do
          "$root/build/bin/ke-run" "$kernel" --target nvgpu --bundle "$dir" \
            --seeds 1 --check-only --gpu-thread-tile="${tile//x/,}" > /dev/null || continue
          share_data "$dir/$name@t$tile" "$name"
        done
        # Output tiles per block of the GEMMs staged in shared memory.
        for tile in $shared_tiles; do
          "$root/build/bin/ke-run" "$kernel" --target nvgpu --bundle "$dir" \
            --seeds 1 --check-only --gpu-shared-tile="$tile" > /dev/null || continue
          share_data "$dir/$name@s$tile" "$name"
        done
        # Warps per staged block.
        for warps in $warps_choices; do
          "$root/build/bin/ke-run" "$kernel" --target nvgpu --bundle "$dir" \
            --seeds 1 --check-only --gpu-warps="$warps" > /dev/null || continue
          share_data "$dir/$name@w$warps" "$name"
        done
      fi
      # Threads per row of the reductions: only where there are some.
      grep -q reduction "$kernel" || continue
      for threads in $rows; do
        "$root/build/bin/ke-run" "$kernel" --target nvgpu --bundle "$dir" \
          --seeds 1 --check-only --gpu-reduction-threads="$threads" > /dev/null || continue
        share_data "$dir/$name@r$threads" "$name"
      done
    done
    rm -f "$dir"/*/*.so.o "$dir"/*/*.so.log ;;
  --run)
    dir="${2:?bench/gpu_run.sh --run DIR [OUT]}"
    out="${3:-$root/build/bench/gpu}"
    mkdir -p "$out"
    runner="$out/ke-gpu-run"
    g++ -O2 -std=c++17 -I"$root/include" "$root"/lib/Runtime/*.cpp \
      "$root/lib/Target/TargetInfo.cpp" \
      "$root/tools/ke-gpu-run/ke-gpu-run.cpp" -ldl -rdynamic -o "$runner" || exit 1
    "$runner" --min-time 0.1 "$dir"/* | tee "$out/ke.jsonl"
    python3 "$root/bench/baselines/torch_bench.py" --device cuda --compile \
      2>/dev/null | tee "$out/torch.jsonl"
    python3 "$root/bench/gpu_table.py" "$out/ke.jsonl" "$out/torch.jsonl" ;;
  *)
    echo "usage: bench/gpu_run.sh --make-bundles DIR | --run DIR [OUT]" >&2
    exit 2 ;;
esac
