#!/usr/bin/env bash
# Checks the allocation counts (mallocCountTotal) of the ordo-one suites, built in release, against
# the thresholds recorded for the current toolchain in Benchmarks/Thresholds/<major.minor>/. Fails
# when a benchmark allocates more than its threshold allows; passes, with a note to re-record, when
# benchmarks only allocate less. Times are not checked: a shared machine cannot keep them.
# Run from anywhere: `bash Benchmarks/scripts/check-allocations.sh`; `--record` records the
# thresholds again instead (after an improvement, or for a new toolchain).
set -euo pipefail
cd "$(dirname "$0")/../.."

version=$(swift --version 2>/dev/null | sed -nE 's/.*Swift version ([0-9]+\.[0-9]+).*/\1/p' | head -n 1)
thresholds="Benchmarks/Thresholds/$version"
benchmark=(swift package --package-path Benchmarks --scratch-path .build-bench)
options=(--metric mallocCountTotal --path "$thresholds" --benchmark-build-configuration release --no-progress)

if [[ "${1:-}" == "--record" ]]; then
    mkdir -p "$thresholds"
    "${benchmark[@]}" --allow-writing-to-package-directory benchmark thresholds update "${options[@]}"
    exit 0
fi

if [[ -z "$version" || ! -d "$thresholds" ]]; then
    echo "No allocation thresholds for Swift ${version:-?} in $thresholds; skipping the check." >&2
    echo "Record them with: bash Benchmarks/scripts/check-allocations.sh --record" >&2
    exit 0
fi

# `swift package` exits with 1 both when the counts rose and when they only fell; the plugin's
# error line tells the two apart.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
"${benchmark[@]}" benchmark thresholds check "${options[@]}" 2>&1 | tee "$log" || status=$?
if [[ $status -eq 0 ]]; then
    exit 0
elif grep -q "error: benchmarkThresholdImprovement" "$log" && ! grep -q "error: benchmarkThresholdRegression" "$log"; then
    echo
    echo "Allocation counts fell below the thresholds (no regression). Record the new counts with:"
    echo "  bash Benchmarks/scripts/check-allocations.sh --record"
    exit 0
else
    echo
    echo "Allocation check failed (exit status $status): a benchmark allocates more than its threshold allows." >&2
    exit 1
fi
