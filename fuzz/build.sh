#!/bin/sh
# Builds the libFuzzer targets outside SwiftPM: the library modules in $MODULES are
# compiled once (coverage + AddressSanitizer, -enable-testing so harnesses can reach
# internal parsers through `@testable import`), then each fuzz/targets/NAME.swift is linked
# into .build/fuzz/NAME.
#
#   fuzz/build.sh [TARGET...]      (default: every file in fuzz/targets)
#
# Needs only the Swift toolchain and the -dev packages the package already uses.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT="$ROOT/.build/fuzz"
MOD="$OUT/modules"
mkdir -p "$MOD"

# Library modules in dependency order (ImportFormats for the readers of outside documents,
# HostStore for the known_hosts import and the mapping of Tailscale devices).
MODULES=${FUZZ_MODULES:-"System SecureMemory KeyFormats ImportFormats HostStore SSHConfig Agent SecurityKeys Tokens"}

SANITIZE=${FUZZ_SANITIZE:-fuzzer,address}
# -O: the optimisation level of `swift build -c release` (Package.swift sets no other for
# any target), so the fuzzers run the checks the shipped binary has.
SWIFTFLAGS="-swift-version 6 -O -g -sanitize=$SANITIZE -parse-as-library"

# The C shims: every Sources/C*/module.modulemap, with the include flags pkg-config gives.
CFLAGS=""
for dir in "$ROOT"/Sources/C*/; do CFLAGS="$CFLAGS -I $dir"; done
for pc in libsodium libcrypto sqlite3; do
    for flag in $(pkg-config --cflags "$pc" 2>/dev/null); do CFLAGS="$CFLAGS -Xcc $flag"; done
done
LIBS="-L/usr/lib/x86_64-linux-gnu -lsodium -lcrypto -lsqlite3"

OBJECTS=""
for m in $MODULES; do
    sources=$(find "$ROOT/Sources/$m" -name '*.swift' | sort)
    stamp="$MOD/$m.stamp"
    # Rebuild a module when any of its sources (or an earlier module) is newer.
    if [ ! -f "$stamp" ] || [ -n "$(find "$ROOT/Sources/$m" -name '*.swift' -newer "$stamp")" ] || [ -n "${REBUILT:-}" ]; then
        echo "fuzz/build.sh: compiling $m"
        # shellcheck disable=SC2086
        swiftc $SWIFTFLAGS -enable-testing -wmo -module-name "$m" $CFLAGS -I "$MOD" \
            -emit-module -emit-module-path "$MOD/$m.swiftmodule" \
            -c -o "$MOD/$m.o" $sources
        touch "$stamp"
        REBUILT=1
    fi
    OBJECTS="$OBJECTS $MOD/$m.o"
done

if [ "$#" -gt 0 ]; then
    TARGETS="$*"
else
    TARGETS=$(for f in "$ROOT"/fuzz/targets/*.swift; do basename "$f" .swift; done)
fi
# Each target is linked on its own (a compile of the harness and the target, then lld):
# as many at a time as there are processors.
JOBS=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
for t in $TARGETS; do
    [ -f "$ROOT/fuzz/targets/$t.swift" ] || { echo "fuzz/build.sh: no target $t (expected $ROOT/fuzz/targets/$t.swift)" >&2; exit 2; }
done
pids="" failed=0
for t in $TARGETS; do
    src="$ROOT/fuzz/targets/$t.swift"
    # Linked again only when its sources or a module changed (or it is not there).
    if [ -z "${REBUILT:-}" ] && [ -x "$OUT/$t" ] && [ ! "$src" -nt "$OUT/$t" ] && [ ! "$ROOT/fuzz/support/Harness.swift" -nt "$OUT/$t" ]; then
        continue
    fi
    echo "fuzz/build.sh: linking $t"
    # shellcheck disable=SC2086
    swiftc $SWIFTFLAGS -module-name "FuzzTarget" $CFLAGS -I "$MOD" \
        -use-ld=lld "$ROOT/fuzz/support/Harness.swift" "$src" $OBJECTS $LIBS -o "$OUT/$t" &
    pids="$pids $!"
    if [ "$(echo $pids | wc -w)" -ge "$JOBS" ]; then
        for pid in $pids; do wait "$pid" || failed=1; done
        pids=""
    fi
done
for pid in $pids; do wait "$pid" || failed=1; done
[ "$failed" -eq 0 ] || { echo "fuzz/build.sh: a target did not link" >&2; exit 1; }
