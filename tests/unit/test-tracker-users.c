/* Which tracks are reported as users, with time passed in: a person is
 * one user. A track held after its person was lost is not reported where
 * a user seen now stands (the person found again as another track), but
 * is where it stands behind that user, hidden by them; of two tracks seen
 * on one body (a body the segmenter split), the one with more of it is
 * reported; people side by side are all reported. A person whose head is
 * where a track's head was continues that track, though their surface
 * took in a neighbour's and its centre lies nearer the neighbour's track. */
#include <string.h>

#include "tracker/tracker-users.h"

#define FRAME_US (G_USEC_PER_SEC / 30)
#define START_US (10 * G_USEC_PER_SEC)

typedef struct {
	TrackerUsers users;
	TrackerUsersParams params;
	TrackerCamera camera;
	gint64 now_us;
} Fixture;

static void
fixture_setup(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	tracker_users_reset(&f->users);
	memset(&f->params, 0, sizeof(f->params));
	f->params.joint_hold_us = 300 * G_TIME_SPAN_MILLISECOND;
	f->params.user_timeout_us = G_USEC_PER_SEC;
	tracker_camera_init_kinect(&f->camera);
	f->now_us = START_US;
}

/* A person standing with their torso at @at: a joint every 150 mm up
 * and across, so that no two are alike. */
static void
fixture_skeleton(TrackerVec3 at, TrackerVec3 joints[TRACKER_N_JOINTS])
{
	for (int j = 0; j < TRACKER_N_JOINTS; j++)
		joints[j] =
		        tracker_vec3(at.x + 150.0 * (j % 5 - 2), at.y + 150.0 * (j / 5 - 1), at.z);
}

/* A frame that shows a person at each of @at (@n of them), each with
 * @pixels, continuing track @hint[i] (or a new track if -1). Returns the
 * users reported; @track_of gets each person's track. */
static guint
fixture_frame(Fixture *f, const TrackerVec3 *at, const guint *pixels, const int *hint, guint n,
              int *track_of, TrackerFrame *frame)
{
	TrackerPerson people[TRACKER_SEGMENT_MAX_PEOPLE];
	int hint_tracks[TRACKER_SEGMENT_MAX_PEOPLE];

	memset(people, 0, sizeof(people));
	for (guint i = 0; i < n; i++) {
		TrackerVec3 joints[TRACKER_N_JOINTS];

		fixture_skeleton(at[i], joints);
		people[i].head.found = TRUE;
		people[i].head.centre = joints[TRACKER_JOINT_HEAD];
		people[i].centre = at[i];
		people[i].n_pixels = pixels[i];
		people[i].hint = hint[i] >= 0 ? (int)i : -1;
		hint_tracks[i] = hint[i];
	}
	tracker_users_match(&f->users, people, n, hint_tracks, track_of);
	for (guint i = 0; i < n; i++) {
		TrackerVec3 joints[TRACKER_N_JOINTS];
		double confidence[TRACKER_N_JOINTS];

		g_assert_cmpint(track_of[i], >=, 0);
		fixture_skeleton(at[i], joints);
		for (int j = 0; j < TRACKER_N_JOINTS; j++)
			confidence[j] = 1.0;
		tracker_users_update(&f->users, track_of[i], &f->camera, joints, confidence,
		                     &f->params, f->now_us);
		f->users.tracks[track_of[i]].n_pixels = pixels[i];
		f->users.tracks[track_of[i]].has_body = TRUE;
		f->users.tracks[track_of[i]].body.head = joints[TRACKER_JOINT_HEAD];
		tracker_users_verify(&f->users, track_of[i]);
	}
	memset(frame, 0, sizeof(*frame));
	tracker_users_output(&f->users, &f->params, f->now_us, TRACKER_MAX_USERS, frame);
	f->now_us += FRAME_US;
	return frame->n_users;
}

/* Whether @frame reports the user of track @t. */
static gboolean
reported(const Fixture *f, const TrackerFrame *frame, int t)
{
	for (guint u = 0; u < frame->n_users; u++) {
		if (frame->users[u].id == f->users.tracks[t].id)
			return TRUE;
	}
	return FALSE;
}

/* Track A is lost; its person is found as track B 100 mm off: A is a
 * stale copy while it fades, not a second user. */
static void
test_stale_copy(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	TrackerVec3 at[2] = { { -300, 0, 2500 }, { 1200, 0, 2500 } };
	guint px[2] = { 20000, 20000 };
	int fresh[2] = { -1, -1 }, of[2], a, b;
	TrackerFrame frame;

	g_assert_cmpuint(fixture_frame(f, at, px, fresh, 2, of, &frame), ==, 2);
	a = of[0];
	b = of[1];
	/* B's person leaves; A's is found as B (a track that hopped). */
	at[0].x += 100.0;
	g_assert_cmpuint(fixture_frame(f, at, px, (int[]){ b }, 1, of, &frame), ==, 1);
	g_assert_true(reported(f, &frame, b));
	g_assert_false(f->users.tracks[a].seen_now);
}

/* Track A's person walks behind B's, 200 mm farther: A is held, hidden,
 * and reported while it fades. */
static void
test_hidden_behind(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	TrackerVec3 at[2] = { { 0, 0, 2700 }, { 0, 0, 2500 } };
	guint px[2] = { 20000, 20000 };
	int fresh[2] = { -1, -1 }, of[2], a, b;
	TrackerFrame frame;

	g_assert_cmpuint(fixture_frame(f, at, px, fresh, 2, of, &frame), ==, 2);
	a = of[0];
	b = of[1];
	g_assert_cmpuint(fixture_frame(f, &at[1], px, (int[]){ b }, 1, of, &frame), ==, 2);
	g_assert_true(reported(f, &frame, a));
	g_assert_true(reported(f, &frame, b));
	/* ...until its joints have faded. */
	for (int i = 0; i < 10; i++)
		fixture_frame(f, &at[1], px, (int[]){ b }, 1, of, &frame);
	g_assert_cmpuint(frame.n_users, ==, 1);
	g_assert_true(reported(f, &frame, b));
}

/* One body split in two, both seen: the bigger part is the user. */
static void
test_split_body(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	TrackerVec3 at[2] = { { 0, 0, 3000 }, { 120, -60, 3030 } };
	guint px[2] = { 6000, 14000 };
	int fresh[2] = { -1, -1 }, of[2];
	TrackerFrame frame;

	g_assert_cmpuint(fixture_frame(f, at, px, fresh, 2, of, &frame), ==, 1);
	g_assert_true(reported(f, &frame, of[1]));
	/* The other part grown bigger is the user instead, never both. */
	px[0] = 16000;
	g_assert_cmpuint(fixture_frame(f, at, px, of, 2, of, &frame), ==, 1);
	g_assert_true(reported(f, &frame, of[0]));
}

/* People side by side, shoulders touching, and one a step behind the
 * other: everyone is a user. */
static void
test_side_by_side(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	TrackerVec3 at[3] = { { -450, 0, 2500 }, { 0, 0, 2500 }, { -390, -100, 2800 } };
	guint px[3] = { 20000, 20000, 9000 };
	int fresh[3] = { -1, -1, -1 }, of[3];
	TrackerFrame frame;

	g_assert_cmpuint(fixture_frame(f, at, px, fresh, 3, of, &frame), ==, 3);
	g_assert_cmpuint(fixture_frame(f, at, px, of, 3, of, &frame), ==, 3);
}

/* B's person is found with A's surface too: the centre of the two lies
 * nearer A's track, the head where B's was. */
static void
test_head_keeps_track(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	TrackerVec3 at[2] = { { -250, 0, 2500 }, { 250, 0, 2500 } };
	guint px[2] = { 20000, 20000 };
	int fresh[2] = { -1, -1 }, of[2], b, hint_tracks[1] = { -1 };
	TrackerFrame frame;
	TrackerPerson both = { 0 };

	g_assert_cmpuint(fixture_frame(f, at, px, fresh, 2, of, &frame), ==, 2);
	b = of[1];
	both.centre = tracker_vec3(-120, 0, 2500);
	both.head.found = TRUE;
	both.head.centre = f->users.tracks[b].body.head;
	both.head.centre.x += 30.0;
	both.n_pixels = 38000;
	both.hint = -1;
	tracker_users_match(&f->users, &both, 1, hint_tracks, of);
	g_assert_cmpint(of[0], ==, b);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
#define ADD(path, fn) g_test_add(path, Fixture, NULL, fixture_setup, fn, NULL)
	ADD("/tracker/users/stale-copy", test_stale_copy);
	ADD("/tracker/users/hidden-behind", test_hidden_behind);
	ADD("/tracker/users/split-body", test_split_body);
	ADD("/tracker/users/side-by-side", test_side_by_side);
	ADD("/tracker/users/head-keeps-track", test_head_keeps_track);
#undef ADD
	return g_test_run();
}
