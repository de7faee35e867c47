#!/usr/bin/env bash
# Starts `ke-opt ARGS...` in the background, waits until one of its Slurm
# jobs runs (and, with MIN_NODES=N, until the database DB holds N nodes),
# sends it SIGNAL, and reports how it ended and which of its jobs Slurm
# still has.
#   stop-mid-search.sh SIGNAL DB ke-opt ARGS...
signal="$1" db="$2"
shift 2
"$@" 2> "$db.stderr" &
pid=$!
for _ in $(seq 600); do
  running=$(squeue -h -t RUNNING -o %j 2>/dev/null | grep -c "^ke-$pid-")
  nodes=$(sqlite3 "$db" "select count(*) from nodes" 2>/dev/null || echo 0)
  if [ "$running" -gt 0 ] && [ "${nodes:-0}" -ge "${MIN_NODES:-0}" ]; then
    break
  fi
  sleep 0.05
done
kill -"$signal" "$pid"
wait "$pid"
echo "ke-opt ended with status $?"
if [ "$signal" != KILL ]; then
  echo "its jobs still known to Slurm as pending or running: $(squeue -h -t PENDING,RUNNING -o %j | grep -c "^ke-$pid-")"
fi
