#!/usr/bin/env bash
# Build PentaZen 0.4.x (https://github.com/sun-yuliang/PentaZen), a Gomocup brain, for Linux.
#
#     benchmarks/opponents/build_pentazen.sh SOURCE DEST
#
# SOURCE is a git clone of PentaZen, a bare mirror of it, or its URL; DEST a folder outside
# this repository (PentaZen is GPL code: it is built there, never copied here). The brain is
# DEST/pbrain-pentazen; play it with benchmarks/gomoku.py:
#
#     python benchmarks/gomoku.py DEST/pbrain-pentazen plyground:engine --time-ms 1000
#
# What it does (upstream builds with mingw on Windows; on Linux the sources compile as they are,
# with the one fix of step 3):
#   1. clones SOURCE into DEST/source (its HEAD; set PENTAZEN_COMMIT to build another commit);
#   2. builds the pattern generator of src/pattern twice, with TARGET_RULE = FREESTYLE and then
#      STANDARD (a constexpr in src/pattern/type.h, edited in the clone), and writes its output
#      to src/pattern_15f.h and src/pattern_15s.h (the tables of five-or-more and exactly-five);
#   3. makes its MESSAGE lines print the search depth as a number, and compiles src/*.cpp with
#      g++ -O3 -DNDEBUG -std=c++17 -pthread (CXX and EXTRA_CXXFLAGS override the compiler and add
#      flags, e.g. EXTRA_CXXFLAGS=-march=native);
#   4. checks that the brain answers START 15 and BEGIN.
#
# The brain plays 15x15 only (START 20 is "ERROR unsupported size"); INFO rule 0, 1 and 4
# (free-style, exactly five, renju); it searches on ONE thread unless told INFO THREAD_NUM n;
# it takes min(timeout_turn, (time_left - 10 s) / 6) - 50 ms per move (at least 50 ms) and
# stops when any command arrives while it thinks; a 256 MB hash (INFO hash_size KB changes it).
# At the end of its input without END it loops on its last command: always send END (gomoku.py does,
# and kills a brain that has not exited a few seconds later).
set -euo pipefail

if [[ $# -ne 2 ]]; then
    echo "usage: $0 SOURCE DEST   (SOURCE: a PentaZen clone, mirror or URL; DEST: a build folder)" >&2
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
    "$here"/*) echo "error: build PentaZen outside this repository, not in $dest" >&2; exit 2 ;;
esac

rm -rf "$dest/source"
git clone --quiet "$source_repo" "$dest/source"
if [[ -n "${PENTAZEN_COMMIT:-}" ]]; then
    git -C "$dest/source" checkout --quiet "$PENTAZEN_COMMIT"
fi
src=$dest/source/src
echo "PentaZen at $(git -C "$dest/source" rev-parse HEAD)"

# 2. The pattern tables, one per rule.
pattern_type=$src/pattern/type.h
grep -q '^constexpr Rule TARGET_RULE *= FREESTYLE;' "$pattern_type" ||
    { echo "error: $pattern_type does not set TARGET_RULE = FREESTYLE as expected" >&2; exit 1; }
for rule in FREESTYLE STANDARD; do
    sed -i.orig "s/^constexpr Rule TARGET_RULE *= *[A-Z]*;/constexpr Rule TARGET_RULE    = $rule;/" "$pattern_type"
    grep -q "^constexpr Rule TARGET_RULE *= $rule;" "$pattern_type"
    "$cxx" -O2 -std=c++17 -o "$dest/pattern-$rule" "$src/pattern/line.cpp" "$src/pattern/main.cpp"
    suffix=$([[ $rule == FREESTYLE ]] && echo f || echo s)
    "$dest/pattern-$rule" >"$src/pattern_15$suffix.h"
    mv "$pattern_type.orig" "$pattern_type"
done

# 3. The brain. One fix first: its MESSAGE line prints the search depth, an int8_t enum, as a
#    character, so that depth 10 or 13 writes a line break in the middle of the message and the rest
#    of it reaches the manager as a line that is not a move. The depth is printed as a number.
search_cpp=$src/search.cpp
sed -i 's/<< " dep " << rem.depth << "-" << std::max(rem.depth, plyMax);/<< " dep " << int(rem.depth) << "-" << int(std::max(rem.depth, plyMax));/' "$search_cpp"
grep -q '<< " dep " << int(rem.depth)' "$search_cpp" ||
    { echo "error: cannot fix the depth output of $search_cpp (not the expected source)" >&2; exit 1; }
"$cxx" -O3 -DNDEBUG -std=c++17 -pthread "${extra[@]}" -o "$dest/pbrain-pentazen" "$src"/*.cpp

# 4. It answers.
# END is sent after the answer: at the end of its input PentaZen repeats its last command forever.
answer=$( (printf 'START 15\nINFO timeout_turn 200\nBEGIN\n'; sleep 5; printf 'END\n') |
    timeout 60 "$dest/pbrain-pentazen" | tr -d '\r\0' | head -n 20 || true)
grep -qx 'OK' <<<"$answer" && grep -qE '^[0-9]+,[0-9]+$' <<<"$answer" ||
    { echo "error: the brain did not answer START 15 and BEGIN: $answer" >&2; exit 1; }
echo "built $dest/pbrain-pentazen"
