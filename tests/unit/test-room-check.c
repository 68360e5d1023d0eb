/* Whether users are on the people marked on a frame, one to one: on a
 * synthetic frame, a wall at 3 m with a person-shaped box at 2 m. */
#include <string.h>

#include "room-check.h"
#include "tracker/tracker-camera.h"

#define WALL_MM   3000
#define PERSON_MM 2000

typedef struct {
	guint16 *mm;
	MarksPerson people[2];
	const MarksPerson *marked[2];
	TrackerFrame frame;
} Fixture;

/* A wall, and a body at PERSON_MM over columns 200..400 from row 100 down. */
static void
fixture_set_up(Fixture *f, gconstpointer data)
{
	(void)data;
	memset(f, 0, sizeof(*f));
	f->mm = g_new(guint16, TRACKER_DEPTH_WIDTH * TRACKER_DEPTH_HEIGHT);
	for (int v = 0; v < TRACKER_DEPTH_HEIGHT; v++) {
		for (int u = 0; u < TRACKER_DEPTH_WIDTH; u++)
			f->mm[v * TRACKER_DEPTH_WIDTH + u] =
			        u >= 200 && u <= 400 && v >= 100 ? PERSON_MM : WALL_MM;
	}
	f->people[0] = (MarksPerson){ (char *)"a.raw", 1, 200, 100, 300, 479, TRUE, 250, 130 };
	f->people[1] = (MarksPerson){ (char *)"a.raw", 2, 260, 100, 400, 470, TRUE, 330, 130 };
	f->marked[0] = &f->people[0];
	f->marked[1] = &f->people[1];
}

static void
fixture_tear_down(Fixture *f, gconstpointer data)
{
	(void)data;
	g_free(f->mm);
}

static void
set_joint(TrackerUser *user, TrackerJointId id, double u, double v, double z)
{
	TrackerCamera camera;
	TrackerJoint *joint = &user->joints[id];

	tracker_camera_init_kinect(&camera);
	joint->position = tracker_camera_unproject(&camera, u, v, z);
	joint->u = u;
	joint->v = v;
	joint->confidence = 1.0;
}

/* A user standing at column @u, joints 50-80 mm behind the surface. */
static TrackerUser *
add_user(Fixture *f, double u)
{
	TrackerUser *user = &f->frame.users[f->frame.n_users++];

	memset(user, 0, sizeof(*user));
	user->id = f->frame.n_users;
	set_joint(user, TRACKER_JOINT_TORSO, u, 300, PERSON_MM + 80);
	set_joint(user, TRACKER_JOINT_NECK, u, 200, PERSON_MM + 50);
	set_joint(user, TRACKER_JOINT_HEAD, u, 130, PERSON_MM + 80);
	return user;
}

/* The check of @f against its first @n_people people, described. */
static char *
check(Fixture *f, guint n_people, gboolean *passed)
{
	g_auto(RoomCheck) c = { 0 };

	room_check_frame(&c, f->mm, &f->frame, f->marked, n_people);
	*passed = room_check_passed(&c);
	return room_check_describe(&c, &f->frame, f->marked, "");
}

static void
assert_check(Fixture *f, guint n_people, gboolean want_passed, const char *want)
{
	gboolean passed;
	g_autofree char *got = check(f, n_people, &passed);

	g_assert_cmpstr(got, ==, want);
	g_assert_cmpint(passed, ==, want_passed);
}

static void
test_on(Fixture *f, gconstpointer data)
{
	(void)data;
	add_user(f, 250);
	assert_check(f, 1, TRUE, "user 1 (id 1): on person 1 (head 0 px from the mark)\n");
}

static void
test_off(Fixture *f, gconstpointer data)
{
	TrackerUser *user = add_user(f, 250);

	(void)data;
	set_joint(user, TRACKER_JOINT_HEAD, 250, 130, PERSON_MM + 300);
	assert_check(f, 1, FALSE,
	             "user 1 (id 1): on no person; nearest person 1: head 300 mm behind the "
	             "surface\nperson 1: no user\n");
	set_joint(user, TRACKER_JOINT_NECK, 250, 200, PERSON_MM - 50);
	assert_check(f, 1, FALSE,
	             "user 1 (id 1): on no person; nearest person 1: neck 50 mm in front of the "
	             "surface\nperson 1: no user\n");
	set_joint(user, TRACKER_JOINT_TORSO, 350, 300, PERSON_MM + 80);
	assert_check(f, 1, FALSE,
	             "user 1 (id 1): on no person; nearest person 1: torso at (350, 300), outside "
	             "the box\nperson 1: no user\n");
}

/* A head left out is no matter; a torso left out is, unless the box
 * runs off the image. */
static void
test_left_out(Fixture *f, gconstpointer data)
{
	TrackerUser *user = add_user(f, 270);

	(void)data;
	user->joints[TRACKER_JOINT_HEAD].confidence = 0.0;
	user->joints[TRACKER_JOINT_TORSO].confidence = 0.0;
	assert_check(f, 1, TRUE, "user 1 (id 1): on person 1\n");
	f->marked[0] = &f->people[1];
	assert_check(f, 1, FALSE,
	             "user 1 (id 1): on no person; nearest person 2: torso not reported\n"
	             "person 2: no user\n");
}

/* A torso below the image is on a person whose box runs off the bottom. */
static void
test_beyond(Fixture *f, gconstpointer data)
{
	TrackerUser *user = add_user(f, 270);

	(void)data;
	set_joint(user, TRACKER_JOINT_TORSO, 270, 600, PERSON_MM + 80);
	assert_check(f, 1, TRUE, "user 1 (id 1): on person 1 (head 20 px from the mark)\n");
	f->marked[0] = &f->people[1];
	assert_check(f, 1, FALSE,
	             "user 1 (id 1): on no person; nearest person 2: torso at (270, 600), beyond "
	             "the image\nperson 2: no user\n");
	f->marked[0] = &f->people[0];
	set_joint(user, TRACKER_JOINT_NECK, 270, 500, PERSON_MM + 80);
	user->joints[TRACKER_JOINT_HEAD].confidence = 0.0;
	assert_check(f, 1, FALSE,
	             "user 1 (id 1): on no person; nearest person 1: torso, neck and head all "
	             "beyond the image\nperson 1: no user\n");
}

/* One user per person: a second user on a person is on none. */
static void
test_one_to_one(Fixture *f, gconstpointer data)
{
	(void)data;
	add_user(f, 250);
	add_user(f, 250);
	assert_check(f, 1, FALSE,
	             "user 1 (id 1): on person 1 (head 0 px from the mark)\n"
	             "user 2 (id 2): on person 1, paired with user 1\n");
}

/* A user on two people gives way to one that is on only one of them. */
static void
test_gives_way(Fixture *f, gconstpointer data)
{
	(void)data;
	add_user(f, 280);
	add_user(f, 220);
	assert_check(f, 2, TRUE,
	             "user 1 (id 1): on person 2 (head 50 px from the mark)\n"
	             "user 2 (id 2): on person 1 (head 30 px from the mark)\n");
}

static void
test_nobody_found(Fixture *f, gconstpointer data)
{
	(void)data;
	assert_check(f, 2, FALSE, "person 1: no user\nperson 2: no user\n");
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
#define ADD(path, fn) g_test_add(path, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)
	ADD("/room-check/on", test_on);
	ADD("/room-check/off", test_off);
	ADD("/room-check/left-out", test_left_out);
	ADD("/room-check/beyond", test_beyond);
	ADD("/room-check/one-to-one", test_one_to_one);
	ADD("/room-check/gives-way", test_gives_way);
	ADD("/room-check/nobody-found", test_nobody_found);
#undef ADD
	return g_test_run();
}
