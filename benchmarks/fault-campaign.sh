#!/usr/bin/env bash
# The fault campaign at full size (issue 28; docs/reliability.md, "Reliability"):
# Tests/HostbookTests/FaultCampaignTests with HOSTBOOK_FAULT_ITERATIONS=N, i.e. N SIGKILLs at
# random moments of two-store writes and N rounds of each of the ten concurrent writers, plus
# the named steps, the full disk and the killed keyring (their size does not change). The
# test suite runs the same tests small (6 kills, 4 rounds). It runs the debug build: the
# HOSTBOOK_FAULT_STEP hook is not in release builds. Run it as root, as CI runs the tests
# (a throwaway account for hostbook, a tmpfs for the full disk).
#
# Usage: benchmarks/fault-campaign.sh [--iterations N] [--seed S]   (default N = 200)
# Prints each test's figures (`fault-campaign NAME: ...`), the totals and the time taken.
set -euo pipefail
cd "$(dirname "$0")/.."
iterations=200
seed=""
while [ $# -gt 0 ]; do
    case $1 in
        --iterations) iterations=$2; shift 2 ;;
        --seed) seed=$2; shift 2 ;;
        *) echo "usage: benchmarks/fault-campaign.sh [--iterations N] [--seed S]" >&2; exit 2 ;;
    esac
done
swift build --build-tests >/dev/null
log=$(mktemp)
trap 'rm -f "$log"' EXIT
start=$(date +%s)
status=0
HOSTBOOK_FAULT_ITERATIONS=$iterations ${seed:+HOSTBOOK_TEST_SEED=$seed} \
    scripts/with-keyring swift test --skip-build --filter FaultCampaignTests >"$log" 2>&1 || status=$?
elapsed=$(( $(date +%s) - start ))
grep -E '^fault-campaign |random seed' "$log" || true
grep -E 'error: |^Test Case .*failed' "$log" || true
kills=$(grep -oE ' kills=[0-9]+' "$log" | awk -F= '{s += $2} END {print s + 0}')
failures=$(grep -oE ' failures=[0-9]+' "$log" | awk -F= '{s += $2} END {print s + 0}')
summary=$(grep -E 'Executed [0-9]+ tests?' "$log" | tail -1 | sed 's/^[[:space:]]*//')
echo "iterations=$iterations kills=$kills failures=$failures elapsed=${elapsed}s load=$(cut -d' ' -f1-3 /proc/loadavg)"
echo "$summary"
exit "$status"
