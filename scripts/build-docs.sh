#!/usr/bin/env bash
# Builds the DocC reference of the LenientCodable target with the toolchain's own `docc`, no
# plugin: symbol graphs from the compiler, then `docc convert` with warnings as errors.
#
#   bash scripts/build-docs.sh      # writes .build-docs/LenientCodable.doccarchive
#
# The build uses its own scratch path, because the symbol-graph flags would otherwise make the
# next ordinary `swift build` recompile the library.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build-docs
symbols="$scratch/symbol-graphs"
archive="$scratch/LenientCodable.doccarchive"
rm -rf "$symbols" "$archive"
mkdir -p "$symbols"

echo "Extracting symbol graphs..."
swift build --target LenientCodable --scratch-path "$scratch/build" \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$symbols" \
    -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public

# Keep the library's own graph and its extensions of other modules
# (LenientCodable@Foundation.symbols.json and so on); the dependencies' graphs are not ours.
find "$symbols" -name '*.symbols.json' ! -name 'LenientCodable.symbols.json' ! -name 'LenientCodable@*.symbols.json' -delete

echo "Converting the catalog..."
docc convert Sources/LenientCodable/LenientCodable.docc \
    --additional-symbol-graph-dir "$symbols" \
    --fallback-display-name LenientCodable \
    --fallback-bundle-identifier org.lenientcodable.LenientCodable \
    --output-path "$archive" \
    --warnings-as-errors

echo "Documentation built: $archive"
