/* Several sensors against the truth: every multiview demo scene, with
 * several noise seeds. Each view is tracked by its own tracker, the two
 * are placed by the room calibrator from what they saw (as `skelbridge
 * calibrate` does), and their users fused in that room (room-fusion.c).
 * Prints, per scene and seed:
 * - calibration: how far sensor 2 is from where the scene put it (in
 *   sensor 1's floor frame), how far its yaw, tilt and roll are off, and
 *   what the calibrator says of its own fit;
 * - fusion: joints within 100 mm of the truth, people missed and the ids
 *   each person was given (one each: the hand-over kept it): fused, of
 *   every person either sensor shows; then for each sensor, alone and
 *   fused, of the people that sensor shows; and the time fusion takes per
 *   frame set.
 *   bench-multiview [--seeds=N] [--truth]
 * --seeds: 3 by default; --truth: the scene's own skeletons and the views'
 * true floor poses instead of the tracker's, to tell the calibrator's and
 * fusion's errors from the tracker's. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "demo/demo-render.h"
#include "demo/demo-scene.h"
#include "base/stats.h"
#include "bench-timing.h"
#include "room/room-calibrator.h"
#include "room/room-fusion.h"
#include "skeletons/skeletons.h"
#include "sources/source.h"
#include "views.h"

#define DEG     (G_PI / 180.0)
#define N_VIEWS 2
/* A person counts as seen by a view that shows this many of their pixels. */
#define SEEN_PIXELS SKELETONS_TRUTH_MIN_PIXELS
#define WITHIN_MM   100.0
/* A fused user is a person's when their torsos are this close. */
#define MATCH_MM 500.0

static const char *const scenes[] = { "two-sensors", "facing-sensors" };

/* One person of the scene at one frame: where each joint is (the room
 * of the scene's world) and how much of them each view shows. */
typedef struct {
	guint id;
	TrackerVec3 world[TRACKER_N_JOINTS];
	guint pixels[N_VIEWS];
} Person;

typedef struct {
	TrackerFrame tracked[N_VIEWS];
	guint n_people;
	Person people[DEMO_MAX_PEOPLE];
} Moment;

typedef struct {
	guint frames, joints, within, missed, person_frames;
	GHashTable *ids[DEMO_MAX_PEOPLE + 1]; /* per scene person id: fused ids given */
} Score;

/* Tracks view @view of @scene, every frame, into @moments and @c; the
 * CPU time of each frame's tracking into @cpu_ms. */
static void
track_view(const char *scene, guint view, guint64 seed, gboolean truth, GArray *moments,
           RoomCalibrator *c, GArray *cpu_ms)
{
	g_autofree char *spec = g_strdup_printf("demo:%s@%u", scene, view);
	const DemoView *v = &demo_scene_find_script(scene)->views[view];
	SourceOptions options = { .fast = TRUE, .seed = seed };
	g_autoptr(GError) error = NULL;
	g_autoptr(Source) source = source_open(spec, &options, &error);
	g_autoptr(Skeletons) skeletons = skeletons_open(truth ? "truth" : "tracker", &error);
	const DepthFrame *frame;

	g_assert_no_error(error);
	for (guint i = 0; (frame = source_read(source, &error)) != NULL; i++) {
		TrackerCameraPose pose = { TRACKER_FLOOR_SEEN, v->height, v->pitch / DEG,
			                   v->roll / DEG };
		Moment *m;

		if (i >= moments->len)
			g_array_set_size(moments, i + 1);
		m = &g_array_index(moments, Moment, i);
		double start = bench_timing_thread_cpu_ms(), took;

		g_assert_true(skeletons_process(skeletons, frame, &m->tracked[view], &error));
		took = bench_timing_thread_cpu_ms() - start;
		g_array_append_val(cpu_ms, took);
		if (!truth)
			skeletons_get_camera_pose(skeletons, &pose);
		g_assert_true(
		        room_calibrator_add(c, view, frame->time_us, &m->tracked[view], &pose));
		m->n_people = frame->truth->n_people;
		for (guint p = 0; p < m->n_people; p++) {
			m->people[p].id = frame->truth->people[p].id;
			memcpy(m->people[p].world, frame->truth->people[p].world,
			       sizeof(m->people[p].world));
			m->people[p].pixels[view] = frame->truth->people[p].pixels;
		}
	}
	g_assert_no_error(error);
}

static double
angle_apart(double a_deg, double b_deg)
{
	return fabs(remainder(a_deg - b_deg, 360.0));
}

/* ---- calibration ---- */

static double
report_calibration(const char *scene, guint64 seed, const RoomCalibration *cal)
{
	const DemoScript *script = demo_scene_find_script(scene);
	const DemoView *va = &script->views[0], *vb = &script->views[1];
	double dx = vb->x - va->x, dz = vb->z - va->z;
	double tx = dx * cos(va->yaw) - dz * sin(va->yaw),
	       tz = dx * sin(va->yaw) + dz * cos(va->yaw);
	double place = hypot(cal[1].x_mm - tx, cal[1].z_mm - tz);

	printf("%-15s seed %" G_GUINT64_FORMAT
	       ": calibration: place %5.1f mm, height %+5.1f/%+5.1f "
	       "mm, yaw %.2f, tilt %+.2f/%+.2f, roll %+.2f/%+.2f deg; %u sightings, rms %.0f mm\n",
	       scene, seed, place, cal[0].height_mm - va->height, cal[1].height_mm - vb->height,
	       angle_apart(cal[1].yaw_deg, (vb->yaw - va->yaw) / DEG),
	       cal[0].tilt_deg - va->pitch / DEG, cal[1].tilt_deg - vb->pitch / DEG,
	       cal[0].roll_deg - va->roll / DEG, cal[1].roll_deg - vb->roll / DEG, cal[1].samples,
	       cal[1].residual_mm);
	return place;
}

static Room *
room_from(const RoomCalibration *cal)
{
	RoomSensor places[N_VIEWS];

	for (guint i = 0; i < N_VIEWS; i++)
		places[i] = (RoomSensor){ .x_mm = cal[i].x_mm,
			                  .z_mm = cal[i].z_mm,
			                  .yaw_deg = cal[i].yaw_deg,
			                  .height_mm = cal[i].height_mm,
			                  .tilt_deg = cal[i].tilt_deg,
			                  .roll_deg = cal[i].roll_deg };
	return views_room_new(places, NULL, N_VIEWS);
}

/* ---- fusion against the truth ---- */

/* A scene's world point in the calibrated room: through sensor 1's true
 * pose into its camera, and out through its calibrated one. */
static TrackerVec3
truth_in_room(const DemoPose *pose0, const Room *room, TrackerVec3 world)
{
	return room_sensor_to_room(room_get_sensor(room, 0),
	                           demo_renderer_pose_to_camera(pose0, world));
}

static void
score_init(Score *s)
{
	memset(s, 0, sizeof(*s));
	for (guint i = 0; i <= DEMO_MAX_PEOPLE; i++)
		s->ids[i] = g_hash_table_new(NULL, NULL);
}

static void
score_clear(Score *s)
{
	for (guint i = 0; i <= DEMO_MAX_PEOPLE; i++)
		g_hash_table_unref(s->ids[i]);
}

/* The users of @frame (in the room) against the people of @m that the
 * views in @views show. */
static void
score_frame(Score *s, const Moment *m, const TrackerFrame *frame, const DemoPose *pose0,
            const Room *room, guint views)
{
	s->frames++;
	for (guint p = 0; p < m->n_people; p++) {
		const Person *person = &m->people[p];
		TrackerVec3 torso = truth_in_room(pose0, room, person->world[TRACKER_JOINT_TORSO]);
		const TrackerUser *best = NULL;
		gboolean shown = FALSE;

		for (guint v = 0; v < N_VIEWS; v++)
			shown = shown || ((views & (1u << v)) && person->pixels[v] >= SEEN_PIXELS);
		if (!shown)
			continue;
		s->person_frames++;
		for (guint u = 0; u < frame->n_users; u++) {
			const TrackerUser *user = &frame->users[u];
			double d = tracker_vec3_distance(user->joints[TRACKER_JOINT_TORSO].position,
			                                 torso);

			if (d < MATCH_MM &&
			    (best == NULL ||
			     d < tracker_vec3_distance(best->joints[TRACKER_JOINT_TORSO].position,
			                               torso)))
				best = user;
		}
		s->joints += TRACKER_N_JOINTS;
		if (best == NULL) {
			s->missed++;
			continue;
		}
		g_hash_table_add(s->ids[MIN(person->id, DEMO_MAX_PEOPLE)],
		                 GUINT_TO_POINTER(best->id));
		for (int j = 0; j < TRACKER_N_JOINTS; j++) {
			TrackerVec3 truth = truth_in_room(pose0, room, person->world[j]);

			s->within +=
			        best->joints[j].confidence > 0.0 &&
			        tracker_vec3_distance(best->joints[j].position, truth) < WITHIN_MM;
		}
	}
}

/* Sensor @view's own users, in the room. */
static void
sensor_in_room(const Room *room, guint view, const TrackerFrame *in, TrackerFrame *out)
{
	*out = *in;
	for (guint u = 0; u < out->n_users; u++) {
		for (int j = 0; j < TRACKER_N_JOINTS; j++)
			out->users[u].joints[j].position = room_sensor_to_room(
			        room_get_sensor(room, view), in->users[u].joints[j].position);
	}
}

static void
print_score(const char *what, const Score *s)
{
	g_autoptr(GString) ids = g_string_new(NULL);

	for (guint i = 1; i <= DEMO_MAX_PEOPLE; i++) {
		if (g_hash_table_size(s->ids[i]) > 0)
			g_string_append_printf(ids, " %u:%u", i, g_hash_table_size(s->ids[i]));
	}
	printf("    %-9s joints within %.0f mm %5.1f%%, people missed %4.1f%% of %u; ids per "
	       "person%s\n",
	       what, WITHIN_MM, s->joints ? 100.0 * s->within / s->joints : 0.0,
	       s->person_frames ? 100.0 * s->missed / s->person_frames : 0.0, s->person_frames,
	       ids->str);
}

/* Fuses the tracked frames in time order, the lead's (sensor 1's) first
 * at each time, so that sensor 2's frame of that time has not come yet:
 * the worse order. Scores the fused users and each sensor alone. */
static void
fuse(const char *scene, const GArray *moments, const Room *room)
{
	const DemoScript *script = demo_scene_find_script(scene);
	DemoPose pose0 = demo_renderer_view_pose(&script->views[0]);
	g_autoptr(RoomFusion) fusion = room_fusion_new(room);
	g_autoptr(GArray) times = g_array_new(FALSE, FALSE, sizeof(double));
	Score fused, alone[N_VIEWS], fused_where[N_VIEWS];

	score_init(&fused);
	for (guint v = 0; v < N_VIEWS; v++) {
		score_init(&alone[v]);
		score_init(&fused_where[v]);
	}
	for (guint i = 0; i < moments->len; i++) {
		const Moment *m = &g_array_index(moments, Moment, i);

		for (guint v = 0; v < N_VIEWS; v++) {
			TrackerFrame out;
			gint64 start = g_get_monotonic_time();
			gboolean lead = room_fusion_process(fusion, v, &m->tracked[v], &out);
			double ms = (g_get_monotonic_time() - start) / 1000.0;

			if (lead) {
				g_array_append_val(times, ms);
				score_frame(&fused, m, &out, &pose0, room, (1u << N_VIEWS) - 1);
				for (guint w = 0; w < N_VIEWS; w++)
					score_frame(&fused_where[w], m, &out, &pose0, room,
					            1u << w);
			}
			sensor_in_room(room, v, &m->tracked[v], &out);
			score_frame(&alone[v], m, &out, &pose0, room, 1u << v);
		}
	}
	stats_sort((double *)times->data, times->len);
	print_score("fused", &fused);
	print_score("sensor 1", &alone[0]);
	print_score("fused", &fused_where[0]);
	print_score("sensor 2", &alone[1]);
	print_score("fused", &fused_where[1]);
	printf("    fusion per frame set: median %.3f ms, p99 %.3f ms\n",
	       g_array_index(times, double, times->len / 2),
	       g_array_index(times, double, times->len * 99 / 100));
	fflush(stdout);
	score_clear(&fused);
	for (guint v = 0; v < N_VIEWS; v++) {
		score_clear(&alone[v]);
		score_clear(&fused_where[v]);
	}
}

static void
run(const char *scene, guint64 seed, gboolean truth)
{
	g_autoptr(RoomCalibrator) c = room_calibrator_new(N_VIEWS);
	g_autoptr(GArray) moments = g_array_new(FALSE, TRUE, sizeof(Moment));
	g_autoptr(GError) error = NULL;
	g_autoptr(Room) room = NULL;
	RoomCalibration cal[N_VIEWS];
	double median[N_VIEWS];

	for (guint v = 0; v < N_VIEWS; v++) {
		g_autoptr(GArray) cpu_ms = g_array_new(FALSE, FALSE, sizeof(double));

		track_view(scene, v, seed, truth, moments, c, cpu_ms);
		median[v] = stats_median((double *)cpu_ms->data, cpu_ms->len);
	}
	printf("%-15s seed %" G_GUINT64_FORMAT ": tracking per frame (CPU, median): sensor 1 %.2f "
	       "ms, sensor 2 %.2f ms; each on a thread of its own\n",
	       scene, seed, median[0], median[1]);
	if (!room_calibrator_solve(c, cal, &error)) {
		printf("%-15s seed %" G_GUINT64_FORMAT ": not placed: %s\n", scene, seed,
		       error->message);
		return;
	}
	report_calibration(scene, seed, cal);
	room = room_from(cal);
	fuse(scene, moments, room);
}

int
main(int argc, char **argv)
{
	guint seeds = 3;
	gboolean truth = FALSE;

	for (int i = 1; i < argc; i++) {
		if (g_str_has_prefix(argv[i], "--seeds="))
			seeds = (guint)g_ascii_strtoull(argv[i] + 8, NULL, 10);
		else if (strcmp(argv[i], "--truth") == 0)
			truth = TRUE;
	}
	for (guint s = 0; s < G_N_ELEMENTS(scenes); s++) {
		for (guint64 seed = 1; seed <= seeds; seed++)
			run(scenes[s], seed, truth);
	}
	return 0;
}
