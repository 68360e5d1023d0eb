/* skelbridge run: the bridge. Opens the source and reports frames. */
#include <stdio.h>

#include "cli.h"
#include "commands.h"

#define STATUS_INTERVAL_MS 500
#define LOG_INTERVAL_US    (10 * G_USEC_PER_SEC)

typedef struct {
	GMainLoop *loop;
	Source *source;
	gint64 max_frames;
	guint64 frames;
	gint64 start_us;
	/* frames per second over the last status interval */
	guint64 window_frames;
	gint64 window_start_us;
	double fps;
	gint64 last_log_us;
	gboolean terminal;
	gboolean lost;
	int status;
} CmdRun;

static void
cmd_run_update_fps(CmdRun *run)
{
	gint64 now = g_get_monotonic_time();
	gint64 span = now - run->window_start_us;

	if (span <= 0)
		return;
	run->fps = (run->frames - run->window_frames) * (double)G_USEC_PER_SEC / span;
	run->window_frames = run->frames;
	run->window_start_us = now;
}

static gboolean
cmd_run_status(gpointer user_data)
{
	CmdRun *run = user_data;
	gint64 now = g_get_monotonic_time();

	cmd_run_update_fps(run);
	if (run->terminal) {
		fprintf(stderr, "\r\033[K%s: frame %" G_GUINT64_FORMAT ", %.1f fps%s",
		        source_spec(run->source), run->frames, run->fps,
		        run->lost ? ", device lost" : "");
		fflush(stderr);
	} else if (now - run->last_log_us >= LOG_INTERVAL_US) {
		run->last_log_us = now;
		fprintf(stderr, "skelbridge: %s: %" G_GUINT64_FORMAT " frames, %.1f fps\n",
		        source_spec(run->source), run->frames, run->fps);
	}
	return G_SOURCE_CONTINUE;
}

static void
cmd_run_frame(Source *source, const DepthFrame *frame G_GNUC_UNUSED, gpointer user_data)
{
	CmdRun *run = user_data;

	run->frames++;
	if (run->max_frames > 0 && run->frames >= (guint64)run->max_frames) {
		source_stop(source);
		g_main_loop_quit(run->loop);
	}
}

static void
cmd_run_event(Source *source, SourceEvent event, const GError *error, gpointer user_data)
{
	CmdRun *run = user_data;

	if (run->terminal)
		fprintf(stderr, "\r\033[K");
	switch (event) {
	case SOURCE_EVENT_END:
		g_main_loop_quit(run->loop);
		break;
	case SOURCE_EVENT_ERROR:
		cli_error("%s", error->message);
		run->status = 1;
		g_main_loop_quit(run->loop);
		break;
	case SOURCE_EVENT_LOST:
		run->lost = TRUE;
		cli_error("%s", error->message);
		break;
	case SOURCE_EVENT_RESUMED:
		run->lost = FALSE;
		cli_error("%s: frames again", source_spec(source));
		break;
	}
}

static void
cmd_run_summary(CmdRun *run)
{
	double secs = (g_get_monotonic_time() - run->start_us) / (double)G_USEC_PER_SEC;

	if (run->terminal)
		fprintf(stderr, "\r\033[K");
	fprintf(stderr, "skelbridge: %s: %" G_GUINT64_FORMAT " frames in %.1f s (%.1f fps)\n",
	        source_spec(run->source), run->frames, secs, secs > 0 ? run->frames / secs : 0.0);
}

static int
cmd_run_loop(CmdRun *run)
{
	static const SourceCallbacks callbacks = { cmd_run_frame, cmd_run_event };
	g_autoptr(GError) error = NULL;
	guint status_id;

	run->start_us = run->window_start_us = run->last_log_us = g_get_monotonic_time();
	if (!source_start(run->source, &callbacks, run, &error)) {
		cli_error("%s", error->message);
		return 1;
	}
	status_id = g_timeout_add(STATUS_INTERVAL_MS, cmd_run_status, run);
	cli_quit_on_signals(run->loop, NULL);
	g_main_loop_run(run->loop);
	g_source_remove(status_id);
	source_stop(run->source);
	cmd_run_summary(run);
	return run->status;
}

int
cmd_run_main(int argc, char **argv)
{
	g_autoptr(GOptionContext) context = g_option_context_new("- run the bridge");
	g_autoptr(GError) error = NULL;
	g_auto(CliSourceArgs) args = { 0 };
	g_autoptr(Source) source = NULL;
	g_autoptr(GMainLoop) loop = NULL;
	CmdRun run = { 0 };

	cli_add_source_entries(context, &args);
	if (!cli_parse(context, "run", &argc, &argv))
		return 2;
	source = cli_open_source(&args, &error);
	if (source == NULL) {
		cli_error("%s", error->message);
		return 1;
	}
	loop = g_main_loop_new(NULL, FALSE);
	run.loop = loop;
	run.source = source;
	run.max_frames = args.frames;
	run.terminal = cli_is_terminal();
	return cmd_run_loop(&run);
}
