/* Benchmark: what the live view costs the bridge. In process, the time
 * the bridge spends per frame handing the view its frame, labels and
 * messages (view_feed_watch), with the demo's truth and with the tracker.
 * Then skelbridge run on the demo as fast as it goes, without and with
 * --view on a virtual display (Xvfb): the bridge's frames per second and
 * how many frames the window drew. Prints figures; asserts nothing about
 * time. Run with: meson test -C build --benchmark --verbose view */
#include <stdio.h>
#include <string.h>

#include "bridge.h"
#include "childproc.h"
#include "demo/demo-scene.h"
#include "testutil.h"
#include "view/view-feed.h"
#include "xvfb.h"

#define FEED_FRAMES  300
#define RUN_FRAMES   "600"
#define PACED_FRAMES "300"
#define RUNS         3

/* The bridge's time in the watch, for frames the view wanted and for
 * frames it was too busy for. */
typedef struct {
	ViewFeed *feed;
	double taken[FEED_FRAMES];
	double skipped[FEED_FRAMES];
	guint n_taken, n_skipped;
} Timed;

static void
timed_watch(Bridge *bridge, const BridgeFrameInfo *info, gpointer user_data)
{
	Timed *t = user_data;
	gboolean wanted = view_feed_wants_frame(t->feed);
	gint64 start = g_get_monotonic_time();
	double us;

	view_feed_watch(bridge, info, t->feed);
	us = (double)(g_get_monotonic_time() - start);
	if (wanted)
		t->taken[t->n_taken++] = us;
	else
		t->skipped[t->n_skipped++] = us;
}

static void
bench_feed(const char *skeletons)
{
	g_autofree char *target = g_strdup_printf("osc.udp://127.0.0.1:%d",
	                                          testutil_free_port(G_SOCKET_TYPE_DATAGRAM));
	const char *mappings[] = { "default", NULL };
	const char *targets[] = { target, NULL };
	BridgeOptions options = {
		.mappings = mappings, .targets = targets, .skeletons = skeletons, .state_dir = ""
	};
	g_autoptr(Bridge) bridge = bridge_new(&options, NULL, NULL, NULL);
	g_autoptr(DemoScene) scene = demo_scene_new_named("routine", 1, NULL);
	g_autoptr(DepthFrame) depth = depth_frame_new();
	g_autoptr(ViewFeed) feed = view_feed_new(48);
	g_autofree Timed *t = g_new0(Timed, 1);

	g_assert_nonnull(bridge);
	t->feed = feed;
	bridge_set_watch(bridge, timed_watch, t);
	for (guint k = 0; k < FEED_FRAMES; k++) {
		demo_scene_render(scene, k, depth);
		bridge_frame(bridge, depth);
		/* A view that draws every other frame. */
		if (k % 2 == 1)
			view_feed_take_frame(feed);
	}
	printf("feeding the view, %s skeletons, default mapping: %.0f us median, %.0f us p95 "
	       "for a frame the view takes (%u); %.0f us median, %.0f us p95 for one it "
	       "is too busy for (%u)\n",
	       skeletons, testutil_percentile(t->taken, t->n_taken, 0.5),
	       testutil_percentile(t->taken, t->n_taken, 0.95), t->n_taken,
	       testutil_percentile(t->skipped, t->n_skipped, 0.5),
	       testutil_percentile(t->skipped, t->n_skipped, 0.95), t->n_skipped);
}

/* "N frames in S s (F fps)" from the summary. */
static double
run_fps(const char *log, guint *drawn, guint *not_drawn)
{
	const char *at = strstr(log, " frames in ");
	const char *view = strstr(log, "view: ");
	double secs = 0, fps = 0;

	g_assert_nonnull(at);
	g_assert_cmpint(sscanf(at, " frames in %lf s (%lf fps)", &secs, &fps), ==, 2);
	*drawn = *not_drawn = 0;
	if (view != NULL)
		sscanf(view, "view: %u frames drawn, %u not drawn", drawn, not_drawn);
	return fps;
}

/* As fast as it goes with the demo's truth, or at the camera's pace with
 * the tracker. */
static double
run_once(gboolean fast, gboolean view, guint *drawn, guint *not_drawn)
{
	g_autofree char *target = g_strdup_printf("osc.udp://127.0.0.1:%d",
	                                          testutil_free_port(G_SOCKET_TYPE_DATAGRAM));
	const char *args[] = { "run",
		               "--source",
		               "demo:routine",
		               "--skeletons",
		               fast ? "truth" : "tracker",
		               "--frames",
		               fast ? RUN_FRAMES : PACED_FRAMES,
		               "--target",
		               target,
		               view ? "--view" : "--no-watch",
		               fast ? "--fast" : NULL,
		               NULL };
	g_autoptr(ChildProc) proc = child_proc_start(args);
	g_autofree char *log = NULL;

	g_assert_cmpint(child_proc_wait(proc, 300000), ==, 0);
	log = child_proc_log(proc);
	return run_fps(log, drawn, not_drawn);
}

static void
bench_run(void)
{
	g_autoptr(Xvfb) x = xvfb_start();
	double plain[RUNS], viewed[RUNS];
	guint drawn = 0, not_drawn = 0, d, nd;
	double paced;

	printf("virtual display %s\n", x->display);
	for (guint r = 0; r < RUNS; r++) {
		plain[r] = run_once(TRUE, FALSE, &d, &nd);
		viewed[r] = run_once(TRUE, TRUE, &d, &nd);
		drawn += d;
		not_drawn += nd;
	}
	printf("run --fast, demo with true skeletons, %s frames: %.0f fps without the view, "
	       "%.0f fps with it (medians of %d runs); the window drew %u frames and let %u go\n",
	       RUN_FRAMES, testutil_percentile(plain, RUNS, 0.5),
	       testutil_percentile(viewed, RUNS, 0.5), RUNS, drawn, not_drawn);
	paced = run_once(FALSE, TRUE, &d, &nd);
	printf("run --view at the camera's pace, demo through the tracker, %s frames: %.1f fps; "
	       "the window drew %u frames and let %u go\n",
	       PACED_FRAMES, paced, d, nd);
}

int
main(void)
{
	double load[3] = { 0 };

	if (getloadavg(load, 3) > 0)
		printf("load average: %.2f %.2f %.2f\n", load[0], load[1], load[2]);
	bench_feed("truth");
	bench_feed("tracker");
	if (SKELBRIDGE_VIEW)
		bench_run();
	else
		printf("built without the view: no window to time\n");
	return 0;
}
