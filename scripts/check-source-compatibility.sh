#!/usr/bin/env bash
# Code that compiles with Foundation's JSONDecoder and JSONEncoder compiles with LenientJSONDecoder and
# LenientJSONEncoder put in their place, with the same diagnostics, in Swift 5 and Swift 6 language modes.
# Needs the debug build of the library (swift build). Run from anywhere.
set -euo pipefail
cd "$(dirname "$0")/.."

modules=.build/debug/Modules
[ -d "$modules" ] || modules=.build/debug
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for file in scripts/source-compatibility/*.swift; do
    sed -e 's/JSONDecoder()/LenientJSONDecoder()/g; s/JSONEncoder()/LenientJSONEncoder()/g' \
        -e 's/^import Foundation$/import Foundation\nimport LenientCodable/' "$file" > "$work/lenient.swift"
    for mode in 5 6; do
        # Diagnostics without their file and position, which differ by one line (the added import).
        swiftc -swift-version "$mode" -typecheck "$file" 2>&1 | grep -E '(error|warning):' \
            | sed -E 's/^[^:]*:[0-9]+:[0-9]+: //' | sort > "$work/foundation.txt" || true
        swiftc -swift-version "$mode" -typecheck -I "$modules" "$work/lenient.swift" 2>&1 | grep -E '(error|warning):' \
            | sed -E 's/^[^:]*:[0-9]+:[0-9]+: //' | sort > "$work/lenient.txt" || true
        if ! diff -u "$work/foundation.txt" "$work/lenient.txt"; then
            echo "$file (Swift $mode): diagnostics differ from Foundation's (above: - Foundation, + LenientCodable)" >&2
            status=1
        else
            echo "$file (Swift $mode): $(wc -l < "$work/foundation.txt") diagnostics, the same as Foundation's"
        fi
    done
done
exit "$status"
