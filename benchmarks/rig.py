"""Measure the simulated rig's parts in --fast mode: building it, a tumble, a capture.

    python3 benchmarks/rig.py --runs 10

Prints one Markdown table: medians over ``--runs`` repetitions (20 for captures) of wall
time and of this process's CPU time, the figure a busy machine distorts least.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from dicetray.firmware.config import TrayConfig
from dicetray.firmware.rig import build_rig


def timed(action: Callable[[], object], runs: int) -> tuple[float, float]:
    """Median wall and CPU milliseconds of ``action`` over ``runs`` runs."""
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        action()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls) * 1000, statistics.median(cpus) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    config = TrayConfig.defaults()
    build = timed(lambda: build_rig(config, simulate=True, fast=True, seed=1).close(), args.runs)
    rig = build_rig(config, simulate=True, fast=True, seed=1)
    start = rig.clock.now()
    rig.cup.tumble()
    simulated = rig.clock.now() - start
    tumble = timed(rig.cup.tumble, args.runs)
    capture = timed(rig.capture, 2 * args.runs)
    rig.close()
    size = "×".join(map(str, config.camera.size))
    print("| part | median wall ms | median CPU ms |\n| --- | ---: | ---: |")
    print(f"| build_rig(simulate, fast) and close | {build[0]:.1f} | {build[1]:.1f} |")
    print(f"| cup.tumble() ({simulated:.2f} s of simulated time) | {tumble[0]:.1f} | "
          f"{tumble[1]:.1f} |")
    print(f"| rig.capture() at {size} | {capture[0]:.1f} | {capture[1]:.1f} |")


if __name__ == "__main__":
    main()
