/* Bodies for the demo scene: human proportions, poses, joints and the
 * sphere-swept limbs (capsules) that the renderer draws.
 *
 * Proportions follow the usual anthropometric fractions of body height;
 * a child's head is larger for its height, and a girth factor makes thin
 * and broad people of any height. Poses are given per arm and for the legs
 * as limb directions in the body's frame (out, up, forward), so they scale
 * to any body and blend smoothly; the upper body may lean back or forward
 * about the hips. Sides are anatomical. */
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
	/* Forearm up and a little forward, the hand at shoulder height in
	 * front of the shoulder: how one shows a palm or a fist to the
	 * sensor. */
	DEMO_ARM_SHOW,
	DEMO_N_ARM_POSES
} DemoArm;

typedef enum {
	DEMO_LEGS_STAND,
	DEMO_LEGS_WALK,
	/* Thighs forward and about level, shins down: sitting. On a seat (see
	 * DemoBodyState) the pelvis sits on it and the feet reach the floor. */
	DEMO_LEGS_SIT,
} DemoLegs;

enum { DEMO_SIDE_LEFT = 0, DEMO_SIDE_RIGHT = 1 };

/* What a hand does. A relaxed hand is the plain paddle from wrist to
 * fingertips that bodies always had, and says nothing of its state; an
 * open hand is a palm with the fingers spread and the thumb out, facing
 * where the body faces; a closed one is a fist. All three are centred on
 * the hand joint, so that the joint stays where it is. */
typedef enum {
	DEMO_HAND_RELAXED = 0,
	DEMO_HAND_OPEN,
	DEMO_HAND_CLOSED,
} DemoHand;

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
	double lean;       /* radians; the upper body leans back (positive) about the hips */
	double seat;       /* mm: the height of the seat's top under a sitting body; 0 for none */
	double sit;        /* 0 to 1: how far down onto the seat the pelvis has come */
	DemoHand hands[2]; /* DEMO_SIDE_LEFT, DEMO_SIDE_RIGHT */
} DemoBodyState;

typedef enum {
	DEMO_HEAD_BALL = 0, /* a sphere as wide as the head is tall */
	/* Narrower than tall, as real heads seen from the front are: about
	 * 0.15 of the body's height wide for a 1.75 m adult. Top and chin
	 * where the ball has them. */
	DEMO_HEAD_OVAL,
} DemoHeadShape;

/* What the body looks like to the sensor: its surfaces and its head. */
typedef struct {
	DemoMaterial hair; /* the head (hair loses readings only on top) */
	DemoMaterial top;  /* trunk and arms */
	DemoMaterial legs;
	DemoHeadShape head;
} DemoLook;

typedef struct {
	double height; /* mm */
	double head_radius;
	double girth; /* 1 for the usual build; about 0.85 thin to 1.3 broad */
	DemoLook look;
} DemoBody;

typedef struct {
	TrackerVec3 joints[TRACKER_N_JOINTS]; /* world mm */
	TrackerVec3 wrist[2], hand_tip[2], toe[2];
	TrackerVec3 pelvis;
	TrackerVec3 left, up, forward; /* the body frame in world space */
	/* The upper body's frame: up and forward turned about left by the lean. */
	TrackerVec3 trunk_up, trunk_forward;
	double height;
	double head_radius;
	double girth;
	DemoLook look;
	DemoHand hands[2];
} DemoSkeleton;

/* Capsules a body is drawn with: 20 with relaxed hands, more with open
 * ones. */
#define DEMO_BODY_MAX_CAPSULES 36

/* A folder carried at the side, held at its top edge. */
#define DEMO_BODY_FOLDER_LONG  310.0 /* mm, hanging down from the hand */
#define DEMO_BODY_FOLDER_WIDE  240.0
#define DEMO_BODY_FOLDER_THICK 25.0

/**
 * demo_body_init:
 * Proportions for a body @height_mm tall of @girth (0 means 1); the look
 * is all matte.
 */
void demo_body_init(DemoBody *body, double height_mm, double girth);

/**
 * demo_body_seat_contact:
 * How far above a seat's top the pelvis (the hip joints' centre) of a body
 * sitting on it is, mm.
 */
double demo_body_seat_contact(const DemoBody *body);

/**
 * demo_body_limbs:
 * Limb directions for a pose at time @t seconds (waving and walking move).
 */
void demo_body_limbs(DemoArm left, DemoArm right, DemoLegs legs, double t, DemoLimbs *limbs);

/** demo_body_blend: limb directions @w of the way from @a to @b. */
void demo_body_blend(const DemoLimbs *a, const DemoLimbs *b, double w, DemoLimbs *out);

/** demo_body_pose: joint centres and limb ends in world space. */
void demo_body_pose(const DemoBody *body, const DemoBodyState *state, DemoSkeleton *skeleton);

/**
 * demo_body_capsules:
 * The body as capsules, at most DEMO_BODY_MAX_CAPSULES, into @capsules;
 * returns how many.
 */
guint demo_body_capsules(const DemoSkeleton *skeleton, guint8 label, DemoCapsule *capsules);

/**
 * demo_body_folder:
 * A folder in the hand on @side (DEMO_SIDE_*), held at its top edge and
 * hanging along the forearm, flat against the outside of the hand.
 */
void demo_body_folder(const DemoSkeleton *skeleton, int side, guint8 label, DemoBlock *folder);
