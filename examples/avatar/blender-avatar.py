#!/usr/bin/python3
"""A Blender armature posed live by skelbridge's avatar mapping.

In Blender (2.80 or newer, nothing to install): open this file in the Text
Editor, set ARMATURE and RIG below, and press Run Script; then send the
avatar mapping to this machine's port 7140:

    skelbridge run --mapping avatar --target osc.udp://BLENDER_HOST:7140

The script listens on a non-blocking UDP socket read by a bpy.app.timers
function, with the OSC messages unpacked by hand (Blender's Python has no
OSC module). Running it again restarts the receiver; with STOP = True it
only stops the one running.

Where the avatar stands. skelbridge's camera frame is x to the image's
right, y up, z away from the sensor. In Blender a camera point (x, y, z)
is (x, z, y): the sensor stands at SENSOR (the world origin by default)
looking along +Y, with +X to its right and +Z up. The user faces the
sensor, so the avatar faces -Y, toward Blender's front view, with its left
at +X, as characters are made in Blender. Swapping two axes mirrors them,
and that is what it takes: the user at rest, left +x, up +y, facing -z,
and a Blender character, left +X, up +Z, facing -Y, are mirror images of
each other in numbers (left x up points forward in Blender, backward in
the camera frame). A rotation (w, x, y, z) of the camera frame is
therefore (w, -x, -z, -y) in Blender's.

How the bones turn. skelbridge sends, per joint, the rotation Q of the
bone that ends at it, from a T-pose facing the sensor, so the rig must
stand in a T-pose in its rest pose (Rigify's human metarig holds its arms
lower: raise them in Edit Mode, or pose them and Apply Pose as Rest Pose;
what is left shows as an offset). A bone's posed orientation in armature
space is then Q @ R, R being its rest orientation (bone.matrix_local); a
pose bone's rotation_quaternion is relative to its rest and to its
parent's pose, so it gets R^-1 @ P^-1 @ Q @ R, P being the parent's turn
from its own rest (for a bone whose parents are at rest: R^-1 @ Q @ R).
Q is brought into the armature's own space by the rig's rest: its left
(from the right upper arm to the left one), its up (from the hips to the
neck) and its back, each taken as the nearest armature axis; for a rig
made in Blender that is the axis swap above, and a Mixamo armature
imported with Y-up bones works the same. Bones not in BONES keep their
pose: the hips follow the body, the hands the forearms, the feet the
shins. With MOVE, the armature object moves so that the hips bone's head
is at the user's torso.

Checks, headless, with skelbridge sending to the port meanwhile
(skelbridge run --skeletons truth --mapping avatar --target
rig=osc.udp://127.0.0.1:7140):

    blender -b --factory-startup --python blender-avatar.py -- --test [--port 7140] [--frames 100]

builds two armatures of its own (one made in Blender, one as a Y-up
import), poses them from the messages and measures each bone's end
against the joint rebuilt from the quaternions as
examples/avatar/avatar-receiver.py does; exits 0 when all are within
1 mm. Outside Blender, the OSC and frame code loads as a module
(tests/e2e/test-avatar-blender.py).
"""
import json
import math
import socket
import struct
import sys
import time

# --- Settings -------------------------------------------------------------

PORT = 7140
ARMATURE = ""  # the armature object's name; "" for the active object or the first armature
RIG = "rigify"  # the bone names below: "rigify" or "mixamo"
USER = 0  # the user to follow: 0 for the first heard, kept until a second of silence
MOVE = True  # move the armature object with the user's torso
SENSOR = ""  # an object standing for the sensor (+Y into the room, +Z up), "" for the world origin
STOP = False  # True: stop the receiver that is running, and start none

# skelbridge's joint -> the bone that the bone ending at that joint turns.
# A joint left out, or a bone the armature lacks, is skipped. The hips
# (torso -> hip) have no bone of their own in these rigs.
RIGS = {
    # Rigify's human metarig (Add > Armature > Human), before Generate.
    "rigify": {
        "torso": "spine", "neck": "spine.001", "head": "spine.004",
        "left_shoulder": "shoulder.L", "right_shoulder": "shoulder.R",
        "left_elbow": "upper_arm.L", "right_elbow": "upper_arm.R",
        "left_hand": "forearm.L", "right_hand": "forearm.R",
        "left_knee": "thigh.L", "right_knee": "thigh.R",
        "left_foot": "shin.L", "right_foot": "shin.R",
    },
    # A Mixamo character imported from FBX.
    "mixamo": {
        "torso": "mixamorig:Hips", "neck": "mixamorig:Spine", "head": "mixamorig:Neck",
        "left_shoulder": "mixamorig:LeftShoulder", "right_shoulder": "mixamorig:RightShoulder",
        "left_elbow": "mixamorig:LeftArm", "right_elbow": "mixamorig:RightArm",
        "left_hand": "mixamorig:LeftForeArm", "right_hand": "mixamorig:RightForeArm",
        "left_knee": "mixamorig:LeftUpLeg", "right_knee": "mixamorig:RightUpLeg",
        "left_foot": "mixamorig:LeftLeg", "right_foot": "mixamorig:RightLeg",
    },
}
BONES = dict(RIGS[RIG])

# --- The messages ---------------------------------------------------------

# The order of the quaternions in /avatar/bones (mappings/README.md).
JOINTS = ("head neck torso left_shoulder right_shoulder left_elbow right_elbow "
          "left_hand right_hand left_hip right_hip left_knee right_knee left_foot "
          "right_foot").split()


def osc_string(data, i):
    """The NUL-ended string at i and where the next field starts."""
    end = data.index(b"\0", i)
    return data[i:end].decode("utf-8", "replace"), (end + 4) & ~3


def osc_messages(data):
    """Every (address, arguments) of an OSC packet, bundles opened. Raises
    ValueError or struct.error on a packet cut short."""
    if data.startswith(b"#bundle\0"):
        i = 16  # past the time tag
        while i < len(data):
            (size,) = struct.unpack_from(">i", data, i)
            if size < 0 or i + 4 + size > len(data):
                raise ValueError("a bundle element past the packet's end")
            yield from osc_messages(data[i + 4:i + 4 + size])
            i += 4 + size
        return
    address, i = osc_string(data, 0)
    tags, i = osc_string(data, i) if i < len(data) else (",", i)
    args = []
    for tag in tags[1:]:
        if tag in "if":
            args.append(struct.unpack_from(">" + tag, data, i)[0])
            i += 4
        elif tag in "dh":
            args.append(struct.unpack_from(">" + tag.replace("h", "q"), data, i)[0])
            i += 8
        elif tag == "s":
            value, i = osc_string(data, i)
            args.append(value)
        elif tag == "b":
            (size,) = struct.unpack_from(">i", data, i)
            args.append(data[i + 4:i + 4 + size])
            i += 4 + ((size + 3) & ~3)
        elif tag in "TFN":
            args.append({"T": True, "F": False, "N": None}[tag])
        else:
            return  # a type this does not know: the rest cannot be read
    yield address, args


class Avatar:
    """The latest /avatar/root and /avatar/bones of each user, and the user
    followed: USER, or the first one heard until a second of silence."""

    def __init__(self, user=0):
        self.user = user
        self.following = 0
        self.roots = {}  # id -> (x, y, z), metres, camera frame
        self.bones = {}  # id -> {joint: (w, x, y, z)}, camera frame
        self.heard = {}  # id -> when its last bones came
        self.fresh = False  # new bones since current() last said so

    def feed(self, data, now):
        """Takes one UDP datagram; a malformed one is dropped whole."""
        try:
            messages = list(osc_messages(data))
        except (ValueError, struct.error):
            return
        for address, args in messages:
            if address == "/avatar/root" and len(args) == 4:
                self.roots[args[0]] = tuple(args[1:4])
            elif address == "/avatar/bones" and len(args) == 1 + 4 * len(JOINTS):
                user = args[0]
                self.bones[user] = {name: tuple(args[1 + 4 * i:5 + 4 * i])
                                    for i, name in enumerate(JOINTS)}
                self.heard[user] = now
                self.fresh = self.fresh or user == self.chosen(now)

    def chosen(self, now):
        if self.user:
            return self.user
        if now - self.heard.get(self.following, -math.inf) > 1.0:
            alive = [u for u, t in self.heard.items() if now - t <= 1.0]
            self.following = min(alive) if alive else 0
        return self.following

    def current(self, now):
        """(root or None, bones) of the user followed, when new bones came
        since the last call; else None."""
        user = self.chosen(now)
        if not self.fresh or user not in self.bones:
            return None
        self.fresh = False
        return self.roots.get(user), self.bones[user]


# --- Frames and rotations (plain Python, (w, x, y, z) quaternions) ---------

# Where the camera's x, y and z go in Blender: (x, y, z) -> (x, z, y).
BLENDER = ((1.0, 0.0, 0.0), (0.0, 0.0, 1.0), (0.0, 1.0, 0.0))


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def unit(v):
    n = math.sqrt(dot(v, v))
    return tuple(c / n for c in v)


def point_into(frame, v):
    """A camera-frame vector in a frame whose images of the camera's x, y, z
    are frame[0], frame[1], frame[2] (orthonormal)."""
    return tuple(v[0] * frame[0][k] + v[1] * frame[1][k] + v[2] * frame[2][k] for k in range(3))


def quat_into(frame, q):
    """A camera-frame rotation in that frame: its axis goes where vectors
    go, and turns the other way when the frame is a mirror of the camera's."""
    sign = 1.0 if dot(cross(frame[0], frame[1]), frame[2]) > 0 else -1.0
    axis = point_into(frame, q[1:])
    return (q[0], sign * axis[0], sign * axis[1], sign * axis[2])


def rotate(q, v):
    """v turned by the unit quaternion q."""
    w, x, y, z = q
    t = (2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0]))
    return (v[0] + w * t[0] + y * t[2] - z * t[1],
            v[1] + w * t[1] + z * t[0] - x * t[2],
            v[2] + w * t[2] + x * t[1] - y * t[0])


def axis_of(v):
    """The armature axis nearest v, signed: (0, 0, 1) for a bone leaning up."""
    k = max(range(3), key=lambda i: abs(v[i]))
    return tuple(float(i == k) * math.copysign(1.0, v[k]) for i in range(3))


def rig_frame(left, up):
    """The camera frame's image in a rig's space, from the rig's rest left
    and up taken to the nearest axes (a spine leaning a little in its rest
    stays up): x is its left, y its up, z its back (minus left x up, a
    rig's forward being left x up in a right-handed space as Blender's)."""
    l, u = axis_of(left), axis_of(up)
    if dot(l, u) != 0.0:
        return BLENDER
    f = cross(l, u)
    return (l, u, (-f[0], -f[1], -f[2]))


# The bones of avatar-receiver.py's rig, for --test: joint -> (parent, rest
# direction in the camera frame, length in mm).
TEST_BONES = {
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


def rebuild(root, quats):
    """avatar-receiver.py's joints (camera frame, mm) from the torso (m)."""
    joints = {"torso": tuple(1000.0 * c for c in root)}
    for name, (parent, rest, length) in TEST_BONES.items():
        d = rotate(quats[name], unit(rest))
        joints[name] = tuple(p + length * c for p, c in zip(joints[parent], d))
    return joints


# --- Blender ---------------------------------------------------------------

try:
    import bpy
    from mathutils import Quaternion, Vector
except ImportError:
    bpy = None

KEY = "skelbridge_avatar"


class Rig:
    """An armature object posed from skelbridge's quaternions."""

    def __init__(self, obj, names):
        self.obj = obj
        bones = obj.data.bones
        self.names = {j: n for j, n in names.items() if n and n in bones}
        depth = {n: len(bones[n].parent_recursive) for n in self.names.values()}
        # Parents before children.
        self.order = sorted(self.names.items(), key=lambda item: depth[item[1]])
        self.rest = {b.name: b.matrix_local.to_quaternion() for b in bones}
        self.frame = BLENDER

        def head(joint):
            return bones[self.names[joint]].head_local if joint in self.names else None

        arms = [head(j) for j in ("left_elbow", "right_elbow")]
        if any(a is None for a in arms):
            arms = [head(j) for j in ("left_shoulder", "right_shoulder")]
        spine = [head("torso"), head("head") if "head" in self.names else head("neck")]
        if all(a is not None for a in arms + spine):
            self.frame = rig_frame(tuple(arms[0] - arms[1]), tuple(spine[1] - spine[0]))

    def pose(self, root, quats, sensor=None):
        pose, bones = self.obj.pose, self.obj.data.bones
        posed = {}  # bone -> its orientation in armature space this frame

        def orientation(bone):
            if bone.name not in posed:
                q = self.rest[bone.name] @ pose.bones[bone.name].matrix_basis.to_quaternion()
                if bone.parent:
                    parent = bone.parent
                    q = orientation(parent) @ self.rest[parent.name].inverted() @ q
                posed[bone.name] = q
            return posed[bone.name]

        for joint, name in self.order:
            bone, rest = bones[name], self.rest[name]
            target = Quaternion(quat_into(self.frame, quats[joint])) @ rest
            basis = rest.inverted() @ target
            if bone.parent:
                turn = orientation(bone.parent) @ self.rest[bone.parent.name].inverted()
                basis = rest.inverted() @ turn.inverted() @ target
            pb = pose.bones[name]
            if pb.rotation_mode != "QUATERNION":
                pb.rotation_mode = "QUATERNION"
            if basis.dot(pb.rotation_quaternion) < 0:
                basis.negate()  # the same turn, and keyframes between them stay short
            pb.rotation_quaternion = basis
            posed[name] = target
        if root is not None and MOVE and "torso" in self.names:
            # The hips bone's head onto the torso.
            at = Vector(point_into(BLENDER, root))
            if sensor is not None:
                at = sensor @ at
            world = self.obj.matrix_world.copy()
            hips = world @ bones[self.names["torso"]].head_local
            world.translation += at - hips
            self.obj.matrix_world = world


def find_armature():
    if ARMATURE:
        return bpy.data.objects.get(ARMATURE)
    active = bpy.context.view_layer.objects.active
    if active is not None and active.type == "ARMATURE":
        return active
    return next((o for o in bpy.context.scene.objects if o.type == "ARMATURE"), None)


class Receiver:
    """The UDP socket, the messages and the rig, polled by a timer."""

    def __init__(self, port, rigs):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("0.0.0.0", port))
        self.sock.setblocking(False)
        self.avatar = Avatar(USER)
        self.rigs = rigs
        self.posed = 0
        self.timer = self.poll  # one bound method, for the timers to know it

    def read(self):
        """Takes every datagram waiting; True when a frame was applied."""
        now = time.monotonic()
        while True:
            try:
                data = self.sock.recv(65536)
            except (BlockingIOError, InterruptedError):
                break
            self.avatar.feed(data, now)
        latest = self.avatar.current(now)
        if latest is None:
            return False
        sensor = None
        if SENSOR and SENSOR in bpy.data.objects:
            sensor = bpy.data.objects[SENSOR].matrix_world
        for rig in self.rigs:
            rig.pose(latest[0], latest[1], sensor)
        self.posed += 1
        return True

    def poll(self):
        if bpy.app.driver_namespace.get(KEY) is not self:
            return None  # replaced or stopped
        try:
            self.read()
        except ReferenceError:  # the armature was deleted
            self.stop()
            return None
        return 1.0 / 60.0

    def stop(self):
        if bpy.app.timers.is_registered(self.timer):
            bpy.app.timers.unregister(self.timer)
        self.sock.close()
        if bpy.app.driver_namespace.get(KEY) is self:
            del bpy.app.driver_namespace[KEY]


def start():
    old = bpy.app.driver_namespace.get(KEY)
    if old is not None:
        old.stop()
        print("skelbridge avatar: stopped")
    if STOP:
        return
    obj = find_armature()
    if obj is None or obj.type != "ARMATURE":
        raise RuntimeError("skelbridge avatar: no armature (set ARMATURE)")
    rig = Rig(obj, BONES)
    missing = sorted(set(BONES.values()) - set(rig.names.values()))
    receiver = Receiver(PORT, [rig])
    bpy.app.driver_namespace[KEY] = receiver
    bpy.app.timers.register(receiver.timer, first_interval=0.0, persistent=True)
    print(f"skelbridge avatar: {obj.name} follows /avatar/bones on UDP port {PORT}"
          + (f" (no bone {', '.join(missing)})" if missing else ""))


# --- The check: blender -b --python blender-avatar.py -- --test ------------

def make_test_rig(name, y_up):
    """avatar-receiver.py's rig with Rigify's names (and hip bones), each
    bone rolled differently so that every rest frame differs. y_up: built
    as a Y-up import is, 100 times larger, the object turned upright."""
    names = dict(RIGS["rigify"], left_hip="hip.L", right_hip="hip.R")
    frame = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, -1.0)) if y_up else BLENDER
    scale = 0.1 if y_up else 0.001  # metres per mm
    data = bpy.data.armatures.new(name)
    obj = bpy.data.objects.new(name, data)
    bpy.context.scene.collection.objects.link(obj)
    if y_up:
        obj.rotation_euler = (math.pi / 2, 0.0, 0.0)
        obj.scale = (0.01, 0.01, 0.01)
    bpy.context.view_layer.objects.active = obj
    bpy.ops.object.mode_set(mode="EDIT")
    joints = {"torso": Vector((0.0, 0.0, 0.0))}
    for k, (joint, (parent, rest, length)) in enumerate(TEST_BONES.items()):
        joints[joint] = joints[parent] + Vector(point_into(frame, unit(rest))) * length * scale
    bone = data.edit_bones.new(names["torso"])
    bone.head, bone.tail = joints["torso"], joints["torso"] + Vector(point_into(frame, (0, 0.1, 0)))
    for k, (joint, (parent, _, _)) in enumerate(TEST_BONES.items()):
        bone = data.edit_bones.new(names[joint])
        bone.head, bone.tail = joints[parent], joints[joint]
        bone.roll = 0.7 * k - 2.0
        bone.parent = data.edit_bones[names[parent]]
    bpy.ops.object.mode_set(mode="OBJECT")
    return Rig(obj, names)


def run_test(argv):
    port = int(argv[argv.index("--port") + 1]) if "--port" in argv else PORT
    frames = int(argv[argv.index("--frames") + 1]) if "--frames" in argv else 100
    global SENSOR, USER
    SENSOR, USER = "", 0
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj)
    rigs = [make_test_rig("skelbridge-test", False), make_test_rig("skelbridge-test-y-up", True)]
    receiver = Receiver(port, rigs)
    print(f"blender-avatar: waiting on UDP port {port}", flush=True)
    worst, checked, deadline = 0.0, 0, time.monotonic() + 60
    while checked < frames and time.monotonic() < deadline:
        time.sleep(0.005)
        if not receiver.read():
            continue
        user = receiver.avatar.chosen(time.monotonic())
        root, quats = receiver.avatar.roots.get(user), receiver.avatar.bones[user]
        if root is None:
            continue
        bpy.context.view_layer.update()
        want = {j: Vector(point_into(BLENDER, p)) / 1000.0 for j, p in rebuild(root, quats).items()}
        for rig in rigs:
            for joint in TEST_BONES:
                tail = rig.obj.matrix_world @ rig.obj.pose.bones[rig.names[joint]].tail
                worst = max(worst, (tail - want[joint]).length * 1000.0)
        checked += 1
        if checked == 1 or checked == frames:
            print(json.dumps({"frame": checked, "user": user, "joints": {
                j: [round(c, 4) for c in want[j]] for j in ("head", "left_hand", "right_foot")}}))
    print(f"blender-avatar: {checked} frames posed on {len(rigs)} armatures, worst bone end "
          f"{worst:.3f} mm from the rebuilt joint", flush=True)
    return 0 if checked >= frames and worst < 1.0 else 1


if bpy is not None and __name__ == "__main__":
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    if "--test" in argv:
        sys.exit(run_test(argv))
    start()
