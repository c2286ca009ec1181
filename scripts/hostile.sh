#!/usr/bin/env bash
# Hostile input at full size, in a release build (the unit tests run the same cases at debug-friendly sizes).
# Each case runs at three sizes, 10x apart where memory allows, one process each under /usr/bin/time -v:
# the seconds printed cover parsing and decoding only (not building the input); "peak" is the process's peak RSS.
# Linear growth shows as time growing by the same factor as the size. Fails if any outcome is unexpected or a
# process needs 2 GB or more.
#
#   scripts/hostile.sh            # every case
#   scripts/hostile.sh keys key   # some cases
set -euo pipefail
cd "$(dirname "$0")/.."

nice -n 10 swift build -c release --package-path Fuzz --scratch-path .build-hostile --product Hostile
binary=.build-hostile/release/Hostile

declare -A sizes=(
    [whitespace]="10000000 100000000 1000000000"
    [document]="1000000 10000000 100000000"
    [nesting]="2000 20000 200000"
    [digits]="1000 10000 100000"
    [key]="100000 1000000 10000000"
    [keys]="10000 100000 1000000"
    [string]="1000000 10000000 100000000"
    [truncation]="9973 997 97"
    [strings]="6 12 18"
    [hookstack]="2048 4096 8192"
    [hooked]="50000 500000 5000000"
    [unhooked]="50000 500000 5000000"
    [polymorphic]="50000 500000 5000000"
    [paths]="3000 30000 300000"
    [reportpaths]="3000 30000 300000"
)
cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
    cases=(whitespace document nesting digits key keys string truncation strings hookstack hooked unhooked polymorphic paths reportpaths)
fi

status=0
for name in "${cases[@]}"; do
    for size in ${sizes[$name]}; do
        log=$(mktemp)
        if ! /usr/bin/time -v nice -n 10 "$binary" "$name" "$size" 2> "$log"; then
            status=1
        fi
        peak_kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$log")
        printf '  peak %d MB\n' $(( peak_kb / 1024 ))
        if [ "$peak_kb" -ge $(( 2048 * 1024 )) ]; then
            echo "  $name $size: peak memory of 2 GB or more" >&2
            status=1
        fi
        rm -f "$log"
    done
done
exit "$status"
