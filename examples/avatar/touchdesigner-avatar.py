# skelbridge's avatar mapping in TouchDesigner: the text of an OSC In DAT's
# Callbacks DAT.
#
#   skelbridge run --mapping avatar --target osc.udp://TD_HOST:7140
#
# 1. An OSC In DAT: Port 7140, Split Bundle into Messages on (skelbridge
#    sends each user's two messages in one bundle).
# 2. Its Callbacks DAT holds this text.
# 3. A stick figure: next to them, one Geometry COMP per joint of BONES
#    below, named after it (neck, head, left_shoulder, ... right_foot),
#    plus one named torso, side by side (none inside another), each holding its bone modelled from the COMP's
#    origin along the bone's rest direction in TouchDesigner's frame (the
#    left upper arm, left_elbow, along +x: a Box SOP of size 0.3 0.05 0.05
#    centred at 0.15 0 0), Rotate Order Rx Ry Rz (the default).
#
# Frames. skelbridge's camera frame is x to the image's right, y up, z away
# from the sensor; TouchDesigner's is right-handed, y up, z toward the
# viewer. With the sensor at TouchDesigner's origin looking along -z, as its
# default camera does, a camera point (x, y, z) is (x, y, -z) here: the user
# stands in front of the camera, facing it (+z), their left at +x, as a
# character made in TouchDesigner faces. Negating one axis mirrors the frame,
# which is what it takes (the camera frame is the other handedness), so a
# rotation (w, x, y, z) becomes (w, -x, -y, z).
#
# Each COMP turns by its joint's rotation from the rest pose (a T-pose
# facing the sensor) and stands at the end of its parent bone, the joints
# rebuilt from the torso with a 1.75 m adult's bone lengths as
# examples/avatar/avatar-receiver.py does. For a skinned character (an FBX
# COMP in a T-pose) see joint_rotation() at the end.

import math
import time

# The order of /avatar/bones (mappings/README.md).
JOINTS = ("head neck torso left_shoulder right_shoulder left_elbow right_elbow "
          "left_hand right_hand left_hip right_hip left_knee right_knee left_foot "
          "right_foot").split()
# joint: (parent, rest direction in TouchDesigner's frame, length in metres)
BONES = {
    "neck": ("torso", (0, 1, 0), 0.30),
    "head": ("neck", (0, 1, 0), 0.20),
    "left_shoulder": ("neck", (1, 0, 0), 0.175),
    "right_shoulder": ("neck", (-1, 0, 0), 0.175),
    "left_elbow": ("left_shoulder", (1, 0, 0), 0.30),
    "right_elbow": ("right_shoulder", (-1, 0, 0), 0.30),
    "left_hand": ("left_elbow", (1, 0, 0), 0.33),
    "right_hand": ("right_elbow", (-1, 0, 0), 0.33),
    "left_hip": ("torso", (0.29, -0.957, 0), 0.26),
    "right_hip": ("torso", (-0.29, -0.957, 0), 0.26),
    "left_knee": ("left_hip", (0, -1, 0), 0.43),
    "right_knee": ("right_hip", (0, -1, 0), 0.43),
    "left_foot": ("left_knee", (0, -1, 0), 0.43),
    "right_foot": ("right_knee", (0, -1, 0), 0.43),
}
USER = 0  # the user to follow; 0 for the first heard, kept until a second of silence
roots = {}  # user -> torso (x, y, z) in TouchDesigner's frame
heard = {}  # user -> when their bones last came
following = 0


def to_td(q):
    """A camera-frame rotation (w, x, y, z) in TouchDesigner's frame."""
    return (q[0], -q[1], -q[2], q[3])


def rotate(q, v):
    """v turned by the unit quaternion q = (w, x, y, z)."""
    w, x, y, z = q
    t = (2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0]))
    return (v[0] + w * t[0] + y * t[2] - z * t[1],
            v[1] + w * t[1] + z * t[0] - x * t[2],
            v[2] + w * t[2] + x * t[1] - y * t[0])


def euler_xyz(q):
    """Degrees (rx, ry, rz) for Rotate Order Rx Ry Rz: R = Rz Ry Rx."""
    w, x, y, z = q
    r00, r10 = 1 - 2 * (y * y + z * z), 2 * (x * y + w * z)
    r20 = 2 * (x * z - w * y)
    r21, r22 = 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)
    return (math.degrees(math.atan2(r21, r22)),
            math.degrees(math.asin(max(-1.0, min(1.0, -r20)))),
            math.degrees(math.atan2(r10, r00)))


def place(name, position, q):
    comp = op(name)
    if comp is None:
        return
    comp.par.tx, comp.par.ty, comp.par.tz = position
    comp.par.rx, comp.par.ry, comp.par.rz = euler_xyz(q)


def pose(user, values):
    quats = {name: to_td(values[4 * i:4 * i + 4]) for i, name in enumerate(JOINTS)}
    joints = {"torso": roots.get(user, (0.0, 0.0, 0.0))}
    place("torso", joints["torso"], quats["torso"])
    for name, (parent, rest, length) in BONES.items():  # parents first
        place(name, joints[parent], quats[name])
        d = rotate(quats[name], rest)
        n = math.sqrt(sum(c * c for c in rest))
        joints[name] = tuple(p + length * c / n for p, c in zip(joints[parent], d))
    return joints


def onReceiveOSC(dat, rowIndex, message, bytes, timeStamp, address, args, peer):
    global following
    if address == "/avatar/root" and len(args) == 4:
        x, y, z = args[1:4]
        roots[args[0]] = (x, y, -z)
    elif address == "/avatar/bones" and len(args) == 61:
        user, now = args[0], time.monotonic()
        heard[user] = now
        if USER:
            following = USER
        elif now - heard.get(following, -math.inf) > 1.0:
            following = user  # the one followed is gone: whoever comes now
        if user == following:
            pose(user, [float(a) for a in args[1:]])
    return


# A skinned character: give each of its joint COMPs (the bone that ends at
# skelbridge's joint, as in examples/avatar/blender-avatar.py's RIGS) a
# local rotation of euler_xyz(joint_rotation(...)), with rest_world and
# parent_rest_world its and its parent's world rotations in the T-pose
# (e.g. tdu.Quaternion(comp.worldTransform) read once, as (w, x, y, z)) and
# q_parent the rotation of the nearest driven parent (identity for the
# first). The world rotation of a bone is then to_td(q) times its rest.
def multiply(a, b):
    return (a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
            a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
            a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
            a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0])


def inverse(q):
    return (q[0], -q[1], -q[2], -q[3])


def joint_rotation(q, q_parent, rest_world, parent_rest_world):
    """The local rotation that turns a joint to q (TouchDesigner's frame)
    under a parent turned to q_parent: (q_parent R_parent)^-1 q R."""
    return multiply(inverse(multiply(q_parent, parent_rest_world)), multiply(q, rest_world))
