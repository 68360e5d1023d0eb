/* Whether each user's hands are closed, frame after frame: the grip that
 * hand_close and hand_open events and TUIO's touch = grip follow.
 *
 * Pure logic: the tracker's hand states in, each hand's grip and this
 * frame's closings and openings out. A hand closes on the first frame the
 * tracker calls it closed. It opens again when the tracker calls it open,
 * or when it has not called it closed for MAPPING_GRIP_RELEASE_US (a fist
 * that drops out of sight, or that the tracker cannot tell for a moment,
 * does not open and close again with every unsure frame). A user who
 * leaves the view opens their closed hands, so that every hand_close is
 * followed by a hand_open. */
#pragma once

#include <glib.h>

#include "tracker/tracker-types.h"

/* How long a closed hand the tracker cannot tell stays closed. */
#define MAPPING_GRIP_RELEASE_US (300 * 1000)

typedef struct {
	gboolean closed;
	gint64 unsure_us; /* while closed: when the tracker stopped calling it closed; or -1 */
} MappingGrip;

/**
 * mapping_hands_seen:
 * @user's hand on @side (TRACKER_HAND_LEFT or TRACKER_HAND_RIGHT) as a
 * mapping may use it: unknown, with confidence 0, when its joint is not
 * found, whatever the state says.
 */
TrackerHand mapping_hands_seen(const TrackerUser *user, int side);

/** mapping_hands_grip_init: an open hand. */
void mapping_hands_grip_init(MappingGrip *grip);

/**
 * mapping_hands_grip_update:
 * Moves @grip on to @hand as of @now_us; a hand whose joint is not found
 * is passed as unknown. Returns whether it is closed.
 */
gboolean mapping_hands_grip_update(MappingGrip *grip, const TrackerHand *hand, gint64 now_us);

typedef struct _MappingHands MappingHands;

typedef struct {
	guint user;      /* the user's id */
	int side;        /* TRACKER_HAND_LEFT or TRACKER_HAND_RIGHT */
	gboolean closed; /* closed; else opened */
} MappingHandChange;

/** mapping_hands_new: every hand open; with @previous, the grips it had (a reload). */
MappingHands *mapping_hands_new(const MappingHands *previous);
void mapping_hands_free(MappingHands *hands);

/** mapping_hands_update: moves every grip on to @frame. */
void mapping_hands_update(MappingHands *hands, const TrackerFrame *frame);

/** mapping_hands_changes: the closings and openings of the last update, @n of them. */
const MappingHandChange *mapping_hands_changes(const MappingHands *hands, guint *n);
