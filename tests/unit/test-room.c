/* The room file: what it places where, its round trip through text and
 * disk, every malformed file's message with its line, and files that are
 * not regular ones. */
#include <glib/gstdio.h>
#include <locale.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include "room/room.h"
#include "testutil.h"

#define PATH "test.room"
#define HEAD "[room]\nformat = 1\n"
/* Five lines: the header, source, height, tilt, roll. */
#define SENSOR(name, source)                                                                       \
	"[sensor " name "]\nsource = " source "\nheight = 1000\ntilt = 0\nroll = 0\n"

static RoomSensor
sensor_at(double x, double z, double height, double yaw, double tilt, double roll)
{
	RoomSensor s = { "s", "demo:test", x, z, height, yaw, tilt, roll };

	return s;
}

static void
assert_vec_near(TrackerVec3 a, TrackerVec3 b, double tolerance)
{
	g_assert_cmpfloat_with_epsilon(a.x, b.x, tolerance);
	g_assert_cmpfloat_with_epsilon(a.y, b.y, tolerance);
	g_assert_cmpfloat_with_epsilon(a.z, b.z, tolerance);
}

static Room *
parse_ok(const char *text)
{
	g_autoptr(GError) error = NULL;
	Room *room = room_parse(PATH, text, strlen(text), &error);

	g_assert_no_error(error);
	g_assert_nonnull(room);
	return room;
}

static void
assert_parse_fails(const char *text, gsize length, const char *expected)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(Room) room = room_parse(PATH, text, length, &error);

	g_assert_null(room);
	g_assert_error(error, ROOM_ERROR, ROOM_ERROR_PARSE);
	g_assert_cmpstr(error->message, ==, expected);
}

/* Two sensors, with values the file writes exactly. */
static Room *
two_sensor_room(void)
{
	g_autoptr(Room) room = room_new();
	RoomSensor left = { "left", "freenect:0", 0.0, 0.0, 1000.5, 0.0, 1.25, -0.5 };
	RoomSensor right = { "right-2", "demo:two-sensors@1", 2500.0, -312.5, 1800.0, -135.75, 22.5,
		             3.0 };

	g_assert_true(room_add_sensor(room, &left, NULL));
	g_assert_true(room_add_sensor(room, &right, NULL));
	return g_steal_pointer(&room);
}

static void
assert_sensors_equal(const RoomSensor *a, const RoomSensor *b)
{
	g_assert_cmpstr(a->name, ==, b->name);
	g_assert_cmpstr(a->source, ==, b->source);
	g_assert_cmpfloat(a->x_mm, ==, b->x_mm);
	g_assert_cmpfloat(a->z_mm, ==, b->z_mm);
	g_assert_cmpfloat(a->height_mm, ==, b->height_mm);
	g_assert_cmpfloat(a->yaw_deg, ==, b->yaw_deg);
	g_assert_cmpfloat(a->tilt_deg, ==, b->tilt_deg);
	g_assert_cmpfloat(a->roll_deg, ==, b->roll_deg);
}

static void
assert_rooms_equal(const Room *a, const Room *b)
{
	g_assert_cmpuint(room_n_sensors(a), ==, room_n_sensors(b));
	for (guint i = 0; i < room_n_sensors(a); i++)
		assert_sensors_equal(room_get_sensor(a, i), room_get_sensor(b, i));
}

/* ---- the model ---- */

static void
test_find_source(void)
{
	g_autoptr(Room) room = two_sensor_room();

	g_assert_cmpuint(room_n_sensors(room), ==, 2);
	g_assert_cmpstr(room_find_source(room, "demo:two-sensors@1")->name, ==, "right-2");
	g_assert_cmpstr(room_find_source(room, "freenect:0")->name, ==, "left");
	g_assert_null(room_find_source(room, "freenect:1"));
}

/* The sensor is copied: the caller's strings are its own. */
static void
test_add_copies(void)
{
	g_autoptr(Room) room = room_new();
	g_autofree char *name = g_strdup("a");
	g_autofree char *source = g_strdup("freenect:0");
	RoomSensor s = { name, source, 0, 0, 1000, 0, 0, 0 };

	g_assert_true(room_add_sensor(room, &s, NULL));
	name[0] = 'b';
	source[0] = 'x';
	g_assert_cmpstr(room_get_sensor(room, 0)->name, ==, "a");
	g_assert_cmpstr(room_get_sensor(room, 0)->source, ==, "freenect:0");
}

static void
assert_add_fails(Room *room, const RoomSensor *s, const char *expected)
{
	g_autoptr(GError) error = NULL;
	guint n = room_n_sensors(room);

	g_assert_false(room_add_sensor(room, s, &error));
	g_assert_error(error, ROOM_ERROR, ROOM_ERROR_PARSE);
	g_assert_cmpstr(error->message, ==, expected);
	g_assert_cmpuint(room_n_sensors(room), ==, n);
}

static void
test_add_refused(void)
{
	g_autoptr(Room) room = two_sensor_room();
	RoomSensor s = { "left", "freenect:5", 0, 0, 1000, 0, 0, 0 };

	assert_add_fails(room, &s, "[sensor left]: the room has a sensor of that name already");
	s.name = "other";
	s.source = "freenect:0";
	assert_add_fails(room, &s, "[sensor other] source: freenect:0 is [sensor left]'s already");
	s.source = "freenect:5";
	s.height_mm = 4000.5;
	assert_add_fails(room, &s,
	                 "[sensor other] height: 4000.5 is out of range: from 200 to 4000");
	s.height_mm = 1000;
	s.yaw_deg = NAN;
	assert_add_fails(room, &s, "[sensor other] yaw: nan is out of range: from -180 to 180");
	s.yaw_deg = 0;
	s.source = "freenect:5\nx = 1";
	assert_add_fails(room, &s,
	                 "[sensor other] source: 'freenect:5\nx = 1' is no source: one line, "
	                 "nothing blank around it");
	s.source = "freenect:5";
	s.name = "a b";
	assert_add_fails(room, &s,
	                 "bad name 'a b' in [sensor ...]: use letters, digits, '_' and '-'");
}

static void
test_add_too_many(void)
{
	g_autoptr(Room) room = room_new();

	for (guint i = 0; i <= ROOM_MAX_SENSORS; i++) {
		g_autofree char *name = g_strdup_printf("s%u", i);
		g_autofree char *source = g_strdup_printf("freenect:%u", i);
		RoomSensor s = { name, source, 0, 0, 1000, 0, 0, 0 };

		if (i < ROOM_MAX_SENSORS)
			g_assert_true(room_add_sensor(room, &s, NULL));
		else
			assert_add_fails(
			        room, &s,
			        "[sensor s8]: more than 8 sensors; a room holds at most 8");
	}
}

/* ---- the transform ---- */

/* Level at height 1000, turned a quarter toward +x, standing at x = 500:
 * it looks along +x, and its right is -z. */
static void
test_to_room_turned(void)
{
	RoomSensor s = sensor_at(500, 0, 1000, 90, 0, 0);

	assert_vec_near(room_sensor_to_room(&s, tracker_vec3(0, 0, 2000)),
	                tracker_vec3(2500, 1000, 0), 1e-9);
	assert_vec_near(room_sensor_to_room(&s, tracker_vec3(100, 0, 2000)),
	                tracker_vec3(2500, 1000, -100), 1e-9);
	assert_vec_near(room_sensor_to_room(&s, tracker_vec3(0, -1000, 0)), tracker_vec3(500, 0, 0),
	                1e-9);
	/* Turned back: looking along -z from (0, 3000), its right is -x. */
	s = sensor_at(0, 3000, 1000, 180, 0, 0);
	assert_vec_near(room_sensor_to_room(&s, tracker_vec3(100, 200, 2000)),
	                tracker_vec3(-100, 1200, 1000), 1e-9);
	/* A quarter toward -x: looking along -x, its right is +z. */
	s = sensor_at(0, 0, 1000, -90, 0, 0);
	assert_vec_near(room_sensor_to_room(&s, tracker_vec3(100, 0, 2000)),
	                tracker_vec3(-2000, 1000, 100), 1e-9);
}

/* Looking 30 degrees down from 1000 mm, the axis meets the floor 2000 mm
 * out; rolled 30 degrees counter-clockwise, the image's right rises. */
static void
test_to_room_tilt_roll(void)
{
	RoomSensor s = sensor_at(0, 0, 1000, 0, 30, 0);

	assert_vec_near(room_sensor_to_room(&s, tracker_vec3(0, 0, 2000)),
	                tracker_vec3(0, 0, 2000 * cos(G_PI / 6)), 1e-9);
	s = sensor_at(0, 0, 1000, 0, 0, 30);
	assert_vec_near(room_sensor_to_room(&s, tracker_vec3(100, 0, 0)),
	                tracker_vec3(100 * cos(G_PI / 6), 1000 + 100 * sin(G_PI / 6), 0), 1e-9);
	/* Both, then turned and moved: the floor point below the axis. */
	s = sensor_at(-400, 700, 1000, 90, 30, 0);
	assert_vec_near(room_sensor_to_room(&s, tracker_vec3(0, 0, 2000)),
	                tracker_vec3(-400 + 2000 * cos(G_PI / 6), 0, 700), 1e-9);
}

static RoomSensor
random_sensor(guint32 *state)
{
	return sensor_at(5000 * testutil_noise(state), 5000 * testutil_noise(state),
	                 2100 + 1900 * testutil_noise(state), 180 * testutil_noise(state),
	                 60 * testutil_noise(state), 45 * testutil_noise(state));
}

static TrackerVec3
random_point(guint32 *state)
{
	return tracker_vec3(4000 * testutil_noise(state), 4000 * testutil_noise(state),
	                    4000 * testutil_noise(state) + 4000);
}

static void
test_to_camera_inverse(void)
{
	guint32 state = 12345;

	for (guint i = 0; i < 1000; i++) {
		RoomSensor s = random_sensor(&state);
		TrackerVec3 p = random_point(&state);
		TrackerVec3 room = room_sensor_to_room(&s, p);

		assert_vec_near(room_sensor_to_camera(&s, room), p, 1e-6);
		assert_vec_near(room_sensor_to_room(&s, room_sensor_to_camera(&s, p)), p, 1e-6);
	}
}

/* A rigid transform: distances are kept, and the floor is y = 0. */
static void
test_to_room_rigid(void)
{
	guint32 state = 777;

	for (guint i = 0; i < 200; i++) {
		RoomSensor s = random_sensor(&state);
		TrackerVec3 a = random_point(&state), b = random_point(&state);
		TrackerCameraPose pose;

		room_sensor_camera_pose(&s, &pose);
		g_assert_cmpfloat_with_epsilon(tracker_vec3_distance(room_sensor_to_room(&s, a),
		                                                     room_sensor_to_room(&s, b)),
		                               tracker_vec3_distance(a, b), 1e-6);
		g_assert_cmpfloat_with_epsilon(room_sensor_to_room(&s, a).y,
		                               tracker_camera_pose_height(&pose, a), 1e-6);
	}
}

/* Unturned at the origin, the room is the tracker's own floor frame. */
static void
test_to_room_tracker(void)
{
	guint32 state = 99;

	for (guint i = 0; i < 200; i++) {
		RoomSensor s = random_sensor(&state);
		TrackerVec3 p = random_point(&state), expected;
		TrackerCameraPose pose;

		s.x_mm = s.z_mm = s.yaw_deg = 0;
		room_sensor_camera_pose(&s, &pose);
		g_assert_cmpint(pose.floor, ==, TRACKER_FLOOR_ASSUMED);
		g_assert_cmpfloat(pose.height_mm, ==, s.height_mm);
		g_assert_cmpfloat(pose.tilt_deg, ==, s.tilt_deg);
		g_assert_cmpfloat(pose.roll_deg, ==, s.roll_deg);
		g_assert_true(tracker_camera_pose_to_room(&pose, p, &expected));
		assert_vec_near(room_sensor_to_room(&s, p), expected, 1e-9);
	}
}

/* ---- text ---- */

static void
test_round_trip(void)
{
	g_autoptr(Room) room = two_sensor_room();
	g_autofree char *text = room_to_string(room, "calibrated on a test\n\nby hand");
	g_autoptr(Room) back = parse_ok(text);
	g_autofree char *again = room_to_string(back, "calibrated on a test\n\nby hand");

	assert_rooms_equal(room, back);
	g_assert_cmpstr(text, ==, again);
	g_assert_true(g_str_has_prefix(text, "# skelbridge room: where each sensor stands\n"
	                                     "# calibrated on a test\n#\n# by hand\n[room]\n"));
	g_assert_nonnull(strstr(text, "[sensor right-2]\nsource = demo:two-sensors@1\n"
	                              "x = 2500.0\nz = -312.5\nheight = 1800.0\nyaw = -135.75\n"
	                              "tilt = 22.50\nroll = 3.00\n"));
}

/* What the file writes is what it reads back, not the full double. */
static void
test_round_trip_rounded(void)
{
	g_autoptr(Room) room = room_new();
	RoomSensor s = { "a", "freenect:0", 123.456, -0.04, 1234.56, 179.999, -12.3456, 0.001 };
	g_autofree char *text = NULL;
	g_autoptr(Room) back = NULL;
	const RoomSensor *b;

	g_assert_true(room_add_sensor(room, &s, NULL));
	text = room_to_string(room, NULL);
	back = parse_ok(text);
	b = room_get_sensor(back, 0);
	g_assert_cmpfloat(b->x_mm, ==, 123.5);
	g_assert_cmpfloat(b->z_mm, ==, 0.0);
	g_assert_cmpfloat(b->height_mm, ==, 1234.6);
	g_assert_cmpfloat(b->yaw_deg, ==, 180.0);
	g_assert_cmpfloat(b->tilt_deg, ==, -12.35);
	g_assert_cmpfloat(b->roll_deg, ==, 0.0);
}

static void
test_parse_defaults(void)
{
	g_autoptr(Room) room =
	        parse_ok("# a room\n  [room]  \n\tformat=1\n\n[sensor a_1]\n   # here\n"
	                 "source   =   demo:two-sensors@0  \nheight=1500.5\ntilt = -2\n"
	                 "roll = 1e1\n");
	const RoomSensor *s = room_get_sensor(room, 0);

	g_assert_cmpuint(room_n_sensors(room), ==, 1);
	g_assert_cmpstr(s->name, ==, "a_1");
	g_assert_cmpstr(s->source, ==, "demo:two-sensors@0");
	g_assert_cmpfloat(s->x_mm, ==, 0.0);
	g_assert_cmpfloat(s->z_mm, ==, 0.0);
	g_assert_cmpfloat(s->yaw_deg, ==, 0.0);
	g_assert_cmpfloat(s->height_mm, ==, 1500.5);
	g_assert_cmpfloat(s->tilt_deg, ==, -2.0);
	g_assert_cmpfloat(s->roll_deg, ==, 10.0);
}

/* The file as the format's description shows it. */
static void
test_parse_example(void)
{
	g_autoptr(Room) room = parse_ok(
	        "# skelbridge room: where each sensor stands (skelbridge calibrate wrote it)\n"
	        "[room]\nformat = 1\n\n[sensor left]\nsource = freenect:0\nx = 0\nz = 0\n"
	        "height = 1000.0\nyaw = 0.0\ntilt = 1.0\nroll = 0.0\n");

	g_assert_cmpstr(room_get_sensor(room, 0)->name, ==, "left");
	g_assert_cmpfloat(room_get_sensor(room, 0)->tilt_deg, ==, 1.0);
}

/* Numbers are written and read as C's, whatever the locale says. */
static void
test_round_trip_locale(void)
{
	g_autoptr(Room) room = two_sensor_room();
	g_autoptr(Room) back = NULL;
	g_autofree char *text = NULL;
	g_autofree char *old = g_strdup(setlocale(LC_NUMERIC, NULL));

	if (setlocale(LC_NUMERIC, "de_DE.UTF-8") == NULL) {
		g_test_skip("no de_DE.UTF-8 locale");
		return;
	}
	text = room_to_string(room, NULL);
	back = parse_ok(text);
	setlocale(LC_NUMERIC, old);
	g_assert_nonnull(strstr(text, "height = 1000.5\n"));
	assert_rooms_equal(room, back);
}

typedef struct {
	const char *name;
	const char *text;
	const char *message;
} ParseError;

static const ParseError parse_errors[] = {
	{ "unknown-key", HEAD SENSOR("a", "freenect:0") "colour = red\n",
	  PATH ":8: [sensor a] colour: unknown key; keys are source, x, z, height, yaw, tilt and "
	       "roll" },
	{ "unknown-room-key", HEAD "name = x\n" SENSOR("a", "freenect:0"),
	  PATH ":3: [room] name: unknown key; keys are format" },
	{ "unknown-section", HEAD "[sensors a]\n",
	  PATH ":3: unknown section [sensors a]; sections are [room] and [sensor NAME]" },
	{ "duplicate-key", HEAD SENSOR("a", "freenect:0") "height = 900\n",
	  PATH ":8: [sensor a] height: duplicate key (first at line 5)" },
	{ "duplicate-format", HEAD "format = 1\n" SENSOR("a", "freenect:0"),
	  PATH ":3: [room] format: duplicate key (first at line 2)" },
	{ "duplicate-section", HEAD SENSOR("a", "freenect:0") SENSOR("a", "freenect:1"),
	  PATH ":8: duplicate section [sensor a] (first at line 3)" },
	{ "duplicate-room", HEAD SENSOR("a", "freenect:0") "[room]\n",
	  PATH ":8: duplicate section [room] (first at line 1)" },
	{ "out-of-range-height", HEAD "[sensor a]\nsource = x\nheight = 5000\n",
	  PATH ":5: [sensor a] height: 5000 is out of range: from 200 to 4000" },
	{ "out-of-range-yaw", HEAD SENSOR("a", "freenect:0") "yaw = 180.01\n",
	  PATH ":8: [sensor a] yaw: 180.01 is out of range: from -180 to 180" },
	{ "out-of-range-tilt", HEAD "[sensor a]\nsource = x\ntilt = -61\n",
	  PATH ":5: [sensor a] tilt: -61 is out of range: from -60 to 60" },
	{ "out-of-range-roll", HEAD "[sensor a]\nsource = x\nroll = 45.5\n",
	  PATH ":5: [sensor a] roll: 45.5 is out of range: from -45 to 45" },
	{ "out-of-range-x", HEAD "\n[sensor a]\nx = 1e6\n",
	  PATH ":5: [sensor a] x: 1e+06 is out of range: from -100000 to 100000" },
	{ "not-a-number", HEAD "[sensor a]\nheight = 1000mm\n",
	  PATH ":4: [sensor a] height: expected a number, got '1000mm'" },
	{ "not-a-number-comma", HEAD "[sensor a]\nheight = 1000,5\n",
	  PATH ":4: [sensor a] height: expected a number, got '1000,5'" },
	{ "not-finite-nan", HEAD "[sensor a]\nz = nan\n",
	  PATH ":4: [sensor a] z: expected a number, got 'nan'" },
	{ "not-finite-inf", HEAD "[sensor a]\nz = -inf\n",
	  PATH ":4: [sensor a] z: expected a number, got '-inf'" },
	{ "not-finite-overflow", HEAD "[sensor a]\nz = 1e999\n",
	  PATH ":4: [sensor a] z: expected a number, got '1e999'" },
	{ "no-value", HEAD "[sensor a]\nz =\n", PATH ":4: [sensor a] z: no value" },
	{ "no-format-value", "[room]\nformat = \n", PATH ":2: [room] format: no value" },
	{ "neither", HEAD "what is this\n",
	  PATH ":3: expected [SECTION], 'key = value', a # comment or a blank line, got 'what is "
	       "this'" },
	{ "neither-key", HEAD "[sensor a]\nHeight = 1000\n",
	  PATH ":4: expected [SECTION], 'key = value', a # comment or a blank line, got 'Height "
	       "= 1000'" },
	{ "missing-source", HEAD "\n[sensor a]\nheight = 1000\ntilt = 0\nroll = 0\n",
	  PATH ":4: [sensor a]: missing key 'source'" },
	{ "missing-height", HEAD "[sensor a]\nsource = x\ntilt = 0\nroll = 0\n",
	  PATH ":3: [sensor a]: missing key 'height'" },
	{ "missing-tilt", HEAD "[sensor a]\nsource = x\nheight = 1000\nroll = 0\n",
	  PATH ":3: [sensor a]: missing key 'tilt'" },
	{ "missing-roll",
	  HEAD "[sensor a]\nsource = x\nheight = 1000\ntilt = 0\n" SENSOR("b", "freenect:0"),
	  PATH ":3: [sensor a]: missing key 'roll'" },
	{ "missing-format", "# no format\n[room]\n\n" SENSOR("a", "freenect:0"),
	  PATH ":2: [room]: missing key 'format'" },
	{ "format-newer", "[room]\nformat = 2\n",
	  PATH ":2: [room] format: expected 1, got '2' (a newer skelbridge's room?)" },
	{ "no-sensors", "# nothing\n" HEAD "\n",
	  PATH ":2: no [sensor NAME] section: the room places no sensor" },
	{ "same-source", HEAD SENSOR("a", "freenect:0") SENSOR("b", "freenect:0"),
	  PATH ":9: [sensor b] source: freenect:0 is [sensor a]'s already (line 4)" },
	{ "source-control", HEAD "[sensor a]\nsource = free\tnect\n",
	  PATH ":4: [sensor a] source: 'free\tnect' is no source: one line without control "
	       "characters" },
	{ "room-not-first", "# c\n\n" SENSOR("a", "freenect:0") HEAD,
	  PATH ":3: a room file starts with a [room] section" },
	{ "key-before-room", "source = x\n" HEAD,
	  PATH ":1: a room file starts with a [room] section" },
	{ "empty", "", PATH ":1: a room file starts with a [room] section" },
	{ "comments-only", "# a room\n\n", PATH ":1: a room file starts with a [room] section" },
	{ "bad-name", HEAD "[sensor a.b]\n",
	  PATH ":3: bad name 'a.b' in [sensor ...]: use letters, digits, '_' and '-'" },
	{ "bad-name-space", HEAD "[sensor a b]\n",
	  PATH ":3: bad name 'a b' in [sensor ...]: use letters, digits, '_' and '-'" },
	{ "no-name", HEAD "[sensor]\n", PATH ":3: [sensor] needs a name: [sensor NAME]" },
	{ "room-name", "[room main]\n", PATH ":1: [room] takes no name" },
	{ "unclosed", "[room\n", PATH ":1: '[room': a section header ends with ']'" },
	{ "not-utf8", HEAD "# caf\xe9\n",
	  PATH ":3: not UTF-8 text (a binary file, or another encoding?)" },
};

static void
test_parse_error(gconstpointer data)
{
	const ParseError *e = data;

	assert_parse_fails(e->text, strlen(e->text), e->message);
}

static void
test_parse_error_nul(void)
{
	static const char text[] = HEAD SENSOR("a", "freenect:0") "# \0 hidden\nx = 1e9\n";

	assert_parse_fails(text, sizeof(text) - 1, PATH ":8: a NUL byte: not a text file");
}

static void
test_parse_error_too_many(void)
{
	g_autoptr(GString) text = g_string_new(HEAD);

	for (guint i = 0; i <= ROOM_MAX_SENSORS; i++)
		g_string_append_printf(text,
		                       "[sensor s%u]\nsource = freenect:%u\nheight = 1000\n"
		                       "tilt = 0\nroll = 0\n",
		                       i, i);
	/* The ninth section's header: 2 lines of [room], then 5 a sensor. */
	assert_parse_fails(text->str, text->len,
	                   PATH ":43: [sensor s8]: more than 8 sensors; a room holds at most 8");
}

/* ---- files ---- */

typedef struct {
	char *dir;
	char *path;
} Fixture;

static void
fixture_setup(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	f->dir = testutil_tmpdir();
	f->path = g_build_filename(f->dir, "room.txt", NULL);
}

static void
fixture_teardown(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	testutil_rmdir(f->dir);
	g_free(f->dir);
	g_free(f->path);
}

static void
test_save_load(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(Room) room = two_sensor_room();
	g_autoptr(Room) back = NULL;

	g_assert_true(room_save(room, f->path, "saved", &error));
	g_assert_no_error(error);
	back = room_load(f->path, &error);
	g_assert_no_error(error);
	assert_rooms_equal(room, back);
}

/* Errors in a loaded file name it. */
static void
test_load_parse_error(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	static const char text[] = HEAD "[sensor a]\nroll = 90\n";
	g_autoptr(GError) error = NULL;
	g_autoptr(Room) room = NULL;
	g_autofree char *expected = NULL;

	testutil_write_file(f->path, text, strlen(text));
	room = room_load(f->path, &error);
	expected = g_strdup_printf("%s:4: [sensor a] roll: 90 is out of range: from -45 to 45",
	                           f->path);
	g_assert_null(room);
	g_assert_error(error, ROOM_ERROR, ROOM_ERROR_PARSE);
	g_assert_cmpstr(error->message, ==, expected);
}

static void
assert_load_fails(const char *path, const char *what)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(Room) room = room_load(path, &error);
	g_autofree char *expected = g_strdup_printf("%s: %s", path, what);

	g_assert_null(room);
	g_assert_error(error, ROOM_ERROR, ROOM_ERROR_READ);
	g_assert_cmpstr(error->message, ==, expected);
}

/* A named pipe is refused at once, never waited on. */
static void
test_load_fifo(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	g_assert_cmpint(mkfifo(f->path, 0600), ==, 0);
	assert_load_fails(f->path, "not a file but a named pipe");
}

static void
test_load_dev_zero(void)
{
	assert_load_fails("/dev/zero", "not a file but a character device");
}

static void
test_load_too_large(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	g_autofree char *text = g_malloc(ROOM_MAX_BYTES + 1);

	memset(text, '#', ROOM_MAX_BYTES + 1);
	testutil_write_file(f->path, text, ROOM_MAX_BYTES + 1);
	assert_load_fails(f->path, "larger than 65536 bytes, more than such a file ever holds");
}

static void
test_load_missing(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	assert_load_fails(f->path, "No such file or directory");
}

static void
test_save_error(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(Room) room = two_sensor_room();
	g_autofree char *path = g_build_filename(f->dir, "missing", "room.txt", NULL);
	g_autofree char *start = g_strdup_printf("%s: cannot save the room: ", path);

	g_assert_false(room_save(room, path, NULL, &error));
	g_assert_error(error, ROOM_ERROR, ROOM_ERROR_WRITE);
	g_assert_true(g_str_has_prefix(error->message, start));
}

#define ADD_FIXTURE(path, func)                                                                    \
	g_test_add(path, Fixture, NULL, fixture_setup, func, fixture_teardown)

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/room/find-source", test_find_source);
	g_test_add_func("/room/add/copies", test_add_copies);
	g_test_add_func("/room/add/refused", test_add_refused);
	g_test_add_func("/room/add/too-many", test_add_too_many);
	g_test_add_func("/room/to-room/turned", test_to_room_turned);
	g_test_add_func("/room/to-room/tilt-roll", test_to_room_tilt_roll);
	g_test_add_func("/room/to-room/rigid", test_to_room_rigid);
	g_test_add_func("/room/to-room/tracker", test_to_room_tracker);
	g_test_add_func("/room/to-camera/inverse", test_to_camera_inverse);
	g_test_add_func("/room/text/round-trip", test_round_trip);
	g_test_add_func("/room/text/round-trip-rounded", test_round_trip_rounded);
	g_test_add_func("/room/text/round-trip-locale", test_round_trip_locale);
	g_test_add_func("/room/parse/defaults", test_parse_defaults);
	g_test_add_func("/room/parse/example", test_parse_example);
	for (guint i = 0; i < G_N_ELEMENTS(parse_errors); i++) {
		g_autofree char *path =
		        g_strdup_printf("/room/parse/error/%s", parse_errors[i].name);

		g_test_add_data_func(path, &parse_errors[i], test_parse_error);
	}
	g_test_add_func("/room/parse/error/nul", test_parse_error_nul);
	g_test_add_func("/room/parse/error/too-many", test_parse_error_too_many);
	ADD_FIXTURE("/room/file/save-load", test_save_load);
	ADD_FIXTURE("/room/file/parse-error", test_load_parse_error);
	ADD_FIXTURE("/room/file/fifo", test_load_fifo);
	g_test_add_func("/room/file/dev-zero", test_load_dev_zero);
	ADD_FIXTURE("/room/file/too-large", test_load_too_large);
	ADD_FIXTURE("/room/file/missing", test_load_missing);
	ADD_FIXTURE("/room/file/save-error", test_save_error);
	return g_test_run();
}
