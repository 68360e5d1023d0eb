/* Calibration from a walk-through against the truth: every multiview demo
 * scene, with several noise seeds, each view tracked by its own tracker
 * and the two placed by the room calibrator, as `skelbridge calibrate`
 * does. Prints, per scene and seed, how far sensor 2 is from where the
 * scene put it (in sensor 1's floor frame), how far its yaw, tilt and
 * roll are off, and what the calibrator says of its own fit.
 *   bench-calibrate [--seeds=N] [--truth]
 * --seeds: 3 by default; --truth: the scene's own skeletons and the
 * views' true floor poses instead of the tracker's, to tell the
 * calibrator's error from the tracker's. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "demo/demo-render.h"
#include "demo/demo-scene.h"
#include "room/room-calibrator.h"
#include "skeletons/skeletons.h"
#include "sources/source.h"

#define DEG (G_PI / 180.0)

static const char *const scenes[] = { "two-sensors", "facing-sensors" };

/* Feeds view @view of @scene at @seed, every frame, to @c as sensor
 * @view: skeletons from the tracker, or with @truth from the scene with
 * the view's true floor pose (what the calibrator makes of perfect
 * skeletons). */
static void
track_view(const char *scene, guint view, guint64 seed, gboolean truth, RoomCalibrator *c)
{
	g_autofree char *spec = g_strdup_printf("demo:%s@%u", scene, view);
	const DemoView *v = &demo_scene_find_script(scene)->views[view];
	SourceOptions options = { .fast = TRUE, .seed = seed };
	g_autoptr(GError) error = NULL;
	g_autoptr(Source) source = source_open(spec, &options, &error);
	g_autoptr(Skeletons) skeletons = skeletons_open(truth ? "truth" : "tracker", &error);
	const DepthFrame *frame;

	g_assert_no_error(error);
	while ((frame = source_read(source, &error)) != NULL) {
		TrackerFrame out;
		TrackerCameraPose pose = { TRACKER_FLOOR_SEEN, v->height, v->pitch / DEG,
			                   v->roll / DEG };

		g_assert_true(skeletons_process(skeletons, frame, &out, &error));
		if (!truth)
			skeletons_get_camera_pose(skeletons, &pose);
		g_assert_true(room_calibrator_add(c, view, frame->time_us, &out, &pose));
	}
	g_assert_no_error(error);
}

static double
angle_apart(double a_deg, double b_deg)
{
	return fabs(remainder(a_deg - b_deg, 360.0));
}

/* Prints one line; returns the place error in mm. */
static double
report(const char *scene, guint64 seed, const RoomCalibration *cal)
{
	const DemoScript *script = demo_scene_find_script(scene);
	const DemoView *va = &script->views[0], *vb = &script->views[1];
	double dx = vb->x - va->x, dz = vb->z - va->z;
	double tx = dx * cos(va->yaw) - dz * sin(va->yaw),
	       tz = dx * sin(va->yaw) + dz * cos(va->yaw);
	double place = hypot(cal[1].x_mm - tx, cal[1].z_mm - tz);

	printf("%-15s seed %" G_GUINT64_FORMAT ": place %5.1f mm, height %+5.1f/%+5.1f mm, yaw "
	       "%.2f, tilt %+.2f/%+.2f, roll %+.2f/%+.2f deg; %u sightings, rms %.0f mm, "
	       "heights %+.0f mm apart\n",
	       scene, seed, place, cal[0].height_mm - va->height, cal[1].height_mm - vb->height,
	       angle_apart(cal[1].yaw_deg, (vb->yaw - va->yaw) / DEG),
	       cal[0].tilt_deg - va->pitch / DEG, cal[1].tilt_deg - vb->pitch / DEG,
	       cal[0].roll_deg - va->roll / DEG, cal[1].roll_deg - vb->roll / DEG, cal[1].samples,
	       cal[1].residual_mm, cal[1].height_offset_mm);
	/* (Flushed before the next source opens.) */
	fflush(stdout);
	return place;
}

int
main(int argc, char **argv)
{
	guint seeds = 3;
	double worst = 0.0;
	gboolean truth = FALSE;

	for (int i = 1; i < argc; i++) {
		if (g_str_has_prefix(argv[i], "--seeds="))
			seeds = (guint)g_ascii_strtoull(argv[i] + 8, NULL, 10);
		else if (strcmp(argv[i], "--truth") == 0)
			truth = TRUE;
	}
	for (guint s = 0; s < G_N_ELEMENTS(scenes); s++) {
		for (guint64 seed = 1; seed <= seeds; seed++) {
			g_autoptr(RoomCalibrator) c = room_calibrator_new(2);
			RoomCalibration cal[2];
			g_autoptr(GError) error = NULL;
			gint64 took;
			gboolean placed;

			track_view(scenes[s], 0, seed, truth, c);
			track_view(scenes[s], 1, seed, truth, c);
			took = g_get_monotonic_time();
			placed = room_calibrator_solve(c, cal, &error);
			took = g_get_monotonic_time() - took;
			if (!placed) {
				printf("%-15s seed %" G_GUINT64_FORMAT ": not placed: %s\n",
				       scenes[s], seed, error->message);
				worst = INFINITY;
				continue;
			}
			worst = MAX(worst, report(scenes[s], seed, cal));
			printf("%-15s         solved in %.1f ms\n", "", took / 1000.0);
		}
	}
	printf("worst place error %.1f mm\n", worst);
	return 0;
}
