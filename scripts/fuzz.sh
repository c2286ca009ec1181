#!/usr/bin/env bash
# Builds the libFuzzer targets of Fuzz/ (with AddressSanitizer) and runs each for a given time.
#
#   scripts/fuzz.sh [seconds per target] [target ...]
#
# Seconds default to 60; targets default to all four: FuzzParse FuzzDecode FuzzRoundTrip FuzzDifferential.
# Targets run one at a time, at low priority (the machine is shared), with libFuzzer's limits:
# 2 GB of memory, 1 s per input. The growing corpus of each target lives in .fuzz/corpus/<target> (not in git); the
# seeds are Fuzz/Corpus and the test fixtures. A crashing input is written to .fuzz/artifacts/<target>/ and the
# script fails. Logs: .fuzz/logs/<target>.log; the last lines (exec/s, coverage, corpus size) are printed.
#
# Reproduce a crash: .build-fuzz/release/<target> <crash file>
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(FuzzParse FuzzDecode FuzzRoundTrip FuzzDifferential)
fi

# Swift's backtracer would otherwise catch the trap before libFuzzer reports it.
export SWIFT_BACKTRACE=enable=no
# Leaks inside Foundation itself (see the file) are not ours to report.
export LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan.supp ${LSAN_OPTIONS:-}"

for target in "${targets[@]}"; do
    nice -n 10 swift build -c release --package-path Fuzz --scratch-path .build-fuzz \
        --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address --product "$target" 2>&1 | grep -v "ld.gold: warning: Cannot export local symbol '__asan_extra_spill_area'"
done

status=0
for target in "${targets[@]}"; do
    mkdir -p ".fuzz/corpus/$target" ".fuzz/artifacts/$target" .fuzz/logs
    echo "=== $target for ${seconds}s"
    start=$(date +%s)
    if ! nice -n 10 ".build-fuzz/release/$target" \
        ".fuzz/corpus/$target" Fuzz/Corpus \
        Tests/LenientCodableTests/Fixtures/JSONTestSuite/test_parsing Tests/LenientCodableTests/Fixtures/Messy \
        -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=1 -max_len=16384 \
        -artifact_prefix=".fuzz/artifacts/$target/" -print_final_stats=1 \
        > ".fuzz/logs/$target.log" 2>&1; then
        echo "$target FAILED: see .fuzz/logs/$target.log and .fuzz/artifacts/$target/" >&2
        status=1
    fi
    grep -E "^#[0-9]+[[:space:]]+(DONE|INITED)|stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb" \
        ".fuzz/logs/$target.log" || true
    grep -E "ERROR: |Fuzz invariant broken|SUMMARY: " ".fuzz/logs/$target.log" | head -5 || true
    echo "$target: $(( $(date +%s) - start ))s"
done
exit "$status"
