"""The shard codec on real layers: bits per state of each encoding, and codes encoded and decoded per second.

Solves a board size (or reuses the solution in ``--directory``), then, for each measured age, gives
the bits per state of the layer's codes as raw ``uint64`` (64), as the Elias-Fano arrays of the
``.ef.npy`` files (``plyground.g2048.solution.compact_codes``; the file's 128-byte ``.npy`` header not
counted), as the codec's varint stream before compression, and as the codec's bytes at each zstd
``--levels`` (and in zstd's long mode, a 128 MiB window, at ``--long-levels``); the values, when
the size was solved, at f64 and f32, as the codec stores them (plain) and byte-shuffled (byte 0 of
every value first, ...); and the speed of ``encode_codes`` and ``decode_codes`` at the default
level, and of ``varints`` (the stream alone), in codes per second on one thread: the best of
``--repeats`` runs, by CPU time (``time.process_time``: on a busy machine, the time this process ran)
and by wall time. The ``all ages`` row adds up every layer of the solution.

    python benchmarks/shard_codec.py [--rows 2 --cols 4] [--max-age N] [--ages A ...] [--directory DIR]

``--max-age N`` runs only the forward pass, to age N (no values): ``--rows 4 --cols 3 --max-age 100``
lists 48 million states of 4x3. The paper's 4x3 afterstate codes take 2.08 bytes (16.6 bits) each.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import zstandard
from rich.console import Console
from rich.table import Table

from plyground.core.measurements import add_record_options, print_json
from plyground.g2048.shards.codec import DEFAULT_LEVEL, Precision, decode_codes, encode_codes, encode_values, varints
from plyground.g2048.solution import Solution, compact_codes
from plyground.g2048.solver import solve

PAPER_BITS_4X3 = 8 * 1.4 * 2**40 / 7.4e11
"""The paper stores its 7.4e11 4x3 afterstate codes in 1.4 TiB."""
LAYERED_4X4_BITS = 1.5
"""Reported for a layered 4x4 solver storing its states with delta + varint + zstd."""
LONG_WINDOW_LOG = 27


def timed(repeats: int, work: Callable[[], object]) -> tuple[float, float]:
    """The best CPU time and the best wall time of ``repeats`` runs of ``work``, in seconds."""
    cpu, wall = [], []
    for _ in range(repeats):
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        work()
        cpu.append(time.process_time() - start_cpu)
        wall.append(time.perf_counter() - start_wall)
    return min(cpu), min(wall)


def compressor(level: int, long: bool = False) -> zstandard.ZstdCompressor:
    if not long:
        return zstandard.ZstdCompressor(level=level)
    parameters = zstandard.ZstdCompressionParameters.from_level(level, enable_ldm=True, window_log=LONG_WINDOW_LOG)
    return zstandard.ZstdCompressor(compression_params=parameters)


def zstd_bits(data: Any, n: int, level: int) -> float:
    return 8 * len(compressor(level).compress(data)) / n


def zstd_level(stream: np.ndarray[Any, Any], n: int, level: int, long: bool) -> dict[str, float]:
    """The codec's bits per state with the stream compressed at ``level`` (its 32-byte header included), and
    the CPU seconds of one compression and of the best of three decompressions."""
    start = time.process_time()
    frame = compressor(level, long).compress(stream.data)
    compress_s = time.process_time() - start
    decompressor = zstandard.ZstdDecompressor(max_window_size=2**LONG_WINDOW_LOG)
    decompress_s, _ = timed(3, lambda: decompressor.decompress(frame))
    return {"bits": 8 * (len(frame) + 32) / n, "compress_cpu_s": compress_s, "decompress_cpu_s": decompress_s}


def value_bits(values: np.ndarray[Any, Any], level: int) -> dict[str, float]:
    """Bits per value as the codec stores them (plain), and byte-shuffled, at f64 and f32."""
    out = {}
    precisions: tuple[tuple[Precision, str], ...] = (("f64", "<f8"), ("f32", "<f4"))
    for precision, dtype in precisions:
        stored = np.ascontiguousarray(values, dtype=dtype)
        out[precision] = 8 * len(encode_values(values, precision=precision, level=level)) / values.size
        shuffled = np.ascontiguousarray(stored.view(np.uint8).reshape(-1, stored.itemsize).T)
        out[f"{precision}_shuffled"] = zstd_bits(shuffled.data, values.size, level)
    return out


def measure(
    codes: np.ndarray[Any, Any],
    values: np.ndarray[Any, Any] | None,
    rows: int,
    cols: int,
    age: int,
    options: argparse.Namespace,
) -> dict[str, Any]:
    n = int(codes.size)
    base, stream = varints(codes, rows, cols, age)
    data = encode_codes(codes, rows, cols, age)
    assert np.array_equal(decode_codes(data, rows, cols, age), codes)
    row: dict[str, Any] = {
        "age": age,
        "states": n,
        "base": base,
        "elias_fano": 64 * compact_codes(codes, rows, cols).size / n,
        "varints": 8 * stream.size / n,
        "levels": {str(level): zstd_level(stream, n, level, False) for level in options.levels},
        "long": {str(level): zstd_level(stream, n, level, True) for level in options.long_levels},
        "codec": 8 * len(data) / n,
    }
    timings = {
        "encode": timed(options.repeats, lambda: encode_codes(codes, rows, cols, age)),
        "decode": timed(options.repeats, lambda: decode_codes(data, rows, cols, age)),
        "varints": timed(options.repeats, lambda: varints(codes, rows, cols, age)),
    }
    for name, (cpu, wall) in timings.items():
        row[f"{name}_cpu_s"], row[f"{name}_wall_s"] = cpu, wall
    if values is not None:
        row["values"] = value_bits(values, DEFAULT_LEVEL)
    return row


def totals(solution: Solution, rows: int, cols: int) -> dict[str, Any]:
    """Bits per state over every layer of the solution: Elias-Fano and the codec at the default level."""
    states = elias_fano = codec = values = 0
    for counts in solution.counts():
        codes, layer_values = solution.layer(counts.age)
        if codes.size == 0:
            continue
        states += codes.size
        elias_fano += 64 * compact_codes(codes, rows, cols).size
        codec += 8 * len(encode_codes(codes, rows, cols, counts.age))
        if layer_values is not None:
            values += 8 * len(encode_values(layer_values))
    return {
        "states": states,
        "elias_fano": elias_fano / states,
        "codec": codec / states,
        "values_f64": values / states if values else None,
    }


def default_ages(solution: Solution, count: int) -> list[int]:
    """The ``count`` ages with the most states, in order."""
    largest = sorted(solution.counts(), key=lambda c: (-c.states, c.age))[:count]
    return sorted(c.age for c in largest)


def rate(n: int, seconds: float) -> str:
    return f"{n / seconds / 1e6:.1f}" if seconds > 0 else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=2)
    parser.add_argument("--cols", type=int, default=4)
    parser.add_argument("--max-age", type=int, help="only the forward pass, to this age (no values)")
    parser.add_argument("--ages", type=int, nargs="+", help="the ages measured (default: the 4 largest layers)")
    parser.add_argument("--levels", type=int, nargs="+", default=[1, 3, 6, 9, 19], help="zstd levels tried")
    parser.add_argument("--long-levels", type=int, nargs="*", default=[3, 19], help="zstd levels tried in long mode")
    parser.add_argument("--repeats", type=int, default=5, help="runs of each timing, the best kept")
    parser.add_argument("--directory", type=Path, help="solve in this folder and keep it (a solution there is reused)")
    add_record_options(parser, Path(__file__), folder="results")
    args = parser.parse_args()

    folder = args.directory or Path(tempfile.mkdtemp(prefix="plyground-shard-codec-")) / "solution"
    start = time.perf_counter()
    forward = args.max_age is not None
    solution = solve(args.rows, args.cols, directory=folder, forward_only=forward, max_age=args.max_age)
    solve_s = time.perf_counter() - start
    rows, cols = args.rows, args.cols
    ages = args.ages or default_ages(solution, 4)
    warm, _ = solution.layer(ages[0])
    decode_codes(encode_codes(warm[:10], rows, cols, ages[0]), rows, cols, ages[0])  # loads the kernels

    measured = []
    for age in ages:
        codes, values = solution.layer(age)
        if codes.size:
            measured.append(measure(codes, values, rows, cols, age, args))
    if not measured:
        raise SystemExit(f"error: no state of {rows}x{cols} has any of the ages {ages}")
    everything = totals(solution, rows, cols)

    title = f"Shard codec on {rows}x{cols} layers, bits per state (one thread; rates in M codes/s, CPU time / wall)"
    table = Table(title=title)
    columns = ["age", "states", "B", "raw", "Elias-Fano", "varints"]
    columns += [f"zstd {level}" for level in args.levels] + [f"long {level}" for level in args.long_levels]
    columns += ["encode", "decode", "varints only"]
    if any("values" in row for row in measured):
        columns += ["f64 plain / shuf.", "f32 plain / shuf."]
    for name in columns:
        table.add_column(name, justify="right")
    for row in measured:
        n = row["states"]
        cells = [str(row["age"]), f"{n:,}", str(row["base"]), "64", f"{row['elias_fano']:.2f}", f"{row['varints']:.2f}"]
        cells += [f"{level['bits']:.3f}" for level in [*row["levels"].values(), *row["long"].values()]]
        for name in ("encode", "decode", "varints"):
            cells.append(f"{rate(n, row[f'{name}_cpu_s'])} / {rate(n, row[f'{name}_wall_s'])}")
        if "values" in row:
            v = row["values"]
            cells += [f"{v['f64']:.1f} / {v['f64_shuffled']:.1f}", f"{v['f32']:.1f} / {v['f32_shuffled']:.1f}"]
        table.add_row(*cells)
    console = Console(width=240)
    console.print(table)
    values_line = f", values at f64 {everything['values_f64']:.2f}" if everything["values_f64"] else ""
    console.print(
        f"all ages: {everything['states']:,} states; Elias-Fano {everything['elias_fano']:.2f} bits a state, "
        f"the codec at level {DEFAULT_LEVEL} {everything['codec']:.3f}{values_line}"
    )
    console.print(
        f"anchors: the paper's 4x3 afterstate codes {PAPER_BITS_4X3:.1f} bits each (2.08 bytes); "
        f"a layered 4x4 solver with delta + varint + zstd about {LAYERED_4X4_BITS} bits a state"
    )
    n_all = sum(row["states"] for row in measured)
    levels = Table(title="zstd over the varint streams of the measured ages (CPU time, one thread)")
    for name in ("level", "bits a state", "compress M codes/s", "decompress M codes/s"):
        levels.add_column(name, justify="right")
    level_rows = {}
    for kind, label in (("levels", ""), ("long", "long ")):
        for level in measured[0][kind]:
            parts = [row[kind][level] for row in measured]
            summary = {
                "bits": sum(part["bits"] * row["states"] for part, row in zip(parts, measured, strict=True)) / n_all,
                "compress_per_s": n_all / sum(part["compress_cpu_s"] for part in parts),
                "decompress_per_s": n_all / sum(part["decompress_cpu_s"] for part in parts),
            }
            level_rows[f"{label}{level}"] = summary
            levels.add_row(
                f"{label}{level}",
                f"{summary['bits']:.3f}",
                f"{summary['compress_per_s'] / 1e6:.1f}",
                f"{summary['decompress_per_s'] / 1e6:.1f}",
            )
    console.print(levels)
    speeds = {
        f"{name}_per_s": {
            "cpu": n_all / sum(row[f"{name}_cpu_s"] for row in measured),
            "wall": n_all / sum(row[f"{name}_wall_s"] for row in measured),
        }
        for name in ("encode", "decode", "varints")
    }
    console.print(
        "over the measured ages, M codes/s (CPU / wall): "
        + ", ".join(f"{key[:-6]} {v['cpu'] / 1e6:.1f} / {v['wall'] / 1e6:.1f}" for key, v in speeds.items())
    )
    results = {
        "rows": rows,
        "cols": cols,
        "max_age": args.max_age,
        "solve_s": solve_s,
        "default_level": DEFAULT_LEVEL,
        "layers": measured,
        "all_ages": everything,
        "median_codec_bits": statistics.median(row["codec"] for row in measured),
        "zstd_levels": level_rows,
        **speeds,
    }
    print_json("shard_codec", results, args)


if __name__ == "__main__":
    main()
