/* Bodies for the demo scene: human proportions, poses, joints and the
 * sphere-swept limbs (capsules) that the renderer draws.
 *
 * Proportions follow the usual anthropometric fractions of body height;
 * a child's head is larger for its height. Poses are given per arm and for
 * the legs as limb directions in the body's frame (out, up, forward), so
 * they scale to any body and blend smoothly. Sides are anatomical. */
#pragma once

#include <glib.h>

#include "demo-render.h"
#include "tracker/tracker-joint.h"
#include "tracker/tracker-vec.h"

typedef enum {
	DEMO_ARM_DOWN,  /* hanging by the side */
	DEMO_ARM_UP,    /* raised above the head */
	DEMO_ARM_OUT,   /* straight out to the side */
	DEMO_ARM_WAVE,  /* elbow at shoulder height, hand waving at head height */
	DEMO_ARM_CHEST, /* hand in front of the chest, ready to push */
	DEMO_ARM_PUSH,  /* pushed straight toward the sensor */
	DEMO_ARM_HIP,   /* hand on the hip, elbow out */
	DEMO_ARM_CROSS, /* forearm across the chest (crossed arms) */
	DEMO_ARM_POINT, /* pointing forward and to the side */
	DEMO_ARM_SWING, /* swinging as in walking */
	/* Hands in front of the body: a swipe is a quick blend between two of
	 * these, a clap a quick blend from APART to CLAP. */
	DEMO_ARM_FRONT_OUT,    /* hand in front at chest height, out on its own side */
	DEMO_ARM_FRONT_ACROSS, /* hand in front at chest height, across the body */
	DEMO_ARM_FRONT_LOW,    /* hand in front at waist height */
	DEMO_ARM_FRONT_HIGH,   /* hand in front, level with the top of the head */
	DEMO_ARM_APART,        /* hands in front of the chest, apart */
	DEMO_ARM_CLAP,         /* palms together in front of the chest */
	DEMO_ARM_SCRATCH,      /* hand on top of the head, scratching */
	DEMO_ARM_READY,        /* hand just in front of the shoulder, ready to push */
	DEMO_N_ARM_POSES
} DemoArm;

typedef enum {
	DEMO_LEGS_STAND,
	DEMO_LEGS_WALK,
} DemoLegs;

enum { DEMO_SIDE_LEFT = 0, DEMO_SIDE_RIGHT = 1 };

/* Unit directions in the body frame: x out from the body's midline on that
 * limb's side, y up, z the way the body faces. */
typedef struct {
	TrackerVec3 upper[2], fore[2];
	TrackerVec3 thigh[2], shank[2];
} DemoLimbs;

typedef struct {
	TrackerVec3 root; /* world mm, on the floor below the pelvis */
	double yaw;       /* radians; 0 faces the sensor, positive turns toward -x */
	DemoLimbs limbs;
} DemoBodyState;

typedef struct {
	double height; /* mm */
	double head_radius;
} DemoBody;

typedef struct {
	TrackerVec3 joints[TRACKER_N_JOINTS]; /* world mm */
	TrackerVec3 wrist[2], hand_tip[2], toe[2];
	TrackerVec3 pelvis;
	TrackerVec3 left, up, forward; /* the body frame in world space */
	double height;
	double head_radius;
} DemoSkeleton;

#define DEMO_BODY_N_CAPSULES 20

/** demo_body_init: proportions for a body @height_mm tall. */
void demo_body_init(DemoBody *body, double height_mm);

/**
 * demo_body_limbs:
 * Limb directions for a pose at time @t seconds (waving and walking move).
 */
void demo_body_limbs(DemoArm left, DemoArm right, DemoLegs legs, double t, DemoLimbs *limbs);

/** demo_body_blend: limb directions @w of the way from @a to @b. */
void demo_body_blend(const DemoLimbs *a, const DemoLimbs *b, double w, DemoLimbs *out);

/** demo_body_pose: joint centres and limb ends in world space. */
void demo_body_pose(const DemoBody *body, const DemoBodyState *state, DemoSkeleton *skeleton);

/** demo_body_capsules: the limbs as DEMO_BODY_N_CAPSULES capsules. */
void demo_body_capsules(const DemoSkeleton *skeleton, guint8 label, DemoCapsule *capsules);
