#!/usr/bin/env bash
# Build nneonneo/2048-ai (https://github.com/nneonneo/2048-ai), the best-known 2048 expectimax
# player, as its command-line program, for benchmarks/versus_nneonneo.py.
#
#     benchmarks/opponents/build_nneonneo.sh SOURCE DEST
#
# SOURCE is a git clone of 2048-ai, a bare mirror of it, or its URL; DEST a folder outside this
# repository (2048-ai is MIT-licensed code of its own project: it is built there, never copied
# here). It makes DEST/lib2048-ai.so, its library, and DEST/2048-ai, its command-line player; play
# it against plyground with
#
#     python benchmarks/versus_nneonneo.py --nneonneo DEST/lib2048-ai.so   # games resume when stopped
#     python benchmarks/versus_nneonneo.py --nneonneo DEST/2048-ai          # its own games, lost when stopped
#
# What it does:
#   1. clones SOURCE into DEST/source (its HEAD; set NNEONNEO_COMMIT to build another commit);
#   2. compiles its 2048.cpp with g++ -O3 -march=native -std=c++11, as the player and as a shared
#      library (-shared -fPIC) (the repository's own config.h, as committed, chooses the random
#      number generator; CXX and EXTRA_CXXFLAGS override the compiler and add flags);
#   3. checks that the player plays (it prints "Move #1" and the four root moves' search times)
#      and that the library's find_best_move gives a move (with python3's ctypes).
#
# The program plays one game on one thread, from a random start (its generator is seeded by the
# clock), prints the board, the score and each root move's search time ("in 0.05 seconds") before
# every move, and "Game over. Your score is N. The highest rank you achieved was R." at the end.
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
if [[ -n "${NNEONNEO_COMMIT:-}" ]]; then
    git -C "$dest/source" checkout --quiet "$NNEONNEO_COMMIT"
fi
echo "2048-ai at $(git -C "$dest/source" rev-parse HEAD)"
[[ -f "$dest/source/2048.cpp" && -f "$dest/source/config.h" ]] ||
    { echo "error: $dest/source has no 2048.cpp and config.h: not the expected source" >&2; exit 1; }

# 2. The player and the library.
(cd "$dest/source" && "$cxx" -O3 -march=native -std=c++11 "${extra[@]}" -o "$dest/2048-ai" 2048.cpp)
(cd "$dest/source" && "$cxx" -O3 -march=native -std=c++11 -shared -fPIC "${extra[@]}" -o "$dest/lib2048-ai.so" 2048.cpp)

# 3. It plays: the first move's search, then stopped.
first=$(timeout 60 "$dest/2048-ai" | head -n 40 || true)
grep -q '^Move #1, current score=' <<<"$first" && grep -qE 'in [0-9.]+ seconds' <<<"$first" ||
    { echo "error: $dest/2048-ai did not start a game as expected: $first" >&2; exit 1; }

# 4. The library gives a move on a board with a 2 and a 4 (its search prints to /dev/null).
python3 - "$dest/lib2048-ai.so" >/dev/null <<'EOF' ||
import ctypes, sys
library = ctypes.CDLL(sys.argv[1])
library.find_best_move.argtypes, library.find_best_move.restype = [ctypes.c_uint64], ctypes.c_int
library.init_tables()
sys.exit(0 if library.find_best_move(0x0000_0000_0000_0021) in range(4) else 1)
EOF
    { echo "error: $dest/lib2048-ai.so did not give a move as expected" >&2; exit 1; }
echo "built $dest/2048-ai and $dest/lib2048-ai.so"
