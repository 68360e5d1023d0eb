/* Fusion against people placed by hand in a room seen by two sensors:
 * each sensor numbers the users it sees its own way and loses them at its
 * view's edge; the fused users must keep one id each, be where the people
 * are, take sensors out of step by time, and go on when a sensor stops. */
#include <math.h>
#include <string.h>

#include "demo/demo-render.h"
#include "room/room-fusion.h"
#include "testutil.h"
#include "views.h"

#define DEG      (G_PI / 180.0)
#define FRAME_US 33333
#define HALF_FOV (28.5 * DEG)

/* A person's joints about their trunk's centre, facing -z (toward a
 * sensor at the origin): enough of a body to fuse. */
static const double body[TRACKER_N_JOINTS][3] = {
	{ 0, 650, 0 },       { 0, 450, 0 },     { 0, 100, 0 },      { 190, 420, 0 },
	{ -190, 420, 0 },    { 220, 150, 0 },   { -220, 150, 0 },   { 230, -100, -50 },
	{ -230, -100, -50 }, { 100, -150, 0 },  { -100, -150, 0 },  { 110, -600, 0 },
	{ -110, -600, 0 },   { 110, -1000, 0 }, { -110, -1000, 0 },
};

typedef struct {
	DemoView view;
	DemoPose pose;
	gint64 phase_us;
	gint64 stop_us; /* no frames from this time on; 0: never */
	guint next_id;
	guint ids[2]; /* this sensor's id for each person, 0 while out of view */
} Sensor;

typedef struct {
	Sensor sensors[2];
	double noise_mm;
	gboolean pair;     /* a second person stands by the first, 700 mm to its side */
	int hidden_from_0; /* a joint sensor 0 does not find, or -1 */
	double speed_mm_s;
	double from_x, to_x; /* the walk, at z 3000 */
	/* Sensor 1 sees the walker's back and, as a tracker does, takes it
	 * for their front: their left for their right. */
	gboolean back_to_1;
} World;

static void
world_init(World *w)
{
	memset(w, 0, sizeof(*w));
	w->sensors[0].view = views_at(-1500, 0, 1000, 28, 1, 0);
	w->sensors[1].view = views_at(1500, 0, 1200, -27, 3, 1);
	w->sensors[1].phase_us = 13000;
	for (guint i = 0; i < 2; i++) {
		w->sensors[i].pose = demo_renderer_view_pose(&w->sensors[i].view);
		w->sensors[i].next_id = 1;
	}
	w->noise_mm = 20.0;
	w->speed_mm_s = 1000.0;
	w->from_x = -2600.0;
	w->to_x = 2600.0;
	w->hidden_from_0 = -1;
}

/* The room as the views are: the demo's world is the room. */
static Room *
world_room(const World *w)
{
	DemoView views[2] = { w->sensors[0].view, w->sensors[1].view };

	return views_room(views, NULL, 2);
}

/* Person @p's trunk centre at @t: the walker goes along x from @from_x
 * to @to_x at z 3000 and back; the other walks by their side. */
static TrackerVec3
person_at(const World *w, guint p, double t)
{
	double span = w->to_x - w->from_x, d = fmod(t * w->speed_mm_s, 2.0 * span);
	double x = w->from_x + (d < span ? d : 2.0 * span - d);

	return tracker_vec3(x + (p == 1 ? 700.0 : 0.0), 1000.0, 3000.0);
}

static TrackerVec3
person_joint(const World *w, guint p, double t, int j)
{
	return tracker_vec3_add(person_at(w, p, t),
	                        tracker_vec3(body[j][0], body[j][1], body[j][2]));
}

static gboolean
sees(TrackerVec3 camera)
{
	return camera.z > 800.0 && camera.z < 4500.0 && fabs(atan2(camera.x, camera.z)) < HALF_FOV;
}

static void
add_user(World *w, guint i, guint p, double t, guint32 *state, TrackerFrame *f)
{
	Sensor *s = &w->sensors[i];
	TrackerUser *u = &f->users[f->n_users++];

	memset(u, 0, sizeof(*u));
	u->id = s->ids[p];
	u->n_pixels = 5000;
	for (int j = 0; j < TRACKER_N_JOINTS; j++) {
		TrackerVec3 c = demo_renderer_pose_to_camera(&s->pose, person_joint(w, p, t, j));
		TrackerJoint *joint = &u->joints[j];

		/* A tracker's smoothed joints: off by a slowly wandering bias of
		 * its own per sensor and joint, with a little jitter. */
		double bias = w->noise_mm * sin(0.5 * t + 1.7 * j + 2.9 * i);

		joint->position = tracker_vec3(c.x + bias + 3.0 * testutil_noise(state),
		                               c.y - bias + 3.0 * testutil_noise(state),
		                               c.z + bias + 3.0 * testutil_noise(state));
		if (w->noise_mm == 0.0)
			joint->position = c;
		joint->confidence = 0.9;
		if (i == 0 && j == w->hidden_from_0)
			joint->confidence = 0.0;
	}
	u->centre = u->joints[TRACKER_JOINT_TORSO].position;
	if (i == 1 && w->back_to_1) {
		for (int j = TRACKER_JOINT_LEFT_SHOULDER; j < TRACKER_N_JOINTS; j += 2) {
			TrackerJoint left = u->joints[j];

			u->joints[j] = u->joints[j + 1];
			u->joints[j + 1] = left;
		}
	}
}

/* What sensor @i tracks at @t: a person keeps the sensor's id while in
 * view and gets a new one on coming back. */
static void
sensor_frame(World *w, guint i, double t, guint32 *state, TrackerFrame *f)
{
	Sensor *s = &w->sensors[i];

	memset(f, 0, sizeof(*f));
	f->time_us = (gint64)(t * G_USEC_PER_SEC);
	for (guint p = 0; p < (w->pair ? 2u : 1u); p++) {
		TrackerVec3 c = demo_renderer_pose_to_camera(&s->pose, person_at(w, p, t));

		if (!sees(c)) {
			s->ids[p] = 0;
			continue;
		}
		if (s->ids[p] == 0)
			s->ids[p] = s->next_id++;
		add_user(w, i, p, t, state, f);
	}
}

typedef void (*FusedFunc)(const World *w, const TrackerFrame *fused, gpointer data);

/* Both sensors' frames over @seconds, in the order of their times,
 * through fusion; @func sees every fused frame. */
static void
world_run(World *w, double seconds, FusedFunc func, gpointer data)
{
	g_autoptr(Room) room = world_room(w);
	g_autoptr(RoomFusion) fusion = room_fusion_new(room);
	guint32 state = 3;

	for (gint64 tick = 0; tick < (gint64)(seconds * G_USEC_PER_SEC); tick += FRAME_US) {
		for (guint i = 0; i < 2; i++) {
			gint64 t = tick + w->sensors[i].phase_us;
			TrackerFrame f, fused;

			if (w->sensors[i].stop_us > 0 && t >= w->sensors[i].stop_us)
				continue;
			sensor_frame(w, i, t / 1e6, &state, &f);
			if (room_fusion_process(fusion, i, &f, &fused))
				func(w, &fused, data);
		}
	}
}

typedef struct {
	GHashTable *ids; /* every fused id seen */
	guint frames, users;
	double worst_mm; /* farthest any fused joint was from its person's */
	double sum_mm;   /* ...and all of them, to average */
	guint joints;
	guint missing;  /* joints no sensor found */
	gint64 from_us; /* joints are scored from this time on */
	double worst_head_mm;
	gint64 last_us, longest_gap_us;
} Tally;

static void
tally_frame(const World *w, const TrackerFrame *fused, gpointer data)
{
	Tally *t = data;

	t->frames++;
	if (t->last_us > 0)
		t->longest_gap_us = MAX(t->longest_gap_us, fused->time_us - t->last_us);
	t->last_us = fused->time_us;
	for (guint u = 0; u < fused->n_users; u++) {
		const TrackerUser *user = &fused->users[u];
		double at = fused->time_us / 1e6;
		guint p =
		        w->pair && tracker_vec3_distance(user->centre, person_at(w, 1, at)) <
		                           tracker_vec3_distance(user->centre, person_at(w, 0, at));

		g_hash_table_add(t->ids, GUINT_TO_POINTER(user->id));
		t->users++;
		for (int j = 0; j < TRACKER_N_JOINTS && fused->time_us >= t->from_us; j++) {
			double d = tracker_vec3_distance(user->joints[j].position,
			                                 person_joint(w, p, at, j));

			if (user->joints[j].confidence <= 0.0) {
				t->missing++;
				continue;
			}
			t->worst_mm = MAX(t->worst_mm, d);
			t->sum_mm += d;
			t->joints++;
			if (j == TRACKER_JOINT_HEAD)
				t->worst_head_mm = MAX(t->worst_head_mm, d);
		}
	}
}

static void
tally_init(Tally *t)
{
	memset(t, 0, sizeof(*t));
	t->ids = g_hash_table_new(NULL, NULL);
}

/* Walking out of one sensor's view through the overlap into the other's
 * and back, three times: one id throughout, though each sensor gave the
 * walker a new one every time they came back into its view. */
static void
test_hand_over(void)
{
	World w;
	Tally t;

	world_init(&w);
	tally_init(&t);
	world_run(&w, 30.0, tally_frame, &t);
	g_test_message("%u frames, %u users, ids %u, joints %.1f mm off on average, %.1f at worst",
	               t.frames, t.users, g_hash_table_size(t.ids), t.sum_mm / t.joints,
	               t.worst_mm);
	g_assert_cmpuint(g_hash_table_size(t.ids), ==, 1);
	g_assert_cmpuint(w.sensors[0].next_id, >, 3);
	g_assert_cmpuint(w.sensors[1].next_id, >, 3);
	g_assert_cmpuint(t.users, >, t.frames * 9 / 10);
	g_assert_cmpuint(t.missing, ==, 0);
	/* Biases of up to 20 mm a coordinate (35 mm all told), averaged
	 * where both sensors see. */
	g_assert_cmpfloat(t.sum_mm / t.joints, <, 20.0);
	/* ...and where the walk turns round, one sensor's frames go on past
	 * it for up to 17 ms. */
	g_assert_cmpfloat(t.worst_mm, <, 60.0);
	g_hash_table_unref(t.ids);
}

/* Two people side by side, 700 mm apart, walking across both views (and
 * never out of both for longer than a person is held), are two people,
 * each with one id. */
static void
test_two_people(void)
{
	World w;
	Tally t;

	world_init(&w);
	w.pair = TRUE;
	w.to_x = 1100.0;
	tally_init(&t);
	world_run(&w, 30.0, tally_frame, &t);
	g_assert_cmpuint(g_hash_table_size(t.ids), ==, 2);
	g_assert_cmpfloat(t.worst_mm, <, 60.0);
	g_hash_table_unref(t.ids);
}

/* Sensors out of step: the head comes from sensor 1 alone, taken at the
 * fused frame's time from its frames either side, not from its nearest. */
static void
test_by_time(void)
{
	World w;
	Tally t;

	world_init(&w);
	w.noise_mm = 0.0;
	w.hidden_from_0 = TRACKER_JOINT_HEAD;
	w.speed_mm_s = 1500.0;
	w.sensors[1].phase_us = 16667;
	tally_init(&t);
	/* (Until sensor 1's second frame there is nothing to go on from.) */
	t.from_us = 100000;
	/* Across the room once, not turning round. */
	world_run(&w, 3.0, tally_frame, &t);
	g_test_message("worst head %.2f mm", t.worst_head_mm);
	/* Sensor 1's nearest frame would put it 25 mm off (half a frame at
	 * 1.5 m/s); between its frames on a straight walk, it is exact. */
	g_assert_cmpfloat(t.worst_head_mm, <, 1.0);
	g_assert_cmpuint(t.users, >, 60);
	g_hash_table_unref(t.ids);
}

/* Sensor 0, the lead, stops while the walker is in the overlap: fusion
 * goes on at sensor 1's frames, with the same id, after a short gap. */
static void
test_sensor_stops(void)
{
	World w;
	Tally t;

	world_init(&w);
	w.sensors[0].stop_us = 3 * G_USEC_PER_SEC; /* at x = 400 */
	w.to_x = 1400.0;                           /* where sensor 1 sees */
	tally_init(&t);
	world_run(&w, 12.0, tally_frame, &t);
	g_test_message("longest gap %.0f ms", t.longest_gap_us / 1e3);
	g_assert_cmpuint(g_hash_table_size(t.ids), ==, 1);
	g_assert_cmpint(t.longest_gap_us, <=, ROOM_FUSION_STALE_US + 2 * FRAME_US);
	g_assert_cmpint(t.last_us, >, 11 * G_USEC_PER_SEC);
	g_hash_table_unref(t.ids);
}

/* Two sensors facing each other across the room, the walker facing the
 * first: the second has the walker's sides the wrong way round, and the
 * fused user has them right, the left hand that only the second finds
 * too. */
static void
test_back_view(void)
{
	World w;
	Tally t;

	world_init(&w);
	w.sensors[0].view = views_at(0, 0, 1000, 0, 2, 0);
	w.sensors[1].view = views_at(0, 5000, 1100, 180, 3, 0);
	for (guint i = 0; i < 2; i++)
		w.sensors[i].pose = demo_renderer_view_pose(&w.sensors[i].view);
	w.back_to_1 = TRUE;
	/* Only sensor 1, from behind, finds the left hand. */
	w.hidden_from_0 = TRACKER_JOINT_LEFT_HAND;
	w.from_x = -800.0;
	w.to_x = 800.0;
	tally_init(&t);
	/* (Sensor 1's first frame comes after sensor 0's.) */
	t.from_us = 100000;
	world_run(&w, 10.0, tally_frame, &t);
	g_test_message("joints %.1f mm off on average, %.1f at worst", t.sum_mm / t.joints,
	               t.worst_mm);
	g_assert_cmpuint(g_hash_table_size(t.ids), ==, 1);
	g_assert_cmpuint(t.missing, ==, 0);
	g_assert_cmpfloat(t.worst_mm, <, 60.0);
	g_hash_table_unref(t.ids);
}

/* A joint the other sensor sees far off and unsure of (a hand it took
 * for the other one) is not averaged in. */
static void
test_best_joint(void)
{
	static const RoomSensor sensors[2] = {
		{ .name = (char *)"a", .source = (char *)"a", .height_mm = 1000 },
		{ .name = (char *)"b", .source = (char *)"b", .height_mm = 1000 },
	};
	g_autoptr(Room) room = room_new();
	g_autoptr(RoomFusion) fusion = NULL;
	TrackerFrame f[2] = { 0 }, fused;
	int hand = TRACKER_JOINT_LEFT_HAND;

	for (guint i = 0; i < 2; i++) {
		g_assert_true(room_add_sensor(room, &sensors[i], NULL));
		f[i].time_us = 1000 + i;
		f[i].n_users = 1;
		f[i].users[0].id = 7;
		for (int j = 0; j < TRACKER_N_JOINTS; j++) {
			f[i].users[0].joints[j].position = tracker_vec3(0, 0, 2000);
			f[i].users[0].joints[j].confidence = 0.9;
		}
		f[i].users[0].centre = tracker_vec3(0, 0, 2000);
	}
	f[1].users[0].joints[hand].position = tracker_vec3(500, 0, 2000);
	f[1].users[0].joints[hand].confidence = 0.3;
	fusion = room_fusion_new(room);
	/* Sensor 0 leads; sensor 1's frame waits for its next one. */
	g_assert_true(room_fusion_process(fusion, 0, &f[0], &fused));
	g_assert_false(room_fusion_process(fusion, 1, &f[1], &fused));
	f[0].time_us = 2000;
	g_assert_true(room_fusion_process(fusion, 0, &f[0], &fused));
	g_assert_cmpuint(fused.n_users, ==, 1);
	g_assert_cmpuint(fused.users[0].id, ==, 1);
	g_assert_cmpfloat(fused.users[0].joints[hand].position.x, ==, 0.0);
	g_assert_cmpfloat(fused.users[0].joints[hand].confidence, ==, 0.9);
	/* Where both are sure, both count. */
	g_assert_cmpfloat_with_epsilon(fused.users[0].joints[TRACKER_JOINT_HEAD].position.z, 2000.0,
	                               1e-9);
	/* A frame not later than its sensor's last is left out. */
	g_assert_false(room_fusion_process(fusion, 0, &f[0], &fused));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/room-fusion/hand-over", test_hand_over);
	g_test_add_func("/room-fusion/two-people", test_two_people);
	g_test_add_func("/room-fusion/by-time", test_by_time);
	g_test_add_func("/room-fusion/sensor-stops", test_sensor_stops);
	g_test_add_func("/room-fusion/best-joint", test_best_joint);
	g_test_add_func("/room-fusion/back-view", test_back_view);
	return g_test_run();
}
