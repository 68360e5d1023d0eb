#include "bench-memory.h"

#include <gio/gio.h>
#include <stdio.h>
#include <string.h>

#include "demo/demo-scene.h"
#include "tracker/tracker.h"

double
bench_memory_peak_mb(void)
{
	g_autofree char *status = NULL;
	const char *line;

	if (!g_file_get_contents("/proc/self/status", &status, NULL, NULL))
		return 0.0;
	line = strstr(status, "VmHWM:");
	return line != NULL ? g_ascii_strtod(line + 6, NULL) / 1024.0 : 0.0;
}

int
bench_memory_alone_main(void)
{
	g_autoptr(Tracker) tracker = tracker_new(NULL, NULL);
	g_autofree guint16 *mm = g_new(guint16, DEPTH_PIXELS);
	TrackerFrame out;
	guint64 n = 0;

	while (fread(mm, sizeof(guint16), DEPTH_PIXELS, stdin) == DEPTH_PIXELS) {
		g_assert_true(tracker_process(tracker, mm, n, (gint64)(n + 1) * 33333, &out, NULL));
		n++;
	}
	printf("%.1f %" G_GUINT64_FORMAT "\n", bench_memory_peak_mb(), n);
	return 0;
}

/* Writes frames of @name, one to three people, to @stream. */
static void
bench_memory_feed(GOutputStream *stream, const char *name)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(DemoScene) scene = demo_scene_new_named(name, 1, &error);
	g_autoptr(DepthFrame) frame = depth_frame_new();

	g_assert_no_error(error);
	for (guint64 k = 0; k < BENCH_MEMORY_ALONE_FRAMES; k++) {
		demo_scene_render(scene, k, frame);
		g_assert_true(g_output_stream_write_all(
		        stream, frame->mm, DEPTH_PIXELS * sizeof(guint16), NULL, NULL, &error));
	}
}

double
bench_memory_alone_mb(const char *self, const char *option)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GSubprocess) child =
	        g_subprocess_new(G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE,
	                         &error, self, option, NULL);
	g_autoptr(GDataInputStream) out = NULL;
	g_autofree char *answer = NULL;
	GOutputStream *in;

	g_assert_no_error(error);
	in = g_subprocess_get_stdin_pipe(child);
	bench_memory_feed(in, "crowd");
	bench_memory_feed(in, "poses");
	g_output_stream_close(in, NULL, &error);
	g_assert_no_error(error);
	out = g_data_input_stream_new(g_subprocess_get_stdout_pipe(child));
	answer = g_data_input_stream_read_line(out, NULL, NULL, &error);
	g_assert_no_error(error);
	g_subprocess_wait_check(child, NULL, &error);
	g_assert_no_error(error);
	g_assert_nonnull(answer);
	return g_ascii_strtod(answer, NULL);
}
