#!/usr/bin/env bash
# A one-node Slurm cluster on this machine for ke's tests, from Debian's
# packages (slurmctld, slurmd, slurm-client, munge; scripts/install-deps.sh),
# with every file in STATE_DIR: munged on its own socket and key, slurmctld
# and slurmd on free ports, this host as the node with its CPUs.
#
#   test/Slurm/cluster.sh start STATE_DIR   # prints SLURM_CONF=... when up
#   test/Slurm/cluster.sh stop STATE_DIR
#
# Clients (srun, sbatch, scancel, sinfo) use it with SLURM_CONF set.
set -uo pipefail
command="${1:?usage: cluster.sh start|stop STATE_DIR}"
state="${2:?usage: cluster.sh start|stop STATE_DIR}"
mkdir -p "$state"
state="$(cd "$state" && pwd)"
conf="$state/slurm.conf"

stop() {
  for pid in "$state"/run/slurmd.pid "$state"/run/slurmctld.pid "$state"/munge/munged.pid; do
    [ -s "$pid" ] && kill "$(cat "$pid")" 2>/dev/null
  done
  sleep 1
  for pid in "$state"/run/slurmd.pid "$state"/run/slurmctld.pid "$state"/munge/munged.pid; do
    [ -s "$pid" ] && kill -9 "$(cat "$pid")" 2>/dev/null
    rm -f "$pid"
  done
  return 0
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

start() {
  for tool in munged slurmctld slurmd srun sinfo; do
    command -v "$tool" >/dev/null || { echo "cluster.sh: $tool is not installed (scripts/install-deps.sh)" >&2; exit 2; }
  done
  stop
  mkdir -p "$state"/{munge,spool/ctld,spool/d,log,run}
  chmod 700 "$state/munge"
  head -c 1024 /dev/urandom > "$state/munge/munge.key"
  chmod 600 "$state/munge/munge.key"
  munged --key-file="$state/munge/munge.key" --socket="$state/munge/munge.socket" \
    --pid-file="$state/munge/munged.pid" --log-file="$state/munge/munged.log" \
    --seed-file="$state/munge/munged.seed" --force 2>> "$state/log/munged.err" || {
    echo "cluster.sh: munged did not start: $(tail -n 2 "$state/log/munged.err" "$state/munge/munged.log" 2>/dev/null)" >&2; exit 1; }
  host=$(hostname -s)
  user=$(id -un)
  cpus=$(nproc)
  memory=$(awk '/MemTotal/ {print int($2 / 1024 * 0.9)}' /proc/meminfo)
  cat > "$conf" <<CONF
ClusterName=ke-test
SlurmctldHost=$host
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$state/munge/munge.socket
SlurmUser=$user
SlurmdUser=$user
StateSaveLocation=$state/spool/ctld
SlurmdSpoolDir=$state/spool/d
SlurmctldPidFile=$state/run/slurmctld.pid
SlurmdPidFile=$state/run/slurmd.pid
SlurmctldLogFile=$state/log/slurmctld.log
SlurmdLogFile=$state/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
MinJobAge=300
NodeName=$host CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=ke Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF="$conf"
  slurmctld -f "$conf" 2>> "$state/log/slurmctld.err" || { echo "cluster.sh: slurmctld did not start: $(tail -n 3 "$state/log/slurmctld.log" "$state/log/slurmctld.err")" >&2; stop; exit 1; }
  slurmd -f "$conf" 2>> "$state/log/slurmd.err" || { echo "cluster.sh: slurmd did not start: $(tail -n 3 "$state/log/slurmd.log" "$state/log/slurmd.err")" >&2; stop; exit 1; }
  for _ in $(seq 60); do
    if sinfo -h -o %T 2>/dev/null | grep -q idle; then
      echo "SLURM_CONF=$conf"
      return 0
    fi
    sleep 0.5
  done
  echo "cluster.sh: the node did not come up: $(sinfo -h 2>&1 | head -2); $(tail -n 3 "$state/log/slurmctld.log" "$state/log/slurmd.log")" >&2
  stop
  exit 1
}

case "$command" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: cluster.sh start|stop STATE_DIR" >&2; exit 2 ;;
esac
