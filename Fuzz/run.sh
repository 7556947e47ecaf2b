#!/usr/bin/env bash
# Builds the wire module's libFuzzer target into Fuzz/bin/ and fuzzes it from the seed corpus.
#
#   Fuzz/run.sh [--runs N] [--seconds S]   fuzz (default: 60 seconds); exits non-zero on a crash
#   Fuzz/run.sh --replay                   run every file of Fuzz/corpus once
#
# New inputs go to a temporary directory, so Fuzz/corpus is never modified; crashing inputs
# are kept in Fuzz/artifacts/. Both Fuzz/bin/ and Fuzz/artifacts/ are ignored by git.
set -euo pipefail

cd "$(dirname "$0")/.."

runs=""
seconds=""
replay=false
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs="${2:?--runs needs a number}"; shift 2 ;;
        --seconds) seconds="${2:?--seconds needs a number}"; shift 2 ;;
        --replay) replay=true; shift ;;
        *) echo "usage: Fuzz/run.sh [--runs N] [--seconds S] | --replay" >&2; exit 2 ;;
    esac
done
if [ -z "$runs" ] && [ -z "$seconds" ]; then seconds=60; fi

mkdir -p Fuzz/bin Fuzz/artifacts
echo "building Fuzz/bin/fuzz-wire" >&2
build_log=$(mktemp)
trap 'rm -f "$build_log"' EXIT
# ld.gold warns "Cannot export local symbol" for every ASan helper; those lines are harmless.
if ! swiftc -parse-as-library -O -sanitize=fuzzer,address -module-name Wire \
    Sources/Wire/*.swift Fuzz/FuzzTarget.swift -o Fuzz/bin/fuzz-wire 2>"$build_log"; then
    grep -v 'Cannot export local symbol' "$build_log" >&2
    exit 1
fi
grep -v 'Cannot export local symbol' "$build_log" >&2 || true

if $replay; then
    exec Fuzz/bin/fuzz-wire -runs=0 Fuzz/corpus
fi

work=$(mktemp -d)
trap 'rm -f "$build_log"; rm -rf "$work"' EXIT
options=(-seed=1 -artifact_prefix=Fuzz/artifacts/ -timeout=10 -rss_limit_mb=2048)
[ -n "$runs" ] && options+=("-runs=$runs")
[ -n "$seconds" ] && options+=("-max_total_time=$seconds")
# The first directory receives new inputs; the seeds are only read.
Fuzz/bin/fuzz-wire "${options[@]}" "$work" Fuzz/corpus
