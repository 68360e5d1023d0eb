/* Scenes seen by several sensors: every view's truth agrees with the
 * room's and with the view's true pose, the picture is where the pose
 * puts it, and a view a scene does not have is refused. */
#include <math.h>
#include <string.h>

#include "demo/demo-scene.h"
#include "testutil.h"

#define FRAME_AT(seconds) ((guint64)((seconds)*DEMO_FPS))
#define KINECT_F          575.8157

static void
assert_vec_near(TrackerVec3 a, TrackerVec3 b, double tolerance)
{
	g_assert_cmpfloat_with_epsilon(a.x, b.x, tolerance);
	g_assert_cmpfloat_with_epsilon(a.y, b.y, tolerance);
	g_assert_cmpfloat_with_epsilon(a.z, b.z, tolerance);
}

/* The axes are unit, at right angles, and turn as the room's do. */
static void
assert_rigid(const DemoPose *pose)
{
	const TrackerVec3 *a = pose->axis;

	for (int i = 0; i < 3; i++) {
		g_assert_cmpfloat_with_epsilon(tracker_vec3_dot(a[i], a[i]), 1.0, 1e-12);
		g_assert_cmpfloat_with_epsilon(tracker_vec3_dot(a[i], a[(i + 1) % 3]), 0.0, 1e-12);
	}
	g_assert_cmpfloat_with_epsilon(tracker_vec3_dot(tracker_vec3_cross(a[0], a[1]), a[2]), 1.0,
	                               1e-12);
}

/* Every person's room joints, taken into each view's camera space through
 * that view's true pose, are that view's truth; and the room joints are
 * the same whichever view tells them. */
static void
check_world_joints(const char *name)
{
	const DemoScript *script = demo_scene_find_script(name);
	guint n_views = demo_scene_script_n_views(script);
	guint64 frames[] = { FRAME_AT(1.0), FRAME_AT(8.0), FRAME_AT(14.0), FRAME_AT(19.0) };

	g_assert_cmpuint(n_views, >=, 2);
	for (guint k = 0; k < G_N_ELEMENTS(frames); k++) {
		g_autoptr(DemoScene) first = demo_scene_new_view(script, 0, 1);
		g_autoptr(DepthFrame) f0 = depth_frame_new();

		demo_scene_render(first, frames[k], f0);
		for (guint view = 0; view < n_views; view++) {
			g_autoptr(DemoScene) scene = demo_scene_new_view(script, view, 1);
			g_autoptr(DepthFrame) frame = depth_frame_new();
			DemoPose pose = demo_scene_script_pose(script, view);
			const DemoTruth *truth, *truth0 = f0->truth;

			demo_scene_render(scene, frames[k], frame);
			truth = frame->truth;
			g_assert_cmpuint(truth->view, ==, view);
			g_assert_cmpmem(&truth->pose, sizeof(pose), &pose, sizeof(pose));
			assert_rigid(&pose);
			g_assert_cmpuint(truth->n_people, ==, truth0->n_people);
			for (guint p = 0; p < truth->n_people; p++) {
				const DemoTruthPerson *person = &truth->people[p];
				const DemoTruthPerson *person0 = &truth0->people[p];

				g_assert_cmpuint(person->id, ==, person0->id);
				g_assert_cmpmem(person->world, sizeof(person->world),
				                person0->world, sizeof(person0->world));
				for (int j = 0; j < TRACKER_N_JOINTS; j++) {
					TrackerVec3 c = demo_renderer_pose_to_camera(
					        &pose, person->world[j]);

					assert_vec_near(c, person->joints[j], 1e-6);
					assert_vec_near(demo_renderer_pose_to_world(&pose, c),
					                person->world[j], 1e-6);
				}
			}
		}
	}
}

static void
test_world_joints_two_sensors(void)
{
	check_world_joints("two-sensors");
}

static void
test_world_joints_facing_sensors(void)
{
	check_world_joints("facing-sensors");
}

/* The median reading in the 5x5 pixels about (@u, @v) showing person
 * @id; 0 when none does. */
static double
median_reading(const DepthFrame *frame, guint id, double u, double v)
{
	guint16 readings[25];
	guint n = 0;
	int u0 = (int)floor(u + 0.5), v0 = (int)floor(v + 0.5);

	for (int dv = -2; dv <= 2; dv++) {
		for (int du = -2; du <= 2; du++) {
			int i = (v0 + dv) * DEPTH_WIDTH + u0 + du;

			if (u0 + du < 0 || u0 + du >= DEPTH_WIDTH || v0 + dv < 0 ||
			    v0 + dv >= DEPTH_HEIGHT)
				continue;
			if (frame->mm[i] != 0 && frame->truth->labels[i] == DEMO_LABEL_PERSON(id))
				readings[n++] = frame->mm[i];
		}
	}
	for (guint a = 1; a < n; a++) {
		for (guint b = a; b > 0 && readings[b - 1] > readings[b]; b--) {
			guint16 t = readings[b];
			readings[b] = readings[b - 1];
			readings[b - 1] = t;
		}
	}
	return n == 0 ? 0.0 : readings[n / 2];
}

/* The walker stands in the overlap with both arms up: both sensors see
 * the head where their true poses put it, at the depth of the head's
 * near surface, within the sensor's noise (two disparity steps). */
static void
test_overlap_depth_from_pose(void)
{
	const DemoScript *script = demo_scene_find_script("two-sensors");
	guint64 number = FRAME_AT(8.5);

	for (guint view = 0; view < 2; view++) {
		g_autoptr(DemoScene) scene = demo_scene_new_view(script, view, 1);
		g_autoptr(DepthFrame) frame = depth_frame_new();
		DemoPose pose = demo_scene_script_pose(script, view);
		const DemoTruthPerson *walker;
		TrackerVec3 c;
		double u, v, distance, surface, reading, step;
		DemoSkeleton skeletons[DEMO_MAX_PEOPLE];
		guint ids[DEMO_MAX_PEOPLE];

		demo_scene_render(scene, number, frame);
		walker = testutil_truth_person(frame->truth, 1);
		g_assert_nonnull(walker);
		g_assert_cmpuint(
		        demo_scene_skeletons(scene, (double)number / DEMO_FPS, skeletons, ids), >=,
		        1);
		g_assert_cmpuint(ids[0], ==, 1);
		c = demo_renderer_pose_to_camera(&pose, walker->world[TRACKER_JOINT_HEAD]);
		g_assert_cmpfloat(c.z, >, 2500.0);
		u = 320.0 + KINECT_F * c.x / c.z;
		v = 240.0 - KINECT_F * c.y / c.z;
		g_assert_cmpfloat(u, >, 20.0);
		g_assert_cmpfloat(u, <, 600.0);
		g_assert_cmpfloat(v, >, 20.0);
		g_assert_cmpfloat(v, <, 460.0);
		/* Along the ray through its centre the head's surface is one
		 * radius nearer. */
		distance = sqrt(tracker_vec3_dot(c, c));
		surface = c.z * (distance - skeletons[0].head_radius) / distance;
		reading = median_reading(frame, 1, u, v);
		step = depth_raw_to_mm_exact(depth_mm_to_raw_exact(surface) + 2.0) - surface;
		g_test_message("view %u: head at (%.1f, %.1f), surface %.0f mm, read %.0f mm, "
		               "tolerance %.0f mm",
		               view, u, v, surface, reading, step);
		g_assert_cmpfloat(fabs(reading - surface), <, step);
	}
}

/* The walker goes from where only the left sensor (view 0) sees, through
 * the overlap, to where only the right one (view 1) does; the visitor
 * stops where both see. */
static void
test_two_sensors_hand_over(void)
{
	static const struct {
		double t;
		guint id;
		gboolean seen[2];
	} cases[] = {
		{ 1.0, 1, { TRUE, FALSE } },  { 8.5, 1, { TRUE, TRUE } },
		{ 14.9, 1, { FALSE, TRUE } }, { 18.5, 2, { TRUE, TRUE } },
		{ 23.0, 1, { TRUE, FALSE } },
	};
	g_autoptr(DemoScene) left = testutil_scene_new("two-sensors@0");
	g_autoptr(DemoScene) right = testutil_scene_new("two-sensors@1");
	DemoScene *views[2] = { left, right };

	for (guint k = 0; k < G_N_ELEMENTS(cases); k++) {
		for (guint view = 0; view < 2; view++) {
			g_autoptr(DepthFrame) frame = depth_frame_new();
			const DemoTruthPerson *p;

			demo_scene_render(views[view], FRAME_AT(cases[k].t), frame);
			p = testutil_truth_person(frame->truth, cases[k].id);
			g_assert_nonnull(p);
			g_test_message("t %.1f view %u person %u: %u pixels", cases[k].t, view,
			               cases[k].id, p->pixels);
			if (cases[k].seen[view])
				g_assert_cmpuint(p->pixels, >, 3000);
			else
				g_assert_cmpuint(p->pixels, ==, 0);
		}
	}
}

/* Facing the first sensor, the person's own left hand shows on its
 * image's right, and on the image's left of the sensor across the room. */
static void
test_facing_sensors_sides(void)
{
	g_autoptr(DemoScene) front = testutil_scene_new("facing-sensors");
	g_autoptr(DemoScene) back = testutil_scene_new("facing-sensors@1");
	g_autoptr(DepthFrame) f0 = depth_frame_new();
	g_autoptr(DepthFrame) f1 = depth_frame_new();
	const DemoTruthPerson *p0, *p1;
	int l = TRACKER_JOINT_LEFT_HAND, r = TRACKER_JOINT_RIGHT_HAND;

	demo_scene_render(front, FRAME_AT(1.0), f0);
	demo_scene_render(back, FRAME_AT(1.0), f1);
	p0 = testutil_truth_person(f0->truth, 1);
	p1 = testutil_truth_person(f1->truth, 1);
	g_assert_true(p0->in_view[l] && p0->in_view[r] && p1->in_view[l] && p1->in_view[r]);
	g_assert_cmpfloat(p0->u[l], >, p0->u[r]);
	g_assert_cmpfloat(p1->u[l], <, p1->u[r]);
	g_assert_cmpuint(p0->pixels, >, 3000);
	g_assert_cmpuint(p1->pixels, >, 3000);
}

/* A scene's first view is the scene as it always was, by name or not;
 * other views draw noise of their own. */
static void
test_first_view_is_the_scene(void)
{
	const DemoScript *script = demo_scene_find_script("poses");
	g_autoptr(DemoScene) plain = demo_scene_new(script, 3);
	g_autoptr(DemoScene) first = demo_scene_new_view(script, 0, 3);
	g_autoptr(DemoScene) named = demo_scene_new_named("poses@0", 3, NULL);
	g_autoptr(DepthFrame) a = depth_frame_new();
	g_autoptr(DepthFrame) b = depth_frame_new();
	g_autoptr(DepthFrame) c = depth_frame_new();

	g_assert_cmpuint(demo_scene_script_n_views(script), ==, 1);
	demo_scene_render(plain, 200, a);
	demo_scene_render(first, 200, b);
	demo_scene_render(named, 200, c);
	g_assert_cmpmem(a->mm, DEPTH_PIXELS * 2, b->mm, DEPTH_PIXELS * 2);
	g_assert_cmpmem(a->mm, DEPTH_PIXELS * 2, c->mm, DEPTH_PIXELS * 2);
	g_assert_cmpuint(demo_scene_view(named), ==, 0);
	g_assert_cmpfloat(a->truth->pose.origin.y, ==, script->room.camera_height);
}

/* Two views of one place draw different noise: the same sensor listed
 * twice reads the same room differently. */
static void
test_views_own_noise(void)
{
	static const DemoView same[] = {
		{ .height = 1000.0 },
		{ .height = 1000.0 },
	};
	DemoScript script = *demo_scene_find_script("facing-sensors");
	g_autoptr(DemoScene) a = NULL;
	g_autoptr(DemoScene) b = NULL;
	g_autoptr(DepthFrame) fa = depth_frame_new();
	g_autoptr(DepthFrame) fb = depth_frame_new();

	script.views = same;
	script.n_views = G_N_ELEMENTS(same);
	a = demo_scene_new_view(&script, 0, 1);
	b = demo_scene_new_view(&script, 1, 1);
	demo_scene_render(a, 30, fa);
	demo_scene_render(b, 30, fb);
	g_assert_cmpmem(fa->truth->labels, DEPTH_PIXELS, fb->truth->labels, DEPTH_PIXELS);
	g_assert_true(memcmp(fa->mm, fb->mm, DEPTH_PIXELS * 2) != 0);
}

static void
test_unknown_view(void)
{
	static const struct {
		const char *name, *message;
	} cases[] = {
		{ "two-sensors@3", "demo scene 'two-sensors' has views 0 to 1: no view '3'" },
		{ "poses@1", "demo scene 'poses' has one view, 0: no view '1'" },
		{ "two-sensors@", "demo scene 'two-sensors' has views 0 to 1: no view ''" },
		{ "two-sensors@one", "demo scene 'two-sensors' has views 0 to 1: no view 'one'" },
		{ "two-sensors@-1", "demo scene 'two-sensors' has views 0 to 1: no view '-1'" },
		{ "ballet@1", "no demo scene called 'ballet'; scenes are: routine, poses" },
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(DemoScene) scene = demo_scene_new_named(cases[i].name, 1, &error);

		g_assert_null(scene);
		g_assert_error(error, DEMO_SCENE_ERROR, 0);
		g_assert_true(g_str_has_prefix(error->message, cases[i].message));
	}
}

static void
test_multiview_group(void)
{
	const char *const names[] = { "two-sensors", "facing-sensors" };

	for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
		const DemoScript *script = demo_scene_find_script(names[i]);

		g_assert_nonnull(script);
		g_assert_cmpstr(script->group, ==, "multiview");
		g_assert_cmpuint(script->n_views, ==, 2);
		g_assert_cmpuint(script->n_views, <=, DEMO_MAX_VIEWS);
	}
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/demo/views/world-joints-through-pose/two-sensors",
	                test_world_joints_two_sensors);
	g_test_add_func("/demo/views/world-joints-through-pose/facing-sensors",
	                test_world_joints_facing_sensors);
	g_test_add_func("/demo/views/overlap-depth-from-pose", test_overlap_depth_from_pose);
	g_test_add_func("/demo/views/two-sensors/hand-over", test_two_sensors_hand_over);
	g_test_add_func("/demo/views/facing-sensors/sides", test_facing_sensors_sides);
	g_test_add_func("/demo/views/first-view-is-the-scene", test_first_view_is_the_scene);
	g_test_add_func("/demo/views/own-noise", test_views_own_noise);
	g_test_add_func("/demo/views/error/unknown-view", test_unknown_view);
	g_test_add_func("/demo/views/library/multiview-group", test_multiview_group);
	return g_test_run();
}
