/* Real Kinect frames (upper bodies, background cut away, no floor): the
 * person found, head and shoulders inside them, and at least five of the
 * seven upper-body joints inside. (The benchmark reports how many of all
 * seven are.) In depth-data-1028894671 both fists are held out toward
 * the sensor, and neither hand is found yet: they lie on the chest in the
 * picture, behind it in depth. Their hands are fists or held edge-on:
 * none is called open with much confidence. Over all six frames, the
 * joints marked by hand (annotations.csv) are found within 100 mm at
 * least as often as the tracker now manages: a step back fails. The
 * frames live beside the project; without them the test is skipped. */
#include <string.h>

#include "marks.h"
#include "score.h"
#include "testutil.h"
#include "tracker/tracker.h"

#define REAL_REPEATS             3
#define REAL_MIN_INSIDE          5
#define REAL_MIN_MARKED          35 /* of 41 */
#define REAL_MAX_OPEN_CONFIDENCE 0.6

/* The user with the most pixels (one frame shows a second person behind
 * the first) after the frame @mm is tracked a few times over: a hand
 * state shows once two frames running say it. */
static TrackerUser
track_main_user(const guint16 *mm)
{
	g_autoptr(Tracker) tracker = tracker_new(NULL, NULL);
	TrackerFrame out;

	for (int k = 0; k < REAL_REPEATS; k++)
		g_assert_true(tracker_process(tracker, mm, k, k * 33333, &out, NULL));
	g_assert_cmpuint(out.n_users, >=, 1);
	return *score_main_user(&out);
}

static void
test_real_frame(gconstpointer data)
{
	const char *path = data;
	g_autofree guint16 *mm = g_new(guint16, DEPTH_PIXELS);
	TrackerUser main_user;
	const TrackerUser *user = &main_user;
	guint inside = 0;

	testutil_load_raw(path, mm);
	main_user = track_main_user(mm);
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
	g_assert_cmpuint(inside, >=, REAL_MIN_INSIDE);
	for (int side = 0; side < 2; side++) {
		g_test_message("%s: %s hand %d, confidence %.2f", path, side ? "right" : "left",
		               user->hands[side].state, user->hands[side].confidence);
		g_assert_false(user->hands[side].state == TRACKER_HAND_OPEN &&
		               user->hands[side].confidence > REAL_MAX_OPEN_CONFIDENCE);
	}
}

/* The marks on @file that @user's joints lie within SCORE_NEAR_MM of. */
static guint
count_found(GPtrArray *marks, const char *file, const TrackerUser *user, guint *marked)
{
	guint found = 0;

	for (guint i = 0; i < marks->len; i++) {
		const MarksJoint *m = g_ptr_array_index(marks, i);
		double d;

		if (strcmp(m->file, file) != 0)
			continue;
		(*marked)++;
		found += score_mark_found(m, user, &d);
		g_test_message("%s: %s %.0f mm off the mark", file, tracker_joint_name(m->joint),
		               d);
	}
	return found;
}

static void
test_real_marked(gconstpointer data)
{
	const char *dir = data;
	g_autofree char *csv = g_build_filename(dir, "annotations.csv", NULL);
	g_autofree guint16 *mm = g_new(guint16, DEPTH_PIXELS);
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) marks = marks_read_joints(csv, &error);
	g_auto(GStrv) files = testutil_real_kinect_files(dir);
	guint found = 0, marked = 0;

	g_assert_no_error(error);
	for (guint i = 0; files[i] != NULL; i++) {
		g_autofree char *base = g_path_get_basename(files[i]);
		TrackerUser user;

		testutil_load_raw(files[i], mm);
		user = track_main_user(mm);
		found += count_found(marks, base, &user, &marked);
	}
	g_test_message("%u of %u marked joints found", found, marked);
	g_assert_cmpuint(marked, ==, 41);
	g_assert_cmpuint(found, >=, REAL_MIN_MARKED);
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
	g_test_add_data_func("/tracker/real/marked", dir, test_real_marked);
	return g_test_run();
}
