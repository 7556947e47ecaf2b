#!/bin/sh
# Runs the headless Neovim suite against a taskls binary.
#   editors/nvim/tests/run.sh [path/to/taskls]     (default: taskls on $PATH)
# $TASKLS_NVIM picks the Neovim (default: nvim on $PATH), e.g. TASKLS_NVIM=.build-nvim/venv/bin/nvim for 0.11.
# Uses a temporary HOME and store; TASKLS_TEST_FILTER=text runs the tests whose name contains it.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$(command -v taskls || true)}
[ -n "$bin" ] || { echo "usage: $0 path/to/taskls" >&2; exit 2; }
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/taskls-nvim-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/home"
HOME=$tmp/home XDG_DATA_HOME=$tmp/home/.local/share XDG_CONFIG_HOME=$tmp/home/.config XDG_CACHE_HOME=$tmp/home/.cache \
XDG_STATE_HOME=$tmp/home/.local/state TASKLS_BIN=$bin TASKLS_TEST_TMP=$tmp \
  timeout 300 "${TASKLS_NVIM:-nvim}" --headless -u NONE -i NONE -c "luafile $here/tests/run.lua" </dev/null
