/* skelbridge run: the bridge. Opens the source and the mappings, sends
 * every frame's skeletons through them, reloads mapping files when they
 * change or on SIGHUP, and reports how it goes: a status line on a
 * terminal, a log line every ten seconds otherwise. */
#include <glib-unix.h>
#include <signal.h>
#include <stdio.h>

#include "bridge.h"
#include "cli.h"
#include "commands.h"
#include "skeletons.h"

#define STATUS_INTERVAL_MS 500
#define LOG_INTERVAL_US    (10 * G_USEC_PER_SEC)

typedef struct {
	char **mappings;
	char **targets;
	char *skeletons;
	gboolean no_watch;
} CmdRunArgs;

typedef struct {
	GMainLoop *loop;
	Source *source;
	Bridge *bridge;
	gint64 max_frames;
	guint64 frames;
	gint64 start_us;
	/* rates over the last status interval */
	guint64 window_frames;
	guint64 window_messages;
	gint64 window_start_us;
	double fps;
	double messages_per_s;
	gint64 last_log_us;
	gboolean terminal;
	gboolean lost;
	int status;
} CmdRun;

static void
cmd_run_clear_line(const CmdRun *run)
{
	if (run->terminal)
		fprintf(stderr, "\r\033[K");
}

static void
cmd_run_log(const char *message, gpointer user_data)
{
	cmd_run_clear_line(user_data);
	cli_error("%s", message);
}

static void
cmd_run_update_rates(CmdRun *run)
{
	gint64 now = g_get_monotonic_time();
	gint64 span = now - run->window_start_us;
	BridgeStats stats;

	if (span <= 0)
		return;
	bridge_get_stats(run->bridge, &stats);
	run->fps = (run->frames - run->window_frames) * (double)G_USEC_PER_SEC / span;
	run->messages_per_s =
	        (stats.messages - run->window_messages) * (double)G_USEC_PER_SEC / span;
	run->window_frames = run->frames;
	run->window_messages = stats.messages;
	run->window_start_us = now;
}

/* "default ok; osceleton retrying, 40 errors (Connection refused)" */
static void
cmd_run_describe_outputs(const CmdRun *run, GString *s)
{
	for (guint i = 0; i < bridge_n_outputs(run->bridge); i++) {
		const OscOutput *output = bridge_output(run->bridge, i, NULL);
		OscOutputStats stats;

		osc_output_get_stats(output, &stats);
		g_string_append_printf(s, "%s %s %s", i ? ";" : " |",
		                       osc_output_config(output)->name,
		                       osc_output_state_name(stats.state));
		if (stats.errors > 0)
			g_string_append_printf(s, ", %" G_GUINT64_FORMAT " errors", stats.errors);
		if (stats.last_error != NULL)
			g_string_append_printf(s, " (%s)", stats.last_error);
	}
}

static gboolean
cmd_run_status(gpointer user_data)
{
	CmdRun *run = user_data;
	g_autoptr(GString) s = g_string_new(NULL);
	gint64 now = g_get_monotonic_time();
	BridgeStats stats;

	cmd_run_update_rates(run);
	if (!run->terminal && now - run->last_log_us < LOG_INTERVAL_US)
		return G_SOURCE_CONTINUE;
	bridge_get_stats(run->bridge, &stats);
	g_string_append_printf(s,
	                       "%s: frame %" G_GUINT64_FORMAT ", %.1f fps, %u user%s, %.0f msg/s",
	                       source_spec(run->source), run->frames, run->fps, stats.users,
	                       stats.users == 1 ? "" : "s", run->messages_per_s);
	if (run->lost)
		g_string_append(s, ", device lost");
	cmd_run_describe_outputs(run, s);
	if (run->terminal) {
		fprintf(stderr, "\r\033[K%s", s->str);
		fflush(stderr);
	} else {
		run->last_log_us = now;
		cli_error("%s", s->str);
	}
	return G_SOURCE_CONTINUE;
}

static void
cmd_run_frame(Source *source, const DepthFrame *frame, gpointer user_data)
{
	CmdRun *run = user_data;

	bridge_frame(run->bridge, frame);
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

	cmd_run_clear_line(run);
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
		/* Time and people moved on while the device was away. */
		bridge_reset(run->bridge);
		break;
	}
}

static gboolean
cmd_run_hangup(gpointer user_data)
{
	CmdRun *run = user_data;

	/* Closing the terminal hangs up too: a bridge started from it stops
	 * with it rather than run on unseen. */
	if (run->terminal && !cli_is_terminal()) {
		g_main_loop_quit(run->loop);
		return G_SOURCE_CONTINUE;
	}
	cmd_run_log("SIGHUP: reloading the mappings", run);
	bridge_reload(run->bridge);
	return G_SOURCE_CONTINUE;
}

static void
cmd_run_summary(CmdRun *run)
{
	double secs = (g_get_monotonic_time() - run->start_us) / (double)G_USEC_PER_SEC;

	cmd_run_clear_line(run);
	fprintf(stderr, "skelbridge: %s: %" G_GUINT64_FORMAT " frames in %.1f s (%.1f fps)\n",
	        source_spec(run->source), run->frames, secs, secs > 0 ? run->frames / secs : 0.0);
	for (guint i = 0; i < bridge_n_outputs(run->bridge); i++) {
		const char *label;
		OscOutputStats stats;

		osc_output_get_stats(bridge_output(run->bridge, i, &label), &stats);
		fprintf(stderr,
		        "skelbridge: output %s: %" G_GUINT64_FORMAT " messages, %" G_GUINT64_FORMAT
		        " errors\n",
		        label, stats.messages, stats.errors);
	}
}

static int
cmd_run_loop(CmdRun *run)
{
	static const SourceCallbacks callbacks = { cmd_run_frame, cmd_run_event };
	g_autoptr(GError) error = NULL;
	guint status_id, hangup_id;

	run->start_us = run->window_start_us = run->last_log_us = g_get_monotonic_time();
	if (!source_start(run->source, &callbacks, run, &error)) {
		cli_error("%s", error->message);
		return 1;
	}
	status_id = g_timeout_add(STATUS_INTERVAL_MS, cmd_run_status, run);
	hangup_id = g_unix_signal_add(SIGHUP, cmd_run_hangup, run);
	cli_quit_on_signals(run->loop, NULL);
	g_main_loop_run(run->loop);
	g_source_remove(hangup_id);
	g_source_remove(status_id);
	source_stop(run->source);
	bridge_finish(run->bridge);
	cmd_run_summary(run);
	return run->status;
}

static void
cmd_run_add_entries(GOptionContext *context, CmdRunArgs *args)
{
	const GOptionEntry entries[] = {
		{ "mapping", 'm', 0, G_OPTION_ARG_STRING_ARRAY, &args->mappings,
		  "A mapping: a shipped one by name or a file (default: default; repeat for "
		  "several)",
		  "NAME|FILE" },
		{ "target", 't', 0, G_OPTION_ARG_STRING_ARRAY, &args->targets,
		  "Send an output elsewhere: osc.udp://HOST:PORT or osc.tcp://HOST:PORT, "
		  "OUTPUT=URL when there are several",
		  "[OUTPUT=]URL" },
		{ "skeletons", 0, 0, G_OPTION_ARG_STRING, &args->skeletons,
		  "Where skeletons come from (default tracker; see below)", "NAME" },
		{ "no-watch", 0, 0, G_OPTION_ARG_NONE, &args->no_watch,
		  "Do not reload mapping files when they change (SIGHUP still does)", NULL },
		G_OPTION_ENTRY_NULL
	};
	g_autofree char *skeletons = skeletons_usage();
	g_autofree char *description = g_strdup_printf(
	        "%s\nSkeletons:\n%s", g_option_context_get_description(context), skeletons);

	g_option_context_add_main_entries(context, entries, NULL);
	g_option_context_set_description(context, description);
}

static void
cmd_run_args_clear(CmdRunArgs *args)
{
	g_strfreev(args->mappings);
	g_strfreev(args->targets);
	g_free(args->skeletons);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(CmdRunArgs, cmd_run_args_clear)

static Bridge *
cmd_run_bridge(const CmdRunArgs *args, CmdRun *run, GError **error)
{
	static const char *const default_mappings[] = { "default", NULL };
	BridgeOptions options = { 0 };

	options.mappings = args->mappings ? (const char *const *)args->mappings : default_mappings;
	options.targets = (const char *const *)args->targets;
	options.skeletons = args->skeletons ? args->skeletons : "tracker";
	options.watch = !args->no_watch;
	return bridge_new(&options, cmd_run_log, run, error);
}

int
cmd_run_main(int argc, char **argv)
{
	g_autoptr(GOptionContext) context = g_option_context_new("- run the bridge");
	g_autoptr(GError) error = NULL;
	g_auto(CliSourceArgs) args = { 0 };
	g_auto(CmdRunArgs) run_args = { 0 };
	g_autoptr(Source) source = NULL;
	g_autoptr(GMainLoop) loop = NULL;
	g_autoptr(Bridge) bridge = NULL;
	CmdRun run = { 0 };

	cli_add_source_entries(context, &args);
	cmd_run_add_entries(context, &run_args);
	if (!cli_parse(context, "run", &argc, &argv))
		return 2;
	run.terminal = cli_is_terminal();
	source = cli_open_source(&args, &error);
	if (source != NULL)
		bridge = cmd_run_bridge(&run_args, &run, &error);
	if (bridge == NULL) {
		cli_error("%s", error->message);
		return 1;
	}
	loop = g_main_loop_new(NULL, FALSE);
	run.loop = loop;
	run.source = source;
	run.bridge = bridge;
	run.max_frames = args.frames;
	return cmd_run_loop(&run);
}
