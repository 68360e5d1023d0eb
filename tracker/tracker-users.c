#include "tracker-users.h"

#include <math.h>
#include <string.h>

#define MATCH_MAX_MM      700.0 /* a person this far from a track is someone else */
#define MATCH_HEAD_MM     250.0 /* a head this near where a track's head was is theirs */
#define MATCH_HEAD_SHARE  0.5   /* ...on at least this share of the track's pixels */
#define VELOCITY_US       (300 * G_TIME_SPAN_MILLISECOND) /* the velocity's running mean */
#define VELOCITY_MAX_MM_S 2000.0                          /* a brisk walk */
#define HINT_HEAD_US      (1500 * G_TIME_SPAN_MILLISECOND)
#define TORSO_ON_US       (1 * G_USEC_PER_SEC)            /* the torso share's running mean */
#define MISFIT_US         (300 * G_TIME_SPAN_MILLISECOND) /* the torso misfit's */
#define SAME_MM           250.0 /* two tracks' joints this near are one person's, */
#define SAME_DEPTH_MM     120.0 /* ...and this near in depth: farther, one is behind */

/* How far a running mean over @tau_us moves toward a sample @dt_us after
 * the last one. */
static double
mean_weight(double dt_us, double tau_us)
{
	return 1.0 - exp(-dt_us / tau_us);
}

void
tracker_users_reset(TrackerUsers *users)
{
	memset(users, 0, sizeof(*users));
	users->next_id = 1;
}

guint
tracker_users_hints(const TrackerUsers *users, TrackerSegmentHint *hints, int *tracks, guint max)
{
	guint n = 0;

	for (int t = 0; t < TRACKER_USERS_MAX && n < max; t++) {
		const TrackerTrack *track = &users->tracks[t];

		if (!track->active)
			continue;
		hints[n].centre = track->centre;
		hints[n].n_pixels = track->n_pixels;
		hints[n].height = track->height;
		/* Only a head seen for itself lately may be looked for where it
		 * was; otherwise a lost track could live on another's cells. */
		hints[n].has_head = track->has_body && track->seen_now &&
		                    track->last_seen_us - track->head_seen_us <= HINT_HEAD_US;
		hints[n].has_body = track->has_body;
		hints[n].head = track->body.head;
		hints[n].head_radius = track->body.head_radius;
		tracks[n++] = t;
	}
	return n;
}

static int
tracker_users_new_track(TrackerUsers *users)
{
	for (int t = 0; t < TRACKER_USERS_MAX; t++) {
		TrackerTrack *track = &users->tracks[t];

		if (track->active)
			continue;
		memset(track, 0, sizeof(*track));
		track->active = TRUE;
		return t;
	}
	return -1;
}

/* How far person @p is from track @t: between their heads when
 * @by_head, else between their centres. Not by head (G_MAXDOUBLE) if
 * either has none; if @t is no user yet, or one whose shape is still to
 * be judged again (a plant's leaves, split differently frame to frame,
 * would pass from track to track and none be judged for long); or if @p
 * is a scrap of what @t was: a head the segmenter cut off a body is not
 * the body. */
static double
tracker_users_apart(const TrackerPerson *p, const TrackerTrack *t, gboolean by_head)
{
	if (!by_head)
		return tracker_vec3_distance(p->centre, t->centre);
	if (!p->head.found || !t->has_body || !t->verified || t->first_shape ||
	    p->n_pixels < MATCH_HEAD_SHARE * t->n_pixels)
		return G_MAXDOUBLE;
	return tracker_vec3_distance(p->head.centre, t->body.head);
}

/* Greedy: the closest person and track pair first, until none is nearer
 * than @max_mm. */
static void
tracker_users_pair(TrackerUsers *users, const TrackerPerson *people, guint n_people, int *track_of,
                   gboolean by_head, double max_mm)
{
	for (;;) {
		double best = max_mm;
		int bp = -1, bt = -1;

		for (guint p = 0; p < n_people; p++) {
			if (track_of[p] >= 0)
				continue;
			for (int t = 0; t < TRACKER_USERS_MAX; t++) {
				const TrackerTrack *track = &users->tracks[t];
				double d;

				if (!track->active || track->seen_now)
					continue;
				d = tracker_users_apart(&people[p], track, by_head);
				if (d < best) {
					best = d;
					bp = (int)p;
					bt = t;
				}
			}
		}
		if (bp < 0)
			return;
		track_of[bp] = bt;
		users->tracks[bt].seen_now = TRUE;
	}
}

void
tracker_users_match(TrackerUsers *users, const TrackerPerson *people, guint n_people,
                    const int *hint_tracks, int *track_of)
{
	for (int t = 0; t < TRACKER_USERS_MAX; t++)
		users->tracks[t].seen_now = FALSE;
	for (guint p = 0; p < n_people; p++) {
		int t = people[p].hint >= 0 ? hint_tracks[people[p].hint] : -1;

		track_of[p] = t >= 0 && !users->tracks[t].seen_now ? t : -1;
		if (track_of[p] >= 0)
			users->tracks[t].seen_now = TRUE;
	}
	/* A person's head where a track's was is that track's, though the
	 * person's surface took in a neighbour's and its centre moved. */
	tracker_users_pair(users, people, n_people, track_of, TRUE, MATCH_HEAD_MM);
	tracker_users_pair(users, people, n_people, track_of, FALSE, MATCH_MAX_MM);
	for (guint p = 0; p < n_people; p++) {
		if (track_of[p] >= 0)
			continue;
		track_of[p] = tracker_users_new_track(users);
		if (track_of[p] >= 0)
			users->tracks[track_of[p]].seen_now = TRUE;
	}
}

static void
tracker_users_project(TrackerJoint *joint, const TrackerCamera *camera)
{
	if (!tracker_camera_project(camera, joint->position, &joint->u, &joint->v))
		joint->confidence = 0.0;
}

/* A joint not seen now: its last place, fading out over the hold time. */
static void
tracker_users_carry(TrackerTrack *track, int j, const TrackerUsersParams *params, gint64 time_us)
{
	gint64 age = time_us - track->joint_seen_us[j];
	double left = params->joint_hold_us > 0 ? 1.0 - (double)age / params->joint_hold_us : 0.0;

	if (track->seen_confidence[j] <= 0.0 || left <= 0.0) {
		track->joints[j].confidence = 0.0;
		for (int c = 0; c < 3; c++)
			tracker_euro_reset(&track->filters[j][c]);
		return;
	}
	track->joints[j].confidence = track->seen_confidence[j] * left;
}

static void
tracker_users_filter(TrackerTrack *track, int j, TrackerVec3 p, const TrackerUsersParams *params,
                     gint64 time_us)
{
	if (params->smoothing) {
		p.x = tracker_euro_filter(&track->filters[j][0], &params->euro, p.x, time_us);
		p.y = tracker_euro_filter(&track->filters[j][1], &params->euro, p.y, time_us);
		p.z = tracker_euro_filter(&track->filters[j][2], &params->euro, p.z, time_us);
	}
	track->joints[j].position = p;
}

void
tracker_users_update(TrackerUsers *users, int t, const TrackerCamera *camera,
                     const TrackerVec3 joints[TRACKER_N_JOINTS],
                     const double confidence[TRACKER_N_JOINTS], const TrackerUsersParams *params,
                     gint64 time_us)
{
	TrackerTrack *track = &users->tracks[t];

	for (int j = 0; j < TRACKER_N_JOINTS; j++) {
		if (confidence[j] <= 0.0) {
			tracker_users_carry(track, j, params, time_us);
			continue;
		}
		tracker_users_filter(track, j, joints[j], params, time_us);
		track->joints[j].confidence = confidence[j];
		track->seen_confidence[j] = confidence[j];
		track->joint_seen_us[j] = time_us;
		tracker_users_project(&track->joints[j], camera);
	}
	track->last_seen_us = time_us;
}

/* A track the frame did not show: reported while its joints fade, kept a
 * little longer so the person gets their id back, then dropped. */
static gboolean
tracker_users_age(TrackerTrack *track, const TrackerUsersParams *params, gint64 time_us)
{
	gint64 age = time_us - track->last_seen_us;
	gboolean any = FALSE;

	if (age > MAX(params->user_timeout_us, params->joint_hold_us)) {
		track->active = FALSE;
		return FALSE;
	}
	for (int j = 0; j < TRACKER_N_JOINTS; j++) {
		tracker_users_carry(track, j, params, time_us);
		any |= track->joints[j].confidence > 0.0;
	}
	return any;
}

/* Whether track @t's joints lie where track @s's do: at least half of the
 * joints both report, and three at the least, within SAME_MM of each
 * other and SAME_DEPTH_MM in depth. */
static gboolean
tracker_users_same_place(const TrackerTrack *t, const TrackerTrack *s)
{
	guint both = 0, near = 0;

	for (int j = 0; j < TRACKER_N_JOINTS; j++) {
		TrackerVec3 a = t->joints[j].position, b = s->joints[j].position;

		if (t->joints[j].confidence <= 0.0 || s->joints[j].confidence <= 0.0)
			continue;
		both++;
		near += tracker_vec3_distance(a, b) < SAME_MM && fabs(a.z - b.z) < SAME_DEPTH_MM;
	}
	return both >= 3 && 2 * near >= both;
}

/* The track of a user seen now who stands where track @t does, and has
 * more of the person than @t if @t is seen now too; -1 if none. */
static int
tracker_users_same_person(const TrackerUsers *users, int t)
{
	const TrackerTrack *track = &users->tracks[t];

	for (int s = 0; s < TRACKER_USERS_MAX; s++) {
		const TrackerTrack *seen = &users->tracks[s];

		if (s == t || !seen->active || !seen->seen_now || !seen->verified)
			continue;
		if (track->seen_now && (seen->n_pixels < track->n_pixels ||
		                        (seen->n_pixels == track->n_pixels && s > t)))
			continue;
		if (tracker_users_same_place(track, seen))
			return s;
	}
	return -1;
}

void
tracker_users_output(TrackerUsers *users, const TrackerUsersParams *params, gint64 time_us,
                     guint max_users, TrackerFrame *frame)
{
	frame->n_users = 0;
	for (int t = 0; t < TRACKER_USERS_MAX; t++) {
		TrackerTrack *track = &users->tracks[t];
		TrackerUser *user;

		track->same_as = -1;
		if (!track->active)
			continue;
		if (!track->seen_now && !tracker_users_age(track, params, time_us))
			continue;
		if (!track->verified)
			continue;
		track->same_as = tracker_users_same_person(users, t);
		if (track->same_as >= 0)
			continue;
		if (frame->n_users >= MIN(max_users, TRACKER_MAX_USERS))
			continue;
		user = &frame->users[frame->n_users++];
		user->id = track->id;
		user->centre = track->centre;
		user->n_pixels = track->seen_now ? track->n_pixels : 0;
		memcpy(user->joints, track->joints, sizeof(user->joints));
		/* A user not seen now has hands that cannot be told. */
		if (track->seen_now)
			memcpy(user->hands, track->hands, sizeof(user->hands));
	}
}

void
tracker_users_hands(TrackerUsers *users, int t, const TrackerHand seen[2])
{
	TrackerTrack *track = &users->tracks[t];

	for (int side = 0; side < 2; side++)
		track->hands[side] = tracker_hand_update(&track->hand_memory[side], seen[side]);
}

void
tracker_users_verify(TrackerUsers *users, int t)
{
	TrackerTrack *track = &users->tracks[t];

	if (track->verified)
		return;
	track->verified = TRUE;
	track->id = users->next_id++;
}

void
tracker_users_give_up(TrackerUsers *users, int t)
{
	TrackerTrack *track = &users->tracks[t];

	track->verified = FALSE;
	track->first_shape = FALSE;
	track->id = 0;
	track->lively = FALSE;
	track->fresh_mm2 = 0.0;
	track->off_since_us = 0;
}

void
tracker_users_place(TrackerUsers *users, int t, TrackerVec3 centre, gint64 time_us)
{
	TrackerTrack *track = &users->tracks[t];

	if (track->placed && time_us > track->placed_us) {
		double dt = (double)(time_us - track->placed_us);
		double a = mean_weight(dt, VELOCITY_US);
		TrackerVec3 now = tracker_vec3_scale(tracker_vec3_sub(centre, track->centre),
		                                     G_USEC_PER_SEC / dt);
		double speed = tracker_vec3_length(now);

		/* Faster is the segment changing (an arm raised, a part
		 * joined), not the person moving. */
		if (speed > VELOCITY_MAX_MM_S)
			now = tracker_vec3_scale(now, VELOCITY_MAX_MM_S / speed);

		track->velocity = tracker_vec3_mad(track->velocity,
		                                   tracker_vec3_sub(now, track->velocity), a);
	}
	track->placed_us = time_us;
	track->centre = centre;
	if (!track->placed) {
		track->placed = TRUE;
		track->first_seen_us = time_us;
		track->first_centre = centre;
	} else if (tracker_vec3_distance(centre, track->first_centre) > TRACKER_USERS_MOVED_MM) {
		track->moved = TRUE;
	}
}

/* Moves the running mean *@mean, last fed at *@mean_us (0: never), toward
 * @sample taken at @time_us, over @tau_us. */
static double
note_mean(double *mean, gint64 *mean_us, double sample, gint64 time_us, double tau_us)
{
	double a = *mean_us > 0 ? mean_weight((double)(time_us - *mean_us), tau_us) : 1.0;

	*mean += a * (sample - *mean);
	*mean_us = time_us;
	return *mean;
}

double
tracker_users_note_torso(TrackerUsers *users, int t, double torso_on, gint64 time_us)
{
	TrackerTrack *track = &users->tracks[t];

	return note_mean(&track->torso_on, &track->torso_on_us, torso_on, time_us, TORSO_ON_US);
}

double
tracker_users_note_misfit(TrackerUsers *users, int t, double misfit, gint64 time_us)
{
	TrackerTrack *track = &users->tracks[t];

	return note_mean(&track->misfit, &track->misfit_us, misfit, time_us, MISFIT_US);
}

gboolean
tracker_users_shielded(const TrackerUsers *users, int t, gint64 time_us)
{
	const TrackerTrack *track = &users->tracks[t];

	return track->verified &&
	       (track->moved || time_us - track->first_seen_us < TRACKER_USERS_STILL_US);
}
