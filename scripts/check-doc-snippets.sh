#!/usr/bin/env bash
# Checks that every ```swift block of README.md and Docs/*.md compiles against the library.
#
#   bash scripts/check-doc-snippets.sh
#
# Each block becomes the main file of its own type-check, so it may mix declarations and
# top-level statements, and blocks may reuse names (every guide has its `Book`). A
# `#sourceLocation` line makes compiler errors point at the Markdown file and line.
#
# Every block sees `import Foundation`, `import LenientCodable` and a small support module
# (scripts/snippet-support.swift) that stands in for what a sample assumes from its app:
# `data` (a JSON document) and `logger`. A block's own declarations shadow them.
#
# A block that is deliberately partial (a single dictionary entry, a diff) is fenced as
# ```swift-fragment instead; it is shown as Swift but not compiled. Keep those rare.
set -euo pipefail
cd "$(dirname "$0")/.."

work=.build-snippets
rm -rf "$work"
mkdir -p "$work/snippets" "$work/support"

echo "Building the library..."
swift build --target LenientCodable 2>&1 | grep -E "error|warning: " || true
modules="$(swift build --show-bin-path)/Modules"
[[ -f "$modules/LenientCodable.swiftmodule" ]] || { echo "LenientCodable.swiftmodule not found in $modules" >&2; exit 1; }

swiftc -swift-version 6 -parse-as-library -module-name SnippetSupport -I "$modules" \
    -emit-module -emit-module-path "$work/support/SnippetSupport.swiftmodule" scripts/snippet-support.swift

# Extract the blocks: one file per block, named after its document and first line.
count=0
for doc in README.md Docs/*.md; do
    awk -v doc="$doc" -v dir="$work/snippets" '
        BEGIN { n = 0; inside = 0 }
        /^```swift[ \t]*$/ && !inside {
            inside = 1; n++
            name = doc; gsub(/[^A-Za-z0-9]/, "_", name)
            file = sprintf("%s/%s_%03d.swift", dir, name, n)
            print "import Foundation" > file
            print "import LenientCodable" >> file
            print "import SnippetSupport" >> file
            printf "#sourceLocation(file: \"%s\", line: %d)\n", doc, NR + 1 >> file
            next
        }
        /^```/ && inside { inside = 0; close(file); next }
        inside { print >> file }
    ' "$doc"
done
count=$(find "$work/snippets" -name '*.swift' | wc -l)
echo "Type-checking $count Swift blocks from README.md and Docs/*.md..."

# Two at a time: the machine is shared. Each check prints its errors; failures are counted.
find "$work/snippets" -name '*.swift' | sort | xargs -P 2 -I{} sh -c '
    if ! swiftc -typecheck -swift-version 6 -I "$1" -I "$2" "$3" > "$3.log" 2>&1; then
        cat "$3.log"; echo "FAILED: $3" ; exit 1
    fi
    if grep -q "warning:" "$3.log"; then cat "$3.log"; echo "WARNINGS: $3"; exit 1; fi
' _ "$modules" "$work/support" {} && status=0 || status=$?

if [[ $status -ne 0 ]]; then
    echo "Some Swift blocks do not compile (see above); fence deliberate fragments as swift-fragment." >&2
    exit 1
fi
echo "All $count Swift blocks compile."
