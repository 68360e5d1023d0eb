#include "bench-real.h"

#include <stdio.h>
#include <string.h>

#include "marks.h"
#include "score.h"
#include "testutil.h"
#include "tracker/tracker.h"

/* The user's upper-body joints inside the person, printed with how far
 * behind the surface each is. */
static guint
bench_real_inside(const guint16 *mm, const TrackerUser *user, BenchReal *r)
{
	guint inside = 0;

	for (int j = 0; j < TRACKER_N_JOINTS; j++) {
		double behind = 0.0;
		gboolean ok;

		if (!tracker_joint_is_upper_body(j))
			continue;
		r->upper++;
		ok = user != NULL && score_inside(mm, &user->joints[j], &behind);
		inside += ok;
		printf(" %s %s(%+.0f)", tracker_joint_name(j), ok ? "in" : "OUT", behind);
	}
	r->inside += inside;
	return inside;
}

/* How far the user's joint is from @mark, printed; whether it is found. */
static gboolean
bench_real_mark(const MarksJoint *mark, const TrackerUser *user)
{
	double d;
	gboolean found = score_mark_found(mark, user, &d);

	if (d < 0.0)
		printf(" %s not reported, MISSED;", tracker_joint_name(mark->joint));
	else
		printf(" %s %.0f mm%s;", tracker_joint_name(mark->joint), d,
		       found ? "" : " MISSED");
	return found;
}

/* Each joint marked on @file: how far the user's is from the mark. */
static void
bench_real_marks(GPtrArray *marks, const char *file, const TrackerUser *user, BenchReal *r)
{
	guint found = 0, marked = 0;

	printf("    marked:");
	for (guint i = 0; i < marks->len; i++) {
		const MarksJoint *m = g_ptr_array_index(marks, i);

		if (strcmp(m->file, file) != 0)
			continue;
		marked++;
		found += bench_real_mark(m, user);
	}
	printf(" %u of %u found\n", found, marked);
	r->found += found;
	r->marked += marked;
}

static void
bench_real_frame(Tracker *tracker, const char *path, GPtrArray *marks, guint64 number, BenchReal *r)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *base = g_path_get_basename(path);
	g_autofree guint16 *mm = g_new(guint16, DEPTH_PIXELS);
	const TrackerUser *user;
	TrackerFrame out;

	testutil_load_raw(path, mm);
	tracker_reset(tracker);
	g_assert_true(tracker_process(tracker, mm, number, 0, &out, &error));
	user = score_main_user(&out);
	printf("  %s: %u user(s); inside:", base, out.n_users);
	bench_real_inside(mm, user, r);
	printf("\n");
	if (marks != NULL)
		bench_real_marks(marks, base, user, r);
	r->frames++;
}

/* The folder's hand-marked joints, or NULL (said why) when unreadable. */
static GPtrArray *
bench_real_read_marks(const char *dir)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *path = g_build_filename(dir, "annotations.csv", NULL);
	GPtrArray *marks = marks_read_joints(path, &error);

	if (marks == NULL)
		printf("  no marked joints: %s\n", error->message);
	return marks;
}

void
bench_real_run(BenchReal *r)
{
	const char *dir = testutil_real_kinect_dir();
	g_autoptr(Tracker) tracker = tracker_new(NULL, NULL);
	g_autoptr(GPtrArray) marks = NULL;
	g_auto(GStrv) files = NULL;

	memset(r, 0, sizeof(*r));
	if (dir == NULL) {
		printf("\nreal frames: skipped ($SKELBRIDGE_REAL_KINECT is not a folder)\n");
		return;
	}
	r->ran = TRUE;
	printf("\nreal frames (%s), the main user: upper-body joints inside the person (mm "
	       "behind the surface), and the joints marked by hand within %.0f mm of the mark\n",
	       dir, SCORE_NEAR_MM);
	marks = bench_real_read_marks(dir);
	files = testutil_real_kinect_files(dir);
	for (guint n = 0; files[n] != NULL; n++)
		bench_real_frame(tracker, files[n], marks, n, r);
	printf("real frames: %u of %u upper-body joints inside the person in %u frames; %u of %u "
	       "marked joints within %.0f mm\n",
	       r->inside, r->upper, r->frames, r->found, r->marked, SCORE_NEAR_MM);
}
