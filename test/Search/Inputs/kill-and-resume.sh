#!/usr/bin/env bash
# Starts a search, kills it with SIGKILL once a few nodes are committed, then
# resumes it; prints the node counts before and after and the run ids.
set -u
db="$1"; input="$2"
ke-opt "$input" --ke-evolve="budget=1000 seed=5 db=$db min-time=0.01" -o /dev/null 2>/dev/null &
pid=$!
for _ in $(seq 1 600); do
  n=$(sqlite3 "$db" "select count(*) from nodes" 2>/dev/null || echo 0)
  [ "${n:-0}" -ge 3 ] && break
  sleep 0.1
done
kill -9 "$pid"
wait "$pid" 2>/dev/null
before=$(sqlite3 "$db" "select count(*) from nodes")
ids_before=$(sqlite3 "$db" "select group_concat(id) from (select id from nodes order by id)")
echo "killed with $before nodes; run status $(sqlite3 "$db" "select status from runs")"
# The budget counts candidates; the floor (ke's default lowering) is not one.
candidates=$(sqlite3 "$db" "select count(*) from nodes where proposer != 'default'")
ke-opt "$input" --ke-evolve="budget=$((candidates + 2)) seed=5 db=$db resume=true min-time=0.01" -o /dev/null 2>/dev/null
after=$(sqlite3 "$db" "select count(*) from nodes")
echo "resumed to $after nodes in $(sqlite3 "$db" "select count(*) from runs") run(s); run status $(sqlite3 "$db" "select status from runs")"
ids_after=$(sqlite3 "$db" "select group_concat(id) from (select id from nodes where id <= (select max(id) from nodes) - 2 order by id)")
[ "$ids_before" = "$ids_after" ] && echo "no node lost" || echo "LOST: before $ids_before after $ids_after"
echo "added $((after - before))"
