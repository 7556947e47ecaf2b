#!/usr/bin/env bash
# Soaks the durable store: ITERATIONS rounds (default 1000) on one store, each running a server under
# pipelined random mutations and killing it with SIGKILL at a random moment; after each kill
# `taskls store check` must find the store healthy, and the next round's reopen must find every
# acknowledged mutation (and nothing that was never sent). Not run in CI.
#
#   scripts/soak-store.sh [ITERATIONS]
#
# Environment: TASKLS, the binary (default: `swift build --product taskls`, then its path);
# SOAK_SEED, the first round's seed (default: random; round i uses SOAK_SEED + i, printed on failure);
# SOAK_MAX_KILL_MS, the latest kill after a round's reopen (default 400); SOAK_DIR, where the store goes
# (default: a new temporary directory, removed on success and kept on failure).
# The driver is scripts/soak-store-driver.py (Python 3, standard library only).
set -euo pipefail

cd "$(dirname "$0")/.."

iterations="${1:-1000}"
case "$iterations" in
    ''|*[!0-9]*) echo "usage: scripts/soak-store.sh [ITERATIONS]" >&2; exit 2 ;;
esac
seed="${SOAK_SEED:-$(( (RANDOM << 15) | RANDOM ))}"
max_kill_ms="${SOAK_MAX_KILL_MS:-400}"

taskls="${TASKLS:-}"
if [ -z "$taskls" ]; then
    swift build --product taskls >&2
    taskls="$(swift build --show-bin-path)/taskls"
fi
[ -x "$taskls" ] || { echo "soak-store: $taskls is not an executable" >&2; exit 2; }

work="${SOAK_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/taskls-soak-XXXXXX")}"
mkdir -p "$work"
store="$work/store"
expect="$work/expected.json"
driver="scripts/soak-store-driver.py"
# A round that hangs is a failure too: every round is bounded.
limit=""
if command -v timeout >/dev/null; then limit="timeout --kill-after=10 300"; fi

fail() {
    echo "soak-store: FAILED in round $1 (seed $2): $3" >&2
    echo "soak-store: the store is kept in $work (server stderr: $store.stderr)" >&2
    exit 1
}

echo "soak-store: $iterations rounds, seeds $seed.., store $store" >&2
for ((round = 1; round <= iterations; round++)); do
    round_seed=$((seed + round))
    if ! summary=$($limit python3 "$driver" round --taskls "$taskls" --store "$store" --expect "$expect" \
                       --seed "$round_seed" --max-kill-ms "$max_kill_ms"); then
        fail "$round" "$round_seed" "the reopen did not find what was acknowledged (see above)"
    fi
    if ! report=$($limit "$taskls" store check "$store"); then
        echo "$report" >&2
        fail "$round" "$round_seed" "taskls store check after the kill"
    fi
    if (( round % 50 == 0 || round == iterations )); then
        echo "soak-store: round $round: $summary; ${report##*$'\n'}" >&2
    fi
done
if ! summary=$($limit python3 "$driver" verify --taskls "$taskls" --store "$store" --expect "$expect"); then
    fail "$iterations" "$seed" "the final reopen did not find what was acknowledged (see above)"
fi
echo "soak-store: passed $iterations rounds; $summary" >&2
if [ -z "${SOAK_DIR:-}" ]; then rm -rf "$work"; fi
