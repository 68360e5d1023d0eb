/* Reading marks made by hand on real frames: the shipped people marks,
 * the real Kinect frames' joint marks when they are there, and every
 * error naming file and line. */
#include <glib/gstdio.h>
#include <string.h>

#include "marks.h"
#include "testutil.h"

#define PEOPLE_HEADER "file,person,u0,v0,u1,v1,head_u,head_v\n"

/* Reads @text as people marks from a file of its own; the error, if any. */
static char *
people_error(const char *text, char **path)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *dir = testutil_tmpdir();
	g_autoptr(GPtrArray) people = NULL;

	*path = g_build_filename(dir, "marks.csv", NULL);
	testutil_write_file(*path, text, strlen(text));
	people = marks_read_people(*path, &error);
	g_unlink(*path);
	testutil_rmdir(dir);
	g_assert_true((people == NULL) == (error != NULL));
	return error != NULL ? g_strdup(error->message) : NULL;
}

static void
assert_people_error(const char *text, const char *want)
{
	g_autofree char *path = NULL;
	g_autofree char *got = people_error(text, &path);
	g_autofree char *full = g_strdup_printf("%s:%s", path, want);

	g_assert_cmpstr(got, ==, full);
}

static void
test_people_shipped(void)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *path = testutil_real_rooms_marks();
	g_autoptr(GPtrArray) people = marks_read_people(path, &error);
	const MarksPerson *on[MARKS_MAX_PEOPLE];

	g_assert_no_error(error);
	g_assert_cmpuint(marks_people_on(people, "pcl-five-people.raw", on), ==, 5);
	for (guint i = 0; i < 5; i++)
		g_assert_cmpuint(on[i]->person, ==, i + 1);
	g_assert_cmpuint(marks_people_on(people, "pcl-closeup.raw", on), ==, 1);
	g_assert_true(on[0]->has_head);
	g_assert_cmpuint(marks_people_on(people, "nothing.raw", on), ==, 0);
}

static void
test_people_head_out_of_view(void)
{
	g_autofree char *path = NULL;
	g_autofree char *error =
	        people_error("# a comment\n" PEOPLE_HEADER "a.raw,1,0,0,9,9,,\n", &path);

	g_assert_null(error);
}

static void
test_people_errors(void)
{
	assert_people_error("", "1: expected the header 'file,person,u0,v0,u1,v1,head_u,head_v', "
	                        "got ''");
	assert_people_error("# marks\nfile,person\n", "2: expected the header "
	                                              "'file,person,u0,v0,u1,v1,head_u,head_v', "
	                                              "got 'file,person'");
	assert_people_error(PEOPLE_HEADER "a.raw,1,0,0,9,9\n", "2: expected 8 fields, got 6");
	assert_people_error(PEOPLE_HEADER "\n", "2: expected 8 fields, got an empty line");
	assert_people_error(PEOPLE_HEADER "a.raw,1,0,0,9,640,,\n",
	                    "2: v1: expected a whole number from 0 to 479, got '640'");
	assert_people_error(PEOPLE_HEADER "a.raw,1,5,0,4,9,,\n",
	                    "2: u1: expected a whole number from 5 to 639, got '4'");
	assert_people_error(PEOPLE_HEADER "a.raw,0,0,0,9,9,,\n",
	                    "2: person: expected a whole number from 1 to 16, got '0'");
	assert_people_error(PEOPLE_HEADER "a.raw,1,0,0,9,9,5,\n",
	                    "2: head_u, head_v: give both or neither");
	assert_people_error(PEOPLE_HEADER "a.raw,1,0,0,9,9,5,10\n",
	                    "2: head_v: expected a whole number from 0 to 9, got '10'");
	assert_people_error(PEOPLE_HEADER "../a.raw,1,0,0,9,9,,\n",
	                    "2: file: expected a file name, got '../a.raw'");
	assert_people_error(PEOPLE_HEADER "a.raw,1,0,0,9,9,,\nb.raw,1,0,0,9,9,,\n"
	                                  "a.raw,1,0,0,9,9,,\n",
	                    "4: person 1 of a.raw is marked twice");
}

static void
test_joints_errors(void)
{
	const char *header = "file,joint,u,v,z_surface_mm,uncertainty_px\n";
	const char *cases[][2] = {
		{ "a,nose,1,2,900,8\n", "2: joint: expected a joint's name, got 'nose'" },
		{ "a,head,1,2,0,8\n",
		  "2: z_surface_mm: expected a number from 1 to 10000, got '0'" },
		{ "a,head,1,2x,900,8\n", "2: v: expected a number from 0 to 479, got '2x'" },
		{ "a,head,1,2,900,8\na,head,1,2,900,8\n", "3: head of a is marked twice" },
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) error = NULL;
		g_autofree char *dir = testutil_tmpdir();
		g_autofree char *path = g_build_filename(dir, "annotations.csv", NULL);
		g_autofree char *text = g_strconcat(header, cases[i][0], NULL);
		g_autofree char *want = g_strdup_printf("%s:%s", path, cases[i][1]);

		testutil_write_file(path, text, strlen(text));
		g_assert_null(marks_read_joints(path, &error));
		g_assert_cmpstr(error->message, ==, want);
		testutil_rmdir(dir);
	}
}

/* The real Kinect frames' 41 marks, when the frames are there. */
static void
test_joints_real_kinect(void)
{
	g_autoptr(GError) error = NULL;
	const char *dir = testutil_real_kinect_dir();
	g_autofree char *path = NULL;
	g_autoptr(GPtrArray) joints = NULL;

	if (dir == NULL) {
		g_test_skip("no real Kinect frames: $SKELBRIDGE_REAL_KINECT is not a folder");
		return;
	}
	path = g_build_filename(dir, "annotations.csv", NULL);
	joints = marks_read_joints(path, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(joints->len, ==, 41);
}

/* Back-projected with the camera model, 35 mm behind the surface. */
static void
test_joints_position(void)
{
	MarksJoint centre = { (char *)"a", TRACKER_JOINT_HEAD, 320.0, 240.0, 1000.0, 8.0 };
	MarksJoint corner = { (char *)"a", TRACKER_JOINT_HEAD, 0.0, 0.0, 965.0, 8.0 };
	TrackerVec3 c = marks_joint_position(&centre), k = marks_joint_position(&corner);

	g_assert_cmpfloat_with_epsilon(c.x, 0.0, 1e-9);
	g_assert_cmpfloat_with_epsilon(c.y, 0.0, 1e-9);
	g_assert_cmpfloat_with_epsilon(c.z, 1035.0, 1e-9);
	g_assert_cmpfloat_with_epsilon(k.x, -320.0 * 1000.0 / 575.8157, 0.01);
	g_assert_cmpfloat_with_epsilon(k.y, 240.0 * 1000.0 / 575.8157, 0.01);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/marks/people/shipped", test_people_shipped);
	g_test_add_func("/marks/people/head-out-of-view", test_people_head_out_of_view);
	g_test_add_func("/marks/people/errors", test_people_errors);
	g_test_add_func("/marks/joints/errors", test_joints_errors);
	g_test_add_func("/marks/joints/real-kinect", test_joints_real_kinect);
	g_test_add_func("/marks/joints/position", test_joints_position);
	return g_test_run();
}
