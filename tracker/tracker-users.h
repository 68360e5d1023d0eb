/* People over time: stable ids, smoothing, and joints carried through
 * short losses.
 *
 * Each person found in a frame is matched to the tracked user whose head
 * was where theirs is, else to the nearest by the centre of their cells
 * (which moves when their surface takes in a neighbour's), or becomes a
 * new user; a user is reported, with a new id, once their body is seen
 * to be a person's. Ids count up from 1 and are never given out twice.
 * Every joint coordinate goes through a One Euro filter. A joint the
 * frame does not give, or a user the frame does not show, is carried at
 * its last place for a while with a confidence that fades to nothing.
 *
 * A person is one user. A track is not reported where a user seen now
 * stands: held after its person was lost, it is a stale copy of that
 * person found again as another track; seen too, it is a piece of their
 * body the segmenter split off, and the piece with more of the body is
 * the user. A track held behind a user seen now, hidden by them, is
 * reported while it fades. */
#pragma once

#include <glib.h>

#include "tracker-body.h"
#include "tracker-euro.h"
#include "tracker-hand.h"
#include "tracker-limb.h"
#include "tracker-segment.h"
#include "tracker-types.h"

#define TRACKER_USERS_MAX      12
#define TRACKER_USERS_MOVED_MM 100.0
#define TRACKER_USERS_STILL_US (60 * G_USEC_PER_SEC)

typedef struct {
	gboolean smoothing;
	TrackerEuroParams euro;
	gint64 joint_hold_us;
	gint64 user_timeout_us;
} TrackerUsersParams;

typedef struct {
	gboolean active;
	/* Reported once it looked like a person: a track starts from a
	 * surface with a head, and is one once the sensor does not see
	 * through its legs and, where the sensor watched it come, it is
	 * lively (see tracker_verify() in tracker.c). Its id is given then.
	 * Given up when its torso turns out not to be one (see
	 * tracker_judge_again()). */
	gboolean verified;
	/* Verified on its shape from its first frames, before the misfit's
	 * mean had a fraction of a second behind it: judged again then. */
	gboolean first_shape;
	guint id; /* 0 while not verified */
	gint64 last_seen_us;
	gboolean seen_now; /* a person matched it this frame */
	/* The track of the user reported where this one stands this frame,
	 * this one not reported (see tracker_users_output()); -1 if none. */
	int same_as;
	TrackerVec3 centre;
	guint n_pixels;
	double height;       /* mm, the tallest seen (people stoop, rarely grow) */
	gint64 head_seen_us; /* when the head's outline was last seen */
	guint frames;        /* frames fitted */
	/* Where and when it was first seen, and whether it has moved since:
	 * a user who never moved is not shielded from the room for ever. */
	gboolean placed;
	TrackerVec3 first_centre;
	gint64 first_seen_us;
	gboolean moved;
	/* How fast its centre moves, mm/s, a running mean over a fraction of
	 * a second, as of @placed_us. */
	TrackerVec3 velocity;
	gint64 placed_us;
	/* Some of it came into view (see tracker-fresh.h): the area, over the
	 * frames that showed enough of it, and whether it is lively: that, or
	 * it is where a lively track was a moment ago. */
	double fresh_mm2;
	gboolean lively;
	/* The share of its torso band that the torso's stadium lies on
	 * (TrackerBody's torso_on), a running mean over about a second, as of
	 * @torso_on_us; and since when that mean has been too low with
	 * nothing of it coming into view (0: it has not). */
	double torso_on;
	gint64 torso_on_us;
	/* TrackerBody's torso_misfit, a running mean over a fraction of a
	 * second, as of @misfit_us: one frame's good fit is chance. */
	double misfit;
	gint64 misfit_us;
	gint64 off_since_us;
	gboolean has_body;
	TrackerBody body;
	TrackerLimbPose limbs[TRACKER_N_LIMBS];
	TrackerEuro filters[TRACKER_N_JOINTS][3];
	TrackerJoint joints[TRACKER_N_JOINTS]; /* as last reported */
	double seen_confidence[TRACKER_N_JOINTS];
	gint64 joint_seen_us[TRACKER_N_JOINTS];
	/* TRACKER_HAND_LEFT, TRACKER_HAND_RIGHT: as last reported, and what
	 * the hysteresis holds. */
	TrackerHand hands[2];
	TrackerHandMemory hand_memory[2];
} TrackerTrack;

typedef struct {
	TrackerTrack tracks[TRACKER_USERS_MAX];
	guint next_id;
} TrackerUsers;

/** tracker_users_reset: forgets every user; ids start again from 1. */
void tracker_users_reset(TrackerUsers *users);

/** tracker_users_hints: where the tracked users were, for the segmenter. */
guint tracker_users_hints(const TrackerUsers *users, TrackerSegmentHint *hints, int *tracks,
                          guint max);

/**
 * tracker_users_match:
 * Matches the frame's @people to tracks, starting new tracks for the
 * rest; @track_of receives a track index per person (-1: no room).
 */
void tracker_users_match(TrackerUsers *users, const TrackerPerson *people, guint n_people,
                         const int *hint_tracks, int *track_of);

/**
 * tracker_users_update:
 * Gives track @t this frame's joints (@confidence 0: not found).
 */
void tracker_users_update(TrackerUsers *users, int t, const TrackerCamera *camera,
                          const TrackerVec3 joints[TRACKER_N_JOINTS],
                          const double confidence[TRACKER_N_JOINTS],
                          const TrackerUsersParams *params, gint64 time_us);

/**
 * tracker_users_hands:
 * Gives track @t this frame's hand states (unknown when not told).
 */
void tracker_users_hands(TrackerUsers *users, int t, const TrackerHand seen[2]);

/**
 * tracker_users_place:
 * Track @t's person is at @centre (the centre of their cells) at
 * @time_us: it has moved once it is TRACKER_USERS_MOVED_MM from where it
 * was first seen.
 */
void tracker_users_place(TrackerUsers *users, int t, TrackerVec3 centre, gint64 time_us);

/**
 * tracker_users_note_torso:
 * Track @t's body at @time_us has @torso_on (TrackerBody's): returns the
 * running mean of it over about a second.
 */
double tracker_users_note_torso(TrackerUsers *users, int t, double torso_on, gint64 time_us);

/**
 * tracker_users_note_misfit:
 * Track @t's body at @time_us has @misfit (TrackerBody's torso_misfit):
 * returns the running mean of it over a fraction of a second.
 */
double tracker_users_note_misfit(TrackerUsers *users, int t, double misfit, gint64 time_us);

/**
 * tracker_users_shielded:
 * Whether the room must not learn track @t's cells: a user who has moved,
 * or one seen for less than TRACKER_USERS_STILL_US. A person stands
 * still for minutes, but not from before the tracker started to an
 * hour on; a coat stand that passed for one does.
 */
gboolean tracker_users_shielded(const TrackerUsers *users, int t, gint64 time_us);

/** tracker_users_verify: track @t is a person: reported from now on, with an id. */
void tracker_users_verify(TrackerUsers *users, int t);

/**
 * tracker_users_give_up: track @t was not a person after all: no longer
 * reported, its id gone, and not lively; verified again only once it is
 * lively anew.
 */
void tracker_users_give_up(TrackerUsers *users, int t);

/**
 * tracker_users_output:
 * Ages the tracks that this frame did not show, drops the expired ones,
 * and writes the users to report into @frame (at most @max_users): not
 * those where a user seen now stands, whose same_as is set to that
 * user's track.
 */
void tracker_users_output(TrackerUsers *users, const TrackerUsersParams *params, gint64 time_us,
                          guint max_users, TrackerFrame *frame);
