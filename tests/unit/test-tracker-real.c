/* Real Kinect frames (upper bodies, background cut away, no floor): the
 * person found, head and shoulders inside them, and at least six of the
 * seven upper-body joints inside. (The benchmark reports how many of all
 * seven are.) Their hands are fists or held edge-on: none is called open
 * with much confidence. The frames live beside the project; without them
 * the test is skipped. */
#include "score.h"
#include "testutil.h"
#include "tracker/tracker.h"

#define REAL_REPEATS             3
#define REAL_MAX_OPEN_CONFIDENCE 0.6

static void
test_real_frame(gconstpointer data)
{
	const char *path = data;
	g_autofree guint16 *mm = g_new(guint16, DEPTH_PIXELS);
	g_autoptr(Tracker) tracker = tracker_new(NULL, NULL);
	const TrackerUser *user = NULL;
	TrackerFrame out;
	guint inside = 0;

	testutil_load_raw(path, mm);
	/* The same frame a few times over: a hand state shows once two
	 * frames running say it. */
	for (int k = 0; k < REAL_REPEATS; k++)
		g_assert_true(tracker_process(tracker, mm, k, k * 33333, &out, NULL));
	g_assert_cmpuint(out.n_users, >=, 1);
	/* One frame shows a second person behind the first. */
	for (guint u = 0; u < out.n_users; u++) {
		if (user == NULL || out.users[u].n_pixels > user->n_pixels)
			user = &out.users[u];
	}
	for (int j = 0; j < TRACKER_N_JOINTS; j++) {
		double behind;

		if (!tracker_joint_is_upper_body(j))
			continue;
		if (score_inside(mm, &user->joints[j], &behind)) {
			inside++;
			continue;
		}
		g_test_message("%s: %s at (%.0f, %.0f), %.0f mm behind the surface", path,
		               tracker_joint_name(j), user->joints[j].u, user->joints[j].v, behind);
		g_assert_true(j != TRACKER_JOINT_HEAD && j != TRACKER_JOINT_LEFT_SHOULDER &&
		              j != TRACKER_JOINT_RIGHT_SHOULDER);
	}
	g_assert_cmpuint(inside, >=, 6);
	for (int side = 0; side < 2; side++) {
		g_test_message("%s: %s hand %d, confidence %.2f", path, side ? "right" : "left",
		               user->hands[side].state, user->hands[side].confidence);
		g_assert_false(user->hands[side].state == TRACKER_HAND_OPEN &&
		               user->hands[side].confidence > REAL_MAX_OPEN_CONFIDENCE);
	}
}

static void
test_skipped(void)
{
	g_test_skip("no real Kinect frames: $SKELBRIDGE_REAL_KINECT is not a folder");
}

int
main(int argc, char **argv)
{
	const char *dir;
	g_auto(GStrv) files = NULL;

	g_test_init(&argc, &argv, NULL);
	dir = testutil_real_kinect_dir();
	if (dir == NULL) {
		g_test_add_func("/tracker/real/frames", test_skipped);
		return g_test_run();
	}
	files = testutil_real_kinect_files(dir);
	for (guint i = 0; files[i] != NULL; i++) {
		g_autofree char *base = g_path_get_basename(files[i]);
		g_autofree char *name = g_strdup_printf("/tracker/real/%s", base);

		g_test_add_data_func(name, files[i], test_real_frame);
	}
	return g_test_run();
}
