/* What the tracker reports: the users in view, each with a stable id and
 * the fifteen joints. This is the whole contract between the tracker and
 * everything downstream (mapping engine, TUIO, gestures, snapshots). */
#pragma once

#include <glib.h>

#include "tracker-joint.h"
#include "tracker-vec.h"

#define TRACKER_MAX_USERS 6

typedef struct {
	TrackerVec3 position; /* camera space, mm */
	double u, v;          /* pixel where the joint is seen */
	/* 0..1. 0 means not found: position, u and v are then meaningless
	 * and consumers leave the joint out. */
	double confidence;
} TrackerJoint;

/* Whether a hand is open (fingers spread), closed (a fist) or cannot be
 * told (too far, edge-on, hidden, or the hand joint not found). */
typedef enum {
	TRACKER_HAND_UNKNOWN = 0,
	TRACKER_HAND_OPEN,
	TRACKER_HAND_CLOSED,
} TrackerHandState;

typedef struct {
	TrackerHandState state;
	double confidence; /* 0..1 in @state; 0 when unknown */
} TrackerHand;

enum { TRACKER_HAND_LEFT = 0, TRACKER_HAND_RIGHT = 1 };

typedef struct {
	/* Stable while the user stays in view; ids start at 1 and are not
	 * reused by the same tracker. */
	guint id;
	TrackerVec3 centre; /* centre of the user's points, mm */
	guint n_pixels;     /* depth pixels on the user */
	TrackerJoint joints[TRACKER_N_JOINTS];
	TrackerHand hands[2]; /* TRACKER_HAND_LEFT, TRACKER_HAND_RIGHT (anatomical) */
} TrackerUser;

typedef struct {
	guint64 frame;  /* the source's frame number */
	gint64 time_us; /* the frame's time, as given to the tracker */
	guint n_users;
	TrackerUser users[TRACKER_MAX_USERS];
} TrackerFrame;

/* What the tracker made of each pixel, for views and snapshots: one byte
 * per depth pixel. User pixels carry TRACKER_LABEL_USER plus the user's
 * index in TrackerFrame.users. */
enum {
	TRACKER_LABEL_NO_READING = 0,
	TRACKER_LABEL_SCENE = 1,      /* kept but not part of a user */
	TRACKER_LABEL_FLOOR = 2,      /* cut away as floor */
	TRACKER_LABEL_BACKGROUND = 3, /* cut away as static background (walls, furniture) */
	TRACKER_LABEL_USER = 8,
};

/** tracker_frame_find_user: the user with @id, or NULL. */
static inline const TrackerUser *
tracker_frame_find_user(const TrackerFrame *frame, guint id)
{
	for (guint i = 0; i < frame->n_users; i++) {
		if (frame->users[i].id == id)
			return &frame->users[i];
	}
	return NULL;
}
