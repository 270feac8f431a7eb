# Sourced by sim.sbatch and merge.sbatch: SANDTABLE, when not set, is the newer of the two
# builds of the CLI for batches (a PGO binary older than a selfplay build is of older code).
if [ -z "${SANDTABLE:-}" ]; then
    SANDTABLE=target/selfplay/sandtable
    pgo=target/pgo/selfplay/sandtable
    if [ -x "$pgo" ] && { [ ! -e "$SANDTABLE" ] || [ "$pgo" -nt "$SANDTABLE" ]; }; then
        SANDTABLE=$pgo
    fi
fi
