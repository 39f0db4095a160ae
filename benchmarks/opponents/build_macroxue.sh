#!/usr/bin/env bash
# Build macroxue/2048-ai (https://github.com/macroxue/2048-ai), expectimax with exact endgame
# lookup tables, as its program with the small tables, for benchmarks/conversion.py.
#
#     benchmarks/opponents/build_macroxue.sh SOURCE DEST
#
# SOURCE is a git clone of 2048-ai, a bare mirror of it, or its URL; DEST a folder outside this
# repository (2048-ai is GPL-licensed code of its own project: it is built there, never copied
# here). It makes DEST/2048, its program; play it from saved positions with
#
#     python benchmarks/conversion.py --arms search macroxue --macroxue DEST/2048 --macroxue-depth 3
#
# What it does:
#   1. clones SOURCE into DEST/source (its HEAD; set MACROXUE_COMMIT to build another commit);
#   2. compiles 2048.cc and board.cc as its makefile does (g++ -std=c++0x -pthread -O3; CXX and
#      EXTRA_CXXFLAGS override the compiler and add flags) into DEST/2048;
#   3. plays one game at depth 1 in DEST, which on a first run computes its two tables and saves
#      them there (tuple_moves.10a and .11a, about 3 GB; 5 GB of memory; minutes), and checks that
#      the game ends with a score.
set -euo pipefail

if [[ $# -ne 2 ]]; then
    echo "usage: $0 SOURCE DEST   (SOURCE: a 2048-ai clone, mirror or URL; DEST: a build folder)" >&2
    exit 2
fi
source_repo=$1
dest=$2
cxx=${CXX:-g++}
read -r -a extra <<<"${EXTRA_CXXFLAGS:-}"

command -v git >/dev/null || { echo "error: git is needed" >&2; exit 2; }
command -v "$cxx" >/dev/null || { echo "error: no C++ compiler $cxx (set CXX)" >&2; exit 2; }
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
case "$dest/" in
    "$here"/*) echo "error: build 2048-ai outside this repository, not in $dest" >&2; exit 2 ;;
esac

# 1. The source.
rm -rf "$dest/source"
git clone --quiet "$source_repo" "$dest/source"
if [[ -n "${MACROXUE_COMMIT:-}" ]]; then
    git -C "$dest/source" checkout --quiet "$MACROXUE_COMMIT"
fi
echo "2048-ai at $(git -C "$dest/source" rev-parse HEAD)"
[[ -f "$dest/source/2048.cc" && -f "$dest/source/board.cc" && -f "$dest/source/tuple.h" ]] ||
    { echo "error: $dest/source has no 2048.cc, board.cc and tuple.h: not the expected source" >&2; exit 1; }

# 2. The program.
(cd "$dest/source" && "$cxx" -std=c++0x -pthread -O3 "${extra[@]}" -o "$dest/2048" 2048.cc board.cc)

# 3. Its tables (computed on the first run only) and one game at depth 1.
echo "computing or loading its tables in $dest (minutes on a first run) ..."
out=$(cd "$dest" && "$dest/2048" -d1 -i1 1 2>&1 | tr '\r' '\n' | tail -n 40)
grep -qiE 'score' <<<"$out" ||
    { echo "error: $dest/2048 did not play a game as expected: $(tail -n 3 <<<"$out")" >&2; exit 1; }
echo "built $dest/2048 (its tables in $dest)"
