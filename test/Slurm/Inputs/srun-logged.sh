#!/usr/bin/env bash
# srun that first logs its arguments, one line per job, to $SRUN_LOG: shows
# the evaluations went through Slurm, and with what.
echo "$*" >> "$SRUN_LOG"
exec srun "$@"
