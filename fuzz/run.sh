#!/bin/sh
# Builds and runs the libFuzzer targets, each for N seconds, non-interactively.
#
#   fuzz/run.sh [--seconds N] [TARGET...]     (default 60 seconds; every target)
#
# Seeds come from fuzz/corpus/<target>/ (committed, small); what the fuzzer learns goes to
# fuzz/corpus-work/<target>/ (ignored by git). Known crashers in fuzz/crashers/<target>/ are
# replayed first; new ones are saved there (crash-*, timeout-*, oom-*), to be committed
# and fixed: Tests/KeyFormatsTests/FuzzRegressionTests.swift replays them all.
# Exits 1 when any target crashes (or a known crasher still does), 2 on a build failure.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SECONDS_EACH=60
while [ "$#" -gt 0 ]; do
    case "$1" in
        --seconds) SECONDS_EACH=${2:?--seconds needs a number}; shift 2 ;;
        --seconds=*) SECONDS_EACH=${1#--seconds=}; shift ;;
        -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
        --) shift; break ;;
        -*) echo "fuzz/run.sh: unknown option $1" >&2; exit 2 ;;
        *) break ;;
    esac
done
if [ "$#" -gt 0 ]; then
    TARGETS="$*"
else
    TARGETS=$(for f in "$ROOT"/fuzz/targets/*.swift; do basename "$f" .swift; done)
fi

# shellcheck disable=SC2086
"$ROOT/fuzz/build.sh" $TARGETS || { echo "fuzz/run.sh: build failed" >&2; exit 2; }

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=0}"
# The Swift runtime's backtracer does not run under AddressSanitizer; libFuzzer reports.
export SWIFT_BACKTRACE=enable=no
status=0
for t in $TARGETS; do
    bin="$ROOT/.build/fuzz/$t"
    seeds="$ROOT/fuzz/corpus/$t"
    work="$ROOT/fuzz/corpus-work/$t"
    crashers="$ROOT/fuzz/crashers/$t"
    log="$ROOT/.build/fuzz/$t.log"
    mkdir -p "$seeds" "$work" "$crashers"

    known=$(find "$crashers" -type f ! -name '.*' | sort)
    if [ -n "$known" ]; then
        # shellcheck disable=SC2086
        if ! "$bin" -runs=1 -timeout=30 $known > "$log.replay" 2>&1; then
            echo "fuzz/run.sh: $t: a known crasher still fails (see $log.replay)"
            tail -n 30 "$log.replay"
            status=1
            continue
        fi
    fi

    echo "fuzz/run.sh: $t for $SECONDS_EACH s"
    "$bin" -max_total_time="$SECONDS_EACH" -timeout=30 -rss_limit_mb=4096 -max_len=16384 \
        -print_final_stats=1 -artifact_prefix="$crashers/" "$work" "$seeds" > "$log" 2>&1
    rc=$?
    if [ "$rc" -ne 0 ]; then
        echo "fuzz/run.sh: $t FAILED (exit $rc); crasher saved under fuzz/crashers/$t/, log $log"
        grep -E "ERROR|SUMMARY|Fatal error|Test unit written" "$log" | head -n 10
        status=1
    else
        grep -E "^stat::number_of_executed_units|^#[0-9]+ *DONE" "$log" | tr '\n' ' '
        echo
    fi
done
exit $status
