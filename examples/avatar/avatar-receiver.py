#!/usr/bin/python3
"""A character rig driven by skelbridge's avatar mapping, headless.

Listens for /avatar/root and /avatar/bones (skelbridge run --mapping avatar),
poses a rig of its own (bone lengths of a 1.75 m adult) from the bones'
quaternions and prints each user's joints, one JSON line per message:

    ./avatar-receiver.py [--port 7140]

Each bone's rotation turns its rest direction (a T-pose facing the sensor,
mappings/README.md "Bone orientations") onto where it points; a joint is
its parent plus the bone's length along that direction, from the torso
(/avatar/root). Blender, Unity and TouchDesigner do the same with their
own rig's bones: bone rotation = q * rest rotation.

With --check, it also takes the default mapping's /skel/skeleton on the
same port (send both there: --target default=URL --target rig=URL, the
default mapping first) and measures each rebuilt joint against the
position skelbridge sent, taking the bone lengths from those positions;
it exits 0 once --frames messages were within 10 mm, 1 otherwise.
Needs python3-liblo (Debian's package).
"""
import argparse
import json
import math
import sys

try:
    import liblo
except ImportError:
    sys.exit("avatar-receiver: needs pyliblo: apt-get install python3-liblo")

JOINTS = ("head neck torso left_shoulder right_shoulder left_elbow right_elbow "
          "left_hand right_hand left_hip right_hip left_knee right_knee left_foot "
          "right_foot").split()
# joint: (parent, rest direction, length in mm of a 1.75 m adult)
BONES = {
    "neck": ("torso", (0, 1, 0), 300),
    "head": ("neck", (0, 1, 0), 200),
    "left_shoulder": ("neck", (1, 0, 0), 175),
    "right_shoulder": ("neck", (-1, 0, 0), 175),
    "left_elbow": ("left_shoulder", (1, 0, 0), 300),
    "right_elbow": ("right_shoulder", (-1, 0, 0), 300),
    "left_hand": ("left_elbow", (1, 0, 0), 330),
    "right_hand": ("right_elbow", (-1, 0, 0), 330),
    "left_hip": ("torso", (0.29, -0.957, 0), 260),
    "right_hip": ("torso", (-0.29, -0.957, 0), 260),
    "left_knee": ("left_hip", (0, -1, 0), 430),
    "right_knee": ("right_hip", (0, -1, 0), 430),
    "left_foot": ("left_knee", (0, -1, 0), 430),
    "right_foot": ("right_knee", (0, -1, 0), 430),
}
# Parents before children.
ORDER = ["neck", "head", "left_shoulder", "right_shoulder", "left_elbow",
         "right_elbow", "left_hand", "right_hand", "left_hip", "right_hip",
         "left_knee", "right_knee", "left_foot", "right_foot"]


def rotate(q, v):
    """v turned by the unit quaternion q = (w, x, y, z)."""
    w, x, y, z = q
    # t = 2 (q x v); v' = v + w t + q x t
    t = (2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0]))
    return (v[0] + w * t[0] + y * t[2] - z * t[1],
            v[1] + w * t[1] + z * t[0] - x * t[2],
            v[2] + w * t[2] + x * t[1] - y * t[0])


def unit(v):
    n = math.sqrt(sum(c * c for c in v))
    return tuple(c / n for c in v)


def pose(root, quats, lengths):
    """Every joint (mm, camera space) from the torso and the bones' rotations."""
    joints = {"torso": root}
    for name in ORDER:
        parent, rest, _ = BONES[name]
        d = rotate(quats[name], unit(rest))
        joints[name] = tuple(p + lengths[name] * c for p, c in zip(joints[parent], d))
    return joints


class Receiver:
    def __init__(self, args):
        self.args = args
        self.roots = {}
        self.skeletons = {}
        self.checked = 0
        self.worst = 0.0
        self.failed = 0

    def on_root(self, path, argv):
        self.roots[argv[0]] = tuple(1000.0 * c for c in argv[1:4])

    def on_skeleton(self, path, argv):
        # The default mapping: metres as in a mirror (x negated).
        xyz = argv[1:]
        self.skeletons[argv[0]] = {
            name: (-1000.0 * xyz[3 * i], 1000.0 * xyz[3 * i + 1], 1000.0 * xyz[3 * i + 2])
            for i, name in enumerate(JOINTS)}

    def on_bones(self, path, argv):
        user, values = argv[0], argv[1:]
        quats = {name: tuple(values[4 * i:4 * i + 4]) for i, name in enumerate(JOINTS)}
        if self.args.check:
            self.check(user, quats)
        elif user in self.roots:
            lengths = {name: BONES[name][2] for name in BONES}
            joints = pose(self.roots[user], quats, lengths)
            print(json.dumps({"user": user, "joints": {
                name: [round(c / 1000.0, 4) for c in p] for name, p in joints.items()}}),
                flush=True)

    def check(self, user, quats):
        truth = self.skeletons.get(user)
        if truth is None:
            return
        worst = 0.0
        for name in ORDER:
            parent, rest, _ = BONES[name]
            length = math.dist(truth[parent], truth[name])
            d = rotate(quats[name], unit(rest))
            built = tuple(p + length * c for p, c in zip(truth[parent], d))
            worst = max(worst, math.dist(built, truth[name]))
        self.checked += 1
        self.worst = max(self.worst, worst)
        self.failed += worst >= 10.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=7140)
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--frames", type=int, default=100)
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args()
    receiver = Receiver(args)
    server = liblo.Server(args.port)
    server.add_method("/avatar/root", "ifff", receiver.on_root)
    server.add_method("/avatar/bones", "i" + "f" * 60, receiver.on_bones)
    server.add_method("/skel/skeleton", "i" + "f" * 45, receiver.on_skeleton)
    waited = 0.0
    while not args.check or receiver.checked < args.frames:
        if server.recv(100) is False:
            waited += 0.1
            if args.check and waited > args.timeout:
                break
    if args.check:
        print(f"avatar-receiver: {receiver.checked} frames rebuilt, worst joint "
              f"{receiver.worst:.2f} mm from what skelbridge sent, {receiver.failed} "
              f"frames at 10 mm or more")
        sys.exit(0 if receiver.checked >= args.frames and receiver.failed == 0 else 1)


if __name__ == "__main__":
    main()
