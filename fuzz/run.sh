#!/bin/sh
# Builds and runs the libFuzzer targets, each for N seconds, non-interactively.
#
#   fuzz/run.sh [--seconds N] [--jobs J] [TARGET...]
#                                (default 60 seconds each; J targets at a time, default the
#                                number of processors; every target)
#
# Seeds come from fuzz/corpus/<target>/ (committed, small); what the fuzzer learns goes to
# fuzz/corpus-work/<target>/ (ignored by git). Known crashers in fuzz/crashers/<target>/ are
# replayed first; new ones are saved there (crash-*, timeout-*, oom-*), to be committed
# and fixed: Tests/KeyFormatsTests/FuzzRegressionTests.swift replays them all.
# Exits 1 when any target crashes (or a known crasher still does), 2 on a build failure.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SECONDS_EACH=60
JOBS=$(nproc 2>/dev/null || echo 1)
ONE=
while [ "$#" -gt 0 ]; do
    case "$1" in
        --seconds) SECONDS_EACH=${2:?--seconds needs a number}; shift 2 ;;
        --seconds=*) SECONDS_EACH=${1#--seconds=}; shift ;;
        --jobs) JOBS=${2:?--jobs needs a number}; shift 2 ;;
        --jobs=*) JOBS=${1#--jobs=}; shift ;;
        --one) ONE=${2:?}; shift 2 ;;   # internal: fuzz one target (what each job runs)
        -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
        --) shift; break ;;
        -*) echo "fuzz/run.sh: unknown option $1" >&2; exit 2 ;;
        *) break ;;
    esac
done
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=0}"
# The Swift runtime's backtracer does not run under AddressSanitizer; libFuzzer reports.
export SWIFT_BACKTRACE=enable=no
# One target (each job of the run below): replay its known crashers, then fuzz it. What it
# prints is kept in .build/fuzz/NAME.summary and shown in target order once all are done.
if [ -n "$ONE" ]; then
    t=$ONE
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
            exit 1
        fi
    fi

    echo "fuzz/run.sh: $t for $SECONDS_EACH s"
    "$bin" -max_total_time="$SECONDS_EACH" -timeout=30 -rss_limit_mb=4096 -max_len=16384 \
        -print_final_stats=1 -artifact_prefix="$crashers/" "$work" "$seeds" > "$log" 2>&1
    rc=$?
    if [ "$rc" -ne 0 ]; then
        echo "fuzz/run.sh: $t FAILED (exit $rc); crasher saved under fuzz/crashers/$t/, log $log"
        grep -E "ERROR|SUMMARY|Fatal error|Test unit written" "$log" | head -n 10
        exit 1
    else
        grep -E "^stat::number_of_executed_units|^#[0-9]+ *DONE" "$log" | tr '\n' ' '
        echo
    fi
    exit 0
fi

if [ "$#" -gt 0 ]; then
    TARGETS="$*"
else
    TARGETS=$(for f in "$ROOT"/fuzz/targets/*.swift; do basename "$f" .swift; done)
fi

# shellcheck disable=SC2086
"$ROOT/fuzz/build.sh" $TARGETS || { echo "fuzz/run.sh: build failed" >&2; exit 2; }

# The targets, JOBS at a time (each fuzz process is single-threaded: on N processors N run
# side by side, each still for SECONDS_EACH seconds).
status=0
for t in $TARGETS; do echo "$t"; done |
    xargs -P "$JOBS" -I{} sh -c '"$0" --seconds "$1" --one "$2" > "$3/$2.summary" 2>&1' \
        "$0" "$SECONDS_EACH" {} "$ROOT/.build/fuzz" || status=1
for t in $TARGETS; do cat "$ROOT/.build/fuzz/$t.summary"; done
exit $status
