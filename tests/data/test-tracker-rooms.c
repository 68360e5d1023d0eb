/* Real frames with the room left in (floor, walls, furniture, people
 * hiding one another): the tracker reports exactly the people marked in
 * tests/data/real-rooms.csv, each skeleton on its person (room-check.h),
 * on a fresh tracker's first frame and after the same still ten times.
 * The frames live beside the project ($SKELBRIDGE_REAL_ROOMS); without
 * them the tests are skipped. */
#include "marks.h"
#include "room-check.h"
#include "testutil.h"
#include "tracker/tracker.h"

#define ROOMS_STILLS 10 /* the still fed again as frames 0..9 */

typedef struct {
	char *path;
	guint frames; /* fed to a fresh tracker, the last one checked */
} RoomsCase;

static GPtrArray *rooms_marks; /* MarksPerson */

/* A fresh tracker fed @mm @frames times, 30 frames a second. */
static void
rooms_track(const guint16 *mm, guint frames, TrackerFrame *out)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(Tracker) tracker = tracker_new(NULL, &error);

	g_assert_no_error(error);
	for (guint k = 0; k < frames; k++) {
		tracker_process(tracker, mm, k, (gint64)k * 33333, out, &error);
		g_assert_no_error(error);
	}
}

static void
rooms_test_frame(gconstpointer data)
{
	const RoomsCase *c = data;
	g_autofree guint16 *mm = g_new(guint16, DEPTH_PIXELS);
	g_autofree char *base = g_path_get_basename(c->path);
	g_autofree char *users = NULL, *summary = NULL;
	const MarksPerson *people[MARKS_MAX_PEOPLE];
	guint n_people = marks_people_on(rooms_marks, base, people);
	g_auto(RoomCheck) check = { 0 };
	TrackerFrame out;

	testutil_load_raw(c->path, mm);
	rooms_track(mm, c->frames, &out);
	room_check_frame(&check, mm, &out, people, n_people);
	users = g_strchomp(room_check_describe(&check, &out, people, "  "));
	g_test_message("%s, frame %u:\n%s", base, c->frames, users);
	summary = g_strdup_printf("%s: %u users, %u people marked, %u users on their person", base,
	                          out.n_users, n_people, room_check_paired(&check));
	if (!room_check_passed(&check))
		g_test_fail_printf("%s", summary);
}

/* Every frame is marked, and every frame marked is there. */
static void
rooms_test_marked(gconstpointer data)
{
	const char *dir = data;
	g_auto(GStrv) files = testutil_real_rooms_files(dir);
	const MarksPerson *people[MARKS_MAX_PEOPLE];

	for (guint i = 0; files[i] != NULL; i++) {
		g_autofree char *base = g_path_get_basename(files[i]);

		if (marks_people_on(rooms_marks, base, people) == 0)
			g_test_fail_printf("%s: nobody is marked on it", base);
	}
	for (guint i = 0; i < rooms_marks->len; i++) {
		const MarksPerson *p = g_ptr_array_index(rooms_marks, i);
		g_autofree char *path = g_build_filename(dir, p->file, NULL);

		if (!g_file_test(path, G_FILE_TEST_IS_REGULAR))
			g_test_fail_printf("%s is marked but not there", path);
	}
}

static void
rooms_test_skipped(void)
{
	g_test_skip("no real frames of rooms: $SKELBRIDGE_REAL_ROOMS is not a folder");
}

static void
rooms_add(GPtrArray *cases, const char *path, guint frames, const char *name)
{
	g_autofree char *base = g_path_get_basename(path);
	g_autofree char *test = g_strdup_printf("/tracker/rooms/%s/%s", base, name);
	RoomsCase *c = g_new0(RoomsCase, 1);

	c->path = g_strdup(path);
	c->frames = frames;
	g_ptr_array_add(cases, c);
	g_test_add_data_func(test, c, rooms_test_frame);
}

static void
rooms_case_free(RoomsCase *c)
{
	g_free(c->path);
	g_free(c);
}

int
main(int argc, char **argv)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) cases =
	        g_ptr_array_new_with_free_func((GDestroyNotify)rooms_case_free);
	g_autofree char *marks = testutil_real_rooms_marks();
	const char *dir;
	g_auto(GStrv) files = NULL;
	int status;

	g_test_init(&argc, &argv, NULL);
	dir = testutil_real_rooms_dir();
	if (dir == NULL) {
		g_test_add_func("/tracker/rooms/frames", rooms_test_skipped);
		return g_test_run();
	}
	g_assert_nonnull(marks);
	rooms_marks = marks_read_people(marks, &error);
	g_assert_no_error(error);
	files = testutil_real_rooms_files(dir);
	g_test_add_data_func("/tracker/rooms/marked", dir, rooms_test_marked);
	for (guint i = 0; files[i] != NULL; i++) {
		rooms_add(cases, files[i], 1, "first-frame");
		rooms_add(cases, files[i], ROOMS_STILLS, "tenth-frame");
	}
	status = g_test_run();
	g_ptr_array_unref(rooms_marks);
	return status;
}
