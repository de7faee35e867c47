#!/usr/bin/env bash
# srun that first logs its job name to $SRUN_LOG: shows the evaluations went
# through Slurm.
for arg in "$@"; do
  case "$arg" in --job-name=*) echo "${arg#--job-name=}" >> "$SRUN_LOG" ;; esac
done
exec srun "$@"
