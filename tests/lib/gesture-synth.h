/* Synthetic skeletons for the gesture tests: a standing body of any height
 * whose hands follow the motion a test describes, built joint by joint
 * here (not by the demo scene), so that each test says exactly which
 * movement it means.
 *
 * Arm positions are given from the arm's own shoulder in fractions of body
 * height, along the body's axes: out (away from the midline on that arm's
 * side), up, and forward (the way the body faces). The same numbers make
 * the same movement for a child and for a tall adult. */
#pragma once

#include <glib.h>

#include "gesture/gesture.h"

#define SYNTH_FPS 30

/* The bodies the tests use: a child and a tall adult. */
#define SYNTH_SMALL 1150.0
#define SYNTH_TALL  1950.0
#define SYNTH_ADULT 1750.0

typedef struct {
	double out, up, fwd;
} SynthPoint;

/* Where an arm's hand is; the elbow bends naturally (down and out) unless
 * given. */
typedef struct {
	SynthPoint hand;
	gboolean elbow_given;
	SynthPoint elbow;
} SynthArm;

typedef struct {
	double height;   /* mm */
	double x, z;     /* camera mm, where the body stands */
	double yaw;      /* degrees; 0 faces the sensor, positive turns toward -x */
	SynthArm arm[2]; /* indexed by GestureHand */
} SynthPose;

/* A few arm positions the tests share. */
extern const SynthPoint synth_rest; /* hanging by the side */

/** synth_pose_init: a body @height tall at 2.5 m, facing the sensor, arms down. */
void synth_pose_init(SynthPose *pose, double height);

/** synth_user: the tracker's view of @pose: every joint found with confidence 1. */
void synth_user(const SynthPose *pose, guint id, TrackerUser *user);

/** synth_arm_angle: a straight arm @angle degrees from hanging, raised out
 * to the side, tipped @fwd of its length forward. */
SynthPoint synth_arm_angle(double angle, double fwd);

/**
 * synth_arm_angles:
 * An arm bent at the elbow, both segments in the body's side plane: the
 * upper arm @upper degrees and the forearm @fore degrees from hanging
 * straight down (90 is out to the side, 180 straight up), each tipped
 * @fwd of its length forward.
 */
SynthArm synth_arm_angles(double upper, double fore, double fwd);

/**
 * synth_arm_reach:
 * An arm whose hand is at @hand, the elbow bending toward @pole (a
 * direction, as the points are given) as far as the arm's lengths allow.
 */
SynthArm synth_arm_reach(SynthPoint hand, SynthPoint pole);

/** synth_lerp: smoothly (ease in and out) from @a to @b as @w goes 0 to 1. */
SynthPoint synth_lerp(SynthPoint a, SynthPoint b, double w);

/* One keyframe: both hands' positions at a time. */
typedef struct {
	double t;
	SynthPoint hand[2];
} SynthKey;

/** synth_keys_at: the hands between keyframes at @t, eased in and out. */
void synth_keys_at(const SynthKey *keys, guint n_keys, double t, SynthPose *pose);

/* Collects what a recogniser fires. */
typedef struct {
	GestureRecognizer *recognizer;
	GArray *events; /* GestureEvent */
	GString *log;   /* every transition, one per line */
} SynthRun;

/** synth_run_new: a run with a fresh recogniser (@config NULL: defaults) that logs. */
SynthRun *synth_run_new(const GestureConfig *config);
void synth_run_free(SynthRun *run);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SynthRun, synth_run_free)

/** synth_feed: processes @frame at @t seconds and keeps its events. */
void synth_feed(SynthRun *run, const TrackerFrame *frame, double t);

/** synth_feed_pose: one frame with @pose as user 1 at @t seconds. */
void synth_feed_pose(SynthRun *run, const SynthPose *pose, double t);

typedef void (*SynthMotion)(double t, SynthPose *pose, gpointer data);

/**
 * synth_play:
 * Plays @motion for user 1 with a body @height tall, from 0 to @duration
 * seconds at SYNTH_FPS frames per second.
 */
void synth_play(SynthRun *run, double height, double duration, SynthMotion motion, gpointer data);

/** synth_play_keys: synth_play() through keyframes, until a second past the last. */
void synth_play_keys(SynthRun *run, double height, const SynthKey *keys, guint n_keys);

/** synth_count: how many events of @kind by @hand were fired. */
guint synth_count(const SynthRun *run, GestureKind kind, GestureHand hand);

/**
 * synth_assert_only:
 * Fails unless exactly one event was fired, of @kind by @hand of user 1;
 * on failure prints every event and the log.
 */
void synth_assert_only(const SynthRun *run, GestureKind kind, GestureHand hand);

/** synth_assert_none: fails, printing what fired, unless nothing fired. */
void synth_assert_none(const SynthRun *run);

/* The speeds and bodies every gesture is tried with. */
typedef struct {
	const char *name; /* "fires-once-fast-small-body" */
	double duration;  /* s: how long the gesture's movement takes */
	double height;    /* mm */
} SynthCase;

/**
 * synth_add_cases:
 * Registers @test as "/gesture/@gesture/fires-once-SPEED-BODY" for slow,
 * normal and fast (@slow, @normal, @fast seconds) by a small and a tall body.
 */
void synth_add_cases(const char *gesture, double slow, double normal, double fast,
                     GTestDataFunc test);
