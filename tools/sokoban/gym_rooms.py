#!/usr/bin/env python3
"""Boxoban's generator (gym-sokoban 0.0.6, room_utils.generate_room) timed on one core:
writes COUNT rooms of SIZE x SIZE with BOXES boxes as an XSB collection and prints one JSON
line (rooms, seconds, rooms per minute). Only numpy and room_utils.py are needed: the module
is loaded from gym-sokoban's install without importing gym.

  python3 tools/sokoban/gym_rooms.py --size 10 --boxes 4 --count 100 --seed 1 --out gym4.xsb
"""
import argparse, glob, importlib.util, json, os, random, sys, time

import numpy as np


def room_utils():
    for base in sys.path:
        for path in glob.glob(os.path.join(base, "gym_sokoban", "envs", "room_utils.py")):
            spec = importlib.util.spec_from_file_location("room_utils", path)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            return mod
    sys.exit("gym-sokoban is not installed (pip install gym-sokoban==0.0.6 numpy)")


# Codes: 0 wall, 1 floor, 2 target, 3 box, 4 box on target, 5 player. generate_room returns
# every box as 4 (its last line sets 3 to 4): the targets are read from the room's structure.
def rows(structure, state):
    out = []
    for y in range(state.shape[0]):
        line = ""
        for x in range(state.shape[1]):
            s, goal = int(state[y, x]), int(structure[y, x]) == 2
            if s == 0:
                line += "#"
            elif s == 5:
                line += "+" if goal else "@"
            elif s in (3, 4):
                line += "*" if goal else "$"
            else:
                line += "." if goal else " "
        out.append(line)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=10)
    ap.add_argument("--boxes", type=int, default=4)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    ru = room_utils()
    random.seed(a.seed)
    np.random.seed(a.seed)
    dim = (a.size, a.size)
    steps = int(1.7 * (a.size + a.size))  # SokobanEnv's num_gen_steps default
    made, failed, levels = 0, 0, []
    began = time.process_time()
    wall = time.time()
    while made < a.count:
        try:
            structure, state, _ = ru.generate_room(dim=dim, num_steps=steps, num_boxes=a.boxes)
        except (RuntimeError, RuntimeWarning):
            failed += 1
            continue
        levels.append(rows(structure, state))
        made += 1
    cpu = time.process_time() - began
    with open(a.out, "w") as f:
        for i, r in enumerate(levels):
            f.write("; %d\n%s\n\n" % (i + 1, "\n".join(r)))
    print(json.dumps({"rooms": made, "failed": failed, "cpu_seconds": round(cpu, 3),
                      "wall_seconds": round(time.time() - wall, 3),
                      "rooms_per_minute": round(60 * made / cpu, 1) if cpu > 0 else None}))


if __name__ == "__main__":
    main()
