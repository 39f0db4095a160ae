#!/usr/bin/env bash
# Build Rapfi (https://github.com/dhbloo/rapfi), a Gomocup brain, for Linux, with its classical evaluation.
#
#     benchmarks/opponents/build_rapfi.sh SOURCE DEST
#
# SOURCE is a git clone of Rapfi, a bare mirror of it, or its URL; DEST a folder outside this
# repository (Rapfi is GPL code: it is built there, never copied here). The brain is
# DEST/pbrain-rapfi; play it with benchmarks/gomoku.py:
#
#     python benchmarks/gomoku.py DEST/pbrain-rapfi plyground:engine --time-ms 1000
#
# What it does:
#   1. clones SOURCE into DEST/source (its HEAD; set RAPFI_COMMIT to build another commit);
#   2. configures Rapfi/ with CMake (Release, NO_COMMAND_MODULES=ON: the Gomocup brain only, no
#      self-play or training commands) and builds it on JOBS cores (default 2), a few minutes;
#   3. checks that the brain answers START 15 and BEGIN.
#
# Without a config.toml in its working folder or beside the binary, Rapfi plays with the
# configuration compiled into it: its classical (pattern) evaluation. Its NNUE networks live in the
# Networks submodule (github.com/dhbloo/rapfi-networks), which this script does not fetch; with
# them, put their config.toml beside DEST/pbrain-rapfi. The brain searches on ONE thread unless told
# INFO THREAD_NUM n (or a config sets default_thread_num); it keeps 30 ms of each turn's time for
# the pipe (turn_time_reserved); INFO max_memory sets its hash (0: 350 MB).
set -euo pipefail

if [[ $# -ne 2 ]]; then
    echo "usage: $0 SOURCE DEST   (SOURCE: a Rapfi clone, mirror or URL; DEST: a build folder)" >&2
    exit 2
fi
source_repo=$1
dest=$2
jobs=${JOBS:-2}

for tool in git cmake; do
    command -v "$tool" >/dev/null || { echo "error: $tool is needed" >&2; exit 2; }
done
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
case "$dest/" in
    "$here"/*) echo "error: build Rapfi outside this repository, not in $dest" >&2; exit 2 ;;
esac

rm -rf "$dest/source" "$dest/build"
git clone --quiet "$source_repo" "$dest/source"
if [[ -n "${RAPFI_COMMIT:-}" ]]; then
    git -C "$dest/source" checkout --quiet "$RAPFI_COMMIT"
fi
echo "Rapfi at $(git -C "$dest/source" rev-parse HEAD)"

cmake -S "$dest/source/Rapfi" -B "$dest/build" -DCMAKE_BUILD_TYPE=Release -DNO_COMMAND_MODULES=ON >/dev/null
cmake --build "$dest/build" -j "$jobs"
cp "$dest/build/pbrain-rapfi" "$dest/pbrain-rapfi"

answer=$( (printf 'START 15\nINFO timeout_turn 200\nBEGIN\n'; sleep 5; printf 'END\n') |
    (cd "$dest/build" && timeout 60 "$dest/pbrain-rapfi") | tr -d '\r\0' | head -n 20 || true)
grep -qx 'OK' <<<"$answer" && grep -qE '^[0-9]+,[0-9]+$' <<<"$answer" ||
    { echo "error: the brain did not answer START 15 and BEGIN: $answer" >&2; exit 1; }
echo "built $dest/pbrain-rapfi"
