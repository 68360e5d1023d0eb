#!/usr/bin/python3
"""The avatar mapping into examples/avatar/blender-avatar.py, without
Blender: its OSC reader takes skelbridge's packets as they come over UDP,
and every joint of the demo routine's true skeletons, rebuilt in Blender's
frame from the bones' quaternions brought into that frame, lands within
10 mm of the position skelbridge sends in the default mapping the same
frame, brought into Blender's frame too. The user's left is Blender's +X
and they face -Y. (The script's posing of an armature needs Blender:
blender -b --python blender-avatar.py -- --test.)"""
import importlib.util
import math
import os
import socket
import subprocess
import sys
import time

ROOT = os.environ["SKELBRIDGE_SOURCE_ROOT"]
spec = importlib.util.spec_from_file_location(
    "blender_avatar", os.path.join(ROOT, "examples", "avatar", "blender-avatar.py"))
avatar = importlib.util.module_from_spec(spec)
spec.loader.exec_module(avatar)

FRAMES = 150


def main():
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 0))
    sock.settimeout(0.1)
    url = f"osc.udp://127.0.0.1:{sock.getsockname()[1]}"
    # The default mapping first: its skeleton reaches us before the same
    # frame's bones.
    bridge = subprocess.Popen(
        [os.environ["SKELBRIDGE"], "run", "--skeletons", "truth", "--mapping", "default",
         "--mapping", "avatar", "--target", f"default={url}", "--target", f"rig={url}"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    receiver = avatar.Avatar()
    to_blender = avatar.BLENDER
    truth = {}
    checked = failed = 0
    worst = 0.0
    sides = True
    deadline = time.monotonic() + 60
    try:
        while checked < FRAMES and time.monotonic() < deadline:
            try:
                data = sock.recv(65536)
            except socket.timeout:
                continue
            for address, args in avatar.osc_messages(data):
                if address == "/skel/skeleton":
                    # Metres as in a mirror (x negated), into Blender's frame.
                    truth[args[0]] = {
                        name: avatar.point_into(to_blender, (-1000.0 * args[1 + 3 * i],
                                                             1000.0 * args[2 + 3 * i],
                                                             1000.0 * args[3 + 3 * i]))
                        for i, name in enumerate(avatar.JOINTS)}
            receiver.feed(data, time.monotonic())
            latest = receiver.current(time.monotonic())
            user = receiver.chosen(time.monotonic())
            if latest is None or user not in truth:
                continue
            joints, frame_worst = truth[user], 0.0
            for name, (parent, rest, _) in avatar.TEST_BONES.items():
                q = avatar.quat_into(to_blender, latest[1][name])
                d = avatar.rotate(q, avatar.point_into(to_blender, avatar.unit(rest)))
                length = math.dist(joints[parent], joints[name])
                built = tuple(p + length * c for p, c in zip(joints[parent], d))
                frame_worst = max(frame_worst, math.dist(built, joints[name]))
            # The avatar faces -Y at rest: the body's turn takes -Y to where
            # the true body faces, left x up in a right-handed frame.
            body = avatar.quat_into(to_blender, latest[1]["torso"])
            facing = avatar.rotate(body, (0.0, -1.0, 0.0))
            across = tuple(a - b for a, b in zip(joints["left_shoulder"], joints["right_shoulder"]))
            up = tuple(a - b for a, b in zip(joints["neck"], joints["torso"]))
            sides = sides and avatar.dot(avatar.cross(across, up), facing) > 0
            checked += 1
            worst = max(worst, frame_worst)
            failed += frame_worst >= 10.0
    finally:
        bridge.terminate()
        _, err = bridge.communicate(timeout=30)
    print(f"# {checked} frames rebuilt in Blender's frame, worst joint {worst:.3f} mm, "
          f"{failed} frames at 10 mm or more; body facing along left x up: {sides}")
    ok = checked >= FRAMES and failed == 0 and sides
    if not ok:
        sys.stdout.write("# skelbridge said:\n" + "".join(
            "#   " + line + "\n" for line in err.decode(errors="replace").splitlines()))
    print("1..1")
    print(("ok" if ok else "not ok") + " 1 /avatar/blender-frame-rebuilds-joints")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
