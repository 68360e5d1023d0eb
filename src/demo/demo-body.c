#include "demo-body.h"

#include <math.h>

/* Fractions of body height (Drillis and Contini; joint centres). */
#define UPPER_ARM     0.186
#define FOREARM       0.146
#define PALM          0.045 /* wrist to the hand joint (palm centre) */
#define HAND          0.100 /* wrist to fingertips */
#define THIGH         0.245
#define SHANK         0.246
#define ANKLE_H       0.039
#define HIP_HALF      0.050 /* hip joint centres from the midline */
#define SHOULDER_HALF 0.100
#define SHOULDER_UP   0.285 /* above the pelvis */
#define NECK_UP       0.300
#define TORSO_UP      0.150
#define SEAT_CONTACT  0.050 /* pelvis above the seat: the buttocks sink in a little */

typedef struct {
	TrackerVec3 upper, fore;
} ArmDirs;

static TrackerVec3
dir(double out, double up, double fwd)
{
	return tracker_vec3_normalize(tracker_vec3(out, up, fwd));
}

void
demo_body_init(DemoBody *body, double height_mm, double girth)
{
	DemoLook matte = { DEMO_MATERIAL_MATTE, DEMO_MATERIAL_MATTE, DEMO_MATERIAL_MATTE,
		           DEMO_HEAD_BALL };

	body->height = height_mm;
	/* An adult head is about 0.058 of body height in radius; a child's
	 * is relatively larger. */
	body->head_radius = 60.0 + 0.024 * height_mm;
	body->girth = girth > 0.0 ? girth : 1.0;
	body->look = matte;
}

double
demo_body_seat_contact(const DemoBody *body)
{
	return SEAT_CONTACT * body->height * body->girth;
}

static ArmDirs
arm_wave(double t)
{
	double sway = 0.5 * sin(2.0 * G_PI * 1.5 * t);
	ArmDirs a = { dir(1.0, 0.05, 0.1), dir(sin(sway), cos(sway), 0.1) };

	return a;
}

/* Elbow up and out, the fingers rubbing the top of the head. */
static ArmDirs
arm_scratch(double t, ArmDirs still)
{
	double rub = 0.12 * sin(2.0 * G_PI * 3.0 * t);
	ArmDirs a = { still.upper, tracker_vec3_normalize(tracker_vec3_add(
		                           still.fore, tracker_vec3(rub, 0.0, 0.0))) };

	return a;
}

static ArmDirs
arm_swing(double phase)
{
	double s = 0.35 * sin(phase);
	ArmDirs a = { dir(0.1, -1.0, s), dir(0.08, -1.0, s + 0.15) };

	return a;
}

/* @phase drives the moving poses; it is the walking phase for this arm. */
static ArmDirs
arm_dirs(DemoArm arm, double t, double phase)
{
	static const ArmDirs still[DEMO_N_ARM_POSES] = {
		[DEMO_ARM_DOWN] = { { 0.119, -0.993, 0.0 }, { 0.079, -0.994, 0.079 } },
		[DEMO_ARM_UP] = { { 0.242, 0.969, 0.048 }, { 0.099, 0.994, 0.050 } },
		[DEMO_ARM_OUT] = { { 1.0, 0.0, 0.0 }, { 0.995, 0.100, 0.0 } },
		[DEMO_ARM_CHEST] = { { 0.110, -0.940, 0.320 }, { -0.351, 0.251, 0.902 } },
		[DEMO_ARM_PUSH] = { { 0.0, -0.050, 0.999 }, { -0.050, 0.0, 0.999 } },
		[DEMO_ARM_HIP] = { { 0.802, -0.535, -0.267 }, { -0.680, -0.707, 0.260 } },
		[DEMO_ARM_CROSS] = { { 0.150, -0.950, 0.280 }, { -0.910, 0.370, 0.180 } },
		[DEMO_ARM_POINT] = { { 0.500, 0.150, 0.853 }, { 0.494, 0.198, 0.847 } },
		/* Bent so that the hand lands where asked (fractions of body
		 * height from the shoulder: out, up, forward) with the elbow
		 * hanging down and out. */
		/* (0.15, -0.08, 0.24) */
		[DEMO_ARM_FRONT_OUT] = { { 0.580, -0.741, 0.338 }, { 0.221, 0.303, 0.927 } },
		/* (-0.22, -0.08, 0.24) */
		[DEMO_ARM_FRONT_ACROSS] = { { -0.437, -0.651, 0.620 }, { -0.727, 0.216, 0.652 } },
		/* (-0.05, -0.24, 0.22) */
		[DEMO_ARM_FRONT_LOW] = { { 0.150, -0.937, 0.314 }, { -0.408, -0.344, 0.846 } },
		/* (-0.05, 0.20, 0.24) */
		[DEMO_ARM_FRONT_HIGH] = { { 0.139, 0.188, 0.972 }, { -0.398, 0.864, 0.310 } },
		/* (0.06, -0.10, 0.22) */
		[DEMO_ARM_APART] = { { 0.502, -0.837, 0.217 }, { -0.175, 0.292, 0.940 } },
		/* (-0.085, -0.08, 0.25): the two palm centres 3% of height apart */
		[DEMO_ARM_CLAP] = { { 0.153, -0.786, 0.599 }, { -0.594, 0.347, 0.726 } },
		/* (-0.08, 0.20, 0.02), the elbow up and out */
		[DEMO_ARM_SCRATCH] = { { 0.564, 0.824, 0.058 }, { -0.968, 0.245, 0.048 } },
		/* (0.0, -0.05, 0.10), the elbow down and back */
		[DEMO_ARM_READY] = { { 0.260, -0.947, -0.188 }, { -0.253, 0.660, 0.707 } },
		/* (0.01, 0.035, 0.18), the forearm 20 degrees from upright */
		[DEMO_ARM_SHOW] = { { 0.150, -0.780, 0.620 }, { -0.100, 0.940, 0.330 } },
	};
	ArmDirs a = { tracker_vec3_normalize(still[arm].upper),
		      tracker_vec3_normalize(still[arm].fore) };

	switch (arm) {
	case DEMO_ARM_WAVE:
		return arm_wave(t);
	case DEMO_ARM_SWING:
		return arm_swing(phase);
	case DEMO_ARM_SCRATCH:
		return arm_scratch(t, a);
	default:
		return a;
	}
}

static void
leg_dirs(DemoLegs legs, double phase, TrackerVec3 *thigh, TrackerVec3 *shank)
{
	double swing, bend;

	if (legs == DEMO_LEGS_STAND) {
		*thigh = dir(0.02, -1.0, 0.0);
		*shank = dir(0.02, -1.0, 0.0);
		return;
	}
	if (legs == DEMO_LEGS_SIT) {
		/* Knees a little apart and a little lower than the hips. */
		*thigh = dir(0.10, -0.12, 1.0);
		*shank = dir(0.03, -1.0, 0.10);
		return;
	}
	swing = 0.42 * sin(phase);
	/* The knee bends while the leg swings forward. */
	bend = 0.55 * MAX(0.0, cos(phase));
	*thigh = dir(0.02, -1.0, swing);
	*shank = dir(0.02, -1.0, swing - bend);
}

void
demo_body_limbs(DemoArm left, DemoArm right, DemoLegs legs, double t, DemoLimbs *limbs)
{
	double phase = 2.0 * G_PI * 0.9 * t;
	/* Each arm swings against the leg on its own side. */
	ArmDirs l = arm_dirs(left, t, phase + G_PI);
	ArmDirs r = arm_dirs(right, t, phase);

	limbs->upper[DEMO_SIDE_LEFT] = l.upper;
	limbs->fore[DEMO_SIDE_LEFT] = l.fore;
	limbs->upper[DEMO_SIDE_RIGHT] = r.upper;
	limbs->fore[DEMO_SIDE_RIGHT] = r.fore;
	leg_dirs(legs, phase, &limbs->thigh[DEMO_SIDE_LEFT], &limbs->shank[DEMO_SIDE_LEFT]);
	leg_dirs(legs, phase + G_PI, &limbs->thigh[DEMO_SIDE_RIGHT],
	         &limbs->shank[DEMO_SIDE_RIGHT]);
}

static TrackerVec3
nlerp(TrackerVec3 a, TrackerVec3 b, double w)
{
	return tracker_vec3_normalize(tracker_vec3_lerp(a, b, w));
}

void
demo_body_blend(const DemoLimbs *a, const DemoLimbs *b, double w, DemoLimbs *out)
{
	for (int s = 0; s < 2; s++) {
		out->upper[s] = nlerp(a->upper[s], b->upper[s], w);
		out->fore[s] = nlerp(a->fore[s], b->fore[s], w);
		out->thigh[s] = nlerp(a->thigh[s], b->thigh[s], w);
		out->shank[s] = nlerp(a->shank[s], b->shank[s], w);
	}
}

/* A direction on @side's limb in a frame (left, @up, @forward), in world
 * space. */
static TrackerVec3
limb_to_world(const DemoSkeleton *sk, TrackerVec3 up, TrackerVec3 forward, int side, TrackerVec3 d)
{
	TrackerVec3 out = tracker_vec3_scale(sk->left, side == DEMO_SIDE_LEFT ? d.x : -d.x);

	out = tracker_vec3_mad(out, up, d.y);
	return tracker_vec3_mad(out, forward, d.z);
}

/* An upper-body offset (left, up, forward) from the pelvis, in world
 * space: it leans with the trunk. */
static TrackerVec3
body_point(const DemoSkeleton *sk, double l, double u, double f)
{
	TrackerVec3 p = tracker_vec3_mad(sk->pelvis, sk->left, l);

	p = tracker_vec3_mad(p, sk->trunk_up, u);
	return tracker_vec3_mad(p, sk->trunk_forward, f);
}

static void
pose_frame(DemoSkeleton *sk, const DemoBodyState *state)
{
	double c = cos(state->yaw), s = sin(state->yaw);

	sk->left = tracker_vec3(c, 0.0, -s);
	sk->up = tracker_vec3(0.0, 1.0, 0.0);
	sk->forward = tracker_vec3(-s, 0.0, -c);
	sk->trunk_up = sk->up;
	sk->trunk_forward = sk->forward;
	if (state->lean != 0.0) {
		double cl = cos(state->lean), sl = sin(state->lean);

		/* Leaning back takes the head behind the hips. */
		sk->trunk_up = tracker_vec3_mad(tracker_vec3_scale(sk->up, cl), sk->forward, -sl);
		sk->trunk_forward =
		        tracker_vec3_mad(tracker_vec3_scale(sk->forward, cl), sk->up, sl);
	}
}

/* The pelvis sits as high as the lower foot allows. */
static double
pelvis_height(const DemoSkeleton *sk, const DemoLimbs *limbs)
{
	double H = sk->height;
	double lowest = 0.0;

	for (int side = 0; side < 2; side++) {
		double drop = THIGH * H * limbs->thigh[side].y + SHANK * H * limbs->shank[side].y;
		lowest = MIN(lowest, drop);
	}
	return ANKLE_H * H - lowest;
}

/* On a seat the pelvis comes down onto it as the body sits. */
static double
pelvis_height_on_seat(const DemoSkeleton *sk, const DemoBodyState *state)
{
	double standing = pelvis_height(sk, &state->limbs);

	if (state->seat <= 0.0)
		return standing;
	return standing +
	       state->sit * (state->seat + SEAT_CONTACT * sk->height * sk->girth - standing);
}

static void
pose_arm(DemoSkeleton *sk, const DemoLimbs *limbs, int side, TrackerJointId shoulder)
{
	double H = sk->height;
	TrackerVec3 s = sk->joints[shoulder];
	TrackerVec3 up =
	        limb_to_world(sk, sk->trunk_up, sk->trunk_forward, side, limbs->upper[side]);
	TrackerVec3 fore =
	        limb_to_world(sk, sk->trunk_up, sk->trunk_forward, side, limbs->fore[side]);
	TrackerVec3 elbow = tracker_vec3_mad(s, up, UPPER_ARM * H);

	sk->joints[shoulder + 2] = elbow;
	sk->wrist[side] = tracker_vec3_mad(elbow, fore, FOREARM * H);
	sk->joints[shoulder + 4] = tracker_vec3_mad(sk->wrist[side], fore, PALM * H);
	sk->hand_tip[side] = tracker_vec3_mad(sk->wrist[side], fore, HAND * H);
}

/* A seated body's shank reaches for the floor from wherever the seat puts
 * the knee: it slants when the knee is low and hangs when it is high. */
static TrackerVec3
shank_to_floor(const DemoSkeleton *sk, TrackerVec3 knee, TrackerVec3 shank)
{
	double S = SHANK * sk->height, ankle_y = ANKLE_H * sk->height;
	double drop = MAX(knee.y - ankle_y, 0.0) / S;
	TrackerVec3 flat = tracker_vec3(shank.x, 0.0, shank.z);

	if (knee.y + shank.y * S >= ankle_y)
		return shank;
	if (tracker_vec3_length(flat) < 1e-6)
		flat = sk->forward;
	flat = tracker_vec3_scale(tracker_vec3_normalize(flat), sqrt(MAX(0.0, 1.0 - drop * drop)));
	return tracker_vec3_mad(flat, sk->up, -drop);
}

static void
pose_leg(DemoSkeleton *sk, const DemoBodyState *state, int side, TrackerJointId hip)
{
	double H = sk->height;
	const DemoLimbs *limbs = &state->limbs;
	TrackerVec3 thigh = limb_to_world(sk, sk->up, sk->forward, side, limbs->thigh[side]);
	TrackerVec3 shank = limb_to_world(sk, sk->up, sk->forward, side, limbs->shank[side]);
	TrackerVec3 knee = tracker_vec3_mad(sk->joints[hip], thigh, THIGH * H);
	TrackerVec3 ankle;

	if (state->seat > 0.0)
		shank = shank_to_floor(sk, knee, shank);
	ankle = tracker_vec3_mad(knee, shank, SHANK * H);

	sk->joints[hip + 2] = knee;
	sk->joints[hip + 4] = ankle;
	sk->toe[side] = tracker_vec3_mad(tracker_vec3_mad(ankle, sk->forward, 0.13 * H), sk->up,
	                                 -0.025 * H);
}

void
demo_body_pose(const DemoBody *body, const DemoBodyState *state, DemoSkeleton *sk)
{
	double H = body->height;
	double head_up;

	sk->height = H;
	sk->head_radius = body->head_radius;
	sk->girth = body->girth;
	sk->look = body->look;
	sk->hands[DEMO_SIDE_LEFT] = state->hands[DEMO_SIDE_LEFT];
	sk->hands[DEMO_SIDE_RIGHT] = state->hands[DEMO_SIDE_RIGHT];
	pose_frame(sk, state);
	sk->pelvis = tracker_vec3_mad(state->root, sk->up, pelvis_height_on_seat(sk, state));
	/* The head's top is at full height when standing straight. */
	head_up = H - body->head_radius - (ANKLE_H + THIGH + SHANK) * H;
	sk->joints[TRACKER_JOINT_HEAD] = body_point(sk, 0.0, head_up, 0.01 * H);
	sk->joints[TRACKER_JOINT_NECK] = body_point(sk, 0.0, NECK_UP * H, 0.0);
	sk->joints[TRACKER_JOINT_TORSO] = body_point(sk, 0.0, TORSO_UP * H, 0.0);
	/* Broad people have broad shoulders: their arms clear the trunk. */
	sk->joints[TRACKER_JOINT_LEFT_SHOULDER] =
	        body_point(sk, SHOULDER_HALF * H * sk->girth, SHOULDER_UP * H, 0.0);
	sk->joints[TRACKER_JOINT_RIGHT_SHOULDER] =
	        body_point(sk, -SHOULDER_HALF * H * sk->girth, SHOULDER_UP * H, 0.0);
	sk->joints[TRACKER_JOINT_LEFT_HIP] = body_point(sk, HIP_HALF * H, 0.0, 0.0);
	sk->joints[TRACKER_JOINT_RIGHT_HIP] = body_point(sk, -HIP_HALF * H, 0.0, 0.0);
	pose_arm(sk, &state->limbs, DEMO_SIDE_LEFT, TRACKER_JOINT_LEFT_SHOULDER);
	pose_arm(sk, &state->limbs, DEMO_SIDE_RIGHT, TRACKER_JOINT_RIGHT_SHOULDER);
	pose_leg(sk, state, DEMO_SIDE_LEFT, TRACKER_JOINT_LEFT_HIP);
	pose_leg(sk, state, DEMO_SIDE_RIGHT, TRACKER_JOINT_RIGHT_HIP);
}

static DemoCapsule
capsule(TrackerVec3 a, TrackerVec3 b, double r, guint8 label, DemoMaterial material)
{
	DemoCapsule c = { a, b, r, label, material };

	return c;
}

static DemoCapsule
head_capsule(const DemoSkeleton *sk, guint8 label)
{
	TrackerVec3 head = sk->joints[TRACKER_JOINT_HEAD];
	double r = sk->head_radius;

	if (sk->look.head == DEMO_HEAD_OVAL)
		return capsule(tracker_vec3_mad(head, sk->trunk_up, -0.28 * r),
		               tracker_vec3_mad(head, sk->trunk_up, 0.25 * r), 0.76 * r, label,
		               sk->look.hair);
	return capsule(head, head, r, label, sk->look.hair);
}

static void
torso_capsules(const DemoSkeleton *sk, guint8 label, DemoCapsule *c)
{
	const TrackerVec3 *j = sk->joints;
	double H = sk->height, g = sk->girth;
	DemoMaterial top = sk->look.top;

	c[0] = head_capsule(sk, label);
	c[1] = capsule(j[TRACKER_JOINT_NECK], j[TRACKER_JOINT_HEAD], 0.028 * H * g, label,
	               DEMO_MATERIAL_MATTE);
	c[2] = capsule(body_point(sk, 0.04 * H * g, 0.03 * H, 0.0),
	               body_point(sk, 0.04 * H * g, 0.26 * H, 0.0), 0.07 * H * g, label, top);
	c[3] = capsule(body_point(sk, -0.04 * H * g, 0.03 * H, 0.0),
	               body_point(sk, -0.04 * H * g, 0.26 * H, 0.0), 0.07 * H * g, label, top);
	c[4] = capsule(j[TRACKER_JOINT_LEFT_SHOULDER], j[TRACKER_JOINT_RIGHT_SHOULDER],
	               0.04 * H * g, label, top);
	c[5] = capsule(j[TRACKER_JOINT_LEFT_HIP], j[TRACKER_JOINT_RIGHT_HIP], 0.065 * H * g, label,
	               sk->look.legs);
}

/* Adult hand sizes (mm) for a body 1.75 m tall; other bodies scale them. */
#define HAND_REF_HEIGHT 1750.0
#define PALM_HALF_LONG  42.5 /* the palm: 85 long, 80 wide, 30 thick */
#define PALM_HALF_WIDE  40.0
#define PALM_HALF_THICK 15.0
#define FINGER_R        9.0 /* 18 thick */
#define THUMB_R         10.0
#define FIST_HALF_WIDE  45.0 /* the fist: 90 wide, 80 long, 70 thick */
#define FIST_HALF_LONG  40.0
#define FIST_HALF_THICK 35.0
#define HAND_PARTS_MAX  9

/* The hand's own axes: @along from wrist to fingertips, @palm the way
 * the palm faces (where the body faces, as far as the hand's direction
 * allows; down when the hand points that way), @thumb across the palm
 * toward the thumb, which is toward the body's midline with the palm
 * forward. */
typedef struct {
	TrackerVec3 centre, along, palm, thumb;
	double scale;
} HandFrame;

static HandFrame
hand_frame(const DemoSkeleton *sk, int side)
{
	HandFrame f;
	TrackerVec3 inward = tracker_vec3_scale(sk->left, side == DEMO_SIDE_LEFT ? -1.0 : 1.0);
	TrackerVec3 palm;

	f.centre = sk->joints[TRACKER_JOINT_LEFT_HAND + side];
	f.along = tracker_vec3_normalize(tracker_vec3_sub(sk->hand_tip[side], sk->wrist[side]));
	palm = tracker_vec3_mad(sk->trunk_forward, f.along,
	                        -tracker_vec3_dot(sk->trunk_forward, f.along));
	if (tracker_vec3_length(palm) < 0.3)
		palm = tracker_vec3_mad(tracker_vec3_scale(sk->trunk_up, -1.0), f.along,
		                        tracker_vec3_dot(sk->trunk_up, f.along));
	f.palm = tracker_vec3_normalize(palm);
	f.thumb = tracker_vec3_normalize(tracker_vec3_cross(f.palm, f.along));
	if (tracker_vec3_dot(f.thumb, inward) < 0.0)
		f.thumb = tracker_vec3_scale(f.thumb, -1.0);
	f.scale = sk->height / HAND_REF_HEIGHT;
	return f;
}

/* A point of the hand @a along, @t toward the thumb and @n out of the
 * palm from its centre, in mm of the reference hand. */
static TrackerVec3
hand_point(const HandFrame *f, double a, double t, double n)
{
	TrackerVec3 p = tracker_vec3_mad(f->centre, f->along, a * f->scale);

	p = tracker_vec3_mad(p, f->thumb, t * f->scale);
	return tracker_vec3_mad(p, f->palm, n * f->scale);
}

/* A direction in the palm's plane @deg degrees from @along toward the thumb. */
static TrackerVec3
hand_dir(const HandFrame *f, double deg)
{
	double r = deg * G_PI / 180.0;

	return tracker_vec3_mad(tracker_vec3_scale(f->along, cos(r)), f->thumb, sin(r));
}

/* Four fingers spread from the knuckles and the thumb out to the side. */
static guint
hand_fingers(const HandFrame *f, guint8 label, DemoCapsule *c)
{
	/* Index to little: place across the palm, length, spread. */
	static const double across[4] = { 28.5, 9.5, -9.5, -28.5 };
	static const double length[4] = { 72.0, 80.0, 74.0, 60.0 };
	static const double spread[4] = { 16.0, 2.0, -12.0, -26.0 };
	double s = f->scale;
	TrackerVec3 thumb = hand_dir(f, 50.0);
	TrackerVec3 thumb_base = hand_point(f, -20.0, 22.0, 0.0);

	for (int k = 0; k < 4; k++) {
		TrackerVec3 knuckle = hand_point(f, PALM_HALF_LONG - FINGER_R, across[k], 0.0);
		TrackerVec3 tip = tracker_vec3_mad(knuckle, hand_dir(f, spread[k]),
		                                   (length[k] - FINGER_R) * s);

		c[k] = capsule(knuckle, tip, FINGER_R * s, label, DEMO_MATERIAL_MATTE);
	}
	c[4] = capsule(thumb_base, tracker_vec3_mad(thumb_base, thumb, 62.0 * s), THUMB_R * s,
	               label, DEMO_MATERIAL_MATTE);
	return 5;
}

/* A palm as four rods side by side, and the fingers. */
static guint
hand_open(const HandFrame *f, guint8 label, DemoCapsule *c)
{
	double r = PALM_HALF_THICK, half = PALM_HALF_LONG - r;
	double step = 2.0 * (PALM_HALF_WIDE - r) / 3.0;

	for (int k = 0; k < 4; k++) {
		double t = -(PALM_HALF_WIDE - r) + k * step;

		c[k] = capsule(hand_point(f, -half, t, 0.0), hand_point(f, half, t, 0.0),
		               r * f->scale, label, DEMO_MATERIAL_MATTE);
	}
	return 4 + hand_fingers(f, label, c + 4);
}

/* A fist: two rods across the hand, one above the other. */
static guint
hand_fist(const HandFrame *f, guint8 label, DemoCapsule *c)
{
	double r = FIST_HALF_THICK, a = FIST_HALF_LONG - r, t = FIST_HALF_WIDE - r;

	c[0] = capsule(hand_point(f, -a, -t, 0.0), hand_point(f, -a, t, 0.0), r * f->scale, label,
	               DEMO_MATERIAL_MATTE);
	c[1] = capsule(hand_point(f, a, -t, 0.0), hand_point(f, a, t, 0.0), r * f->scale, label,
	               DEMO_MATERIAL_MATTE);
	return 2;
}

/* The hand on @side as it is: for a relaxed hand, the paddle and the
 * palm, as bodies were drawn before hands had a state. */
static guint
hand_capsules(const DemoSkeleton *sk, int side, guint8 label, DemoCapsule *c)
{
	const TrackerVec3 *j = sk->joints;
	double H = sk->height, g = sk->girth;
	HandFrame f;

	switch (sk->hands[side]) {
	case DEMO_HAND_OPEN:
		f = hand_frame(sk, side);
		return hand_open(&f, label, c);
	case DEMO_HAND_CLOSED:
		f = hand_frame(sk, side);
		return hand_fist(&f, label, c);
	case DEMO_HAND_RELAXED:
	default:
		c[0] = capsule(sk->wrist[side], sk->hand_tip[side], 0.016 * H * g, label,
		               DEMO_MATERIAL_MATTE);
		c[1] = capsule(sk->wrist[side], j[TRACKER_JOINT_LEFT_HAND + side], 0.020 * H * g,
		               label, DEMO_MATERIAL_MATTE);
		return 2;
	}
}

/* The arm and leg on @side; returns the capsules written. A relaxed
 * hand's two take the places they always had (third and last), so that
 * such bodies draw as they always did. */
static guint
limb_capsules(const DemoSkeleton *sk, int side, guint8 label, DemoCapsule *c)
{
	const TrackerVec3 *j = sk->joints;
	double H = sk->height, g = sk->girth;
	int sh = TRACKER_JOINT_LEFT_SHOULDER + side, hip = TRACKER_JOINT_LEFT_HIP + side;
	DemoMaterial top = sk->look.top, legs = sk->look.legs, skin = DEMO_MATERIAL_MATTE;
	DemoCapsule hand[HAND_PARTS_MAX];
	guint n = hand_capsules(sk, side, label, hand);

	c[0] = capsule(j[sh], j[sh + 2], 0.032 * H * g, label, top);
	c[1] = capsule(j[sh + 2], sk->wrist[side], 0.025 * H * g, label, top);
	c[2] = hand[0];
	c[3] = capsule(j[hip], j[hip + 2], 0.045 * H * g, label, legs);
	c[4] = capsule(j[hip + 2], j[hip + 4], 0.030 * H * g, label, legs);
	c[5] = capsule(j[hip + 4], sk->toe[side], 0.022 * H * g, label, skin);
	for (guint k = 1; k < n; k++)
		c[5 + k] = hand[k];
	return 5 + n;
}

guint
demo_body_capsules(const DemoSkeleton *sk, guint8 label, DemoCapsule *capsules)
{
	guint n = 6;

	G_STATIC_ASSERT(6 + 2 * (5 + HAND_PARTS_MAX) <= DEMO_BODY_MAX_CAPSULES);
	torso_capsules(sk, label, capsules);
	n += limb_capsules(sk, DEMO_SIDE_LEFT, label, capsules + n);
	n += limb_capsules(sk, DEMO_SIDE_RIGHT, label, capsules + n);
	return n;
}

void
demo_body_folder(const DemoSkeleton *sk, int side, guint8 label, DemoBlock *folder)
{
	TrackerVec3 hand = sk->joints[TRACKER_JOINT_LEFT_HAND + side];
	TrackerVec3 along =
	        tracker_vec3_normalize(tracker_vec3_sub(sk->hand_tip[side], sk->wrist[side]));
	TrackerVec3 out = tracker_vec3_scale(sk->left, side == DEMO_SIDE_LEFT ? 1.0 : -1.0);
	/* The fingers wrap over the top edge. */
	double grip = 40.0;
	double clear = 0.016 * sk->height * sk->girth + DEMO_BODY_FOLDER_THICK / 2.0;

	out = tracker_vec3_normalize(tracker_vec3_mad(out, along, -tracker_vec3_dot(out, along)));
	folder->axis[0] = along;
	folder->axis[1] = tracker_vec3_cross(out, along);
	folder->axis[2] = out;
	folder->half[0] = DEMO_BODY_FOLDER_LONG / 2.0;
	folder->half[1] = DEMO_BODY_FOLDER_WIDE / 2.0;
	folder->half[2] = DEMO_BODY_FOLDER_THICK / 2.0;
	folder->centre =
	        tracker_vec3_mad(tracker_vec3_mad(hand, along, folder->half[0] - grip), out, clear);
	folder->label = label;
	folder->material = DEMO_MATERIAL_MATTE;
}
