#include "tracker.h"

#include <math.h>
#include <string.h>

#include "tracker-background.h"
#include "tracker-body.h"
#include "tracker-floor.h"
#include "tracker-fresh.h"
#include "tracker-grid.h"
#include "tracker-hand.h"
#include "tracker-limb.h"
#include "tracker-planes.h"
#include "tracker-segment.h"
#include "tracker-users.h"

/* The formatter would space the quark's name out as a subtraction. */
/* clang-format off */
G_DEFINE_QUARK(skelbridge-tracker-error-quark, tracker_error)
/* clang-format on */

#define SEARCH_EVERY 8 /* frames between full searches of a tracked body */
#define NOT_REPORTED 0xff
/* A torso refitted without the arms that moved less than this keeps the
 * limbs fitted on it: they would not move. */
#define REFINE_MOVE_MM  5.0
#define REFINE_TURN_RAD 0.02
/* A hand whose forearm is within this of straight down hangs, this far
 * below the torso; with no torso found, within the third
 * (tracker_hand_hangs()). */
#define HAND_HANG_DEG       60.0
#define HAND_HANG_BELOW_MM  150.0
#define HAND_HANG_ALONE_DEG 40.0
#define HAND_HIDDEN_MM      150.0 /* a hand this far behind what is seen at it */
/* A person's legs' column: seen through at no more than this share of
 * the points judged, when at least this many are. */
#define VERIFY_MAX_THROUGH 0.45
#define VERIFY_MIN_JUDGED  8
#define VERIFY_MIN_LEGS    0.025 /* square body heights below the pelvis */
#define VERIFY_MIN_OWN     0.015 /* ...the person's own: a plant's pot is not */
/* A torso band the stadium fits worse than this (mm^2 a point, the torso
 * fit's cost: tracker-body.c) is not a person's by its shape alone. The
 * real frames' people cost 275-386, the demo's plants 448-609. */
#define VERIFY_MAX_MISFIT 420.0
/* ...judged again over this much of a track's first frames, the time of
 * the misfit's mean (tracker-users.c), when one frame verified it. */
#define SHAPE_JUDGED_US (300 * G_TIME_SPAN_MILLISECOND)
#define ROOM_MARGIN_MM  150.0 /* about a user, cells the room does not learn */
#define PERSON_DEPTH_MM 600.0 /* a body reaches no farther back than this from its centre */
/* Lively: this much of a track came into view (tracker-fresh.h),
 * counting the frames that showed at least a hand's worth. A track whose
 * cells mostly can tell must be lively to be verified. */
#define LIVELY_FRAME_MM2 3000.0
#define LIVELY_MM2       12000.0
#define LIVELY_KNOWN     0.5
/* ...or most of it is where a lively track's body was this recently: a
 * person the segmenter lost in a group and found again, still, or one
 * who was behind that body, this much farther (tracker_lived_at()). */
#define LIVED_US        (3 * G_USEC_PER_SEC)
#define LIVED_SHARE     0.5
#define LIVED_BEHIND_MM 300.0
G_STATIC_ASSERT(TRACKER_USERS_MAX <= G_MAXUINT8 + 1); /* lived_by holds a track */
/* free_by: no track was on the cell, or none that is a person. */
#define NO_TRACK G_MAXUINT8
G_STATIC_ASSERT(TRACKER_USERS_MAX <= NO_TRACK);
/* Faster than this over the ground, mm/s, a track is walking; side-on
 * (turned more than SIDE_ON_RAD) and facing more than about 120 degrees
 * from the way it goes, it faces the wrong way. Facing away, within
 * FACING_RAD of the sensor's axis, and not walking side-on, it is taken
 * to face the sensor again. */
#define WALK_MM_S    500.0
#define WALK_AGAINST 0.5
#define SIDE_ON_RAD  0.7
#define FACING_RAD   0.5
/* A user is given up once the stadium has lain on less than this share
 * of its torso band, as a running mean over about a second, for GIVE_UP_US
 * with nothing of it coming into view. People seated on a sofa, or
 * leaning on a wall, fall to twice this at times; a shelf a track
 * followed someone onto, or a desk and its monitor, stay under it. */
#define GIVE_UP_ON 0.06
#define GIVE_UP_US (1 * G_USEC_PER_SEC)

typedef enum {
	TRACKER_LABELS_NONE, /* no frame yet */
	TRACKER_LABELS_LIVE, /* the segmenter still holds the last frame */
	TRACKER_LABELS_KEPT, /* kept in labels: a worker may be on the next frame */
} TrackerLabelsState;

struct _Tracker {
	TrackerSettings settings;
	TrackerUsersParams users_params;
	TrackerSegmentParams segment_params;
	TrackerGrid grid;
	TrackerFloor floor;
	TrackerPlanes *planes;
	TrackerBackground *background;
	TrackerFresh *fresh;
	const guint8 *fresh_mask;        /* this frame's, from tracker_fresh_update() */
	gint64 *lived_us;                /* per cell: when a lively track's body was last on it */
	guint8 *lived_by;                /* ...which track's */
	float *lived_z;                  /* ...and the depth there then, mm */
	float *free_z;                   /* per cell: what it read before anyone was on it, mm */
	guint8 *free_by;                 /* ...the track on it then, or NO_TRACK */
	guint8 *room;                    /* per cell: the room's (a flat surface, or as it stays) */
	TrackerBackgroundPerson *people; /* per cell: the user on or about it */
	guint8 *near;                    /* per cell: scratch for tracker_mark_person() */
	TrackerSegmenter *segmenter;
	TrackerLimbFitter *limbs;
	TrackerHandFinder *hands;
	const guint16 *depth_mm; /* the frame being tracked */
	TrackerUsers users;
	gboolean have_time;
	gint64 last_time_us;
	gint busy; /* atomic: a frame is being tracked */
	/* Per person of the segmenter, their index in the frame's users. */
	guint8 user_of[TRACKER_SEGMENT_MAX_PEOPLE];
	TrackerLabelsState labels_state;
	guint8 *labels; /* per cell, when TRACKER_LABELS_KEPT */
	/* As of the last frame given back: a worker may be on the next one. */
	TrackerCameraPose pose;
};

void
tracker_settings_init(TrackerSettings *s)
{
	g_return_if_fail(s != NULL);

	memset(s, 0, sizeof(*s));
	tracker_camera_init_kinect(&s->camera);
	s->max_users = 6;
	s->min_user_pixels = 1500;
	s->min_user_height_mm = 900.0;
	s->max_depth_mm = 6000.0;
	s->smoothing = TRUE;
	s->min_cutoff_hz = 1.0;
	s->beta = 0.007;
	s->d_cutoff_hz = 1.0;
	s->joint_hold_us = 300000;
	s->user_timeout_us = 1000000;
	s->camera_height_mm = 0.0;
	s->camera_tilt_deg = 0.0;
	s->camera_roll_deg = 0.0;
}

/* What is wrong with the camera pose, or NULL. */
static const char *
tracker_settings_check_pose(const TrackerSettings *s)
{
	double h = s->camera_height_mm;

	if (!(h == 0.0 || (h >= 200.0 && h <= 4000.0)))
		return "camera_height_mm: must be 0 (not given) or 200 to 4000 mm";
	if (!(fabs(s->camera_tilt_deg) <= 60.0))
		return "camera_tilt_deg: must be -60 to 60 degrees";
	if (!(fabs(s->camera_roll_deg) <= 45.0))
		return "camera_roll_deg: must be -45 to 45 degrees";
	return NULL;
}

gboolean
tracker_settings_check(const TrackerSettings *s, GError **error)
{
	const TrackerCamera *c = &s->camera;
	const char *bad = NULL;

	if (c->width < 32 || c->height < 32 || c->width > 4096 || c->height > 4096)
		bad = "camera: image size must be 32 to 4096 pixels a side";
	else if (!(c->fx > 0.0 && c->fy > 0.0))
		bad = "camera: focal lengths must be positive";
	else if (s->max_users < 1 || s->max_users > TRACKER_MAX_USERS)
		bad = "max_users: must be 1 to TRACKER_MAX_USERS";
	else if (!(s->max_depth_mm > 0.0))
		bad = "max_depth_mm: must be positive";
	else if (!(s->min_cutoff_hz > 0.0) || !(s->d_cutoff_hz > 0.0) || !(s->beta >= 0.0))
		bad = "smoothing: cutoffs must be positive and beta not negative";
	else if (s->joint_hold_us < 0 || s->user_timeout_us < 0)
		bad = "joint_hold_us, user_timeout_us: must not be negative";
	else
		bad = tracker_settings_check_pose(s);
	if (bad == NULL)
		return TRUE;
	g_set_error(error, TRACKER_ERROR, TRACKER_ERROR_SETTINGS, "tracker settings: %s", bad);
	return FALSE;
}

/* The camera pose the floor gives, kept for tracker_get_camera_pose(). */
static void
tracker_note_pose(Tracker *t)
{
	const TrackerFloor *floor = &t->floor;
	TrackerCameraPose *pose = &t->pose;

	pose->floor = floor->seen    ? TRACKER_FLOOR_SEEN
	              : floor->found ? TRACKER_FLOOR_ASSUMED
	                             : TRACKER_FLOOR_UNKNOWN;
	pose->height_mm = floor->found ? floor->offset : 0.0;
	tracker_floor_pose_from_up(floor->up, &pose->tilt_deg, &pose->roll_deg);
}

Tracker *
tracker_new(const TrackerSettings *settings, GError **error)
{
	TrackerSettings defaults;
	Tracker *t;

	if (settings == NULL) {
		tracker_settings_init(&defaults);
		settings = &defaults;
	}
	if (!tracker_settings_check(settings, error))
		return NULL;
	t = g_new0(Tracker, 1);
	t->settings = *settings;
	t->users_params.smoothing = settings->smoothing;
	t->users_params.euro.min_cutoff = settings->min_cutoff_hz;
	t->users_params.euro.beta = settings->beta;
	t->users_params.euro.d_cutoff = settings->d_cutoff_hz;
	t->users_params.joint_hold_us = settings->joint_hold_us;
	t->users_params.user_timeout_us = settings->user_timeout_us;
	t->segment_params.min_person_pixels = settings->min_user_pixels;
	t->segment_params.min_head_height = settings->min_user_height_mm;
	t->segment_params.max_depth = settings->max_depth_mm;
	t->segment_params.max_people = TRACKER_SEGMENT_MAX_PEOPLE;
	tracker_grid_init(&t->grid, &settings->camera);
	t->planes = tracker_planes_new(&t->grid);
	t->background = tracker_background_new(&t->grid);
	t->fresh = tracker_fresh_new(&t->grid);
	t->lived_us = g_new0(gint64, t->grid.n);
	t->lived_by = g_new0(guint8, t->grid.n);
	t->lived_z = g_new0(float, t->grid.n);
	t->free_z = g_new0(float, t->grid.n);
	t->free_by = g_new0(guint8, t->grid.n);
	t->room = g_new0(guint8, t->grid.n);
	t->people = g_new0(TrackerBackgroundPerson, t->grid.n);
	t->near = g_new0(guint8, t->grid.n);
	t->segmenter = tracker_segmenter_new(&t->grid);
	t->limbs = tracker_limb_fitter_new(&t->grid);
	t->hands = tracker_hand_finder_new();
	tracker_floor_init(&t->floor);
	tracker_floor_set_prior(
	        &t->floor,
	        tracker_floor_up_from_pose(settings->camera_tilt_deg, settings->camera_roll_deg),
	        settings->camera_height_mm);
	tracker_note_pose(t);
	tracker_users_reset(&t->users);
	return t;
}

void
tracker_free(Tracker *t)
{
	if (t == NULL)
		return;
	tracker_grid_clear(&t->grid);
	tracker_planes_free(t->planes);
	tracker_background_free(t->background);
	tracker_fresh_free(t->fresh);
	g_free(t->lived_us);
	g_free(t->lived_by);
	g_free(t->lived_z);
	g_free(t->free_z);
	g_free(t->free_by);
	g_free(t->room);
	g_free(t->people);
	g_free(t->near);
	tracker_segmenter_free(t->segmenter);
	tracker_limb_fitter_free(t->limbs);
	tracker_hand_finder_free(t->hands);
	g_free(t->labels);
	g_free(t);
}

const TrackerSettings *
tracker_get_settings(const Tracker *t)
{
	return &t->settings;
}

void
tracker_get_camera_pose(const Tracker *t, TrackerCameraPose *pose)
{
	g_return_if_fail(t != NULL && pose != NULL);

	*pose = t->pose;
}

gboolean
tracker_camera_pose_to_room(const TrackerCameraPose *pose, TrackerVec3 p, TrackerVec3 *room)
{
	TrackerVec3 up, forward;

	g_return_val_if_fail(pose != NULL && room != NULL, FALSE);

	if (pose->floor == TRACKER_FLOOR_UNKNOWN)
		return FALSE;
	up = tracker_floor_up_from_pose(pose->tilt_deg, pose->roll_deg);
	/* The sensor's axis laid on the floor; tilt stays within 45 degrees. */
	forward = tracker_vec3_normalize(tracker_vec3_mad(tracker_vec3(0, 0, 1), up, up.z * -1.0));
	room->x = tracker_vec3_dot(tracker_vec3_cross(up, forward), p);
	room->y = tracker_vec3_dot(up, p) + pose->height_mm;
	room->z = tracker_vec3_dot(forward, p);
	return TRUE;
}

double
tracker_camera_pose_height(const TrackerCameraPose *pose, TrackerVec3 p)
{
	TrackerVec3 room;

	g_return_val_if_fail(pose != NULL, NAN);

	return tracker_camera_pose_to_room(pose, p, &room) ? room.y : NAN;
}

void
tracker_reset(Tracker *t)
{
	guint next_id = t->users.next_id;

	tracker_floor_reset(&t->floor);
	tracker_note_pose(t);
	tracker_planes_reset(t->planes);
	tracker_background_reset(t->background);
	tracker_fresh_reset(t->fresh);
	memset(t->lived_us, 0, t->grid.n * sizeof(gint64));
	memset(t->free_z, 0, t->grid.n * sizeof(float));
	tracker_users_reset(&t->users);
	t->users.next_id = next_id;
	t->have_time = FALSE;
}

/* Joints a frame cannot place well get less confidence. Those outside
 * the image are left out, limbs' as well as the trunk's: they would be a
 * guess from the body model, and a guess dragged into view is worse
 * than none. */
static void
tracker_joint_confidence(const Tracker *t, const TrackerPerson *person, const TrackerVec3 *joints,
                         double *confidence)
{
	const TrackerCamera *c = &t->settings.camera;

	for (int j = 0; j < TRACKER_N_JOINTS; j++) {
		double u, v;

		if (j == TRACKER_JOINT_HEAD)
			confidence[j] = !person->head.found    ? 0.3
			                : person->head.above   ? 0.0
			                : person->head.cut_top ? 0.5
			                                       : 1.0;
		else if (j <= TRACKER_JOINT_RIGHT_SHOULDER || j == TRACKER_JOINT_LEFT_HIP ||
		         j == TRACKER_JOINT_RIGHT_HIP)
			confidence[j] = 0.9;
		if (!tracker_camera_project(c, joints[j], &u, &v) || u < 0 || v < 0 ||
		    u >= c->width || v >= c->height)
			confidence[j] = 0.0;
	}
}

/* Whether cell @k came into view with a neighbour: one cell alone is the
 * sensor's noise more often than not. */
static inline gboolean
tracker_fresh_at(const Tracker *t, int k)
{
	const guint8 *m = t->fresh_mask;
	int w = t->grid.width;

	return m[k] == TRACKER_FRESH_NEARER &&
	       ((k % w > 0 && m[k - 1] == TRACKER_FRESH_NEARER) ||
	        (k % w < w - 1 && m[k + 1] == TRACKER_FRESH_NEARER) ||
	        (k >= w && m[k - w] == TRACKER_FRESH_NEARER) ||
	        (k + w < t->grid.n && m[k + w] == TRACKER_FRESH_NEARER));
}

/* Whether a lively track's body was on cell @k within LIVED_US. */
static inline gboolean
tracker_lived_lately(const Tracker *t, int k, gint64 time_us)
{
	return t->lived_us[k] > 0 && time_us - t->lived_us[k] < LIVED_US;
}

/* Whether cell @k reads the depth noted in free_z. */
static inline gboolean
tracker_reads_free(const Tracker *t, int k)
{
	return t->free_z[k] > 0.0f && tracker_grid_same_depth(t->grid.z[k], t->free_z[k]);
}

/* Whether cell @k reads what it read before anyone was on it: what is
 * there now was there then (the desk or the coat stand a person walked
 * past, not a person who was behind them). */
static inline gboolean
tracker_was_free_at(const Tracker *t, int k)
{
	return t->free_by[k] == NO_TRACK && tracker_reads_free(t, k);
}

/* Notes what cells read this frame where no one is now nor was lately:
 * no person segmented on them, and no lively track's body for LIVED_US.
 * A reading nearer than the one noted is not taken: a person walking in
 * is not always a person to the segmenter on their first frames, and
 * the desk they pass in front of is what the cell read before them. A
 * cell's first reading is taken whoever is on it, with the track on it
 * in free_by: it tells what was there only once that track is given up,
 * not a person (a shelf verified on its first frames and judged again),
 * and never while it may be one (a person standing there from the first
 * frame, who is found again when someone has passed in front). */
static void
tracker_note_free(Tracker *t, const int *track_of, gint64 time_us)
{
	const guint16 *labels = tracker_segmenter_labels(t->segmenter);

	for (int k = 0; k < t->grid.n; k++) {
		if (t->grid.z[k] > 0.0f && (labels[k] == 0 || t->free_z[k] == 0.0f) &&
		    t->grid.z[k] > t->free_z[k] - tracker_grid_depth_error(t->grid.z[k]) &&
		    !tracker_lived_lately(t, k, time_us)) {
			int tr = labels[k] == 0 ? -1 : track_of[labels[k] - 1];

			if (!tracker_reads_free(t, k))
				t->free_by[k] = tr >= 0 ? (guint8)tr : NO_TRACK;
			t->free_z[k] = t->grid.z[k];
		}
	}
}

/* Whether a lively track's body was on cell @k lately in a way that may
 * make track @tr lively: its own body, or a track not seen this frame
 * (the segmenter lost that person, and @tr may be them found again), or
 * a body nearer than what the cell reads now (@tr may have been behind
 * it). A track seen elsewhere now is the person who was there gone on:
 * what they stood beside, at their depth (the plant they brushed past
 * and were merged with), did not live there. Nor did anything another
 * body was on that reads what it read before anyone was there
 * (tracker_was_free_at()): the coat stand a person walked past in
 * front of, seen again behind where they were. */
static inline gboolean
tracker_lived_at(const Tracker *t, int k, int tr, gint64 time_us)
{
	const TrackerTrack *by = &t->users.tracks[t->lived_by[k]];

	return tracker_lived_lately(t, k, time_us) &&
	       (t->lived_by[k] == tr ||
	        (!tracker_was_free_at(t, k) &&
	         (!by->active || !by->seen_now || t->grid.z[k] > t->lived_z[k] + LIVED_BEHIND_MM)));
}

/* Whether a track came into view: enough surface, over its frames,
 * nearer than what the sensor read there before. */
static inline gboolean
tracker_track_came_in(const TrackerTrack *track)
{
	return track->fresh_mm2 >= LIVELY_MM2;
}

/* Notes what of track @tr's cells came into view this frame (@fresh_now:
 * enough to count), and whether that (or where it is) makes it lively;
 * returns the share of its cells that could tell. */
static double
tracker_note_fresh(Tracker *t, const TrackerBodyCells *cells, int tr, gint64 time_us,
                   gboolean *fresh_now)
{
	TrackerTrack *track = &t->users.tracks[tr];
	const TrackerGrid *grid = &t->grid;
	double area = 0.0;
	guint known = 0, all = 0, lived = 0;

	TRACKER_BODY_FOREACH_CELL(cells, k)
	{
		double side;

		if (cells->labels[k] != cells->label)
			continue;
		all++;
		known += t->fresh_mask[k] != TRACKER_FRESH_UNKNOWN;
		lived += tracker_lived_at(t, k, tr, time_us);
		if (!tracker_fresh_at(t, k))
			continue;
		side = tracker_grid_cell_mm(grid, grid->z[k]);
		area += grid->count[k] * side * side / (TRACKER_GRID_STEP * TRACKER_GRID_STEP);
	}
	*fresh_now = area >= LIVELY_FRAME_MM2;
	if (*fresh_now)
		track->fresh_mm2 += area;
	track->lively = track->lively || tracker_track_came_in(track) ||
	                (all > 0 && lived >= LIVED_SHARE * all);
	return all > 0 ? (double)known / all : 0.0;
}

/* Where a lively track's body is: the cells its trunk and limbs explain,
 * not all the segmenter gave it (the sofa a person sits on). */
static void
tracker_note_lived(Tracker *t, const TrackerBodyCells *cells, int tr, gint64 time_us)
{
	const guint8 *core = tracker_limb_core(t->limbs), *limbs = tracker_limb_claims(t->limbs);

	if (!t->users.tracks[tr].lively)
		return;
	TRACKER_BODY_FOREACH_CELL(cells, k)
	{
		if (cells->labels[k] == cells->label && (core[k] || limbs[k])) {
			t->lived_us[k] = time_us;
			t->lived_by[k] = (guint8)tr;
			t->lived_z[k] = t->grid.z[k];
		}
	}
}

/* Track @tr is given up: no longer a user, its id gone, and none of the
 * cells it lived on count (tracker_judge_again()). What the cells it was
 * on when first read read then was no person's (tracker_note_free()). */
static void
tracker_give_up(Tracker *t, int tr)
{
	tracker_users_give_up(&t->users, tr);
	for (int k = 0; k < t->grid.n; k++) {
		if (t->lived_by[k] == tr)
			t->lived_us[k] = 0;
		if (t->free_by[k] == tr)
			t->free_by[k] = NO_TRACK;
	}
}

/* A track verified on its shape from its first frames, when the torso
 * misfit's mean was one frame or a few, is judged again on the mean once
 * it has SHAPE_JUDGED_US behind it: a plant's leaves fitted the stadium
 * on the first frame by chance, and on none after. Not one that came
 * into view or moved meanwhile (lively): a person who bows. */
static void
tracker_judge_first_shape(Tracker *t, int tr, double misfit, gint64 time_us)
{
	TrackerTrack *track = &t->users.tracks[tr];

	if (!track->first_shape || time_us - track->first_seen_us < SHAPE_JUDGED_US)
		return;
	track->first_shape = FALSE;
	if (misfit > VERIFY_MAX_MISFIT && !track->lively)
		tracker_give_up(t, tr);
}

/* A track becomes a user once its body is a person's: the sensor does
 * not see through most of where the legs would be, and the person's own
 * surface is there, or it shows legs forward, seated; or it came into
 * view and has legs of its own, whatever the stride; with nothing to go
 * on (legs hidden behind a desk, or out of view), at once. Otherwise
 * never while the column is seen through at some height with no more of
 * the person about it than a pole: a coat stand's pole, a plant's stem
 * over its pot; nor, judged by its shape, while its torso fits the
 * torso's stadium badly over a fraction of a second (a plant's leaves
 * behind a chair; one frame's good fit is chance, and the clutter
 * room's furniture passed on one). And where the sensor has watched the
 * track's cells for a while (@told), only once it is lively: a person
 * came into view there, or moved, or is one the segmenter lost a moment
 * ago or one who was behind someone. Furniture
 * the segmenter takes for a person later on (the sofa left behind when
 * someone gets up, a cabinet and the wall beside it) does neither. What
 * is in view from the first frames is judged by its shape alone: a
 * person who holds still when the tracker starts is a user at once. */
static void
tracker_verify(Tracker *t, const TrackerBody *body, const TrackerBodyCells *cells, int tr,
               gboolean told, gint64 time_us)
{
	double misfit = tracker_users_note_misfit(&t->users, tr, body->torso_misfit, time_us);
	TrackerLegs legs;

	if (t->users.tracks[tr].verified) {
		tracker_judge_first_shape(t, tr, misfit, time_us);
		return;
	}
	if (told && !t->users.tracks[tr].lively)
		return;
	tracker_body_legs(body, cells, &legs);
	/* Someone who walked into view is a person on any leg of their own:
	 * striding, side-on, the column under them is open between the feet
	 * (a plant or a coat stand does not come into view). */
	if (tracker_track_came_in(&t->users.tracks[tr]) && legs.area >= VERIFY_MIN_OWN) {
		tracker_users_verify(&t->users, tr);
		return;
	}
	if (legs.open_rows > 0)
		return;
	/* Judged by its shape, a person has a torso's shape: a plant's
	 * leaves fit the torso's stadium badly. */
	if (misfit > VERIFY_MAX_MISFIT)
		return;
	/* Seated, a person's legs are forward, and the column under the
	 * seat is open: their thighs and shins are there instead. */
	if (legs.judged < VERIFY_MIN_JUDGED ||
	    (legs.through <= VERIFY_MAX_THROUGH * legs.judged && legs.area >= VERIFY_MIN_OWN) ||
	    legs.area >= VERIFY_MIN_LEGS) {
		tracker_users_verify(&t->users, tr);
		t->users.tracks[tr].first_shape =
		        time_us - t->users.tracks[tr].first_seen_us < SHAPE_JUDGED_US;
	}
}

/* Whether @body, fitted to track @tr, should face the other way. The
 * torso's stadium is the same turned half a turn, and the fit takes a
 * person to face the sensor: right for most, but side-on walkers had
 * left and right swapped going one way or both. People walk forward: a
 * side-on track whose centre moves faster than a stroll, against the
 * body's facing, faces the way it goes. Not one that faces the sensor
 * more nearly: people step back from a sensor, and toward it, facing it
 * (and one walking off, back turned, looks the same). One turned away
 * who turns to the sensor faces it again. */
static gboolean
tracker_facing_wrong(const Tracker *t, const TrackerBody *body, int tr)
{
	const TrackerTrack *track = &t->users.tracks[tr];
	TrackerVec3 up = t->floor.up;
	TrackerVec3 v =
	        tracker_vec3_mad(track->velocity, up, -tracker_vec3_dot(track->velocity, up));
	double speed = tracker_vec3_length(v);

	if (speed < WALK_MM_S || fabs(body->yaw) < SIDE_ON_RAD)
		return body->away && fabs(body->yaw) < FACING_RAD;
	return tracker_vec3_dot(body->forward, v) < -WALK_AGAINST * speed;
}

/* A user is judged again by its torso: one whose torso band the
 * stadium has lain on too little of for a while, with nothing of it
 * coming into view meanwhile, is given up. No person holds still for a
 * second with nothing a torso's shape; a shelf does, that a track
 * followed someone onto and stayed on once they left. Verified, a track
 * was never judged again, and a verified track is never learned into
 * the room once it has moved: the shelf was a user for as long as the
 * tracker ran. Given up, the track goes on unverified, not lively, and
 * none of the cells it lived on count: to be a user again, something
 * there must come into view. */
static void
tracker_judge_again(Tracker *t, const TrackerBody *body, int tr, gboolean fresh_now, gint64 time_us)
{
	TrackerTrack *track = &t->users.tracks[tr];
	double torso_on = tracker_users_note_torso(&t->users, tr, body->torso_on, time_us);

	if (!track->verified || fresh_now || torso_on >= GIVE_UP_ON) {
		track->off_since_us = 0;
		return;
	}
	if (track->off_since_us == 0)
		track->off_since_us = time_us;
	if (time_us - track->off_since_us < GIVE_UP_US)
		return;
	tracker_give_up(t, tr);
}

/* A hand hanging by the side is not read: relaxed, seen edge-on or
 * against the thigh, half curled, it is neither open nor closed, and no
 * one shows a fist or a palm down there, so that its shape would only
 * make grips nobody meant (the Kinect SDK's grip, too, read only hands
 * held up in front). It hangs when its forearm points down, within
 * HAND_HANG_DEG of straight down, and it is HAND_HANG_BELOW_MM below the
 * torso joint; or, with no torso found, within HAND_HANG_ALONE_DEG.
 * Either alone misleads: an arm fitted wrong can point down from a hand
 * held up. The torso rather than the hips, which close to the sensor
 * are below the picture and guessed. */
static gboolean
tracker_hand_hangs(const Tracker *t, const TrackerVec3 *joints, const double *confidence, int side)
{
	TrackerVec3 up = t->floor.up;
	TrackerVec3 hand = joints[TRACKER_JOINT_LEFT_HAND + side];
	TrackerVec3 fore = tracker_vec3_sub(hand, joints[TRACKER_JOINT_LEFT_ELBOW + side]);
	double down = -tracker_vec3_dot(fore, up) / MAX(tracker_vec3_length(fore), 1.0);
	double below = tracker_vec3_dot(tracker_vec3_sub(joints[TRACKER_JOINT_TORSO], hand), up);

	if (confidence[TRACKER_JOINT_TORSO] <= 0.0)
		return down > cos(HAND_HANG_ALONE_DEG * G_PI / 180.0);
	return down > cos(HAND_HANG_DEG * G_PI / 180.0) && below > HAND_HANG_BELOW_MM;
}

/* Whether the hand at @hand is hidden: the sensor sees something well in
 * front of it (the chest, for a hand placed behind the body), so nothing
 * about it tells its state. */
static gboolean
tracker_hand_hidden(const Tracker *t, TrackerVec3 hand)
{
	const TrackerCamera *camera = &t->settings.camera;
	double u, v;
	guint16 seen;

	if (!tracker_camera_project(camera, hand, &u, &v) || u < 0.0 || v < 0.0 ||
	    u >= camera->width || v >= camera->height)
		return FALSE;
	seen = t->depth_mm[(int)v * camera->width + (int)u];
	return seen > 0 && seen < hand.z - HAND_HIDDEN_MM;
}

/* Whether each of @person's hands is open or closed, from this frame's
 * joints (@joints, NULL when the body was not found). */
static void
tracker_track_hands(Tracker *t, const TrackerPerson *person, int tr, const TrackerVec3 *joints,
                    const double *confidence)
{
	TrackerHandImage image = {
		&t->settings.camera, t->depth_mm,   tracker_segmenter_labels(t->segmenter),
		TRACKER_GRID_STEP,   t->grid.width, person->label
	};
	TrackerHand seen[2] = { { TRACKER_HAND_UNKNOWN, 0.0 }, { TRACKER_HAND_UNKNOWN, 0.0 } };

	for (int side = 0; joints != NULL && side < 2; side++) {
		int hand = TRACKER_JOINT_LEFT_HAND + side, elbow = TRACKER_JOINT_LEFT_ELBOW + side;

		if (tracker_hand_hangs(t, joints, confidence, side) ||
		    tracker_hand_hidden(t, joints[hand]))
			continue;
		seen[side] = tracker_hand_classify(t->hands, &image, joints[hand], joints[elbow],
		                                   confidence[hand], NULL);
	}
	tracker_users_hands(&t->users, tr, seen);
}

/* Body, limbs and joints of @person, continuing track @tr. */
static void
tracker_track_person(Tracker *t, const TrackerPerson *person, int tr, gint64 time_us)
{
	TrackerTrack *track = &t->users.tracks[tr];
	TrackerBodyCells cells = { &t->grid,
		                   &t->floor,
		                   tracker_segmenter_heights(t->segmenter),
		                   tracker_segmenter_labels(t->segmenter),
		                   person->label,
		                   person->box,
		                   NULL };
	TrackerVec3 joints[TRACKER_N_JOINTS] = { { 0 } };
	double confidence[TRACKER_N_JOINTS] = { 0 };
	TrackerBody body, fitted;
	TrackerLimbPose poses[TRACKER_N_LIMBS];
	gboolean told, fresh_now, turned;

	/* A full search now and then; in between, last frame's pose refined. */
	/* ...each track on frames of its own, so that people who came in
	 * together do not all search on one frame. */
	gboolean search = !track->has_body || (track->frames + (guint)tr) % SEARCH_EVERY == 0;

	track->frames++;
	tracker_users_place(&t->users, tr, person->centre, time_us);
	track->n_pixels = person->n_pixels;
	if (!tracker_body_fit(&body, &cells, person, track->height,
	                      track->has_body ? &track->body : NULL, search)) {
		tracker_users_update(&t->users, tr, &t->settings.camera, joints, confidence,
		                     &t->users_params, time_us);
		tracker_track_hands(t, person, tr, NULL, NULL);
		return;
	}
	/* Turned, last frame's limbs are on the wrong sides. */
	turned = track->has_body && tracker_facing_wrong(t, &body, tr);
	if (turned)
		tracker_body_turn(&body);
	tracker_limb_fit(t->limbs, &body, &cells, track->has_body && !turned ? track->limbs : NULL,
	                 search || turned, poses);
	told = tracker_note_fresh(t, &cells, tr, time_us, &fresh_now) >= LIVELY_KNOWN;
	tracker_verify(t, &body, &cells, tr, told, time_us);
	tracker_judge_again(t, &body, tr, fresh_now, time_us);
	tracker_note_lived(t, &cells, tr, time_us);
	/* The torso again without the arms, and the limbs on that torso
	 * unless it stayed where it was. */
	fitted = body;
	cells.exclude = tracker_limb_claims(t->limbs);
	tracker_body_refit(&body, &cells, person);
	cells.exclude = NULL;
	if (tracker_vec3_distance(fitted.origin, body.origin) > REFINE_MOVE_MM ||
	    fabs(fitted.yaw - body.yaw) > REFINE_TURN_RAD)
		tracker_limb_refine(t->limbs, &body, &cells,
		                    track->has_body && !turned ? track->limbs : NULL, poses);
	tracker_body_trunk(&body, joints);
	tracker_limb_joints(&body, &cells, poses, joints, confidence);
	tracker_joint_confidence(t, person, joints, confidence);
	tracker_track_hands(t, person, tr, joints, confidence);
	track->body = body;
	track->has_body = TRUE;
	memcpy(track->limbs, poses, sizeof(poses));
	if (person->head.found && !person->head.hinted && !person->head.cut_top) {
		track->head_seen_us = time_us;
		if (t->floor.found)
			track->height = MAX(track->height, body.height);
	}
	tracker_users_update(&t->users, tr, &t->settings.camera, joints, confidence,
	                     &t->users_params, time_us);
}

/* Which reported user each person of the segmenter became, for
 * tracker_get_labels(). */
static void
tracker_map_users(Tracker *t, const int *track_of, guint n_people, const TrackerFrame *out)
{
	memset(t->user_of, NOT_REPORTED, sizeof(t->user_of));
	for (guint p = 0; p < n_people; p++) {
		int tr = track_of[p];

		/* A piece of a user's body is theirs. */
		if (tr >= 0 && t->users.tracks[tr].same_as >= 0)
			tr = t->users.tracks[tr].same_as;
		for (guint u = 0; tr >= 0 && u < out->n_users; u++) {
			if (out->users[u].id == t->users.tracks[tr].id)
				t->user_of[p] = (guint8)u;
		}
	}
}

/* ---- the room ---- */

/* What is the room's this frame: its flat surfaces, and what reads as
 * the room has read for a while. */
static void
tracker_room(Tracker *t)
{
	const guint8 *flat = tracker_planes_mask(t->planes);
	const guint8 *stays = tracker_background_mask(t->background, &t->grid);

	for (int k = 0; k < t->grid.n; k++)
		t->room[k] = flat[k] | stays[k];
}

/* Cell @k is on or about a user first seen at @seen_us who reaches back
 * to @far_mm. */
static inline void
tracker_mark_cell(Tracker *t, int k, gboolean on, gint64 seen_us, float far_mm)
{
	TrackerBackgroundPerson *cell = &t->people[k];

	if (!on)
		return;
	cell->seen_us = MIN(cell->seen_us, seen_us);
	cell->far_mm = MAX(cell->far_mm, far_mm);
}

/* Marks person @p's cells, and a margin about them, as a user's: their
 * outline, not their box, or the sofa beside a seated person would never
 * be learned. Across first, on the rows the person is on, into t->near;
 * then down from there, into t->people. */
static void
tracker_mark_person(Tracker *t, const TrackerPerson *p, const guint16 *labels, gint64 seen_us)
{
	const TrackerGrid *grid = &t->grid;
	int w = grid->width;
	int m = (int)ceil(ROOM_MARGIN_MM / tracker_grid_cell_mm(grid, MAX(p->centre.z, 500.0)));
	int u0 = MAX(0, p->box[0] - m), u1 = MIN(w - 1, p->box[2] + m);
	int v0 = MAX(0, p->box[1] - m), v1 = MIN(grid->height - 1, p->box[3] + m);
	float far_mm = (float)(p->centre.z + PERSON_DEPTH_MM);

	for (int v = p->box[1]; v <= p->box[3]; v++) {
		const guint16 *own = labels + v * w;
		guint8 *near = t->near + v * w;

		for (int u = u0, last = -m - 1; u <= u1; u++) {
			last = own[u] == p->label ? u : last;
			near[u] = u - last <= m;
		}
		for (int u = u1, next = u1 + m + 1; u >= u0; u--) {
			next = own[u] == p->label ? u : next;
			near[u] |= next - u <= m;
		}
	}
	for (int u = u0; u <= u1; u++) {
		for (int v = v0, last = -m - 1; v <= v1; v++) {
			last = v >= p->box[1] && v <= p->box[3] && t->near[v * w + u] ? v : last;
			tracker_mark_cell(t, v * w + u, v - last <= m, seen_us, far_mm);
		}
		for (int v = v1, next = v1 + m + 1; v >= v0; v--) {
			next = v >= p->box[1] && v <= p->box[3] && t->near[v * w + u] ? v : next;
			tracker_mark_cell(t, v * w + u, next - v <= m, seen_us, far_mm);
		}
	}
}

/* The room learns from this frame, but not the people tracked as users:
 * one who stands still for minutes stays a person (though what their
 * cells read from before they were first seen is the room's: see
 * tracker-background.h). A track not (yet) a
 * user, or a user who has not moved a hand's breadth in a minute since
 * they were first seen, is learned like anything else: a coat stand
 * that took a person's outline fades into the room. */
static void
tracker_learn_room(Tracker *t, const int *track_of, guint n_people, gint64 time_us)
{
	const TrackerPerson *people = tracker_segmenter_people(t->segmenter, &n_people);
	const guint16 *labels = tracker_segmenter_labels(t->segmenter);

	for (int k = 0; k < t->grid.n; k++)
		t->people[k] = (TrackerBackgroundPerson){ TRACKER_BACKGROUND_NO_ONE, 0.0f };
	for (guint p = 0; p < n_people; p++) {
		int track = track_of[p];

		if (track >= 0 && tracker_users_shielded(&t->users, track, time_us))
			tracker_mark_person(t, &people[p], labels,
			                    t->users.tracks[track].first_seen_us);
	}
	tracker_background_learn(t->background, &t->grid, t->people, time_us);
}

static void
tracker_run(Tracker *t, const guint16 *depth_mm, guint64 frame, gint64 time_us, TrackerFrame *out)
{
	TrackerSegmentHint hints[TRACKER_USERS_MAX];
	int hint_tracks[TRACKER_USERS_MAX], track_of[TRACKER_SEGMENT_MAX_PEOPLE];
	const TrackerPerson *people;
	guint n_hints, n_people;

	t->depth_mm = depth_mm;
	tracker_grid_fill(&t->grid, depth_mm, t->settings.max_depth_mm);
	t->fresh_mask = tracker_fresh_update(t->fresh, &t->grid, time_us);
	tracker_floor_update(&t->floor, &t->grid);
	n_hints = tracker_users_hints(&t->users, hints, hint_tracks, TRACKER_USERS_MAX);
	tracker_planes_find(t->planes, &t->grid, t->floor.up);
	tracker_room(t);
	tracker_segmenter_run(t->segmenter, &t->grid, &t->floor, t->room, &t->segment_params, hints,
	                      n_hints);
	people = tracker_segmenter_people(t->segmenter, &n_people);
	tracker_users_match(&t->users, people, n_people, hint_tracks, track_of);
	for (guint p = 0; p < n_people; p++) {
		if (track_of[p] >= 0)
			tracker_track_person(t, &people[p], track_of[p], time_us);
	}
	memset(out, 0, sizeof(*out));
	out->frame = frame;
	out->time_us = time_us;
	tracker_users_output(&t->users, &t->users_params, time_us, t->settings.max_users, out);
	tracker_map_users(t, track_of, n_people, out);
	tracker_learn_room(t, track_of, n_people, time_us);
	tracker_note_free(t, track_of, time_us);
	t->depth_mm = NULL;
}

/* The frame's time must follow the last one's: smoothing and ids assume
 * one sequence in order. */
static gboolean
tracker_check_time(Tracker *t, gint64 time_us, GError **error)
{
	if (t->have_time && time_us <= t->last_time_us) {
		g_set_error(error, TRACKER_ERROR, TRACKER_ERROR_TIME,
		            "frame time %" G_GINT64_FORMAT
		            " us is not after the last frame's %" G_GINT64_FORMAT
		            " us (tracker_reset() starts a new sequence)",
		            time_us, t->last_time_us);
		return FALSE;
	}
	t->have_time = TRUE;
	t->last_time_us = time_us;
	return TRUE;
}

static gboolean
tracker_claim(Tracker *t, GError **error)
{
	if (g_atomic_int_compare_and_exchange(&t->busy, 0, 1))
		return TRUE;
	g_set_error_literal(error, TRACKER_ERROR, TRACKER_ERROR_BUSY,
	                    "the tracker is already working on a frame");
	return FALSE;
}

gboolean
tracker_process(Tracker *t, const guint16 *depth_mm, guint64 frame, gint64 time_us,
                TrackerFrame *out, GError **error)
{
	gboolean ok;

	g_return_val_if_fail(t != NULL && depth_mm != NULL && out != NULL, FALSE);

	if (!tracker_claim(t, error))
		return FALSE;
	ok = tracker_check_time(t, time_us, error);
	if (ok) {
		tracker_run(t, depth_mm, frame, time_us, out);
		t->labels_state = TRACKER_LABELS_LIVE;
		tracker_note_pose(t);
	}
	g_atomic_int_set(&t->busy, 0);
	return ok;
}

/* ---- labels ---- */

/* Every cell's label, from what the segmenter holds of the last frame. */
static void
tracker_labels_cells(const Tracker *t, guint8 *cells)
{
	double min_pixels = t->segment_params.min_person_pixels;

	for (int k = 0; k < t->grid.n; k++) {
		guint kind = tracker_segmenter_cell_kind(t->segmenter, &t->grid, k, min_pixels);

		if (kind >= TRACKER_LABEL_USER) {
			guint user = t->user_of[kind - TRACKER_LABEL_USER];

			kind = user == NOT_REPORTED ? TRACKER_LABEL_SCENE
			                            : TRACKER_LABEL_USER + user;
		}
		cells[k] = (guint8)kind;
	}
}

/* Keeps the last frame's labels before a worker takes on the next one. */
static void
tracker_labels_keep(Tracker *t)
{
	if (t->labels == NULL)
		t->labels = g_new(guint8, t->grid.n);
	tracker_labels_cells(t, t->labels);
	t->labels_state = TRACKER_LABELS_KEPT;
}

/* Each cell's label over its block of pixels. */
static void
tracker_labels_expand(const Tracker *t, const guint8 *cells, guint8 *labels)
{
	const TrackerCamera *c = &t->settings.camera;

	for (int v = 0; v < c->height; v++) {
		const guint8 *row = cells + (v / TRACKER_GRID_STEP) * t->grid.width;

		for (int u = 0; u < c->width; u++)
			labels[v * c->width + u] = row[u / TRACKER_GRID_STEP];
	}
}

gboolean
tracker_get_labels(const Tracker *t, guint8 *labels)
{
	g_autofree guint8 *cells = NULL;

	g_return_val_if_fail(t != NULL && labels != NULL, FALSE);

	switch (t->labels_state) {
	case TRACKER_LABELS_NONE:
		return FALSE;
	case TRACKER_LABELS_LIVE:
		cells = g_new(guint8, t->grid.n);
		tracker_labels_cells(t, cells);
		tracker_labels_expand(t, cells, labels);
		return TRUE;
	case TRACKER_LABELS_KEPT:
		tracker_labels_expand(t, t->labels, labels);
		return TRUE;
	}
	g_return_val_if_reached(FALSE);
}

/* ---- asynchronous ---- */

/* Identifies our tasks; ISO C cannot pass a function as a pointer. */
static const char tracker_async_tag[] = "tracker_process_async";

typedef struct {
	Tracker *tracker;
	guint16 *depth;
	guint64 frame;
	gint64 time_us;
	TrackerFrame result;
} TrackerJob;

static void
tracker_job_free(gpointer data)
{
	TrackerJob *job = data;

	g_free(job->depth);
	g_free(job);
}

static void
tracker_job_run(GTask *task, gpointer source G_GNUC_UNUSED, gpointer data,
                GCancellable *cancellable G_GNUC_UNUSED)
{
	TrackerJob *job = data;
	GError *error = NULL;
	gboolean ok = tracker_check_time(job->tracker, job->time_us, &error);

	if (ok)
		tracker_run(job->tracker, job->depth, job->frame, job->time_us, &job->result);
	/* Released before the result goes back: the callback may track the
	 * next frame at once. */
	g_atomic_int_set(&job->tracker->busy, 0);
	if (ok)
		g_task_return_boolean(task, TRUE);
	else
		g_task_return_error(task, error);
}

void
tracker_process_async(Tracker *t, const guint16 *depth_mm, guint64 frame, gint64 time_us,
                      GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
	g_autoptr(GTask) task = g_task_new(NULL, cancellable, callback, user_data);
	GError *error = NULL;
	TrackerJob *job;

	g_return_if_fail(t != NULL && depth_mm != NULL);

	g_task_set_source_tag(task, (gpointer)tracker_async_tag);
	g_task_set_name(task, "tracker_process_async");
	if (!tracker_claim(t, &error)) {
		g_task_return_error(task, error);
		return;
	}
	if (t->labels_state == TRACKER_LABELS_LIVE)
		tracker_labels_keep(t);
	job = g_new0(TrackerJob, 1);
	job->tracker = t;
	job->depth = g_memdup2(depth_mm, (gsize)t->settings.camera.width *
	                                         t->settings.camera.height * sizeof(guint16));
	job->frame = frame;
	job->time_us = time_us;
	g_task_set_task_data(task, job, tracker_job_free);
	g_task_run_in_thread(task, tracker_job_run);
}

gboolean
tracker_process_finish(Tracker *t, GAsyncResult *result, TrackerFrame *out, GError **error)
{
	TrackerJob *job;

	g_return_val_if_fail(t != NULL && g_task_is_valid(result, NULL), FALSE);
	g_return_val_if_fail(g_task_get_source_tag(G_TASK(result)) == tracker_async_tag, FALSE);

	if (!g_task_propagate_boolean(G_TASK(result), error))
		return FALSE;
	job = g_task_get_task_data(G_TASK(result));
	*out = job->result;
	tracker_labels_keep(t);
	tracker_note_pose(t);
	return TRUE;
}
