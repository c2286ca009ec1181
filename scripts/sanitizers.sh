#!/usr/bin/env bash
# Runs the test suite under AddressSanitizer and ThreadSanitizer, each in its own scratch path.
#
#   scripts/sanitizers.sh                  # both, the whole suite
#   scripts/sanitizers.sh thread           # one sanitizer
#   scripts/sanitizers.sh thread Concurrency   # one sanitizer, tests filtered (swift test --filter)
#
# .ci/run runs the ThreadSanitizer pass on ConcurrencyTests only; run this script for the full passes (see
# Fuzz/README.md for their durations).
set -euo pipefail
cd "$(dirname "$0")/.."

sanitizers=("${1:-address}")
if [ $# -eq 0 ]; then sanitizers=(address thread); fi
filter=("${@:2}")

# Let the sanitizer, not Swift's backtracer, report a failure.
export SWIFT_BACKTRACE=enable=no
export TSAN_OPTIONS="halt_on_error=1 ${TSAN_OPTIONS:-}"
# The decoder's stack guard compares the address of a local with the thread's stack; AddressSanitizer's fake
# stacks (which detect use after return) move locals to a heap of their own, where the guard cannot see how deep
# the real stack is, and the tests that decode deep documents on small threads would overflow it.
export ASAN_OPTIONS="detect_leaks=0 detect_stack_use_after_return=0 ${ASAN_OPTIONS:-}"

for sanitizer in "${sanitizers[@]}"; do
    case "$sanitizer" in
        address) scratch=.build-asan ;;
        thread) scratch=.build-tsan ;;
        *) echo "unknown sanitizer $sanitizer (address or thread)" >&2; exit 2 ;;
    esac
    echo "=== swift test --sanitize=$sanitizer ${filter[*]:+--filter ${filter[*]}}"
    start=$(date +%s)
    nice -n 10 swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch"
    if [ ${#filter[@]} -gt 0 ]; then
        nice -n 10 swift test --skip-build --sanitize="$sanitizer" --scratch-path "$scratch" --filter "${filter[@]}"
    else
        nice -n 10 swift test --skip-build --sanitize="$sanitizer" --scratch-path "$scratch"
    fi
    echo "=== $sanitizer: $(( $(date +%s) - start ))s"
done
