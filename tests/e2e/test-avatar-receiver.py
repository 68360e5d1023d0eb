#!/usr/bin/python3
"""The avatar mapping into a real receiver: examples/avatar/avatar-receiver.py
(python3-liblo) rebuilds every joint of the demo routine's true skeletons
from the bones' quaternions, and each lands within 10 mm of the position
skelbridge sends in the default mapping the same frame."""
import importlib.util
import os
import subprocess
import sys
import time

import liblo

ROOT = os.environ["SKELBRIDGE_SOURCE_ROOT"]
spec = importlib.util.spec_from_file_location(
    "avatar_receiver", os.path.join(ROOT, "examples", "avatar", "avatar-receiver.py"))
avatar = importlib.util.module_from_spec(spec)
spec.loader.exec_module(avatar)


class Args:
    check = True
    frames = 150


def main():
    receiver = avatar.Receiver(Args())
    server = liblo.Server()  # a free port
    server.add_method("/avatar/root", "ifff", receiver.on_root)
    server.add_method("/avatar/bones", "i" + "f" * 60, receiver.on_bones)
    server.add_method("/skel/skeleton", "i" + "f" * 45, receiver.on_skeleton)
    url = f"osc.udp://127.0.0.1:{server.port}"
    # The default mapping first: its skeleton reaches the receiver before
    # the same frame's bones.
    bridge = subprocess.Popen(
        [os.environ["SKELBRIDGE"], "run", "--skeletons", "truth", "--mapping", "default",
         "--mapping", "avatar", "--target", f"default={url}", "--target", f"rig={url}"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    try:
        while receiver.checked < Args.frames and time.monotonic() < deadline:
            server.recv(100)
    finally:
        bridge.terminate()
        _, err = bridge.communicate(timeout=30)
    print(f"# {receiver.checked} frames rebuilt, worst joint {receiver.worst:.3f} mm, "
          f"{receiver.failed} frames at 10 mm or more")
    ok = receiver.checked >= Args.frames and receiver.failed == 0
    if not ok:
        sys.stdout.write("# skelbridge said:\n" + "".join(
            "#   " + line + "\n" for line in err.decode(errors="replace").splitlines()))
    print("1..1")
    print(("ok" if ok else "not ok") + " 1 /avatar/receiver-rebuilds-joints")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
