#!/bin/sh
# A sandtable binary for long self-play batches, optimized by profile (PGO): the `selfplay`
# profile's build (Cargo.toml: the whole program as one unit) compiled a second time with what
# a training run of the bundled games measured of its branches and calls. The games are the
# same (the optimizer chooses where code lies and what is inlined, never what it does); B2B's
# random campaigns run some 13% faster than the `selfplay` build alone, 28% faster than a
# release build (README, Performance). The training plays random games of every scenario of
# every game in content/: a game of your own plays through the same procedures and interpreter.
#
# Run from the project's folder: deploy/pgo-build.sh builds target/pgo/selfplay/sandtable.
# It needs the toolchain's llvm-profdata (rustup's component llvm-tools, added when missing),
# and takes about three times a release build: the training build, the games, the final build.
set -eu

if [ $# -gt 0 ]; then
    echo "usage: deploy/pgo-build.sh (it takes no arguments)" >&2
    exit 2
fi
[ -f Cargo.toml ] && [ -d content ] || {
    echo "deploy/pgo-build.sh: run it from the project's folder (Cargo.toml and content/)" >&2
    exit 2
}

host=$(rustc -vV | sed -n 's/^host: //p')
profdata="$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata"
if [ ! -x "$profdata" ]; then
    rustup component add llvm-tools
fi

out="$PWD/target/pgo"
rm -rf "$out/data"
mkdir -p "$out"
flags=${RUSTFLAGS:-}

# 1. A build that counts what it runs, and the training games.
RUSTFLAGS="$flags -Cprofile-generate=$out/data" \
    cargo build --profile selfplay --locked --bin sandtable --target-dir "$out/train"
# Each game trains about two seconds, shared among its scenarios: batches of 1, 2, 4 ...
# random games (other seeds each) until its share has passed, so that no long game outweighs
# the rest whatever the content.
now_ms() { date +%s%3N; }
for game in content/*/; do
    game=${game%/}
    set -- "$game"/scenarios/*.ron
    share=$((2000 / $#))
    for scenario in "$@"; do
        name=$(basename "$scenario" .ron)
        start=$(now_ms)
        games=1
        seed=1
        while :; do
            # A game of content/ that does not load or play is left out of the training, said.
            if ! "$out/train/selfplay/sandtable" sim "$game" --scenario "$name" \
                --games "$games" --seed "$seed" --jobs 1 >/dev/null; then
                echo "deploy/pgo-build.sh: $game, scenario $name, left out of the training" >&2
                break
            fi
            [ $(($(now_ms) - start)) -lt "$share" ] && [ "$games" -lt 256 ] || break
            seed=$((seed + 1))
            games=$((games * 2))
        done
    done
done

# 2. The counts merged, and the build that uses them.
"$profdata" merge -o "$out/merged.profdata" "$out/data"
# The same crate as the training build (its features, its profile): a function's counts are
# found by its symbol, which changes with them.
RUSTFLAGS="$flags -Cprofile-use=$out/merged.profdata" \
    cargo build --profile selfplay --locked --bin sandtable --target-dir "$out"
echo "built target/pgo/selfplay/sandtable"
