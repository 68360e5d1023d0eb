#include "bench-rooms.h"

#include <stdio.h>
#include <string.h>

#include "marks.h"
#include "room-check.h"
#include "testutil.h"
#include "tracker/tracker.h"

typedef struct {
	const MarksPerson *people[MARKS_MAX_PEOPLE];
	guint n_people;
	guint16 *mm;
} BenchRoomsFrame;

/* Checks @out against the people marked and prints it; whether it passed. */
static gboolean
bench_rooms_check(const BenchRoomsFrame *f, const TrackerFrame *out, const char *when)
{
	g_auto(RoomCheck) check = { 0 };
	g_autofree char *users = NULL;

	room_check_frame(&check, f->mm, out, f->people, f->n_people);
	users = room_check_describe(&check, out, f->people, "      ");
	printf("    %s: %u users, %u on their person%s\n%s", when, out->n_users,
	       room_check_paired(&check), room_check_passed(&check) ? "" : " (NOT right)", users);
	return room_check_passed(&check);
}

static gboolean
bench_rooms_file(const char *path, GPtrArray *marks, GString *summary)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(Tracker) tracker = tracker_new(NULL, &error);
	g_autofree char *base = g_path_get_basename(path);
	g_autofree guint16 *mm = g_new(guint16, DEPTH_PIXELS);
	BenchRoomsFrame f = { .mm = mm };
	gboolean right = TRUE;
	TrackerFrame out;

	g_assert_no_error(error);
	testutil_load_raw(path, mm);
	f.n_people = marks_people_on(marks, base, f.people);
	printf("  %s: %u %s marked\n", base, f.n_people, f.n_people == 1 ? "person" : "people");
	for (guint k = 0; k < BENCH_ROOMS_STILLS; k++) {
		g_assert_true(tracker_process(tracker, mm, k, (gint64)k * 33333, &out, &error));
		if (k == 0) {
			right = bench_rooms_check(&f, &out, "first frame");
			g_string_append_printf(summary, "%s%s %u of %u", summary->len ? ", " : "",
			                       base, out.n_users, f.n_people);
		}
	}
	right = bench_rooms_check(&f, &out, "tenth frame") && right;
	return right;
}

void
bench_rooms_run(BenchRooms *r)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *marks_path = testutil_real_rooms_marks();
	const char *dir = testutil_real_rooms_dir();
	g_autoptr(GPtrArray) marks = NULL;
	g_autoptr(GString) summary = g_string_new(NULL);
	g_auto(GStrv) files = NULL;

	memset(r, 0, sizeof(*r));
	if (dir == NULL || marks_path == NULL) {
		printf("\nreal rooms: skipped ($SKELBRIDGE_REAL_ROOMS is not a folder, or "
		       "$SKELBRIDGE_SOURCE_ROOT is not set)\n");
		return;
	}
	marks = marks_read_people(marks_path, &error);
	g_assert_no_error(error);
	printf("\nreal rooms (%s): users on the people marked in tests/data/real-rooms.csv, "
	       "each skeleton on its person; a fresh tracker, the still fed %u times\n",
	       dir, BENCH_ROOMS_STILLS);
	files = testutil_real_rooms_files(dir);
	for (guint i = 0; files[i] != NULL; i++) {
		r->passed += bench_rooms_file(files[i], marks, summary);
		r->frames++;
	}
	r->ran = TRUE;
	r->summary = g_strdup(summary->str);
	printf("real rooms: %u of %u frames right (first frame: %s users)\n", r->passed, r->frames,
	       r->summary);
}

void
bench_rooms_clear(BenchRooms *r)
{
	g_clear_pointer(&r->summary, g_free);
}
