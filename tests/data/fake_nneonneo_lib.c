/* A stand-in for nneonneo's 2048 library, written for plyground's tests.
 *
 * It has the two functions benchmarks/_versus_play.py calls: init_tables() and
 * find_best_move(board), on nneonneo's board (cell (r, c) in the 4 bits at 16r + 4c) and its
 * move numbers (0 up, 1 down, 2 left, 3 right). Its policy is plain: the first legal move of
 * left, up, right, down. It prints a line at each move, as the real one does, and answers 9
 * before init_tables() is called. FAKE_NNEONNEO_SLEEP_MS slows each move (to stop a game in
 * the middle); FAKE_NNEONNEO_BAD=1 makes it answer 5 (not a move).
 *
 *     cc -shared -fPIC -o libfake.so fake_nneonneo_lib.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int ready = 0;

void init_tables(void) { ready = 1; }

static unsigned cell(uint64_t board, int r, int c) { return (unsigned)(board >> (16 * r + 4 * c)) & 0xFu; }

/* Whether the line a[0..3] changes when its tiles slide toward a[0]. */
static int slides(const unsigned a[4]) {
    for (int i = 0; i < 3; i++) {
        if (a[i] != 0 && a[i] == a[i + 1]) return 1;
        if (a[i] == 0)
            for (int j = i + 1; j < 4; j++)
                if (a[j] != 0) return 1;
    }
    return 0;
}

static int legal(uint64_t board, int move) {
    for (int k = 0; k < 4; k++) {
        unsigned a[4];
        for (int i = 0; i < 4; i++) {
            switch (move) {
            case 0: a[i] = cell(board, i, k); break;     /* up: column k from the top */
            case 1: a[i] = cell(board, 3 - i, k); break; /* down */
            case 2: a[i] = cell(board, k, i); break;     /* left: row k from the left */
            default: a[i] = cell(board, k, 3 - i); break;
            }
        }
        if (slides(a)) return 1;
    }
    return 0;
}

int find_best_move(uint64_t board) {
    static const int order[4] = {2, 0, 3, 1};
    const char *sleep_ms = getenv("FAKE_NNEONNEO_SLEEP_MS");
    const char *bad = getenv("FAKE_NNEONNEO_BAD");
    printf("Move 0: result 1.0: eval'd 1 moves in 0.00 seconds\n");
    if (!ready) return 9;
    if (bad != NULL && bad[0] == '1') return 5;
    if (sleep_ms != NULL) {
        long ms = atol(sleep_ms);
        struct timespec pause = {ms / 1000, (ms % 1000) * 1000000L};
        nanosleep(&pause, NULL);
    }
    for (int i = 0; i < 4; i++)
        if (legal(board, order[i])) return order[i];
    return -1;
}
