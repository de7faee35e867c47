#!/usr/bin/env bash
# srun whose first job is cancelled by the cluster while it runs (scancel of
# its step), as a node failure or a preemption would end it; later jobs run
# as usual. $CANCEL_MARK records that the cancel happened.
name=""
for arg in "$@"; do
  case "$arg" in --job-name=*) name="${arg#--job-name=}" ;; esac
done
if [ -e "$CANCEL_MARK" ]; then
  exec srun "$@"
fi
touch "$CANCEL_MARK"
# The job's program waits first, so the cancel always lands while it runs
# (on a loaded machine a quick program could finish before scancel acts).
# ke passes srun its options as --name=value, before the program.
options=()
while [ $# -gt 0 ] && [ "${1#-}" != "$1" ]; do
  options+=("$1")
  shift
done
srun "${options[@]}" bash -c 'sleep 60; exec "$@"' job "$@" &
pid=$!
for _ in $(seq 200); do
  if [ -n "$(squeue -h -n "$name" -t RUNNING -o %i 2>/dev/null)" ]; then
    scancel -n "$name"
    echo "cancelled $name" >> "$CANCEL_MARK"
    break
  fi
  sleep 0.05
done
wait $pid
