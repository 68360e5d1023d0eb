/* The mapping engine and the OSC encoder: skeletons in, bytes out. Every
 * check goes through osc_encode_batch() and liblo's own deserialiser, so
 * it sees what a receiver would. */
#include <lo/lo.h>
#include <math.h>
#include <string.h>

#include "demo/demo-scene.h"
#include "demo/truth.h"
#include "mapping/mapping-engine.h"
#include "mapping/mapping-file.h"
#include "mapping/mapping-parse.h"
#include "outputs/osc-encode.h"
#include "testutil.h"

#define HEAD "[mapping]\nformat = 1\n"
#define OUT  "[output o]\nkind = osc\ntarget = osc.udp://127.0.0.1:7000\nbundle = none\n"

/* A message as a receiver gets it. */
typedef struct {
	char *path;
	char *types; /* without the ',' */
	lo_message m;
	lo_arg **argv;
	lo_timetag tt; /* of its bundle, or LO_TT_IMMEDIATE */
} Wire;

static void
wire_free(gpointer data)
{
	Wire *w = data;

	g_free(w->path);
	g_free(w->types);
	lo_message_free(w->m);
	g_free(w);
}

static Wire *
wire_decode(guint8 *data, gsize length, lo_timetag tt)
{
	Wire *w = g_new0(Wire, 1);
	int result = 0;

	w->m = lo_message_deserialise(data, length, &result);
	g_assert_cmpint(result, ==, 0);
	g_assert_nonnull(w->m);
	w->path = g_strdup(lo_get_path(data, (ssize_t)length));
	w->types = g_strdup(lo_message_get_types(w->m));
	w->argv = lo_message_get_argv(w->m);
	w->tt = tt;
	return w;
}

static guint32
read_be32(const guint8 *p)
{
	return (guint32)p[0] << 24 | (guint32)p[1] << 16 | (guint32)p[2] << 8 | p[3];
}

/* Adds the messages of a bundle packet to @out; returns its timetag. */
static lo_timetag
bundle_decode(guint8 *data, gsize length, GPtrArray *out)
{
	lo_timetag tt;
	gsize at = 16;

	g_assert_cmpuint(length, >=, 16);
	g_assert_cmpmem(data, 8, "#bundle", 8);
	tt.sec = read_be32(data + 8);
	tt.frac = read_be32(data + 12);
	while (at < length) {
		guint32 size = read_be32(data + at);

		g_assert_cmpuint(at + 4 + size, <=, length);
		g_ptr_array_add(out, wire_decode(data + at + 4, size, tt));
		at += 4 + size;
	}
	return tt;
}

/* Every message of @packets, in order, from plain messages and bundles. */
static GPtrArray *
packets_decode(OscEncodePackets *packets)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(wire_free);

	for (guint i = 0; i < packets->spans->len; i++) {
		const OscEncodeSpan *span = &g_array_index(packets->spans, OscEncodeSpan, i);
		guint8 *data = packets->data->data + span->offset;

		if (span->length >= 8 && memcmp(data, "#bundle", 8) == 0)
			bundle_decode(data, span->length, out);
		else
			g_ptr_array_add(out, wire_decode(data, span->length, LO_TT_IMMEDIATE));
	}
	return out;
}

/* liblo's argument pointers are not aligned for lo_arg: copy the bytes out. */
static gint32
arg_i(const lo_arg *arg)
{
	gint32 value;

	memcpy(&value, arg, sizeof(value));
	return value;
}

static float
arg_f(const lo_arg *arg)
{
	float value;

	memcpy(&value, arg, sizeof(value));
	return value;
}

static const char *
arg_s(const lo_arg *arg)
{
	return (const char *)arg;
}

static Wire *
wire_get(GPtrArray *wires, guint i)
{
	g_assert_cmpuint(i, <, wires->len);
	return g_ptr_array_index(wires, i);
}

/* ---- skeletons ---- */

/* A user standing with every joint found at a known place. */
static void
frame_add_user(TrackerFrame *frame, guint id, double x, double z)
{
	TrackerUser *user = &frame->users[frame->n_users++];

	memset(user, 0, sizeof(*user));
	user->id = id;
	for (guint j = 0; j < TRACKER_N_JOINTS; j++) {
		TrackerJoint *joint = &user->joints[j];

		joint->position = tracker_vec3(x + 10.0 * j, 700.0 - 100.0 * j, z + j);
		joint->u = 100 + j;
		joint->v = 200 + 2 * j;
		joint->confidence = 1.0;
	}
}

static void
frame_init(TrackerFrame *frame, guint64 number)
{
	memset(frame, 0, sizeof(*frame));
	frame->frame = number;
	frame->time_us = (gint64)number * G_USEC_PER_SEC / 30;
}

/* ---- a mapping at work ---- */

typedef struct {
	Mapping *mapping;
	MappingEngine *engine;
	GPtrArray *batches;
	OscEncodePackets *packets;
} Rig;

static Rig *
rig_new(const char *text)
{
	g_autoptr(GError) error = NULL;
	Rig *rig = g_new0(Rig, 1);

	rig->mapping = mapping_parse("test.map", text, strlen(text), &error);
	g_assert_no_error(error);
	rig->engine = mapping_engine_new(rig->mapping, NULL);
	rig->batches = g_ptr_array_new_with_free_func((GDestroyNotify)message_batch_free);
	for (guint o = 0; o < rig->mapping->outputs->len; o++)
		g_ptr_array_add(rig->batches, message_batch_new());
	rig->packets = osc_encode_packets_new();
	return rig;
}

static Rig *
rig_new_shipped(const char *name)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *path = mapping_file_locate(name, &error);
	g_autofree char *text = NULL;

	g_assert_no_error(error);
	g_file_get_contents(path, &text, NULL, &error);
	g_assert_no_error(error);
	return rig_new(text);
}

static void
rig_free(Rig *rig)
{
	mapping_engine_free(rig->engine);
	mapping_free(rig->mapping);
	g_ptr_array_unref(rig->batches);
	osc_encode_packets_free(rig->packets);
	g_free(rig);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Rig, rig_free)

/* Runs @frame and returns what output @o puts on the wire. */
static GPtrArray *
rig_run_output(Rig *rig, const TrackerFrame *frame, guint o)
{
	const MappingOutput *output = mapping_get_output(rig->mapping, o);

	mapping_engine_run(rig->engine, frame, (MessageBatch *const *)rig->batches->pdata);
	osc_encode_batch(g_ptr_array_index(rig->batches, o), output->bundle, output->max_packet,
	                 frame->time_us, rig->packets);
	return packets_decode(rig->packets);
}

static GPtrArray *
rig_run(Rig *rig, const TrackerFrame *frame)
{
	return rig_run_output(rig, frame, 0);
}

/* Runs @frame with the recognisers' @n @gestures; what output 0 sends. */
static GPtrArray *
rig_run_gestures(Rig *rig, const TrackerFrame *frame, const GestureEvent *gestures, guint n)
{
	const MappingOutput *output = mapping_get_output(rig->mapping, 0);

	mapping_engine_run_gestures(rig->engine, frame, gestures, n,
	                            (MessageBatch *const *)rig->batches->pdata);
	osc_encode_batch(g_ptr_array_index(rig->batches, 0), output->bundle, output->max_packet,
	                 frame->time_us, rig->packets);
	return packets_decode(rig->packets);
}

static GestureEvent
gesture_event(GestureKind kind, guint user, GestureHand hand)
{
	GestureEvent event = { 0 };

	event.kind = kind;
	event.user = user;
	event.hand = hand;
	return event;
}

/* ---- tests ---- */

/* Measures computed here from the joints, apart from the engine: the
 * angle from the cosine rule, the distance and speed from coordinates. */
static gboolean
check_found(const TrackerJoint *joint)
{
	return joint->confidence >= 0.5;
}

static double
check_angle(const TrackerUser *user, TrackerJointId at, TrackerJointId a, TrackerJointId b)
{
	TrackerVec3 p = user->joints[at].position, pa = user->joints[a].position,
	            pb = user->joints[b].position;
	double la2 = pow(pa.x - p.x, 2) + pow(pa.y - p.y, 2) + pow(pa.z - p.z, 2);
	double lb2 = pow(pb.x - p.x, 2) + pow(pb.y - p.y, 2) + pow(pb.z - p.z, 2);
	double ab2 = pow(pa.x - pb.x, 2) + pow(pa.y - pb.y, 2) + pow(pa.z - pb.z, 2);

	return acos(CLAMP((la2 + lb2 - ab2) / (2.0 * sqrt(la2 * lb2)), -1.0, 1.0)) * 180.0 / G_PI;
}

static double
check_distance(TrackerVec3 a, TrackerVec3 b)
{
	return sqrt(pow(a.x - b.x, 2) + pow(a.y - b.y, 2) + pow(a.z - b.z, 2));
}

/* What the measures rules should send for @user, or NAN where nothing. */
typedef struct {
	double elbow, knee, shoulder, hands, speed;
} Expected;

static Expected
check_expected(const TrackerUser *user, const TrackerUser *before, double dt_s)
{
	const TrackerJoint *j = user->joints;
	Expected e = { NAN, NAN, NAN, NAN, NAN };

	if (check_found(&j[TRACKER_JOINT_LEFT_ELBOW]) &&
	    check_found(&j[TRACKER_JOINT_LEFT_SHOULDER]) &&
	    check_found(&j[TRACKER_JOINT_LEFT_HAND]))
		e.elbow = check_angle(user, TRACKER_JOINT_LEFT_ELBOW, TRACKER_JOINT_LEFT_SHOULDER,
		                      TRACKER_JOINT_LEFT_HAND);
	if (check_found(&j[TRACKER_JOINT_RIGHT_KNEE]) && check_found(&j[TRACKER_JOINT_RIGHT_HIP]) &&
	    check_found(&j[TRACKER_JOINT_RIGHT_FOOT]))
		e.knee = check_angle(user, TRACKER_JOINT_RIGHT_KNEE, TRACKER_JOINT_RIGHT_HIP,
		                     TRACKER_JOINT_RIGHT_FOOT);
	if (check_found(&j[TRACKER_JOINT_RIGHT_SHOULDER]) &&
	    check_found(&j[TRACKER_JOINT_RIGHT_ELBOW]) && check_found(&j[TRACKER_JOINT_RIGHT_HIP]))
		e.shoulder = check_angle(user, TRACKER_JOINT_RIGHT_SHOULDER,
		                         TRACKER_JOINT_RIGHT_ELBOW, TRACKER_JOINT_RIGHT_HIP);
	if (check_found(&j[TRACKER_JOINT_LEFT_HAND]) && check_found(&j[TRACKER_JOINT_RIGHT_HAND]))
		e.hands = check_distance(j[TRACKER_JOINT_LEFT_HAND].position,
		                         j[TRACKER_JOINT_RIGHT_HAND].position);
	if (before != NULL && check_found(&j[TRACKER_JOINT_RIGHT_HAND]) &&
	    check_found(&before->joints[TRACKER_JOINT_RIGHT_HAND]))
		e.speed = check_distance(j[TRACKER_JOINT_RIGHT_HAND].position,
		                         before->joints[TRACKER_JOINT_RIGHT_HAND].position) /
		          dt_s;
	return e;
}

#define MEASURES_MAP                                                                               \
	HEAD OUT "[rule angles]\noutput = o\nfor = joint\naddress = /angle/{joint}\n"              \
	         "joints = left_elbow right_knee right_shoulder\nargs = user angle\n"              \
	         "[rule hands]\noutput = o\nfor = user\naddress = /hands\njoints = left_hand\n"    \
	         "distance_to = right_hand\nargs = user distance\n"                                \
	         "[rule speed]\noutput = o\nfor = joint\naddress = /speed\njoints = right_hand\n"  \
	         "args = user speed\n"

/* One message's value against what was expected; counts it. */
static void
check_measure(const Wire *w, double expected, double tolerance, guint *count)
{
	g_assert_cmpstr(w->types, ==, "if");
	g_assert_false(isnan(expected));
	g_assert_cmpfloat_with_epsilon(arg_f(w->argv[1]), expected, tolerance);
	(*count)++;
}

static double
expected_for(const Expected *e, const char *path)
{
	return strcmp(path, "/angle/left_elbow") == 0       ? e->elbow
	       : strcmp(path, "/angle/right_knee") == 0     ? e->knee
	       : strcmp(path, "/angle/right_shoulder") == 0 ? e->shoulder
	       : strcmp(path, "/hands") == 0                ? e->hands
	                                                    : e->speed;
}

/* Angles, distances and speeds of the demo's routine, from its true
 * skeletons, against the same measures worked out here: every message
 * matches, and a measure goes out exactly when its joints are found. */
static void
test_measures_truth(void)
{
	g_autoptr(Rig) rig = rig_new(MEASURES_MAP);
	g_autoptr(DemoScene) scene = demo_scene_new_named("routine", 1, NULL);
	g_autoptr(DepthFrame) depth = depth_frame_new();
	TrackerFrame frames[2];
	guint counts[5] = { 0 };

	for (guint n = 0; n < 240; n += 2) {
		TrackerFrame *frame = &frames[(n / 2) % 2], *before = &frames[(n / 2 + 1) % 2];
		g_autoptr(GPtrArray) wires = NULL;
		guint expected_messages = 0;
		Expected e;

		demo_scene_render(scene, n, depth);
		truth_to_tracker_frame(depth->truth, n, depth->time_us, 500, frame);
		wires = rig_run(rig, frame);
		g_assert_cmpuint(frame->n_users, <=, 1);
		if (frame->n_users == 0) {
			g_assert_cmpuint(wires->len, ==, 0);
			continue;
		}
		e = check_expected(&frame->users[0],
		                   n > 0 && before->n_users == 1 ? &before->users[0] : NULL,
		                   (frame->time_us - before->time_us) / 1e6);
		for (guint i = 0; i < 5; i++)
			expected_messages += !isnan(((double *)&e)[i]);
		g_assert_cmpuint(wires->len, ==, expected_messages);
		for (guint i = 0; i < wires->len; i++) {
			Wire *w = wire_get(wires, i);
			double want = expected_for(&e, w->path);

			g_assert_cmpint(arg_i(w->argv[0]), ==, (gint32)frame->users[0].id);
			check_measure(w, want, MAX(1e-3, 1e-5 * want),
			              &counts[strcmp(w->path, "/hands") == 0   ? 3
			                      : strcmp(w->path, "/speed") == 0 ? 4
			                                                       : 0]);
		}
	}
	/* The routine is in view most of the time: none of it was vacuous. */
	g_assert_cmpuint(counts[0], >, 150);
	g_assert_cmpuint(counts[3], >, 60);
	g_assert_cmpuint(counts[4], >, 60);
}

/* Heights above the floor of a sensor 1.5 m up, looking down by 20
 * degrees, then turned by 30 degrees: worked out here by turning the
 * point into the room. Nothing goes out while no floor is known. */
static void
test_measures_height(void)
{
	g_autoptr(Rig) rig = rig_new(HEAD OUT "[rule r]\noutput = o\nfor = joint\n"
	                                      "address = /h\njoints = head\nargs = height\n");
	TrackerCameraPose pose = { TRACKER_FLOOR_SEEN, 1500.0, 20.0, 0.0 };
	TrackerVec3 p = tracker_vec3(300, -200, 2000);
	double t = 20.0 * G_PI / 180.0, r = 30.0 * G_PI / 180.0;
	TrackerFrame frame;
	g_autoptr(GPtrArray) unknown = NULL, tilted = NULL, rolled = NULL;

	frame_init(&frame, 0);
	frame_add_user(&frame, 1, 0, 2000);
	frame.users[0].joints[TRACKER_JOINT_HEAD].position = p;
	unknown = rig_run(rig, &frame);
	g_assert_cmpuint(unknown->len, ==, 0);
	mapping_engine_set_camera_pose(rig->engine, &pose);
	tilted = rig_run(rig, &frame);
	g_assert_cmpuint(tilted->len, ==, 1);
	/* Looking down by t: the point's height is y cos t - z sin t. */
	g_assert_cmpfloat_with_epsilon(arg_f(wire_get(tilted, 0)->argv[0]),
	                               1500.0 + p.y * cos(t) - p.z * sin(t), 1e-2);
	pose.tilt_deg = 0;
	pose.roll_deg = 30;
	mapping_engine_set_camera_pose(rig->engine, &pose);
	rolled = rig_run(rig, &frame);
	/* Turned counter-clockwise by r: up leans to the image's right. */
	g_assert_cmpfloat_with_epsilon(arg_f(wire_get(rolled, 0)->argv[0]),
	                               1500.0 + p.x * sin(r) + p.y * cos(r), 1e-2);
	mapping_engine_set_camera_pose(rig->engine, NULL);
	g_ptr_array_unref(rolled);
	rolled = rig_run(rig, &frame);
	g_assert_cmpuint(rolled->len, ==, 0);
}

/* A zone in camera space, 1 m to 2 m from the sensor, and the rules that
 * use it: its comings and goings, its count, and a rule for its users. */
#define ZONE_MAP                                                                                   \
	HEAD OUT "[zone near]\nspace = camera\nbox = -1000:1000 -2000:2000 1000:2000\n"            \
	         "margin = 100\n"                                                                  \
	         "[rule moves]\noutput = o\nfor = event\nevents = zone_enter zone_leave\n"         \
	         "address = /{event}/{zone}\nargs = user zone\n"                                   \
	         "[rule count]\noutput = o\nfor = frame\nzone = near\naddress = /count\n"          \
	         "args = zone_users\n"                                                             \
	         "[rule heads]\noutput = o\nfor = joint\nuser = zone:near\njoints = head\n"        \
	         "address = /head\nargs = user\n"

/* Moves user @id's torso (the zone's joint) to depth @z. */
static void
zone_place(TrackerFrame *frame, guint id, double z)
{
	for (guint u = 0; u < frame->n_users; u++) {
		if (frame->users[u].id == id)
			frame->users[u].joints[TRACKER_JOINT_TORSO].position =
			        tracker_vec3(0, 0, z);
	}
}

/* What one frame sends, as "path id" words (the count as "/count N"). */
static char *
zone_run(Rig *rig, TrackerFrame *frame)
{
	g_autoptr(GPtrArray) wires = rig_run(rig, frame);
	GString *out = g_string_new(NULL);

	for (guint i = 0; i < wires->len; i++) {
		Wire *w = wire_get(wires, i);

		g_string_append_printf(out, "%s%s %d", i ? " " : "", w->path, arg_i(w->argv[0]));
		if (strcmp(w->types, "is") == 0)
			g_string_append_printf(out, " %s", arg_s(w->argv[1]));
	}
	frame->frame++;
	frame->time_us += G_USEC_PER_SEC / 30;
	return g_string_free(out, FALSE);
}

static void
zone_expect(Rig *rig, TrackerFrame *frame, const char *expected)
{
	g_autofree char *got = zone_run(rig, frame);

	g_assert_cmpstr(got, ==, expected);
}

/* A user comes in once, stays in within the margin (no flicker on the
 * edge), goes out past it; a rule for the zone's users speaks of them
 * only while they are in; leaving the view is leaving the zone; a reload
 * announces nobody again. */
static void
test_zones_camera(void)
{
	g_autoptr(Rig) rig = rig_new(ZONE_MAP);
	g_autoptr(Mapping) again = NULL;
	g_autoptr(GError) error = NULL;
	MappingEngine *reloaded;
	TrackerFrame frame;

	frame_init(&frame, 0);
	frame_add_user(&frame, 1, 0, 2000);
	frame_add_user(&frame, 2, 0, 2000);
	zone_place(&frame, 1, 2500);
	zone_place(&frame, 2, 3000);
	zone_expect(rig, &frame, "/count 0");
	zone_place(&frame, 1, 1990);
	zone_expect(rig, &frame, "/zone_enter/near 1 near /count 1 /head 1");
	/* Out by 50 mm: within the margin, still in. */
	zone_place(&frame, 1, 2050);
	zone_expect(rig, &frame, "/count 1 /head 1");
	zone_place(&frame, 1, 2150);
	zone_expect(rig, &frame, "/zone_leave/near 1 near /count 0");
	/* Back, with the other user; then the first goes out of view. */
	zone_place(&frame, 1, 1500);
	zone_place(&frame, 2, 1200);
	zone_expect(rig, &frame,
	            "/zone_enter/near 1 near /zone_enter/near 2 near /count 2 /head 1 /head 2");
	/* The torso not found: nothing changes. */
	frame.users[1].joints[TRACKER_JOINT_TORSO].confidence = 0;
	zone_expect(rig, &frame, "/count 2 /head 1 /head 2");
	frame.users[1].joints[TRACKER_JOINT_TORSO].confidence = 1;
	frame.users[0] = frame.users[1];
	frame.n_users = 1;
	zone_expect(rig, &frame, "/zone_leave/near 1 near /count 1 /head 2");
	/* A reload keeps who is in. */
	again = mapping_parse("test.map", ZONE_MAP, strlen(ZONE_MAP), &error);
	g_assert_no_error(error);
	reloaded = mapping_engine_new(again, rig->engine);
	mapping_engine_free(rig->engine);
	rig->engine = reloaded;
	zone_expect(rig, &frame, "/count 1 /head 2");
	mapping_engine_free(g_steal_pointer(&rig->engine));
	rig->engine = mapping_engine_new(rig->mapping, NULL);
}

/* A room zone (on the floor, from the sensor's pose): its box worked out
 * here by turning the point into the room; while no floor is known it
 * changes nothing. */
static void
test_zones_room(void)
{
	static const char map[] = HEAD OUT "[zone spot]\nbox = -900:300 -100:3000 1500:2500\n"
	                                   "margin = 0\n[rule moves]\noutput = o\nfor = event\n"
	                                   "events = zone_enter zone_leave\naddress = /{event}\n"
	                                   "args = user\n";
	g_autoptr(Rig) rig = rig_new(map);
	TrackerCameraPose pose = { TRACKER_FLOOR_SEEN, 1200.0, 20.0, 0.0 };
	double t = 20.0 * G_PI / 180.0;
	TrackerFrame frame;
	/* Room point (0, 1000, 2000), as the tilted sensor sees it. */
	TrackerVec3 in = tracker_vec3(0, (1000.0 - 1200.0) * cos(t) + 2000.0 * sin(t),
	                              -(1000.0 - 1200.0) * sin(t) + 2000.0 * cos(t));

	frame_init(&frame, 0);
	frame_add_user(&frame, 1, 0, 2000);
	frame.users[0].joints[TRACKER_JOINT_TORSO].position = in;
	zone_expect(rig, &frame, "");
	mapping_engine_set_camera_pose(rig->engine, &pose);
	zone_expect(rig, &frame, "/zone_enter 1");
	/* 600 mm to the right along the floor: out. */
	frame.users[0].joints[TRACKER_JOINT_TORSO].position.x += 600;
	zone_expect(rig, &frame, "/zone_leave 1");
	/* No floor any more: nothing changes, in or out. */
	mapping_engine_set_camera_pose(rig->engine, NULL);
	frame.users[0].joints[TRACKER_JOINT_TORSO].position = in;
	zone_expect(rig, &frame, "");
}

/* A frame rule telling who is chosen, and a joint rule for that user. */
#define CHOOSER_MAP(USER, MORE)                                                                    \
	HEAD OUT "[rule who]\noutput = o\nfor = frame\nuser = " USER "\n" MORE                     \
	         "address = /chosen\nargs = chosen\n[rule head]\noutput = o\nfor = joint\n"        \
	         "user = " USER "\n" MORE "joints = head\naddress = /head\nargs = user\n"

/* Raises (or lowers) user @id's right hand to @above mm over their head. */
static void
choose_hand(TrackerFrame *frame, guint id, double above)
{
	TrackerUser *user = (TrackerUser *)tracker_frame_find_user(frame, id);

	user->joints[TRACKER_JOINT_RIGHT_HAND].position.y =
	        user->joints[TRACKER_JOINT_HEAD].position.y + above;
}

/* Whoever raises a hand above their head takes the role over; a hand
 * that only reaches the head, or stays up, takes nothing. */
static void
test_choose_raised_hand(void)
{
	g_autoptr(Rig) rig = rig_new(CHOOSER_MAP("raised_hand", ""));
	TrackerFrame frame;

	frame_init(&frame, 0);
	frame_add_user(&frame, 1, 0, 2000);
	frame_add_user(&frame, 2, 500, 2000);
	zone_expect(rig, &frame, "/chosen 0");
	choose_hand(&frame, 2, 30);
	zone_expect(rig, &frame, "/chosen 0");
	choose_hand(&frame, 2, 120);
	zone_expect(rig, &frame, "/chosen 2 /head 2");
	choose_hand(&frame, 2, -300);
	zone_expect(rig, &frame, "/chosen 2 /head 2");
	choose_hand(&frame, 1, 120);
	zone_expect(rig, &frame, "/chosen 1 /head 1");
	/* 1 keeps the hand up; 2 raises theirs again and takes over. */
	choose_hand(&frame, 2, 120);
	zone_expect(rig, &frame, "/chosen 2 /head 2");
	zone_expect(rig, &frame, "/chosen 2 /head 2");
	/* The chosen one leaves: nobody, until someone raises a hand. */
	frame.n_users = 1;
	choose_hand(&frame, 1, -300);
	zone_expect(rig, &frame, "/chosen 0");
}

/* With a hold, a first user lost for a moment keeps the role and has it
 * on coming back; lost for longer, the role passes on. Without, it passes
 * at once. */
static void
test_choose_hold(void)
{
	g_autoptr(Rig) held = rig_new(CHOOSER_MAP("first", "hold = 1\n"));
	g_autoptr(Rig) plain = rig_new(CHOOSER_MAP("first", ""));
	TrackerFrame both, second;

	frame_init(&both, 0);
	frame_add_user(&both, 1, 0, 2000);
	frame_add_user(&both, 2, 500, 2000);
	frame_init(&second, 0);
	frame_add_user(&second, 2, 500, 2000);
	zone_expect(held, &both, "/chosen 1 /head 1");
	zone_expect(plain, &both, "/chosen 1 /head 1");
	for (int n = 0; n < 10; n++) {
		second.frame = both.frame;
		second.time_us = both.time_us;
		zone_expect(held, &second, "/chosen 1");
		zone_expect(plain, &second, "/chosen 2 /head 2");
		both.frame = second.frame;
		both.time_us = second.time_us;
	}
	zone_expect(held, &both, "/chosen 1 /head 1");
	/* Gone for 40 frames, over a second: the role passes on. */
	for (int n = 0; n < 40; n++) {
		second.frame = both.frame;
		second.time_us = both.time_us;
		g_autofree char *got = zone_run(held, &second);

		g_assert_cmpstr(got, ==,
		                n * (G_USEC_PER_SEC / 30) < G_USEC_PER_SEC ? "/chosen 1"
		                                                           : "/chosen 2 /head 2");
		both.frame = second.frame;
		both.time_us = second.time_us;
	}
}

/* ---- hand state ---- */

#define HANDS_MAP                                                                                  \
	HEAD OUT "[rule grips]\noutput = o\nfor = event\nevents = hand_close hand_open\n"          \
	         "address = /{event}/{hand}\nargs = user hand\n"                                   \
	         "[rule state]\noutput = o\nfor = joint\njoints = left_hand right_hand\n"          \
	         "address = /{joint}\nargs = user hand_state hand_confidence\non_change = 0\n"

/* What one frame sends, every argument as text, then the next frame's time. */
static char *
hands_run(Rig *rig, TrackerFrame *frame)
{
	g_autoptr(GPtrArray) wires = rig_run(rig, frame);
	GString *out = g_string_new(NULL);

	for (guint i = 0; i < wires->len; i++) {
		Wire *w = wire_get(wires, i);

		g_string_append_printf(out, "%s%s", i ? " " : "", w->path);
		for (guint k = 0; w->types[k] != '\0'; k++) {
			if (w->types[k] == 'i')
				g_string_append_printf(out, " %d", arg_i(w->argv[k]));
			else if (w->types[k] == 'f')
				g_string_append_printf(out, " %.2f", arg_f(w->argv[k]));
			else
				g_string_append_printf(out, " %s", arg_s(w->argv[k]));
		}
	}
	frame->frame++;
	frame->time_us = (gint64)frame->frame * G_USEC_PER_SEC / 30;
	return g_string_free(out, FALSE);
}

static void
hands_expect(Rig *rig, TrackerFrame *frame, const char *expected)
{
	g_autofree char *got = hands_run(rig, frame);

	g_assert_cmpstr(got, ==, expected);
}

static void
hands_set(TrackerFrame *frame, int side, TrackerHandState state, double confidence)
{
	frame->users[0].hands[side].state = state;
	frame->users[0].hands[side].confidence = confidence;
}

/* hand_state follows the tracker frame by frame (on_change sends it when
 * it changes); hand_close comes on the first closed frame, hand_open when
 * the hand opens or has not been seen closed for 300 ms, so that unsure
 * frames in between close nothing twice; a user who leaves with a closed
 * hand opens it; a hand whose joint is not found is unknown. */
static void
test_hands_events(void)
{
	g_autoptr(Rig) rig = rig_new(HANDS_MAP);
	TrackerFrame frame;

	frame_init(&frame, 0);
	frame_add_user(&frame, 3, 0, 2000);
	hands_set(&frame, TRACKER_HAND_RIGHT, TRACKER_HAND_OPEN, 0.9);
	hands_expect(rig, &frame, "/left_hand 3 unknown 0.00 /right_hand 3 open 0.90");
	hands_set(&frame, TRACKER_HAND_RIGHT, TRACKER_HAND_CLOSED, 0.9);
	hands_expect(rig, &frame, "/hand_close/right 3 right /right_hand 3 closed 0.90");
	/* Unsure for a frame, closed again: no events. */
	hands_set(&frame, TRACKER_HAND_RIGHT, TRACKER_HAND_UNKNOWN, 0.0);
	hands_expect(rig, &frame, "/right_hand 3 unknown 0.00");
	hands_set(&frame, TRACKER_HAND_RIGHT, TRACKER_HAND_CLOSED, 0.9);
	hands_expect(rig, &frame, "/right_hand 3 closed 0.90");
	/* Unsure from frame 4 (133 ms): open on the first frame 300 ms on, frame 13. */
	hands_set(&frame, TRACKER_HAND_RIGHT, TRACKER_HAND_UNKNOWN, 0.0);
	hands_expect(rig, &frame, "/right_hand 3 unknown 0.00");
	while (frame.frame < 13)
		hands_expect(rig, &frame, "");
	hands_expect(rig, &frame, "/hand_open/right 3 right");
	/* The left closes and opens. */
	hands_set(&frame, TRACKER_HAND_LEFT, TRACKER_HAND_CLOSED, 0.7);
	hands_expect(rig, &frame, "/hand_close/left 3 left /left_hand 3 closed 0.70");
	hands_set(&frame, TRACKER_HAND_LEFT, TRACKER_HAND_OPEN, 0.7);
	hands_expect(rig, &frame, "/hand_open/left 3 left /left_hand 3 open 0.70");
	/* A closed hand whose joint is lost is unknown, then open. */
	hands_set(&frame, TRACKER_HAND_LEFT, TRACKER_HAND_CLOSED, 0.7);
	hands_expect(rig, &frame, "/hand_close/left 3 left /left_hand 3 closed 0.70");
	frame.users[0].joints[TRACKER_JOINT_LEFT_HAND].confidence = 0.0;
	hands_expect(rig, &frame, "");
	frame.users[0].joints[TRACKER_JOINT_LEFT_HAND].confidence = 1.0;
	/* Leaving the view with a closed hand opens it. */
	frame.n_users = 0;
	hands_expect(rig, &frame, "/hand_open/left 3 left");
	hands_expect(rig, &frame, "");
}

/* The zone-grip scene's true hands, through a mapping: hand_state is the
 * truth's every frame, and each fist the scene makes is one hand_close and
 * one hand_open, as the truth's closings and openings say. */
static void
test_hands_truth(void)
{
	static const char *const names[] = { "unknown", "open", "closed" };
	g_autoptr(Rig) rig = rig_new(HANDS_MAP);
	g_autoptr(DemoScene) scene = demo_scene_new_named("zone-grip", 1, NULL);
	g_autoptr(DepthFrame) depth = depth_frame_new();
	g_autoptr(GString) events = g_string_new(NULL);
	g_autoptr(GString) truth = g_string_new(NULL);
	gboolean closed[2] = { FALSE, FALSE };
	guint states = 0;

	for (guint n = 0; n < 360; n++) {
		g_autoptr(GPtrArray) wires = NULL;
		TrackerFrame frame;

		demo_scene_render(scene, n, depth);
		truth_to_tracker_frame(depth->truth, n, depth->time_us, 500, &frame);
		wires = rig_run(rig, &frame);
		for (guint u = 0; u < frame.n_users; u++) {
			for (int side = 0; side < 2; side++) {
				gboolean now =
				        frame.users[u].hands[side].state == TRACKER_HAND_CLOSED;

				if (now != closed[side])
					g_string_append_printf(truth, "%s/%s ",
					                       now ? "close" : "open",
					                       side ? "right" : "left");
				closed[side] = now;
			}
		}
		for (guint i = 0; i < wires->len; i++) {
			Wire *w = wire_get(wires, i);
			const TrackerUser *user =
			        tracker_frame_find_user(&frame, arg_i(w->argv[0]));

			g_assert_nonnull(user);
			if (g_str_has_prefix(w->path, "/hand_")) {
				g_string_append_printf(
				        events, "%s/%s ",
				        strcmp(w->path, "/hand_close/right") == 0 ||
				                        strcmp(w->path, "/hand_close/left") == 0
				                ? "close"
				                : "open",
				        arg_s(w->argv[1]));
				continue;
			}
			g_assert_cmpstr(
			        arg_s(w->argv[1]), ==,
			        names[user->hands[strcmp(w->path, "/right_hand") == 0].state]);
			states++;
		}
	}
	g_assert_cmpstr(events->str, ==, truth->str);
	g_assert_cmpstr(events->str, ==, "close/right open/right close/right open/right ");
	g_assert_cmpuint(states, >=, 6); /* each change (on_change), both hands */
}

/* Frame-wide values in a rule for users are sent once, not per joint. */
static void
test_user_rule_frame_values(void)
{
	g_autoptr(Rig) rig = rig_new(HEAD OUT "[zone all]\nspace = camera\n"
	                                      "box = -9000:9000 -9000:9000 0:9000\n"
	                                      "[rule r]\noutput = o\nfor = user\nuser = first\n"
	                                      "zone = all\naddress = /u\n"
	                                      "args = user chosen zone_users x\n");
	g_autoptr(GPtrArray) wires = NULL;
	TrackerFrame frame;
	Wire *w;

	frame_init(&frame, 0);
	frame_add_user(&frame, 4, 0, 2000);
	wires = rig_run(rig, &frame);
	g_assert_cmpuint(wires->len, ==, 1);
	w = wire_get(wires, 0);
	g_assert_cmpstr(w->types, ==,
	                "iii"
	                "fffffffffffffff");
	g_assert_cmpint(arg_i(w->argv[1]), ==, 4);
	g_assert_cmpint(arg_i(w->argv[2]), ==, 1);
}

/* The rest pose as a receiver's rig has it (README): each joint's parent
 * and the direction of the bone from it, the user facing the sensor. */
static const struct {
	TrackerJointId joint, parent;
	double x, y, z;
} rest_bones[] = {
	{ TRACKER_JOINT_HEAD, TRACKER_JOINT_NECK, 0, 1, 0 },
	{ TRACKER_JOINT_NECK, TRACKER_JOINT_TORSO, 0, 1, 0 },
	{ TRACKER_JOINT_LEFT_SHOULDER, TRACKER_JOINT_NECK, 1, 0, 0 },
	{ TRACKER_JOINT_RIGHT_SHOULDER, TRACKER_JOINT_NECK, -1, 0, 0 },
	{ TRACKER_JOINT_LEFT_ELBOW, TRACKER_JOINT_LEFT_SHOULDER, 1, 0, 0 },
	{ TRACKER_JOINT_RIGHT_ELBOW, TRACKER_JOINT_RIGHT_SHOULDER, -1, 0, 0 },
	{ TRACKER_JOINT_LEFT_HAND, TRACKER_JOINT_LEFT_ELBOW, 1, 0, 0 },
	{ TRACKER_JOINT_RIGHT_HAND, TRACKER_JOINT_RIGHT_ELBOW, -1, 0, 0 },
	{ TRACKER_JOINT_LEFT_HIP, TRACKER_JOINT_TORSO, 0.29, -0.957, 0 },
	{ TRACKER_JOINT_RIGHT_HIP, TRACKER_JOINT_TORSO, -0.29, -0.957, 0 },
	{ TRACKER_JOINT_LEFT_KNEE, TRACKER_JOINT_LEFT_HIP, 0, -1, 0 },
	{ TRACKER_JOINT_RIGHT_KNEE, TRACKER_JOINT_RIGHT_HIP, 0, -1, 0 },
	{ TRACKER_JOINT_LEFT_FOOT, TRACKER_JOINT_LEFT_KNEE, 0, -1, 0 },
	{ TRACKER_JOINT_RIGHT_FOOT, TRACKER_JOINT_RIGHT_KNEE, 0, -1, 0 },
};

/* v turned by the unit quaternion (w, x, y, z): v + 2w (q x v) + 2 q x (q x v). */
static TrackerVec3
rig_turn(const float *q, TrackerVec3 v)
{
	TrackerVec3 u = tracker_vec3(q[1], q[2], q[3]);
	TrackerVec3 t = tracker_vec3_scale(tracker_vec3_cross(u, v), 2.0);

	return tracker_vec3_add(tracker_vec3_add(v, tracker_vec3_scale(t, q[0])),
	                        tracker_vec3_cross(u, t));
}

/* Ry(yaw) Rx(pitch) Rz(roll) applied to @v, angles in degrees. */
static TrackerVec3
rig_euler(double yaw, double pitch, double roll, TrackerVec3 v)
{
	double y = yaw * G_PI / 180, p = pitch * G_PI / 180, r = roll * G_PI / 180;

	v = tracker_vec3(v.x * cos(r) - v.y * sin(r), v.x * sin(r) + v.y * cos(r), v.z);
	v = tracker_vec3(v.x, v.y * cos(p) - v.z * sin(p), v.y * sin(p) + v.z * cos(p));
	return tracker_vec3(v.x * cos(y) + v.z * sin(y), v.y, -v.x * sin(y) + v.z * cos(y));
}

/* The demo routine's true skeletons through a rule sending every joint's
 * quaternion and Euler angles: a rig rebuilt from them (each bone's rest
 * direction turned by its joint's rotation, laid from the true parent at
 * the true length) lands every joint within 10 mm of the truth, and the
 * Euler angles turn the rest directions the same way. */
static void
test_orientation_truth(void)
{
	g_autoptr(Rig) rig = rig_new(HEAD OUT "[rule avatar]\noutput = o\nfor = user\n"
	                                      "address = /avatar\nargs = user qw qx qy qz yaw "
	                                      "pitch roll\nmin_confidence = 0.5\n");
	g_autoptr(DemoScene) scene = demo_scene_new_named("routine", 1, NULL);
	g_autoptr(DepthFrame) depth = depth_frame_new();
	double worst = 0.0;
	guint rebuilt = 0;

	for (guint n = 0; n < 300; n += 3) {
		g_autoptr(GPtrArray) wires = NULL;
		TrackerFrame frame;
		const TrackerJoint *truth;
		float v[TRACKER_N_JOINTS][7];
		Wire *w;

		demo_scene_render(scene, n, depth);
		truth_to_tracker_frame(depth->truth, n, depth->time_us, 500, &frame);
		wires = rig_run(rig, &frame);
		if (wires->len == 0)
			continue;
		w = wire_get(wires, 0);
		g_assert_cmpuint(strlen(w->types), ==, 1 + 7 * TRACKER_N_JOINTS);
		truth = frame.users[0].joints;
		for (guint j = 0; j < TRACKER_N_JOINTS; j++)
			for (guint k = 0; k < 7; k++)
				v[j][k] = arg_f(w->argv[1 + 7 * j + k]);
		for (guint b = 0; b < G_N_ELEMENTS(rest_bones); b++) {
			TrackerVec3 rest = tracker_vec3_normalize(
			        tracker_vec3(rest_bones[b].x, rest_bones[b].y, rest_bones[b].z));
			const float *q = v[rest_bones[b].joint];
			TrackerVec3 from = truth[rest_bones[b].parent].position;
			TrackerVec3 to = truth[rest_bones[b].joint].position;
			double length = tracker_vec3_distance(from, to);
			TrackerVec3 built = tracker_vec3_mad(from, rig_turn(q, rest), length);
			TrackerVec3 by_euler = rig_euler(q[4], q[5], q[6], rest);

			worst = MAX(worst, tracker_vec3_distance(built, to));
			g_assert_cmpfloat(tracker_vec3_distance(by_euler, rig_turn(q, rest)), <,
			                  1e-3);
			rebuilt++;
		}
	}
	g_assert_cmpfloat(worst, <, 10.0);
	g_assert_cmpuint(rebuilt, >, 50 * G_N_ELEMENTS(rest_bones));
}

/* In body space the torso carries no rotation, and a bone's is the body's
 * undone: a user turned by 90 degrees with arms out has the same arm
 * rotation in body space as one facing the sensor. */
static void
test_orientation_body_space(void)
{
	g_autoptr(Rig) rig = rig_new(HEAD OUT "[rule b]\noutput = o\nfor = user\nspace = body\n"
	                                      "joints = torso left_elbow\naddress = /b\n"
	                                      "args = qw qx qy qz\n");
	TrackerFrame frame;
	g_autoptr(GPtrArray) facing = NULL, turned = NULL;
	TrackerJoint *j;

	frame_init(&frame, 0);
	frame_add_user(&frame, 1, 0, 2000);
	j = frame.users[0].joints;
	j[TRACKER_JOINT_TORSO].position = tracker_vec3(0, 0, 2000);
	j[TRACKER_JOINT_NECK].position = tracker_vec3(0, 400, 2000);
	j[TRACKER_JOINT_LEFT_SHOULDER].position = tracker_vec3(180, 400, 2000);
	j[TRACKER_JOINT_RIGHT_SHOULDER].position = tracker_vec3(-180, 400, 2000);
	/* The upper arm raised 45 degrees. */
	j[TRACKER_JOINT_LEFT_ELBOW].position = tracker_vec3(380, 600, 2000);
	facing = rig_run(rig, &frame);
	/* The same pose turned to face the image's left (about y). */
	j[TRACKER_JOINT_LEFT_SHOULDER].position = tracker_vec3(0, 400, 2180);
	j[TRACKER_JOINT_RIGHT_SHOULDER].position = tracker_vec3(0, 400, 1820);
	j[TRACKER_JOINT_LEFT_ELBOW].position = tracker_vec3(0, 600, 2380);
	frame.frame = 1;
	frame.time_us += G_USEC_PER_SEC / 30;
	turned = rig_run(rig, &frame);
	for (guint k = 0; k < 8; k++) {
		float a = arg_f(wire_get(facing, 0)->argv[k]),
		      b = arg_f(wire_get(turned, 0)->argv[k]);

		g_assert_cmpfloat_with_epsilon(a, b, 1e-5);
		if (k < 4)
			g_assert_cmpfloat_with_epsilon(a, k == 0 ? 1.0 : 0.0, 1e-5);
	}
	/* 45 degrees about z, the camera's axis: (cos 22.5, 0, 0, sin 22.5). */
	g_assert_cmpfloat_with_epsilon(arg_f(wire_get(facing, 0)->argv[4]), cos(G_PI / 8), 1e-5);
	g_assert_cmpfloat_with_epsilon(arg_f(wire_get(facing, 0)->argv[7]), sin(G_PI / 8), 1e-5);
}

/* In body space distance and speed are in shoulder widths. A straight
 * arm makes 180 degrees; a joint of the angle not found leaves it out. */
static void
test_measures_body_space(void)
{
	g_autoptr(Rig) rig =
	        rig_new(HEAD OUT "[rule r]\noutput = o\nfor = joint\naddress = /m/{joint}\n"
	                         "joints = left_elbow\ndistance_to = left_shoulder\n"
	                         "space = body\nargs = angle distance speed\n");
	TrackerFrame frame;
	g_autoptr(GPtrArray) first = NULL, second = NULL, third = NULL;
	TrackerUser *user;
	double width;
	Wire *w;

	frame_init(&frame, 0);
	frame_add_user(&frame, 1, 0, 2000);
	user = &frame.users[0];
	width = check_distance(user->joints[TRACKER_JOINT_LEFT_SHOULDER].position,
	                       user->joints[TRACKER_JOINT_RIGHT_SHOULDER].position);
	/* Shoulder, elbow and hand on one line. */
	user->joints[TRACKER_JOINT_LEFT_ELBOW].position = tracker_vec3(300, 0, 2000);
	user->joints[TRACKER_JOINT_LEFT_SHOULDER].position = tracker_vec3(0, 0, 2000);
	user->joints[TRACKER_JOINT_RIGHT_SHOULDER].position = tracker_vec3(-width, 0, 2000);
	user->joints[TRACKER_JOINT_LEFT_HAND].position = tracker_vec3(600, 0, 2000);
	/* The first frame has no speed yet. */
	first = rig_run(rig, &frame);
	g_assert_cmpuint(first->len, ==, 0);
	/* A thirtieth of a second later, the elbow 10 mm further out. */
	frame.frame = 1;
	frame.time_us += G_USEC_PER_SEC / 30;
	user->joints[TRACKER_JOINT_LEFT_ELBOW].position.x += 10;
	user->joints[TRACKER_JOINT_LEFT_HAND].position.x += 20;
	second = rig_run(rig, &frame);
	g_assert_cmpuint(second->len, ==, 1);
	w = wire_get(second, 0);
	g_assert_cmpstr(w->types, ==, "fff");
	g_assert_cmpfloat_with_epsilon(arg_f(w->argv[0]), 180.0, 1e-3);
	g_assert_cmpfloat_with_epsilon(arg_f(w->argv[1]), 310.0 / width, 1e-5);
	g_assert_cmpfloat_with_epsilon(arg_f(w->argv[2]), 300.0 / width, 1e-3);
	/* The hand lost: no angle, so no message. */
	frame.frame = 2;
	frame.time_us += G_USEC_PER_SEC / 30;
	user->joints[TRACKER_JOINT_LEFT_HAND].confidence = 0;
	third = rig_run(rig, &frame);
	g_assert_cmpuint(third->len, ==, 0);
}

/* The shipped osceleton mapping gives OSCeleton's /joint ,sifff with its
 * names and normalisation, x = (1280 - X) / 2560 and so on. */
static void
test_osceleton_joint_bytes(void)
{
	static const char *const names[TRACKER_N_JOINTS] = {
		"head",    "neck",    "torso",  "l_shoulder", "r_shoulder",
		"l_elbow", "r_elbow", "l_hand", "r_hand",     "l_hip",
		"r_hip",   "l_knee",  "r_knee", "l_foot",     "r_foot",
	};
	g_autoptr(Rig) rig = rig_new_shipped("osceleton");
	g_autoptr(GPtrArray) wires = NULL;
	TrackerFrame frame;

	frame_init(&frame, 0);
	frame_add_user(&frame, 7, -300, 2000);
	wires = rig_run(rig, &frame);
	g_assert_cmpuint(wires->len, ==, 2 + TRACKER_N_JOINTS);
	g_assert_cmpstr(wire_get(wires, 0)->path, ==, "/new_user");
	g_assert_cmpstr(wire_get(wires, 1)->path, ==, "/new_skel");
	for (guint j = 0; j < TRACKER_N_JOINTS; j++) {
		Wire *w = wire_get(wires, 2 + j);
		const TrackerVec3 *p = &frame.users[0].joints[j].position;

		g_assert_cmpstr(w->path, ==, "/joint");
		g_assert_cmpstr(w->types, ==, "sifff");
		g_assert_cmpstr(arg_s(w->argv[0]), ==, names[j]);
		/* The tracker's user 7, in slot 1 as OSCeleton would number them. */
		g_assert_cmpint(arg_i(w->argv[1]), ==, 1);
		g_assert_cmpfloat_with_epsilon(arg_f(w->argv[2]), (1280 - p->x) / 2560, 1e-6);
		g_assert_cmpfloat_with_epsilon(arg_f(w->argv[3]), (960 - p->y) / 1920, 1e-6);
		g_assert_cmpfloat_with_epsilon(arg_f(w->argv[4]), p->z / 1280, 1e-6);
	}
}

static void
test_osceleton_events(void)
{
	g_autoptr(Rig) rig = rig_new_shipped("osceleton");
	g_autoptr(GPtrArray) first = NULL;
	g_autoptr(GPtrArray) second = NULL;
	g_autoptr(GPtrArray) third = NULL;
	g_autoptr(GPtrArray) fourth = NULL;
	TrackerFrame frame;

	frame_init(&frame, 0);
	frame_add_user(&frame, 1, 0, 2000);
	first = rig_run(rig, &frame);
	g_assert_cmpstr(wire_get(first, 0)->path, ==, "/new_user");
	g_assert_cmpstr(wire_get(first, 0)->types, ==, "i");
	g_assert_cmpint(arg_i(wire_get(first, 0)->argv[0]), ==, 1);
	g_assert_cmpstr(wire_get(first, 1)->path, ==, "/new_skel");
	second = rig_run(rig, &frame);
	g_assert_cmpstr(wire_get(second, 0)->path, ==, "/joint");
	frame.n_users = 0;
	third = rig_run(rig, &frame);
	g_assert_cmpuint(third->len, ==, 1);
	g_assert_cmpstr(wire_get(third, 0)->path, ==, "/lost_user");
	g_assert_cmpint(arg_i(wire_get(third, 0)->argv[0]), ==, 1);
	/* Someone comes, with the tracker's next id: user 1 again, as in OSCeleton. */
	frame_add_user(&frame, 2, 0, 2000);
	fourth = rig_run(rig, &frame);
	g_assert_cmpstr(wire_get(fourth, 0)->path, ==, "/new_user");
	g_assert_cmpint(arg_i(wire_get(fourth, 0)->argv[0]), ==, 1);
	g_assert_cmpstr(wire_get(fourth, 1)->path, ==, "/new_skel");
	g_assert_cmpint(arg_i(wire_get(fourth, 1)->argv[0]), ==, 1);
}

/* Pd-friendly: no numeric address part, float32 values, int32 ids only. */
static void
test_default_mapping_wire_types(void)
{
	g_autoptr(Rig) rig = rig_new_shipped("default");
	g_autoptr(GPtrArray) wires = NULL;
	TrackerFrame frame;

	frame_init(&frame, 0);
	frame_add_user(&frame, 1, 0, 2000);
	frame_add_user(&frame, 12, 500, 3000);
	wires = rig_run(rig, &frame);
	g_assert_cmpuint(wires->len, ==, 2 + 1 + 2 * TRACKER_N_JOINTS + 2);
	for (guint i = 0; i < wires->len; i++) {
		Wire *w = wire_get(wires, i);
		g_auto(GStrv) parts = g_strsplit(w->path + 1, "/", -1);
		gboolean id_first = g_str_has_prefix(w->path, "/skel/new_user") ||
		                    g_str_has_prefix(w->path, "/skel/users") ||
		                    g_str_has_prefix(w->path, "/skel/skeleton");

		for (guint k = 0; parts[k] != NULL; k++)
			g_assert_false(g_ascii_isdigit(parts[k][0]));
		for (guint k = 0; w->types[k] != '\0'; k++)
			g_assert_true(w->types[k] == 'f' ||
			              (k == 0 && id_first && w->types[k] == 'i'));
	}
}

/* Metres as in a mirror: x = -X / 1000, y = Y / 1000, z = Z / 1000. */
static void
test_default_mapping_values(void)
{
	g_autoptr(Rig) rig = rig_new_shipped("default");
	g_autoptr(GPtrArray) wires = NULL;
	TrackerFrame frame;
	Wire *hand, *skeleton;

	frame_init(&frame, 0);
	frame_add_user(&frame, 3, -250, 2500);
	wires = rig_run(rig, &frame);
	hand = wire_get(wires, 2 + TRACKER_JOINT_LEFT_HAND);
	/* The tracker's user 3, the only one in view: slot 1. */
	g_assert_cmpstr(hand->path, ==, "/skel/user1/left_hand");
	g_assert_cmpstr(hand->types, ==, "ffff");
	g_assert_cmpfloat_with_epsilon(arg_f(hand->argv[0]), 0.25 - 0.07, 1e-6);
	g_assert_cmpfloat_with_epsilon(arg_f(hand->argv[1]), 0.7 - 0.7, 1e-6);
	g_assert_cmpfloat_with_epsilon(arg_f(hand->argv[2]), 2.507, 1e-6);
	g_assert_cmpfloat(arg_f(hand->argv[3]), ==, 1.0f);
	skeleton = wire_get(wires, wires->len - 1);
	g_assert_cmpstr(skeleton->path, ==, "/skel/skeleton");
	g_assert_cmpuint(strlen(skeleton->types), ==, 1 + 3 * TRACKER_N_JOINTS);
	g_assert_cmpint(arg_i(skeleton->argv[0]), ==, 1);
	g_assert_cmpfloat_with_epsilon(arg_f(skeleton->argv[1 + 3 * TRACKER_JOINT_LEFT_HAND]),
	                               arg_f(hand->argv[0]), 1e-7);
}

#define JOINT_RULE(extra)                                                                          \
	HEAD OUT "[rule j]\noutput = o\nfor = joint\naddress = /j/{joint}\nargs = "                \
	         "confidence\n" extra

static void
test_min_confidence(void)
{
	g_autoptr(Rig) rig =
	        rig_new(JOINT_RULE("joints = head neck torso\nmin_confidence = 0.6\n"));
	g_autoptr(GPtrArray) wires = NULL;
	TrackerFrame frame;

	frame_init(&frame, 0);
	frame_add_user(&frame, 1, 0, 2000);
	frame.users[0].joints[TRACKER_JOINT_HEAD].confidence = 0.59;
	frame.users[0].joints[TRACKER_JOINT_NECK].confidence = 0.6;
	wires = rig_run(rig, &frame);
	g_assert_cmpuint(wires->len, ==, 2);
	g_assert_cmpstr(wire_get(wires, 0)->path, ==, "/j/neck");
	g_assert_cmpstr(wire_get(wires, 1)->path, ==, "/j/torso");
}

/* {bridge} is skelbridge unless the bridge is named; then it is its name. */
static void
test_bridge_placeholder(void)
{
	const char *text = HEAD OUT "[rule j]\noutput = o\nfor = joint\njoints = head\n"
	                            "address = /{bridge}/j{user}/{joint}\nargs = confidence\n";
	g_autoptr(Rig) plain = rig_new(text);
	g_autoptr(Rig) named = rig_new(text);
	g_autoptr(GPtrArray) wires = NULL;
	TrackerFrame frame;

	frame_init(&frame, 0);
	frame_add_user(&frame, 1, 0, 2000);
	wires = rig_run(plain, &frame);
	g_assert_cmpuint(wires->len, ==, 1);
	g_assert_cmpstr(wire_get(wires, 0)->path, ==, "/skelbridge/j1/head");
	g_clear_pointer(&wires, g_ptr_array_unref);
	mapping_set_bridge_name(named->mapping, "stage-left");
	wires = rig_run(named, &frame);
	g_assert_cmpstr(wire_get(wires, 0)->path, ==, "/stage-left/j1/head");
}

static void
test_bridge_name_check(void)
{
	char *message = NULL;

	g_assert_true(mapping_bridge_name_check("stage-left_2.a", &message));
	g_assert_false(mapping_bridge_name_check("stage/left", &message));
	g_assert_cmpstr(message, ==,
	                "'stage/left': a bridge's name is letters, digits, '-', '_' or '.', as it "
	                "goes into OSC addresses");
	g_clear_pointer(&message, g_free);
	g_assert_false(mapping_bridge_name_check("", &message));
	g_assert_cmpstr(message, ==, "a bridge's name is 1 to 64 characters, '' has 0");
	g_free(message);
}

/* Confidence 0 means not found: never sent, even with min_confidence 0. */
static void
test_zero_confidence_never_sent(void)
{
	g_autoptr(Rig) rig = rig_new(JOINT_RULE("joints = head neck\nmin_confidence = 0\n"));
	g_autoptr(GPtrArray) wires = NULL;
	TrackerFrame frame;

	frame_init(&frame, 0);
	frame_add_user(&frame, 1, 0, 2000);
	frame.users[0].joints[TRACKER_JOINT_HEAD].confidence = 0;
	frame.users[0].joints[TRACKER_JOINT_NECK].confidence = 0.01;
	wires = rig_run(rig, &frame);
	g_assert_cmpuint(wires->len, ==, 1);
	g_assert_cmpstr(wire_get(wires, 0)->path, ==, "/j/neck");
}

/* A value that is not a finite float32 (a joint at NaN, or one so far off
 * that the rule's scaling overflows) never goes on the wire: its message
 * is left out, as for a joint not found, and the others go. */
static void
test_non_finite_never_sent(void)
{
	g_autoptr(Rig) rig = rig_new(HEAD OUT "[rule j]\noutput = o\nfor = joint\n"
	                                      "joints = head neck torso\naddress = /j/{joint}\n"
	                                      "args = x y\nx = 0:1 -> 0:1e32\ny = int\n");
	g_autoptr(GPtrArray) wires = NULL;
	TrackerFrame frame;

	frame_init(&frame, 0);
	frame_add_user(&frame, 1, 0, 2000);
	frame.users[0].joints[TRACKER_JOINT_HEAD].position.x = 1e38;
	frame.users[0].joints[TRACKER_JOINT_NECK].position.y = NAN;
	wires = rig_run(rig, &frame);
	g_assert_cmpuint(wires->len, ==, 1);
	g_assert_cmpstr(wire_get(wires, 0)->path, ==, "/j/torso");
	g_assert_cmpstr(wire_get(wires, 0)->types, ==, "fi");
	g_assert_true(isfinite(arg_f(wire_get(wires, 0)->argv[0])));
}

/* mapping_rule_max_message() is the size of the longest message on the
 * wire, to the byte: the longest joint name and a ten-digit id, in an
 * address, a string argument and an int. (The parser refuses rules whose
 * longest message does not fit their output's packets.) */
static void
test_max_message_exact(void)
{
	g_autoptr(Rig) rig =
	        rig_new(HEAD OUT "[rule j]\noutput = o\nfor = joint\njoints = head right_shoulder\n"
	                         "address = /j/{joint}/user{user}\nargs = joint x user\n");
	const MappingRule *rule = mapping_get_rule(rig->mapping, 0);
	g_autoptr(GPtrArray) wires = NULL;
	guint longest = 0;
	TrackerFrame frame;

	frame_init(&frame, 0);
	frame_add_user(&frame, G_MAXUINT32, 0, 2000);
	wires = rig_run(rig, &frame);
	g_assert_cmpuint(wires->len, ==, 2);
	for (guint i = 0; i < rig->packets->spans->len; i++)
		longest = MAX(longest, g_array_index(rig->packets->spans, OscEncodeSpan, i).length);
	g_assert_cmpuint(mapping_rule_max_message(rule), ==, longest);
}

#define USER_RULE(extra)                                                                           \
	HEAD OUT "[rule u]\noutput = o\nfor = user\naddress = /all\nargs = user u v frame\n" extra

static void
test_user_rule_layout(void)
{
	g_autoptr(Rig) rig = rig_new(USER_RULE("joints = right_hand head\n"));
	g_autoptr(GPtrArray) wires = NULL;
	TrackerFrame frame;
	Wire *w;

	frame_init(&frame, 41);
	frame_add_user(&frame, 5, 0, 2000);
	wires = rig_run(rig, &frame);
	g_assert_cmpuint(wires->len, ==, 1);
	w = wire_get(wires, 0);
	g_assert_cmpstr(w->types, ==, "iffffi");
	g_assert_cmpint(arg_i(w->argv[0]), ==, 5);
	g_assert_cmpfloat(arg_f(w->argv[1]), ==, 100 + TRACKER_JOINT_RIGHT_HAND);
	g_assert_cmpfloat(arg_f(w->argv[2]), ==, 200 + 2 * TRACKER_JOINT_RIGHT_HAND);
	g_assert_cmpfloat(arg_f(w->argv[3]), ==, 100);
	g_assert_cmpfloat(arg_f(w->argv[4]), ==, 200);
	g_assert_cmpint(arg_i(w->argv[5]), ==, 41);
}

/* A fixed layout cannot leave a joint out: the user's message waits. */
static void
test_user_rule_needs_every_joint(void)
{
	g_autoptr(Rig) rig = rig_new(USER_RULE(""));
	g_autoptr(GPtrArray) wires = NULL;
	TrackerFrame frame;

	frame_init(&frame, 0);
	frame_add_user(&frame, 1, 0, 2000);
	frame_add_user(&frame, 2, 0, 2000);
	frame.users[0].joints[TRACKER_JOINT_LEFT_FOOT].confidence = 0.2;
	wires = rig_run(rig, &frame);
	g_assert_cmpuint(wires->len, ==, 1);
	g_assert_cmpint(arg_i(wire_get(wires, 0)->argv[0]), ==, 2);
}

#define EVENT_RULE(events)                                                                         \
	HEAD OUT "[rule e]\noutput = o\nfor = event\nevents = " events "\naddress = /{event}\n"    \
	         "args = user users\njoints = head left_hand\n"

static void
test_new_skel_once_complete(void)
{
	g_autoptr(Rig) rig = rig_new(EVENT_RULE("new_skel"));
	g_autoptr(GPtrArray) a = NULL;
	g_autoptr(GPtrArray) b = NULL;
	g_autoptr(GPtrArray) c = NULL;
	TrackerFrame frame;

	frame_init(&frame, 0);
	frame_add_user(&frame, 1, 0, 2000);
	frame.users[0].joints[TRACKER_JOINT_LEFT_HAND].confidence = 0;
	a = rig_run(rig, &frame);
	g_assert_cmpuint(a->len, ==, 0);
	frame.users[0].joints[TRACKER_JOINT_LEFT_HAND].confidence = 1;
	b = rig_run(rig, &frame);
	g_assert_cmpuint(b->len, ==, 1);
	g_assert_cmpstr(wire_get(b, 0)->path, ==, "/new_skel");
	g_assert_cmpstr(wire_get(b, 0)->types, ==, "ii");
	c = rig_run(rig, &frame);
	g_assert_cmpuint(c->len, ==, 0);
}

/* Events in the order the rule lists them; lost users after new ones here. */
static void
test_events_follow_users(void)
{
	g_autoptr(Rig) rig = rig_new(EVENT_RULE("new_user lost_user"));
	g_autoptr(GPtrArray) a = NULL;
	g_autoptr(GPtrArray) b = NULL;
	TrackerFrame frame;

	frame_init(&frame, 0);
	frame_add_user(&frame, 1, 0, 2000);
	frame_add_user(&frame, 2, 0, 2000);
	a = rig_run(rig, &frame);
	g_assert_cmpuint(a->len, ==, 2);
	g_assert_cmpint(arg_i(wire_get(a, 1)->argv[0]), ==, 2);
	g_assert_cmpint(arg_i(wire_get(a, 1)->argv[1]), ==, 2);
	frame_init(&frame, 1);
	frame_add_user(&frame, 2, 0, 2000);
	frame_add_user(&frame, 3, 0, 2000);
	b = rig_run(rig, &frame);
	g_assert_cmpuint(b->len, ==, 2);
	g_assert_cmpstr(wire_get(b, 0)->path, ==, "/new_user");
	g_assert_cmpint(arg_i(wire_get(b, 0)->argv[0]), ==, 3);
	g_assert_cmpstr(wire_get(b, 1)->path, ==, "/lost_user");
	g_assert_cmpint(arg_i(wire_get(b, 1)->argv[0]), ==, 1);
}

/* The default mapping: /gesture/KIND ,is with the user's slot and the hand,
 * no numeric address part. */
static void
test_default_mapping_gestures(void)
{
	g_autoptr(Rig) rig = rig_new_shipped("default");
	g_autoptr(GPtrArray) first = NULL;
	g_autoptr(GPtrArray) wires = NULL;
	const GestureEvent gestures[] = {
		gesture_event(GESTURE_SWIPE_LEFT, 3, GESTURE_HAND_RIGHT),
		gesture_event(GESTURE_CLAP, 12, GESTURE_HAND_BOTH),
	};
	/* The tracker's users 3 and 12 are in slots 1 and 2. */
	const gint32 slots[] = { 1, 2 };
	TrackerFrame frame;
	guint found = 0;

	g_assert_true(mapping_wants_gestures(rig->mapping));
	frame_init(&frame, 0);
	frame_add_user(&frame, 3, 0, 2000);
	frame_add_user(&frame, 12, 500, 3000);
	first = rig_run(rig, &frame);
	frame.time_us += 1000;
	wires = rig_run_gestures(rig, &frame, gestures, G_N_ELEMENTS(gestures));
	for (guint i = 0; i < wires->len; i++) {
		Wire *w = wire_get(wires, i);

		if (!g_str_has_prefix(w->path, "/gesture/"))
			continue;
		g_assert_cmpstr(w->types, ==, "is");
		g_assert_cmpstr(w->path + strlen("/gesture/"), ==,
		                gesture_kind_to_str(gestures[found].kind));
		g_assert_cmpint(arg_i(w->argv[0]), ==, slots[found]);
		g_assert_cmpstr(arg_s(w->argv[1]), ==, gesture_hand_to_str(gestures[found].hand));
		found++;
	}
	g_assert_cmpuint(found, ==, G_N_ELEMENTS(gestures));
	for (guint i = 0; i < first->len; i++)
		g_assert_false(g_str_has_prefix(wire_get(first, i)->path, "/gesture/"));
}

/* A rule sends the kinds it lists, in its order, each event of them in the
 * recognisers' order, with {hand} and the names table applied. */
static void
test_gesture_rule(void)
{
	g_autoptr(Rig) rig = rig_new(HEAD OUT "[names n]\nwave = hello\n"
	                                      "[rule g]\noutput = o\nfor = event\n"
	                                      "events = push wave\naddress = /g/{hand}/{event}\n"
	                                      "args = user event hand frame\nnames = n\n");
	const GestureEvent gestures[] = {
		gesture_event(GESTURE_WAVE, 1, GESTURE_HAND_LEFT),
		gesture_event(GESTURE_CLAP, 1, GESTURE_HAND_BOTH),
		gesture_event(GESTURE_PUSH, 2, GESTURE_HAND_RIGHT),
		gesture_event(GESTURE_WAVE, 2, GESTURE_HAND_RIGHT),
	};
	g_autoptr(GPtrArray) wires = NULL;
	TrackerFrame frame;

	frame_init(&frame, 5);
	frame_add_user(&frame, 1, 0, 2000);
	frame_add_user(&frame, 2, 500, 2000);
	wires = rig_run_gestures(rig, &frame, gestures, G_N_ELEMENTS(gestures));
	g_assert_cmpuint(wires->len, ==, 3);
	g_assert_cmpstr(wire_get(wires, 0)->path, ==, "/g/right/push");
	g_assert_cmpstr(wire_get(wires, 0)->types, ==, "issi");
	g_assert_cmpint(arg_i(wire_get(wires, 0)->argv[0]), ==, 2);
	g_assert_cmpstr(arg_s(wire_get(wires, 0)->argv[1]), ==, "push");
	g_assert_cmpstr(arg_s(wire_get(wires, 0)->argv[2]), ==, "right");
	g_assert_cmpint(arg_i(wire_get(wires, 0)->argv[3]), ==, 5);
	g_assert_cmpstr(wire_get(wires, 1)->path, ==, "/g/left/hello");
	g_assert_cmpint(arg_i(wire_get(wires, 1)->argv[0]), ==, 1);
	g_assert_cmpstr(arg_s(wire_get(wires, 1)->argv[2]), ==, "left");
	g_assert_cmpstr(wire_get(wires, 2)->path, ==, "/g/right/hello");
	g_assert_cmpint(arg_i(wire_get(wires, 2)->argv[0]), ==, 2);
}

/* Gestures are events of one frame: the next frame without them sends none. */
static void
test_gestures_once(void)
{
	g_autoptr(Rig) rig = rig_new(HEAD OUT "[rule g]\noutput = o\nfor = event\n"
	                                      "events = clap\naddress = /clap\nargs = user\n");
	const GestureEvent clap = gesture_event(GESTURE_CLAP, 4, GESTURE_HAND_BOTH);
	g_autoptr(GPtrArray) a = NULL;
	g_autoptr(GPtrArray) b = NULL;
	TrackerFrame frame;

	frame_init(&frame, 0);
	frame_add_user(&frame, 4, 0, 2000);
	a = rig_run_gestures(rig, &frame, &clap, 1);
	g_assert_cmpuint(a->len, ==, 1);
	g_assert_cmpint(arg_i(wire_get(a, 0)->argv[0]), ==, 4);
	frame.time_us += 1000;
	b = rig_run(rig, &frame);
	g_assert_cmpuint(b->len, ==, 0);
}

static void
test_names_table(void)
{
	g_autoptr(Rig) rig =
	        rig_new(HEAD OUT "[names n]\nhead = kopf\nnew_user = hallo\n"
	                         "[rule e]\noutput = o\nfor = event\nevents = new_user\n"
	                         "address = /{event}\nargs = user event\nnames = n\n"
	                         "[rule j]\noutput = o\nfor = joint\njoints = head neck\n"
	                         "address = /{joint}\nargs = joint\nnames = n\n");
	g_autoptr(GPtrArray) wires = NULL;
	TrackerFrame frame;

	frame_init(&frame, 0);
	frame_add_user(&frame, 1, 0, 2000);
	wires = rig_run(rig, &frame);
	g_assert_cmpuint(wires->len, ==, 3);
	g_assert_cmpstr(wire_get(wires, 0)->path, ==, "/hallo");
	g_assert_cmpstr(arg_s(wire_get(wires, 0)->argv[1]), ==, "hallo");
	g_assert_cmpstr(wire_get(wires, 1)->path, ==, "/kopf");
	g_assert_cmpstr(arg_s(wire_get(wires, 1)->argv[0]), ==, "kopf");
	g_assert_cmpstr(wire_get(wires, 2)->path, ==, "/neck");
}

static void
test_clamp(void)
{
	g_autoptr(Rig) rig = rig_new(HEAD OUT "[rule j]\noutput = o\nfor = joint\njoints = head\n"
	                                      "address = /h\nargs = x z\nx = -100:100 -> 0:1\n"
	                                      "z = 0:1000 -> 1:0\nclamp = true\n");
	g_autoptr(GPtrArray) wires = NULL;
	TrackerFrame frame;

	frame_init(&frame, 0);
	frame_add_user(&frame, 1, 50, 4000);
	wires = rig_run(rig, &frame);
	g_assert_cmpfloat(arg_f(wire_get(wires, 0)->argv[0]), ==, 0.75f);
	g_assert_cmpfloat(arg_f(wire_get(wires, 0)->argv[1]), ==, 0.0f);
}

#define CHANGE_RULE                                                                                \
	HEAD OUT "[rule j]\noutput = o\nfor = joint\njoints = head\naddress = /h\nargs = x\n"      \
	         "on_change = 5\nrefresh = 1\n"

static guint
run_count(Rig *rig, const TrackerFrame *frame)
{
	g_autoptr(GPtrArray) wires = rig_run(rig, frame);

	return wires->len;
}

/* Sent when it moved by more than on_change since it was last sent. */
static void
test_on_change(void)
{
	g_autoptr(Rig) rig = rig_new(CHANGE_RULE);
	TrackerFrame frame;

	frame_init(&frame, 0);
	frame_add_user(&frame, 1, 0, 2000);
	g_assert_cmpuint(run_count(rig, &frame), ==, 1);
	frame.time_us += 1000;
	frame.users[0].joints[0].position.x = 4;
	g_assert_cmpuint(run_count(rig, &frame), ==, 0);
	frame.time_us += 1000;
	frame.users[0].joints[0].position.x = 5.5; /* 5.5 from what was sent */
	g_assert_cmpuint(run_count(rig, &frame), ==, 1);
	frame.time_us += 1000;
	frame.users[0].joints[0].position.x = 1; /* 4.5 back */
	g_assert_cmpuint(run_count(rig, &frame), ==, 0);
}

/* refresh: what did not change goes again once the interval passes. */
static void
test_refresh(void)
{
	g_autoptr(Rig) rig = rig_new(CHANGE_RULE);
	TrackerFrame frame;

	frame_init(&frame, 0);
	frame_add_user(&frame, 1, 0, 2000);
	g_assert_cmpuint(run_count(rig, &frame), ==, 1);
	frame.time_us += G_USEC_PER_SEC - 1;
	g_assert_cmpuint(run_count(rig, &frame), ==, 0);
	frame.time_us += 1;
	g_assert_cmpuint(run_count(rig, &frame), ==, 1);
	frame.time_us += 1;
	g_assert_cmpuint(run_count(rig, &frame), ==, 0);
}

static void
test_frame_rule(void)
{
	g_autoptr(Rig) rig =
	        rig_new(HEAD OUT "[rule f]\noutput = o\nfor = frame\naddress = /users\n"
	                         "args = users frame\non_change = 0\n");
	g_autoptr(GPtrArray) a = NULL;
	g_autoptr(GPtrArray) b = NULL;
	TrackerFrame frame;

	frame_init(&frame, 9);
	frame_add_user(&frame, 1, 0, 2000);
	frame_add_user(&frame, 2, 0, 2000);
	a = rig_run(rig, &frame);
	g_assert_cmpuint(a->len, ==, 1);
	g_assert_cmpstr(wire_get(a, 0)->types, ==, "ii");
	g_assert_cmpint(arg_i(wire_get(a, 0)->argv[0]), ==, 2);
	g_assert_cmpint(arg_i(wire_get(a, 0)->argv[1]), ==, 9);
	frame.n_users = 1;
	frame.frame = 10;
	b = rig_run(rig, &frame);
	g_assert_cmpuint(b->len, ==, 1);
	g_assert_cmpint(arg_i(wire_get(b, 0)->argv[0]), ==, 1);
}

/* An engine taking over from the old one announces nobody again and keeps
 * the state of rules whose text did not change. */
static void
test_reload_keeps_state(void)
{
	const char *text = CHANGE_RULE "[rule e]\noutput = o\nfor = event\nevents = new_user\n"
	                               "address = /new\n";
	g_autoptr(Rig) rig = rig_new(text);
	g_autoptr(GError) error = NULL;
	g_autoptr(Mapping) edited = NULL;
	g_autoptr(GPtrArray) wires = NULL;
	MappingEngine *engine;
	TrackerFrame frame;
	const char *text2 = CHANGE_RULE "[rule e]\noutput = o\nfor = event\nevents = new_user\n"
	                                "address = /new\n"
	                                "[rule k]\noutput = o\nfor = frame\naddress = /k\n";

	frame_init(&frame, 0);
	frame_add_user(&frame, 1, 0, 2000);
	g_assert_cmpuint(run_count(rig, &frame), ==, 2);
	edited = mapping_parse("test.map", text2, strlen(text2), &error);
	g_assert_no_error(error);
	engine = mapping_engine_new(edited, rig->engine);
	mapping_engine_free(rig->engine);
	rig->engine = engine;
	mapping_free(rig->mapping);
	rig->mapping = g_steal_pointer(&edited);
	wires = rig_run(rig, &frame);
	g_assert_cmpuint(wires->len, ==, 1);
	g_assert_cmpstr(wire_get(wires, 0)->path, ==, "/k");
}

static void
test_rules_to_their_outputs(void)
{
	g_autoptr(Rig) rig =
	        rig_new(HEAD OUT "[output p]\nkind = osc\ntarget = osc.tcp://127.0.0.1:7001\n"
	                         "bundle = none\n[rule a]\noutput = p\nfor = frame\naddress = /a\n"
	                         "[rule b]\noutput = o\nfor = frame\naddress = /b\n"
	                         "[rule c]\noutput = p\nfor = frame\naddress = /c\n");
	g_autoptr(GPtrArray) o = NULL;
	g_autoptr(GPtrArray) p = NULL;
	TrackerFrame frame;

	frame_init(&frame, 0);
	o = rig_run_output(rig, &frame, 0);
	g_assert_cmpuint(o->len, ==, 1);
	g_assert_cmpstr(wire_get(o, 0)->path, ==, "/b");
	p = rig_run_output(rig, &frame, 1);
	g_assert_cmpuint(p->len, ==, 2);
	g_assert_cmpstr(wire_get(p, 0)->path, ==, "/a");
	g_assert_cmpstr(wire_get(p, 1)->path, ==, "/c");
}

/* ---- the encoder ---- */

static MessageBatch *
batch_of_users(guint n_users, guint per_user)
{
	MessageBatch *batch = message_batch_new();

	message_batch_add(batch, 0, "/frame");
	message_batch_add_int32(batch, 1);
	for (guint i = 0; i < per_user; i++) {
		for (guint u = 1; u <= n_users; u++) {
			g_autofree char *address = g_strdup_printf("/u%u/m%u", u, i);

			message_batch_add(batch, u, address);
			message_batch_add_float32(batch, (float)(u * 100 + i));
			message_batch_add_string(batch, "x");
		}
	}
	return batch;
}

/* 2001-09-09 01:46:40.25 UTC: NTP seconds 3208988800, a quarter second. */
#define TIMETAG_US (G_GINT64_CONSTANT(1000000000) * G_USEC_PER_SEC + 250000)

static void
test_encode_frame_bundle(void)
{
	g_autoptr(MessageBatch) batch = batch_of_users(2, 3);
	g_autoptr(OscEncodePackets) packets = osc_encode_packets_new();
	g_autoptr(GPtrArray) wires = g_ptr_array_new_with_free_func(wire_free);
	const OscEncodeSpan *span;
	lo_timetag tt;

	osc_encode_batch(batch, MAPPING_BUNDLE_FRAME, 65507, TIMETAG_US, packets);
	g_assert_cmpuint(packets->spans->len, ==, 1);
	span = &g_array_index(packets->spans, OscEncodeSpan, 0);
	g_assert_cmpuint(span->messages, ==, 7);
	tt = bundle_decode(packets->data->data + span->offset, span->length, wires);
	g_assert_cmpuint(tt.sec, ==, 3208988800u);
	g_assert_cmpuint(tt.frac, ==, 1u << 30);
	g_assert_cmpuint(wires->len, ==, 7);
	g_assert_cmpstr(wire_get(wires, 0)->path, ==, "/frame");
	g_assert_cmpstr(wire_get(wires, 1)->path, ==, "/u1/m0");
	g_assert_cmpstr(wire_get(wires, 2)->path, ==, "/u2/m0");
	g_assert_cmpstr(wire_get(wires, 2)->types, ==, "fs");
	g_assert_cmpfloat(arg_f(wire_get(wires, 2)->argv[0]), ==, 200);
	g_assert_cmpstr(arg_s(wire_get(wires, 2)->argv[1]), ==, "x");
}

/* bundle = user: one bundle per user, in order of first appearance. */
static void
test_encode_user_bundles(void)
{
	g_autoptr(MessageBatch) batch = batch_of_users(3, 2);
	g_autoptr(OscEncodePackets) packets = osc_encode_packets_new();

	osc_encode_batch(batch, MAPPING_BUNDLE_USER, 65507, TIMETAG_US, packets);
	g_assert_cmpuint(packets->spans->len, ==, 4);
	for (guint i = 0; i < 4; i++) {
		const OscEncodeSpan *span = &g_array_index(packets->spans, OscEncodeSpan, i);
		g_autoptr(GPtrArray) wires = g_ptr_array_new_with_free_func(wire_free);

		bundle_decode(packets->data->data + span->offset, span->length, wires);
		g_assert_cmpuint(wires->len, ==, i == 0 ? 1 : 2);
		for (guint k = 0; i > 0 && k < wires->len; k++) {
			g_autofree char *want = g_strdup_printf("/u%u/m%u", i, k);

			g_assert_cmpstr(wire_get(wires, k)->path, ==, want);
		}
	}
}

/* A frame larger than max_packet goes as several bundles, none larger,
 * with every message in order and the same timetag. */
static void
test_encode_split(void)
{
	g_autoptr(MessageBatch) batch = batch_of_users(6, 15);
	g_autoptr(OscEncodePackets) packets = osc_encode_packets_new();
	g_autoptr(GPtrArray) wires = g_ptr_array_new_with_free_func(wire_free);

	osc_encode_batch(batch, MAPPING_BUNDLE_FRAME, 512, TIMETAG_US, packets);
	g_assert_cmpuint(packets->spans->len, >, 1);
	for (guint i = 0; i < packets->spans->len; i++) {
		const OscEncodeSpan *span = &g_array_index(packets->spans, OscEncodeSpan, i);
		lo_timetag tt;

		g_assert_cmpuint(span->length, <=, 512);
		tt = bundle_decode(packets->data->data + span->offset, span->length, wires);
		g_assert_cmpuint(tt.sec, ==, 3208988800u);
	}
	g_assert_cmpuint(wires->len, ==, message_batch_length(batch));
	for (guint i = 0; i < wires->len; i++)
		g_assert_cmpstr(wire_get(wires, i)->path, ==,
		                message_address(batch, message_batch_get(batch, i)));
}

static void
test_encode_plain(void)
{
	g_autoptr(MessageBatch) batch = batch_of_users(1, 2);
	g_autoptr(OscEncodePackets) packets = osc_encode_packets_new();
	g_autoptr(GPtrArray) wires = NULL;

	osc_encode_batch(batch, MAPPING_BUNDLE_NONE, 64, TIMETAG_US, packets);
	g_assert_cmpuint(packets->spans->len, ==, 3);
	wires = packets_decode(packets);
	g_assert_cmpstr(wire_get(wires, 0)->path, ==, "/frame");
	g_assert_cmpstr(wire_get(wires, 0)->types, ==, "i");
	g_assert_cmpint(arg_i(wire_get(wires, 0)->argv[0]), ==, 1);
	g_assert_true(lo_timetag_diff(wire_get(wires, 0)->tt, LO_TT_IMMEDIATE) == 0);
}

static void
test_encode_empty(void)
{
	g_autoptr(MessageBatch) batch = message_batch_new();
	g_autoptr(OscEncodePackets) packets = osc_encode_packets_new();

	osc_encode_batch(batch, MAPPING_BUNDLE_FRAME, 1472, TIMETAG_US, packets);
	g_assert_cmpuint(packets->spans->len, ==, 0);
}

/* ---- spaces, curves, rates, joint globs, user selection ---- */

#define RULE_FOR_JOINTS(joints, args, extra)                                                       \
	HEAD OUT "[rule j]\noutput = o\nfor = joint\njoints = " joints "\naddress = /{joint}\n"    \
	         "args = " args "\n" extra

/* space = screen: x and y from the pixel, z over the Kinect's range. */
static void
test_screen_space(void)
{
	g_autoptr(Rig) rig = rig_new(RULE_FOR_JOINTS("head", "x y z u", "space = screen\n"));
	g_autoptr(GPtrArray) wires = NULL;
	TrackerFrame frame;

	frame_init(&frame, 0);
	frame_add_user(&frame, 1, 0, 2000);
	wires = rig_run(rig, &frame);
	g_assert_cmpuint(wires->len, ==, 1);
	g_assert_cmpfloat_with_epsilon(arg_f(wire_get(wires, 0)->argv[0]), 100.0 / 640, 1e-6);
	g_assert_cmpfloat_with_epsilon(arg_f(wire_get(wires, 0)->argv[1]), 200.0 / 480, 1e-6);
	g_assert_cmpfloat_with_epsilon(arg_f(wire_get(wires, 0)->argv[2]), 1500.0 / 4000, 1e-6);
	/* u stays a pixel */
	g_assert_cmpfloat(arg_f(wire_get(wires, 0)->argv[3]), ==, 100.0f);
}

/* A body of shoulder width @width, torso at @torso, left hand out and up. */
static void
frame_add_body(TrackerFrame *frame, guint id, TrackerVec3 torso, double width)
{
	TrackerUser *user;
	double k = width / 400.0;

	frame_add_user(frame, id, torso.x, torso.z);
	user = &frame->users[frame->n_users - 1];
	user->joints[TRACKER_JOINT_TORSO].position = torso;
	user->joints[TRACKER_JOINT_LEFT_SHOULDER].position =
	        tracker_vec3(torso.x + 200 * k, torso.y + 300 * k, torso.z);
	user->joints[TRACKER_JOINT_RIGHT_SHOULDER].position =
	        tracker_vec3(torso.x - 200 * k, torso.y + 300 * k, torso.z);
	user->joints[TRACKER_JOINT_LEFT_HAND].position =
	        tracker_vec3(torso.x + 500 * k, torso.y + 300 * k, torso.z - 200 * k);
}

/* space = body: an adult and a child in the same pose send the same numbers. */
static void
test_body_space(void)
{
	g_autoptr(Rig) rig = rig_new(RULE_FOR_JOINTS("left_hand", "user x y z", "space = body\n"));
	g_autoptr(GPtrArray) wires = NULL;
	TrackerFrame frame;

	frame_init(&frame, 0);
	frame_add_body(&frame, 1, tracker_vec3(-600, 200, 2500), 400);
	frame_add_body(&frame, 2, tracker_vec3(700, -150, 3100), 240);
	wires = rig_run(rig, &frame);
	g_assert_cmpuint(wires->len, ==, 2);
	for (guint i = 0; i < 2; i++) {
		Wire *w = wire_get(wires, i);

		g_assert_cmpstr(w->types, ==, "ifff");
		g_assert_cmpfloat_with_epsilon(arg_f(w->argv[1]), 1.25, 1e-5);
		g_assert_cmpfloat_with_epsilon(arg_f(w->argv[2]), 0.75, 1e-5);
		g_assert_cmpfloat_with_epsilon(arg_f(w->argv[3]), -0.5, 1e-5);
	}
	/* Without a torso there is no body to measure from: nothing is sent. */
	g_ptr_array_unref(g_steal_pointer(&wires));
	frame.time_us += 33333;
	frame.users[1].joints[TRACKER_JOINT_TORSO].confidence = 0;
	wires = rig_run(rig, &frame);
	g_assert_cmpuint(wires->len, ==, 1);
	g_assert_cmpint(arg_i(wire_get(wires, 0)->argv[0]), ==, 1);
}

/* invert turns the output range around, exp bends it, int rounds it. */
static void
test_invert_curve_int(void)
{
	g_autoptr(Rig) rig = rig_new(RULE_FOR_JOINTS("head", "x y z u",
	                                             "x = 0:100 -> 0:10 invert int\n"
	                                             "y = 0:100 -> 0:1 exp 2\nz = invert\n"
	                                             "u = 0:640 -> 0:127 clamp int\n"));
	g_autoptr(GPtrArray) wires = NULL;
	TrackerFrame frame;

	frame_init(&frame, 0);
	frame_add_user(&frame, 1, 30, 2000);
	frame.users[0].joints[TRACKER_JOINT_HEAD].position.y = 50;
	frame.users[0].joints[TRACKER_JOINT_HEAD].u = 700;
	wires = rig_run(rig, &frame);
	g_assert_cmpstr(wire_get(wires, 0)->types, ==, "iffi");
	g_assert_cmpint(arg_i(wire_get(wires, 0)->argv[0]), ==, 7);
	g_assert_cmpfloat_with_epsilon(arg_f(wire_get(wires, 0)->argv[1]), expm1(1) / expm1(2),
	                               1e-6);
	g_assert_cmpfloat(arg_f(wire_get(wires, 0)->argv[2]), ==, -2000.0f);
	g_assert_cmpint(arg_i(wire_get(wires, 0)->argv[3]), ==, 127);
}

/* max_rate = 10 from a 30 fps camera: every third frame, per joint. */
static void
test_max_rate(void)
{
	g_autoptr(Rig) rig = rig_new(RULE_FOR_JOINTS("head neck", "x", "max_rate = 10\n"));
	guint sent = 0;
	TrackerFrame frame;

	for (guint k = 0; k < 30; k++) {
		frame_init(&frame, k);
		/* a little early or late, as cameras deliver */
		frame.time_us += (k % 2 ? 2000 : -2000);
		frame_add_user(&frame, 1, 0, 2000);
		sent += run_count(rig, &frame);
	}
	g_assert_cmpuint(sent, ==, 2 * 10);
}

static void
test_joint_globs(void)
{
	g_autoptr(Rig) rig = rig_new(RULE_FOR_JOINTS("*_hand *_shoulder left_*", "x", ""));
	static const char *const want[] = { "/left_hand",      "/right_hand", "/left_shoulder",
		                            "/right_shoulder", "/left_elbow", "/left_hip",
		                            "/left_knee",      "/left_foot" };
	g_autoptr(GPtrArray) wires = NULL;
	TrackerFrame frame;

	frame_init(&frame, 0);
	frame_add_user(&frame, 1, 0, 2000);
	wires = rig_run(rig, &frame);
	g_assert_cmpuint(wires->len, ==, G_N_ELEMENTS(want));
	for (guint i = 0; i < G_N_ELEMENTS(want); i++)
		g_assert_cmpstr(wire_get(wires, i)->path, ==, want[i]);
}

/* Which user ids a rule with @user sends about, over frames of @frames. */
static GArray *
users_sent(const char *user, const TrackerFrame *frames, guint n)
{
	g_autofree char *text =
	        g_strdup_printf(HEAD OUT "[rule j]\noutput = o\nfor = joint\njoints = head\n"
	                                 "address = /head\nargs = user\nuser = %s\n"
	                                 "[rule gone]\noutput = o\nfor = event\n"
	                                 "events = lost_user\naddress = /lost\nargs = user\n"
	                                 "user = %s\n",
	                        user, user);
	g_autoptr(Rig) rig = rig_new(text);
	GArray *ids = g_array_new(FALSE, FALSE, sizeof(gint32));

	for (guint k = 0; k < n; k++) {
		g_autoptr(GPtrArray) wires = rig_run(rig, &frames[k]);

		for (guint i = 0; i < wires->len; i++) {
			gint32 id = arg_i(wire_get(wires, i)->argv[0]);

			/* lost users count negative */
			if (strcmp(wire_get(wires, i)->path, "/lost") == 0)
				id = -id;
			g_array_append_val(ids, id);
		}
	}
	return ids;
}

static void
assert_ids(GArray *ids, const gint32 *want, guint n)
{
	g_assert_cmpuint(ids->len, ==, n);
	for (guint i = 0; i < n; i++)
		g_assert_cmpint(g_array_index(ids, gint32, i), ==, want[i]);
	g_array_unref(ids);
}

static void
test_user_selection(void)
{
	TrackerFrame frames[3];

	/* users 5 (near) and 3 (far), then 3 leaves */
	frame_init(&frames[0], 0);
	frame_add_user(&frames[0], 5, 0, 1500);
	frame_add_user(&frames[0], 3, 0, 3000);
	frames[0].users[0].centre.z = 1500;
	frames[0].users[1].centre.z = 3000;
	frames[1] = frames[0];
	frames[1].frame = 1;
	frames[1].time_us = 33333;
	frames[2] = frames[1];
	frames[2].frame = 2;
	frames[2].time_us = 66666;
	frames[2].n_users = 1;
	assert_ids(users_sent("all", frames, 3), (const gint32[]){ 5, 3, 5, 3, 5, -3 }, 6);
	assert_ids(users_sent("first", frames, 3), (const gint32[]){ 3, 3, 5, -3 }, 4);
	assert_ids(users_sent("nearest", frames, 3), (const gint32[]){ 5, 5, 5 }, 3);
	assert_ids(users_sent("3", frames, 3), (const gint32[]){ 3, 3, -3 }, 3);
}

/* ---- user ids: the tracker's, or slots ---- */

/* Who comes and goes, what each has, which user is first and who holds it. */
#define IDS_RULES                                                                                  \
	"[rule events]\noutput = o\nfor = event\nevents = new_user lost_user\n"                    \
	"address = /{event}\nargs = user\n"                                                        \
	"[rule heads]\noutput = o\nfor = joint\njoints = head\naddress = /user{user}/head\n"       \
	"args = user\n"                                                                            \
	"[rule first]\noutput = o\nfor = frame\nuser = first\naddress = /first\nargs = chosen\n"
#define IDS_MAP(ids) HEAD "user_ids = " ids "\n" OUT

/* A frame of users with these tracker ids, in this order (0 ends), each
 * standing at x = 100 times their id. */
static void
ids_frame(TrackerFrame *frame, guint64 number, const guint *ids)
{
	frame_init(frame, number);
	for (guint i = 0; ids[i] != 0; i++)
		frame_add_user(frame, ids[i], 100.0 * ids[i], 2000);
}

/* What frame @number of users @ids sends, as "path arg..." words. */
static char *
ids_run(Rig *rig, guint64 number, const guint *ids, const GestureEvent *gestures, guint n)
{
	g_autoptr(GPtrArray) wires = NULL;
	GString *out = g_string_new(NULL);
	TrackerFrame frame;

	ids_frame(&frame, number, ids);
	wires = rig_run_gestures(rig, &frame, gestures, n);
	for (guint i = 0; i < wires->len; i++) {
		Wire *w = wire_get(wires, i);

		g_string_append_printf(out, "%s%s", i ? " " : "", w->path);
		for (guint k = 0; w->types[k] != '\0'; k++) {
			if (w->types[k] == 'i')
				g_string_append_printf(out, " %d", arg_i(w->argv[k]));
			else if (w->types[k] == 'f')
				g_string_append_printf(out, " %g", arg_f(w->argv[k]));
			else
				g_string_append_printf(out, " %s", arg_s(w->argv[k]));
		}
	}
	return g_string_free(out, FALSE);
}

#define IDS_EXPECT(rig, number, expected, ...)                                                     \
	do {                                                                                       \
		g_autofree char *got_ =                                                            \
		        ids_run(rig, number, (const guint[]){ __VA_ARGS__, 0 }, NULL, 0);          \
		g_assert_cmpstr(got_, ==, expected);                                               \
	} while (0)

/* Slots in every user's number: a newcomer takes the lowest free slot
 * (in frame order), keeps it, frees it on leaving; `first` is still the
 * one in view longest, whatever slot they have. */
static void
test_ids_slot(void)
{
	g_autoptr(Rig) rig = rig_new(IDS_MAP("slot") IDS_RULES);

	IDS_EXPECT(rig, 0, "/new_user 1 /new_user 2 /user1/head 1 /user2/head 2 /first 1", 5, 9);
	IDS_EXPECT(rig, 1, "/lost_user 1 /user2/head 2 /first 2", 9);
	IDS_EXPECT(rig, 2, "/new_user 1 /user2/head 2 /user1/head 1 /first 2", 9, 12);
	IDS_EXPECT(rig, 3, "/user1/head 1 /user2/head 2 /first 2", 12, 9);
	/* Back with the tracker's id 5, which is first again: the slot free now. */
	IDS_EXPECT(rig, 4, "/new_user 3 /user1/head 1 /user2/head 2 /user3/head 3 /first 3", 12, 9,
	           5);
	IDS_EXPECT(rig, 5, "/lost_user 1 /lost_user 2 /user3/head 3 /first 3", 5);
	IDS_EXPECT(rig, 6,
	           "/new_user 1 /new_user 2 /user3/head 3 /user1/head 1 /user2/head 2 /first 3", 5,
	           20, 21);
}

/* The same frames without the key, and with user_ids = unique: the
 * tracker's ids, as before slots existed. */
static void
test_ids_unique_unchanged(void)
{
	const char *maps[] = { HEAD OUT IDS_RULES, IDS_MAP("unique") IDS_RULES };

	for (guint m = 0; m < G_N_ELEMENTS(maps); m++) {
		g_autoptr(Rig) rig = rig_new(maps[m]);

		IDS_EXPECT(rig, 0, "/new_user 5 /new_user 9 /user5/head 5 /user9/head 9 /first 5",
		           5, 9);
		IDS_EXPECT(rig, 1, "/lost_user 5 /user9/head 9 /first 9", 9);
		IDS_EXPECT(rig, 2, "/new_user 12 /user9/head 9 /user12/head 12 /first 9", 9, 12);
		IDS_EXPECT(rig, 3,
		           "/new_user 5 /user12/head 12 /user9/head 9 /user5/head 5 /first 5", 12,
		           9, 5);
	}
}

/* One leaves as another comes: the newcomer does not take the slot just
 * freed, so the frame does not say slot 1 left and arrived. */
static void
test_ids_leave_and_arrive_in_one_frame(void)
{
	g_autoptr(Rig) rig = rig_new(IDS_MAP("slot") IDS_RULES);

	IDS_EXPECT(rig, 0, "/new_user 1 /new_user 2 /user1/head 1 /user2/head 2 /first 1", 5, 9);
	IDS_EXPECT(rig, 1, "/new_user 3 /lost_user 1 /user2/head 2 /user3/head 3 /first 2", 9, 12);
	IDS_EXPECT(rig, 2, "/new_user 1 /user2/head 2 /user3/head 3 /user1/head 1 /first 2", 9, 12,
	           13);
}

/* Six at once take slots 1 to 6; with all six held, one leaving as a
 * seventh comes gives the newcomer the slot freed, the only one. */
static void
test_ids_six_users(void)
{
	g_autoptr(Rig) rig = rig_new(IDS_MAP("slot") IDS_RULES);

	IDS_EXPECT(rig, 0,
	           "/new_user 1 /new_user 2 /new_user 3 /new_user 4 /new_user 5 /new_user 6 "
	           "/user1/head 1 /user2/head 2 /user3/head 3 /user4/head 4 /user5/head 5 "
	           "/user6/head 6 /first 6",
	           16, 15, 14, 13, 12, 11);
	IDS_EXPECT(rig, 1,
	           "/new_user 4 /lost_user 4 /user1/head 1 /user2/head 2 /user3/head 3 "
	           "/user5/head 5 /user6/head 6 /user4/head 4 /first 6",
	           16, 15, 14, 12, 11, 30);
}

/* user = ID names a slot: the rule follows whoever holds it, and what it
 * remembered of the one before (on_change, new_skel) is not theirs. */
static void
test_ids_rule_for_one_slot(void)
{
	g_autoptr(Rig) rig = rig_new(
	        IDS_MAP("slot") "[rule one]\noutput = o\nfor = joint\nuser = 1\njoints = head\n"
	                        "address = /one\nargs = user x\non_change = 1000\n"
	                        "[rule skel]\noutput = o\nfor = event\nuser = 1\n"
	                        "events = new_skel lost_user\naddress = /{event}\nargs = user\n");

	IDS_EXPECT(rig, 0, "/one 1 500 /new_skel 1", 5, 9);
	IDS_EXPECT(rig, 1, "", 5, 9);
	IDS_EXPECT(rig, 2, "/lost_user 1", 9);
	IDS_EXPECT(rig, 3, "", 9);
	/* Someone else in slot 1, 700 mm along: sent though within on_change. */
	IDS_EXPECT(rig, 4, "/one 1 700 /new_skel 1", 9, 7);
}

/* Zone comings and goings and gestures carry the slot too, and so does a
 * zone leave on leaving the view. */
static void
test_ids_zones_and_gestures(void)
{
	g_autoptr(Rig) rig = rig_new(
	        IDS_MAP("slot") "[zone all]\nspace = camera\nbox = -9000:9000 -9000:9000 0:9000\n"
	                        "[rule zones]\noutput = o\nfor = event\n"
	                        "events = zone_enter zone_leave\naddress = /{event}/{user}\n"
	                        "args = user zone\n"
	                        "[rule gestures]\noutput = o\nfor = event\nevents = swipe_left\n"
	                        "address = /g/user{user}\nargs = user hand\n");
	const GestureEvent swipe = gesture_event(GESTURE_SWIPE_LEFT, 9, GESTURE_HAND_RIGHT);
	g_autofree char *a = ids_run(rig, 0, (const guint[]){ 5, 9, 0 }, NULL, 0);
	g_autofree char *b = ids_run(rig, 1, (const guint[]){ 9, 0 }, &swipe, 1);
	g_autofree char *c = ids_run(rig, 2, (const guint[]){ 9, 12, 0 }, &swipe, 1);

	g_assert_cmpstr(a, ==, "/zone_enter/1 1 all /zone_enter/2 2 all");
	g_assert_cmpstr(b, ==, "/zone_leave/1 1 all /g/user2 2 right");
	g_assert_cmpstr(c, ==, "/zone_enter/1 1 all /g/user2 2 right");
}

/* A chosen user held through a gap goes by the slot they left while it is
 * free, and by 0 once someone else takes it. */
static void
test_ids_chosen_held(void)
{
	g_autoptr(Rig) rig = rig_new(IDS_MAP("slot") "[rule first]\noutput = o\nfor = frame\n"
	                                             "user = first\nhold = 1\naddress = /first\n"
	                                             "args = chosen\n");

	IDS_EXPECT(rig, 0, "/first 1", 5, 9);
	IDS_EXPECT(rig, 1, "/first 1", 9);
	IDS_EXPECT(rig, 2, "/first 1", 9);
	IDS_EXPECT(rig, 3, "/first 0", 9, 12);
	/* Back within the hold: first again, in the slot free now. */
	IDS_EXPECT(rig, 4, "/first 3", 9, 12, 5);
	/* Gone past the hold (frames 6 to 40 are over a second). */
	IDS_EXPECT(rig, 5, "/first 3", 9, 12);
	IDS_EXPECT(rig, 40, "/first 2", 9, 12);
}

/* Replaces @rig's mapping with @text, as a reload does. */
static void
rig_reload(Rig *rig, const char *text)
{
	g_autoptr(GError) error = NULL;
	Mapping *edited = mapping_parse("test.map", text, strlen(text), &error);
	MappingEngine *engine;

	g_assert_no_error(error);
	engine = mapping_engine_new(edited, rig->engine);
	mapping_engine_free(rig->engine);
	rig->engine = engine;
	mapping_free(rig->mapping);
	rig->mapping = edited;
}

/* A reload keeps the slots of the users in view, slots being kept even
 * while the file numbered users by the tracker's ids. */
static void
test_ids_reload_keeps_slots(void)
{
	g_autoptr(Rig) rig = rig_new(IDS_MAP("unique") IDS_RULES);

	IDS_EXPECT(rig, 0, "/new_user 5 /new_user 9 /user5/head 5 /user9/head 9 /first 5", 5, 9);
	IDS_EXPECT(rig, 1, "/lost_user 5 /user9/head 9 /first 9", 9);
	rig_reload(rig, IDS_MAP("slot") IDS_RULES);
	IDS_EXPECT(rig, 2, "/user2/head 2 /first 2", 9);
	IDS_EXPECT(rig, 3, "/new_user 1 /user2/head 2 /user1/head 1 /first 2", 9, 12);
	rig_reload(rig, IDS_MAP("slot") IDS_RULES "# edited\n");
	IDS_EXPECT(rig, 4, "/user1/head 1 /user2/head 2 /first 2", 12, 9);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/mapping/engine/hands/events-and-state", test_hands_events);
	g_test_add_func("/mapping/engine/hands/truth", test_hands_truth);
	g_test_add_func("/mapping/engine/osceleton/joint-bytes", test_osceleton_joint_bytes);
	g_test_add_func("/mapping/engine/osceleton/events", test_osceleton_events);
	g_test_add_func("/mapping/engine/default/wire-types-for-pd",
	                test_default_mapping_wire_types);
	g_test_add_func("/mapping/engine/default/metres-as-in-a-mirror",
	                test_default_mapping_values);
	g_test_add_func("/mapping/engine/min-confidence-drops-joints", test_min_confidence);
	g_test_add_func("/mapping/engine/non-finite-never-sent", test_non_finite_never_sent);
	g_test_add_func("/mapping/engine/max-message-exact", test_max_message_exact);
	g_test_add_func("/mapping/engine/zero-confidence-never-sent",
	                test_zero_confidence_never_sent);
	g_test_add_func("/mapping/engine/user-rule-repeats-joint-values", test_user_rule_layout);
	g_test_add_func("/mapping/engine/user-rule-needs-every-joint",
	                test_user_rule_needs_every_joint);
	g_test_add_func("/mapping/engine/new-skel-once-complete", test_new_skel_once_complete);
	g_test_add_func("/mapping/engine/new-and-lost-users", test_events_follow_users);
	g_test_add_func("/mapping/engine/names-table", test_names_table);
	g_test_add_func("/mapping/engine/default/gestures", test_default_mapping_gestures);
	g_test_add_func("/mapping/engine/gestures/kinds-hands-names", test_gesture_rule);
	g_test_add_func("/mapping/engine/gestures/once-per-event", test_gestures_once);
	g_test_add_func("/mapping/engine/clamp", test_clamp);
	g_test_add_func("/mapping/engine/on-change", test_on_change);
	g_test_add_func("/mapping/engine/refresh", test_refresh);
	g_test_add_func("/mapping/engine/frame-rule", test_frame_rule);
	g_test_add_func("/mapping/engine/reload-keeps-state", test_reload_keeps_state);
	g_test_add_func("/mapping/engine/rules-to-their-outputs", test_rules_to_their_outputs);
	g_test_add_func("/mapping/engine/space/screen", test_screen_space);
	g_test_add_func("/mapping/engine/space/body-same-for-child-and-adult", test_body_space);
	g_test_add_func("/mapping/engine/invert-curve-int", test_invert_curve_int);
	g_test_add_func("/mapping/engine/max-rate", test_max_rate);
	g_test_add_func("/mapping/engine/joint-globs", test_joint_globs);
	g_test_add_func("/mapping/engine/user-selection", test_user_selection);
	g_test_add_func("/engine/measures/truth", test_measures_truth);
	g_test_add_func("/engine/measures/body-space", test_measures_body_space);
	g_test_add_func("/engine/measures/height", test_measures_height);
	g_test_add_func("/engine/zones/camera", test_zones_camera);
	g_test_add_func("/engine/zones/room", test_zones_room);
	g_test_add_func("/engine/choose/raised-hand", test_choose_raised_hand);
	g_test_add_func("/engine/choose/hold", test_choose_hold);
	g_test_add_func("/engine/user-rule-frame-values", test_user_rule_frame_values);
	g_test_add_func("/engine/orientation/truth", test_orientation_truth);
	g_test_add_func("/engine/orientation/body-space", test_orientation_body_space);
	g_test_add_func("/mapping/engine/user-ids/slot", test_ids_slot);
	g_test_add_func("/mapping/engine/user-ids/unique-unchanged", test_ids_unique_unchanged);
	g_test_add_func("/mapping/engine/user-ids/slot-freed-not-given-in-the-same-frame",
	                test_ids_leave_and_arrive_in_one_frame);
	g_test_add_func("/mapping/engine/user-ids/six-users", test_ids_six_users);
	g_test_add_func("/mapping/engine/user-ids/rule-for-one-slot", test_ids_rule_for_one_slot);
	g_test_add_func("/mapping/engine/user-ids/zones-and-gestures", test_ids_zones_and_gestures);
	g_test_add_func("/mapping/engine/user-ids/chosen-held", test_ids_chosen_held);
	g_test_add_func("/mapping/engine/user-ids/reload-keeps-slots", test_ids_reload_keeps_slots);
	g_test_add_func("/osc/encode/frame-bundle-with-timetag", test_encode_frame_bundle);
	g_test_add_func("/osc/encode/bundle-per-user", test_encode_user_bundles);
	g_test_add_func("/osc/encode/split-at-max-packet", test_encode_split);
	g_test_add_func("/osc/encode/plain-messages", test_encode_plain);
	g_test_add_func("/osc/encode/empty-frame-sends-nothing", test_encode_empty);
	g_test_add_func("/mapping/engine/bridge-placeholder", test_bridge_placeholder);
	g_test_add_func("/mapping/engine/bridge-name-check", test_bridge_name_check);
	return g_test_run();
}
