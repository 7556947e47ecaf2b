#!/bin/sh
# Runs the headless Vim suite against a taskls binary, in a temporary HOME with temporary stores.
#   editors/vim/tests/run.sh [path/to/taskls]     (default: taskls on $PATH)
# TASKLS_TEST_FILTER=text runs the tests whose name contains it. Prints one line per test and
# the closing line `vim: N passed, N failed`; exits 1 when a test failed or Vim did not finish.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$(command -v taskls || true)}
[ -n "$bin" ] || { echo "usage: $0 path/to/taskls" >&2; exit 2; }
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/taskls-vim-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/home"
status=0
# Vim's input is a FIFO that never ends: a prompt or <Esc> waits (up to 'ttimeoutlen') instead of
# reading the end of input, which makes Vim exit.
mkfifo "$tmp/input"
exec 3<>"$tmp/input"
HOME=$tmp/home XDG_DATA_HOME=$tmp/home/.local/share XDG_CONFIG_HOME=$tmp/home/.config \
XDG_CACHE_HOME=$tmp/home/.cache XDG_STATE_HOME=$tmp/home/.local/state TASKLS_STORE= \
TASKLS_BIN=$bin TASKLS_TEST_TMP=$tmp TASKLS_TEST_FILTER=${TASKLS_TEST_FILTER:-} \
  timeout "${TASKLS_TEST_TIMEOUT:-600}" vim -Nu NONE -U NONE -i NONE --noplugin --not-a-term \
  -S "$here/run.vim" <&3 >"$tmp/screen" 2>&1 || status=$?
exec 3>&-
if [ -f "$tmp/results.txt" ]; then cat "$tmp/results.txt"; fi
if ! grep -q '^vim: [0-9]* passed, 0 failed$' "$tmp/results.txt" 2>/dev/null; then
  grep -q '^vim: [0-9]* passed' "$tmp/results.txt" 2>/dev/null || echo "vim: 0 passed, 1 failed (Vim exited with $status before the suite ended)"
  exit 1
fi
exit "$status"
