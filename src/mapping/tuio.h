/* Hands as TUIO 1.1 cursors: which hands touch, where they are on the
 * 0..1 surface, how fast they move, and which frames go out.
 *
 * Pure logic: a tracker frame and its time in, a TuioFrame out. Turning a
 * TuioFrame into OSC bundles is the output's job (tuio_pack_*). Session
 * ids and the frame sequence are seeded by the caller (from the clock,
 * spread apart per bridge) so that a restarted bridge is not taken by
 * clients for late frames: the reference clients drop a frame whose fseq
 * is up to 100 below the last one they saw, from any source. Both stay
 * below 2^24 so that Pd, whose numbers are 32-bit floats, reads them
 * exactly; past that they wrap to 1, which clients take for a restart. */
#pragma once

#include <glib.h>

#include "tracker/tracker-types.h"

#define TUIO_MAX_CURSORS (2 * TRACKER_MAX_USERS)
#define TUIO_ID_LIMIT    (1 << 24) /* ids and fseq stay below this */

typedef enum {
	TUIO_PROFILE_2DCUR,  /* /tuio/2Dcur: x y; what every client accepts */
	TUIO_PROFILE_25DCUR, /* /tuio/25Dcur: x y z */
	TUIO_PROFILE_3DCUR,  /* /tuio/3Dcur: x y z */
} TuioProfile;

typedef enum {
	TUIO_TOUCH_ALWAYS, /* a tracked hand is always a cursor */
	TUIO_TOUCH_PUSH,   /* the hand pushed through a plane in front of the shoulders */
	TUIO_TOUCH_RAISED, /* the hand raised above a height relative to the shoulder */
	TUIO_TOUCH_GRIP,   /* the hand closed into a fist (mapping-hands.h) */
} TuioTouch;

typedef enum {
	TUIO_BOX_BODY,   /* a box that follows each user, sized by their reach */
	TUIO_BOX_CAMERA, /* a fixed box in camera space */
} TuioBox;

/* Body-relative lengths are in units of the user's reach: shoulder to
 * elbow plus elbow to hand, measured from the skeleton. */
typedef struct {
	TuioProfile profile;    /* default 2Dcur */
	TuioTouch touch;        /* default push */
	double push_depth;      /* hand this far in front of its shoulder touches; 0.6 */
	double push_release;    /* ...and lets go when back behind this; 0.5 */
	double raised_height;   /* hand this far above its shoulder touches; 0.0 */
	double raised_release;  /* ...and lets go below this; -0.08 */
	double min_confidence;  /* a hand below this is not a cursor; 0.3 */
	TuioBox box;            /* default body */
	double body_width;      /* box width, centred on the shoulders' midpoint; 1.2 */
	double body_height;     /* box height; 1.0 */
	double body_raise;      /* box centre above the shoulders; -0.1 */
	TrackerVec3 camera_min; /* the fixed box, mm */
	TrackerVec3 camera_max;
	gboolean mirror;     /* the user's right is the surface's right; TRUE */
	guint empty_repeats; /* empty frames sent after the last cursor goes; 5 */
	gint64 keepalive_us; /* an empty frame this often when idle; 1 s */
} TuioConfig;

typedef struct {
	gint32 session;
	guint user;
	TrackerJointId hand; /* TRACKER_JOINT_LEFT_HAND or TRACKER_JOINT_RIGHT_HAND */
	float x, y, z;       /* 0..1: left to right, top to bottom, shoulders to full reach */
	float vx, vy, vz;    /* axis lengths per second */
	float accel;         /* change of speed per second */
} TuioCursor;

typedef struct {
	gint32 fseq;
	gint64 time_us;
	guint n_cursors; /* every live cursor: the alive list, each with its set */
	TuioCursor cursors[TUIO_MAX_CURSORS];
} TuioFrame;

typedef struct _TuioState TuioState;

/** tuio_config_init: the documented defaults. */
void tuio_config_init(TuioConfig *config);

/**
 * tuio_state_new:
 * @seed: first frame sequence number and first session id, both positive;
 *   tuio_seed_from_clock() gives one.
 */
TuioState *tuio_state_new(const TuioConfig *config, gint32 seed);

/**
 * tuio_state_new_full:
 * As tuio_state_new(), with the first session id and the first frame
 * sequence number apart: both positive, below TUIO_ID_LIMIT.
 */
TuioState *tuio_state_new_full(const TuioConfig *config, gint32 session_seed, gint32 fseq_seed);
void tuio_state_free(TuioState *state);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(TuioState, tuio_state_free)

/** tuio_state_set_config: a reloaded mapping; live cursors keep their ids. */
void tuio_state_set_config(TuioState *state, const TuioConfig *config);

/**
 * tuio_state_update:
 * Follows the hands of @frame. Fills @out and returns TRUE when a frame
 * should go out now: while there are cursors, for a few frames after the
 * last one goes, and once every keepalive interval when idle.
 */
gboolean tuio_state_update(TuioState *state, const TrackerFrame *frame, TuioFrame *out);

/** tuio_state_finish: the last frame on shutdown: no cursors. */
void tuio_state_finish(TuioState *state, gint64 time_us, TuioFrame *out);

/**
 * tuio_state_raise_fseq:
 * The next frame's fseq is at least @floor, as tuio_fseq_after() counts:
 * the sequence jumps forward to it, never back.
 */
void tuio_state_raise_fseq(TuioState *state, gint32 floor);

/** tuio_state_last_fseq: the fseq of the last frame out, 0 before the first. */
gint32 tuio_state_last_fseq(const TuioState *state);

/**
 * tuio_seed_from_clock:
 * A seed that grows 30 per second of @unix_time_us, as fast as frames do
 * at the Kinect's rate, from 1 to below TUIO_ID_LIMIT (it wraps about
 * every six and a half days).
 */
gint32 tuio_seed_from_clock(gint64 unix_time_us);

/**
 * tuio_seed_spread:
 * Where @text (what sets a bridge apart: its source name, its target...)
 * puts a bridge in the id space: a number from 0 to below TUIO_ID_LIMIT - 1,
 * spread evenly over it by a cryptographic hash.
 */
guint32 tuio_seed_spread(const char *text);

/** tuio_seed_mix: @seed moved @spread places on, wrapping as ids do (1 follows the last). */
gint32 tuio_seed_mix(gint32 seed, guint32 spread);

/**
 * tuio_fseq_after:
 * @a comes after @b: it is less than half the id range ahead of @b,
 * counting on past the wrap (1 comes after TUIO_ID_LIMIT - 1).
 */
gboolean tuio_fseq_after(gint32 a, gint32 b);
