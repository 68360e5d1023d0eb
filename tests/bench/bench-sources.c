/* Benchmark: how fast the demo scene renders and how fast a recording
 * replays when asked to go as fast as possible. Prints figures; asserts
 * nothing about time. Run with: meson test -C build --benchmark sources */
#include <stdio.h>

#include "demo/demo-scene.h"
#include "sources/dump.h"
#include "sources/source.h"
#include "testutil.h"

#define RENDER_FRAMES 300
#define REPLAY_FRAMES 300
#define REPLAY_RUNS   5

/* Renders frames spread over the whole routine (one and two people). */
static void
bench_demo(void)
{
	g_autoptr(DemoScene) scene = demo_scene_new_named("routine", 1, NULL);
	g_autoptr(DepthFrame) frame = depth_frame_new();
	guint64 n = demo_scene_n_frames(scene);
	double ms[RENDER_FRAMES];

	for (guint k = 0; k < RENDER_FRAMES; k++) {
		gint64 t0 = g_get_monotonic_time();

		demo_scene_render(scene, k * n / RENDER_FRAMES, frame);
		ms[k] = (g_get_monotonic_time() - t0) / 1000.0;
	}
	printf("demo renderer: %.2f ms/frame median, %.2f ms p95 (%d frames of the routine)\n",
	       testutil_percentile(ms, RENDER_FRAMES, 0.5),
	       testutil_percentile(ms, RENDER_FRAMES, 0.95), RENDER_FRAMES);
}

static void
write_demo_dump(const char *dir)
{
	g_autoptr(DemoScene) scene = demo_scene_new_named("routine", 1, NULL);
	g_autoptr(DepthFrame) frame = depth_frame_new();
	DumpWriter *writer = dump_writer_new(dir, NULL);

	g_assert_nonnull(writer);
	for (guint k = 0; k < REPLAY_FRAMES; k++) {
		demo_scene_render(scene, k, frame);
		g_assert_true(dump_writer_add(writer, 1000.0 + k / 30.0, k, frame->raw, NULL));
	}
	g_assert_true(dump_writer_close(writer, NULL));
}

typedef struct {
	GMainLoop *loop;
	guint frames;
} Count;

static void
count_frame(Source *s G_GNUC_UNUSED, const DepthFrame *f G_GNUC_UNUSED, gpointer data)
{
	((Count *)data)->frames++;
}

static void
count_event(Source *s G_GNUC_UNUSED, SourceEvent e G_GNUC_UNUSED, const GError *err G_GNUC_UNUSED,
            gpointer data)
{
	g_main_loop_quit(((Count *)data)->loop);
}

/* Frames per second through the main loop, as the bridge receives them. */
static double
replay_once(const char *spec)
{
	static const SourceCallbacks callbacks = { count_frame, count_event };
	SourceOptions options = { TRUE, FALSE, 1 };
	g_autoptr(Source) source = source_open(spec, &options, NULL);
	Count count = { g_main_loop_new(NULL, FALSE), 0 };
	gint64 t0 = g_get_monotonic_time();
	double secs;

	source_start(source, &callbacks, &count, NULL);
	g_main_loop_run(count.loop);
	secs = (g_get_monotonic_time() - t0) / (double)G_USEC_PER_SEC;
	g_main_loop_unref(count.loop);
	g_assert_cmpuint(count.frames, ==, REPLAY_FRAMES);
	return count.frames / secs;
}

static void
bench_replay(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *dump = g_build_filename(dir, "dump", NULL);
	g_autofree char *spec = g_strconcat("replay:", dump, NULL);
	double fps[REPLAY_RUNS];

	write_demo_dump(dump);
	for (guint r = 0; r < REPLAY_RUNS; r++)
		fps[r] = replay_once(spec);
	printf("replay --fast: %.0f frames/s median of %d runs (%d frames, 640x480, raw to mm)\n",
	       testutil_percentile(fps, REPLAY_RUNS, 0.5), REPLAY_RUNS, REPLAY_FRAMES);
	testutil_rmdir(dir);
}

int
main(void)
{
	bench_demo();
	bench_replay();
	return 0;
}
