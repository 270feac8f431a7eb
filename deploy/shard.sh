#!/bin/sh
# One part of a self-play batch, as every task of a Slurm job array or of a Kubernetes Indexed
# Job runs it. It plays games K, K+N, K+2N ... of the batch and writes them to OUT/shard-K.json;
# `sandtable sim merge OUT/shard-*.json` then gives the report one run of the whole batch gives.
#
# K and N, the task's index (from 0) and the number of tasks:
#   Slurm       SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT (an array --array=0-(N-1))
#   Kubernetes  JOB_COMPLETION_INDEX and SHARDS (set SHARDS to the Job's completions)
# The batch, the same for every task:
#   GAME the game folder, SCENARIO, GAMES, SEED; SIM_ARGS further arguments of sim (optional, e.g. "--agent mc:8:40");
#   JOBS threads (default: every core the task has); OUT the shards' folder (default shards);
#   SANDTABLE the binary (default: sandtable on the PATH).
set -eu
K=${SLURM_ARRAY_TASK_ID:-${JOB_COMPLETION_INDEX:?neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX is set}}
N=${SLURM_ARRAY_TASK_COUNT:-${SHARDS:?neither SLURM_ARRAY_TASK_COUNT nor SHARDS is set}}
SANDTABLE=${SANDTABLE:-sandtable}
OUT=${OUT:-shards}
mkdir -p "$OUT"
JOBS_ARG=""
if [ -n "${JOBS:-${SLURM_CPUS_PER_TASK:-}}" ]; then
    JOBS_ARG="--jobs ${JOBS:-${SLURM_CPUS_PER_TASK:-}}"
fi
# Written aside, then renamed: a task that dies leaves no shard that looks whole.
# shellcheck disable=SC2086
"$SANDTABLE" sim "${GAME:?GAME is not set}" --scenario "${SCENARIO:?SCENARIO is not set}" \
    --games "${GAMES:?GAMES is not set}" --seed "${SEED:-1}" ${SIM_ARGS:-} $JOBS_ARG \
    --shard "$K/$N" > "$OUT/shard-$K.json.part"
mv "$OUT/shard-$K.json.part" "$OUT/shard-$K.json"
