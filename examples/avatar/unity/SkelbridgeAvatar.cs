// SkelbridgeAvatar: a Unity Humanoid posed live by skelbridge's avatar
// mapping (skelbridge run --mapping avatar --target osc.udp://UNITY_HOST:7140).
//
// Needs OscJack (Keijiro Takahashi's, package jp.keijiro.osc-jack from the
// Keijiro scoped registry). Put this component on the character's root,
// the GameObject with the Animator whose Avatar is Humanoid, with the
// character standing in a T-pose when the scene starts: each bone's
// rotation then is taken as its rest. Give the Animator no controller, or
// know that this component overrides it in LateUpdate.
//
// Frames. skelbridge's camera frame is x to the image's right, y up, z
// away from the sensor, and Unity's has the same handedness: a point
// (x, y, z) of the camera is sensor.TransformPoint(x, y, z) for a
// Transform standing where the sensor is, its blue z axis looking into
// the room. A Humanoid faces its +z with its left at -x, the user at rest
// faces -z with their left at +x: half a turn about y apart, so a
// rotation (w, x, y, z) of the camera frame is (w, -x, y, -z) in the
// character's own frame. A bone's rotation is the character's rotation
// times that times the bone's rest rotation in the character:
// transform.rotation * q * rest.
//
// The bones, in skelbridge's joint order (mappings/README.md): each joint
// turns the bone that ends at it: torso -> Hips (the body), neck -> Spine,
// head -> Neck (Head when the avatar has no neck), left_shoulder ->
// LeftShoulder, left_elbow -> LeftUpperArm, left_hand -> LeftLowerArm,
// left_knee -> LeftUpperLeg, left_foot -> LeftLowerLeg, and the same on the
// right; the hips (torso -> hip) have no bone of their own. Other bones
// (chest, hands, feet) follow their parents.
//
// OscJack calls back on its own thread: the callbacks only copy the values
// under a lock, and LateUpdate applies the latest on the main thread.

using System.Collections.Generic;
using System.Diagnostics;
using OscJack;
using UnityEngine;

[RequireComponent(typeof(Animator))]
public sealed class SkelbridgeAvatar : MonoBehaviour
{
    [Tooltip("The UDP port skelbridge's avatar mapping sends to")]
    public int port = 7140;

    [Tooltip("The user to follow; 0 for the first heard, kept until a second of silence")]
    public int user = 0;

    [Tooltip("Where the sensor is, its z axis looking into the room; the character moves " +
             "with the user's torso. None: the character stays where it is")]
    public Transform sensor;

    // /avatar/bones: the user's id, then qw qx qy qz per joint in this order.
    const int JointCount = 15;
    const int Torso = 2;

    // The bones driven and the joint each takes its rotation from; parents
    // first, as a bone's world rotation is set after its parent's.
    static readonly HumanBodyBones[] Bones = {
        HumanBodyBones.Hips, HumanBodyBones.Spine, HumanBodyBones.Neck,
        HumanBodyBones.LeftShoulder, HumanBodyBones.RightShoulder,
        HumanBodyBones.LeftUpperArm, HumanBodyBones.RightUpperArm,
        HumanBodyBones.LeftLowerArm, HumanBodyBones.RightLowerArm,
        HumanBodyBones.LeftUpperLeg, HumanBodyBones.RightUpperLeg,
        HumanBodyBones.LeftLowerLeg, HumanBodyBones.RightLowerLeg,
    };
    // head 0, neck 1, torso 2, left_shoulder 3, right_shoulder 4, left_elbow 5,
    // right_elbow 6, left_hand 7, right_hand 8, left_hip 9, right_hip 10,
    // left_knee 11, right_knee 12, left_foot 13, right_foot 14
    static readonly int[] FromJoint = { Torso, 1, 0, 3, 4, 5, 6, 7, 8, 11, 12, 13, 14 };

    // What the server thread leaves for the main thread, under _lock.
    sealed class Received
    {
        public readonly float[] quats = new float[4 * JointCount];
        public Vector3 root;
        public bool hasRoot, fresh;
        public double heard;
    }

    readonly object _lock = new object();
    readonly Dictionary<int, Received> _users = new Dictionary<int, Received>();
    readonly Stopwatch _clock = Stopwatch.StartNew();
    int _following;

    // The main thread's copy of the pose being shown.
    readonly float[] _quats = new float[4 * JointCount];
    Vector3 _root;
    bool _hasRoot, _posed;

    OscServer _server;
    readonly Transform[] _bones = new Transform[Bones.Length];
    readonly Quaternion[] _rest = new Quaternion[Bones.Length];

    void Start()
    {
        var animator = GetComponent<Animator>();
        for (var i = 0; i < Bones.Length; i++)
        {
            var bone = animator.GetBoneTransform(Bones[i]);
            if (bone == null && Bones[i] == HumanBodyBones.Neck)
                bone = animator.GetBoneTransform(HumanBodyBones.Head);
            _bones[i] = bone;
            if (bone != null)
                _rest[i] = Quaternion.Inverse(transform.rotation) * bone.rotation;
        }
        _server = new OscServer(port);
        _server.MessageDispatcher.AddCallback("/avatar/root", OnRoot);
        _server.MessageDispatcher.AddCallback("/avatar/bones", OnBones);
    }

    void OnDestroy()
    {
        if (_server != null) _server.Dispose();
        _server = null;
    }

    Received Of(int id)
    {
        Received r;
        if (!_users.TryGetValue(id, out r)) _users[id] = r = new Received();
        return r;
    }

    // On OscJack's thread.
    void OnRoot(string address, OscDataHandle data)
    {
        if (data.GetElementCount() != 4) return;
        var root = new Vector3(data.GetElementAsFloat(1), data.GetElementAsFloat(2),
                               data.GetElementAsFloat(3));
        lock (_lock)
        {
            var r = Of(data.GetElementAsInt(0));
            r.root = root;
            r.hasRoot = true;
        }
    }

    // On OscJack's thread.
    void OnBones(string address, OscDataHandle data)
    {
        if (data.GetElementCount() != 1 + 4 * JointCount) return;
        lock (_lock)
        {
            var r = Of(data.GetElementAsInt(0));
            for (var i = 0; i < 4 * JointCount; i++) r.quats[i] = data.GetElementAsFloat(1 + i);
            r.heard = _clock.Elapsed.TotalSeconds;
            r.fresh = true;
        }
    }

    // The user followed: user, or the first heard until a second of silence.
    int Chosen(double now)
    {
        if (user != 0) return user;
        Received r;
        if (_following != 0 && _users.TryGetValue(_following, out r) && now - r.heard <= 1.0)
            return _following;
        _following = 0;
        foreach (var pair in _users)
            if (now - pair.Value.heard <= 1.0 && (_following == 0 || pair.Key < _following))
                _following = pair.Key;
        return _following;
    }

    void LateUpdate()
    {
        lock (_lock)
        {
            Received r;
            if (_users.TryGetValue(Chosen(_clock.Elapsed.TotalSeconds), out r) && r.fresh)
            {
                System.Array.Copy(r.quats, _quats, _quats.Length);
                _root = r.root;
                _hasRoot = r.hasRoot;
                r.fresh = false;
                _posed = true;
            }
        }
        // Every frame, the latest pose: an Animator would undo it otherwise.
        if (_posed) Apply();
    }

    void Apply()
    {
        var body = transform.rotation;
        for (var i = 0; i < Bones.Length; i++)
        {
            if (_bones[i] == null) continue;
            var j = 4 * FromJoint[i];
            // (w, x, y, z) of the camera frame -> (w, -x, y, -z) in the
            // character's; Unity's Quaternion takes x, y, z, w.
            var q = new Quaternion(-_quats[j + 1], _quats[j + 2], -_quats[j + 3], _quats[j]);
            _bones[i].rotation = body * q * _rest[i];
        }
        if (sensor != null && _hasRoot && _bones[0] != null)
        {
            // The hips onto the user's torso (metres, camera frame).
            transform.position += sensor.TransformPoint(_root) - _bones[0].position;
        }
    }
}
