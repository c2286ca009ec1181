#!/usr/bin/env bash
# Builds the DocC reference of the LenientCodable target with the toolchain's own `docc`, no
# plugin: symbol graphs from the compiler, then `docc convert` with warnings as errors.
#
#   bash scripts/build-docs.sh      # writes .build-docs/LenientCodable.doccarchive
#
# The build uses its own scratch path, because the symbol-graph flags would otherwise make the
# next ordinary `swift build` recompile the library. After the conversion, two checks that docc
# does not make: every public symbol declared in Sources has a `///` comment, and the landing
# page curates every public type.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build-docs
symbols="$scratch/symbol-graphs"
archive="$scratch/LenientCodable.doccarchive"
rm -rf "$archive"
# The compiler writes the graphs only when it compiles the module: without them, build afresh.
if [[ ! -f "$symbols/LenientCodable.symbols.json" ]]; then rm -rf "$scratch/build"; fi
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

# Every symbol declared in our sources (the ones with a source location; the compiler's
# synthesized members have none) must have a doc comment.
undocumented=$(jq -r '.symbols[] | select(.location != null and .docComment == null) | (.pathComponents | join("."))' "$symbols"/*.symbols.json | sort -u)
if [[ -n "$undocumented" ]]; then
    echo "Public symbols without a /// comment:" >&2
    echo "$undocumented" >&2
    exit 1
fi

# Every top-level public type appears in a topic group of the landing page.
landing=Sources/LenientCodable/LenientCodable.docc/LenientCodable.md
missing=""
for name in $(jq -r '.symbols[] | select((.pathComponents | length) == 1 and (.kind.identifier | test("class|struct|enum|protocol|typealias"))) | .pathComponents[0]' "$symbols/LenientCodable.symbols.json" | sort -u); do
    grep -q "\`\`$name\`\`" "$landing" || missing="$missing $name"
done
if [[ -n "$missing" ]]; then
    echo "Public types missing from the topic groups of $landing:$missing" >&2
    exit 1
fi

echo "Documentation built with no warnings, every public symbol documented: $archive"
