/* skelbridge run: the bridge. Opens the source and the mappings, sends
 * every frame's skeletons through them, reloads mapping files when they
 * change or on SIGHUP, and reports how it goes: a status line on a
 * terminal, a log line every ten seconds otherwise, and the camera pose
 * whenever the floor is found, lost or moves.
 *
 * With --view and a display, GTK takes the main thread for the live view
 * and the bridge runs on a thread of its own with its own main context;
 * it hands the view frames and messages through a ViewFeed and never
 * waits for it.
 *
 * A websocket output with `monitor = true` also serves the web monitor,
 * which sees every frame beside the view, on the bridge's own thread.
 *
 * With several --source, each is tracked on its own thread (cli-sensors.c)
 * and their users, fused in the room --room describes (or sent apart
 * without one), are pushed to the bridge. */
#include <glib-unix.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <errno.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bridge.h"
#include "cli-sensors.h"
#include "cli.h"
#include "commands.h"
#include "skeletons/skeletons.h"
#include "view/view-feed.h"
#include "view/web-monitor.h"
#if SKELBRIDGE_VIEW
#include "view/view.h"
#endif

#define STATUS_INTERVAL_MS 500
#define LOG_INTERVAL_US    (10 * G_USEC_PER_SEC)
/* Message lines the view shows: a frame of every joint of two users. */
#define VIEW_LINES 48
/* How much lower the window's threads run than the bridge's. */
#define VIEW_NICE 10
/* A floor found again this far from the last one is news. */
#define POSE_MOVED_MM  10.0
#define POSE_MOVED_DEG 0.5

typedef struct {
	char **mappings;
	char **targets;
	char *name;
	char *skeletons;
	gboolean no_watch;
	gboolean view;
	char *view_screenshot;
	gint view_screenshot_after;
	char *room; /* where several sensors stand */
	CliTrackerArgs tracker;
	TrackerSettings settings; /* from tracker, once parsed */
} CmdRunArgs;

typedef struct {
	GMainLoop *loop;
	Source *source;      /* one sensor, or */
	CliSensors *sensors; /* several */
	char *description;   /* the source, or the sensors */
	BridgeClock clock;   /* several sensors' time to the wall clock */
	Bridge *bridge;
	gint64 max_frames;
	guint64 frames;
	guint64 left_out; /* frames a live source left out, the bridge being busy */
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
	guint debug_users; /* users in view at the last debug message */
	gboolean pose_told;
	TrackerCameraPose pose; /* the camera pose last told */
	int status;
	ViewFeed *feed;      /* for the live view */
	WebMonitor *monitor; /* for the web monitor */
} CmdRun;

static void
cmd_run_clear_line(const CmdRun *run)
{
	if (run->terminal)
		fprintf(stderr, "\r\033[K");
}

static void
cmd_run_log(GLogLevelFlags level, const char *message, gpointer user_data)
{
	CliLogLevel cli_level = level & G_LOG_LEVEL_WARNING ? CLI_LOG_WARNING
	                        : level & G_LOG_LEVEL_DEBUG ? CLI_LOG_DEBUG
	                                                    : CLI_LOG_INFO;

	if (!cli_log_enabled(cli_level))
		return;
	cmd_run_clear_line(user_data);
	cli_log(cli_level, "%s", message);
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
		if (osc_output_ws_server(output) != NULL)
			g_string_append_printf(s, ", %u client%s", stats.clients,
			                       stats.clients == 1 ? "" : "s");
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
	                       run->description, run->frames, run->fps, stats.users,
	                       stats.users == 1 ? "" : "s", run->messages_per_s);
	if (run->lost)
		g_string_append(s, ", device lost");
	cmd_run_describe_outputs(run, s);
	if (run->terminal) {
		fprintf(stderr, "\r\033[K%s", s->str);
		fflush(stderr);
	} else {
		run->last_log_us = now;
		cli_info("%s", s->str);
	}
	return G_SOURCE_CONTINUE;
}

/* At debug level: every change in the number of people in view. */
static void
cmd_run_debug_users(CmdRun *run)
{
	BridgeStats stats;

	bridge_get_stats(run->bridge, &stats);
	if (stats.users == run->debug_users)
		return;
	run->debug_users = stats.users;
	cmd_run_clear_line(run);
	cli_debug("frame %" G_GUINT64_FORMAT ": %u user%s in view", run->frames, stats.users,
	          stats.users == 1 ? "" : "s");
}

/* @degrees to a tenth, without the "-0.0" of a level sensor's noise. */
static double
cmd_run_tenths(double degrees)
{
	double rounded = round(degrees * 10.0) / 10.0;

	return rounded == 0.0 ? 0.0 : rounded;
}

/* "sensor 1.02 m up, tilted 3.1° down, rolled 0.4°", or what stands in for
 * it while the floor is not in view. */
static char *
cmd_run_describe_pose(const TrackerCameraPose *pose)
{
	double tilt = cmd_run_tenths(pose->tilt_deg);
	g_autofree char *angles =
	        g_strdup_printf("tilted %.1f° %s, rolled %.1f°", fabs(tilt),
	                        tilt < 0.0 ? "up" : "down", cmd_run_tenths(pose->roll_deg));

	switch (pose->floor) {
	case TRACKER_FLOOR_SEEN:
		return g_strdup_printf("sensor %.2f m up, %s", pose->height_mm / 1000.0, angles);
	case TRACKER_FLOOR_ASSUMED:
		return g_strdup_printf("not in view; taking the sensor to be %.2f m up, %s, as "
		                       "--camera-* say",
		                       pose->height_mm / 1000.0, angles);
	case TRACKER_FLOOR_UNKNOWN:
		break;
	}
	return g_strdup_printf("not in view; heights are from the sensor, taken to be %s "
	                       "(--camera-height gives them from the floor)",
	                       angles);
}

static gboolean
cmd_run_pose_moved(const TrackerCameraPose *a, const TrackerCameraPose *b)
{
	return a->floor != b->floor || fabs(a->height_mm - b->height_mm) > POSE_MOVED_MM ||
	       fabs(a->tilt_deg - b->tilt_deg) > POSE_MOVED_DEG ||
	       fabs(a->roll_deg - b->roll_deg) > POSE_MOVED_DEG;
}

/* The camera pose once when the floor is first found, lost or found
 * elsewhere: what whoever sets the sensor up needs to know. */
static void
cmd_run_tell_pose(CmdRun *run)
{
	g_autofree char *text = NULL;
	TrackerCameraPose pose;

	if (!bridge_get_camera_pose(run->bridge, &pose) ||
	    (run->pose_told && !cmd_run_pose_moved(&run->pose, &pose)))
		return;
	run->pose = pose;
	run->pose_told = TRUE;
	text = cmd_run_describe_pose(&pose);
	cmd_run_clear_line(run);
	cli_info("floor: %s", text);
}

static void
cmd_run_frame(Source *source, const DepthFrame *frame, gpointer user_data)
{
	CmdRun *run = user_data;

	bridge_frame(run->bridge, frame);
	run->frames++;
	run->left_out += frame->skipped;
	if (cli_log_enabled(CLI_LOG_INFO))
		cmd_run_tell_pose(run);
	if (cli_log_enabled(CLI_LOG_DEBUG))
		cmd_run_debug_users(run);
	if (run->max_frames > 0 && run->frames >= (guint64)run->max_frames) {
		source_stop(source);
		g_main_loop_quit(run->loop);
	}
}

/* A frame of every sensor's users, fused or apart. */
static void
cmd_run_users(const TrackerFrame *frame, gpointer user_data)
{
	CmdRun *run = user_data;

	bridge_push(run->bridge, frame,
	            bridge_clock_timetag(&run->clock, frame->time_us, g_get_real_time()));
	run->frames++;
	if (cli_log_enabled(CLI_LOG_DEBUG))
		cmd_run_debug_users(run);
	if (run->max_frames > 0 && run->frames >= (guint64)run->max_frames) {
		cli_sensors_stop(run->sensors);
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
		run->status = cli_fail(error);
		g_main_loop_quit(run->loop);
		break;
	case SOURCE_EVENT_LOST:
		run->lost = TRUE;
		cli_warning("%s", error->message);
		break;
	case SOURCE_EVENT_WARNING:
		cli_warning("%s", error->message);
		break;
	case SOURCE_EVENT_RESUMED:
		run->lost = FALSE;
		cli_info("%s: frames again", source_spec(source));
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
	cmd_run_log(G_LOG_LEVEL_INFO, "SIGHUP: reloading the mappings", run);
	bridge_reload(run->bridge);
	return G_SOURCE_CONTINUE;
}

static void
cmd_run_summary(CmdRun *run)
{
	double secs = (g_get_monotonic_time() - run->start_us) / (double)G_USEC_PER_SEC;
	guint64 left_out = run->left_out;

	cmd_run_clear_line(run);
	cli_info("%s: %" G_GUINT64_FORMAT " frames in %.1f s (%.1f fps)", run->description,
	         run->frames, secs, secs > 0 ? run->frames / secs : 0.0);
	if (run->sensors != NULL)
		left_out += cli_sensors_dropped(run->sensors);
	if (left_out > 0)
		cli_info("%" G_GUINT64_FORMAT " frames left out while the bridge was busy",
		         left_out);
	for (guint i = 0; i < bridge_n_outputs(run->bridge); i++) {
		const char *label;
		OscOutputStats stats;

		osc_output_get_stats(bridge_output(run->bridge, i, &label), &stats);
		cli_info("output %s: %" G_GUINT64_FORMAT " messages, %" G_GUINT64_FORMAT " errors",
		         label, stats.messages, stats.errors);
	}
}

/* On the loop's own context, which is not the default one beside a view. */
static GSource *
cmd_run_attach(CmdRun *run, GSource *source, GSourceFunc func)
{
	g_source_set_callback(source, func, run, NULL);
	g_source_attach(source, g_main_loop_get_context(run->loop));
	return source;
}

static void
cmd_run_detach(GSource *source)
{
	g_source_destroy(source);
	g_source_unref(source);
}

static int
cmd_run_loop(CmdRun *run)
{
	static const SourceCallbacks callbacks = { cmd_run_frame, cmd_run_event };
	g_autoptr(GError) error = NULL;
	GSource *status;

	gboolean started;

	run->start_us = run->window_start_us = run->last_log_us = g_get_monotonic_time();
	status = cmd_run_attach(run, g_timeout_source_new(STATUS_INTERVAL_MS), cmd_run_status);
	cli_take_hangup(run->loop, cmd_run_hangup, run);
	if (run->sensors != NULL)
		started = cli_sensors_run(run->sensors, run->loop, &run->status, cmd_run_users, run,
		                          &error);
	else
		started = cli_run_source(run->source, &callbacks, run, run->loop, &run->status,
		                         NULL, &error);
	cmd_run_detach(status);
	if (!started)
		return cli_fail(error);
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
		{ "bridge", 0, 0, G_OPTION_ARG_STRING, &args->name,
		  "Name this bridge: {bridge} in addresses and the TUIO source's name (default "
		  "skelbridge)",
		  "NAME" },
		{ "skeletons", 0, 0, G_OPTION_ARG_STRING, &args->skeletons,
		  "Where skeletons come from (default tracker; see below)", "NAME" },
		{ "no-watch", 0, 0, G_OPTION_ARG_NONE, &args->no_watch,
		  "Do not reload mapping files when they change (SIGHUP still does)", NULL },
		{ "room", 0, 0, G_OPTION_ARG_FILENAME, &args->room,
		  "Where several sensors stand (skelbridge calibrate writes it): their users are "
		  "fused there",
		  "FILE" },
		{ "view", 0, 0, G_OPTION_ARG_NONE, &args->view,
		  "Show what the tracker sees and the messages going out in a window", NULL },
		/* For tests: the view's window to a PNG once it drew N frames. */
		{ "view-screenshot", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME,
		  &args->view_screenshot, NULL, "FILE" },
		{ "view-screenshot-after", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_INT,
		  &args->view_screenshot_after, NULL, "N" },
		G_OPTION_ENTRY_NULL
	};
	g_option_context_add_main_entries(context, entries, NULL);
	cli_add_skeletons_help(context);
}

static void
cmd_run_args_clear(CmdRunArgs *args)
{
	g_strfreev(args->mappings);
	g_strfreev(args->targets);
	g_free(args->name);
	g_free(args->skeletons);
	g_free(args->view_screenshot);
	g_free(args->room);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(CmdRunArgs, cmd_run_args_clear)

static Bridge *
cmd_run_bridge(const CmdRunArgs *args, CmdRun *run, GError **error)
{
	static const char *const default_mappings[] = { "default", NULL };
	BridgeOptions options = { 0 };

	options.mappings = args->mappings ? (const char *const *)args->mappings : default_mappings;
	options.targets = (const char *const *)args->targets;
	options.name = args->name;
	options.skeletons = args->skeletons ? args->skeletons : "tracker";
	/* Several sensors' users come tracked and fused: the bridge's own
	 * skeletons see no frame, and the lightest will do. */
	if (run->sensors != NULL)
		options.skeletons = "truth";
	options.watch = !args->no_watch;
	return bridge_new_full(&options, &args->settings, cmd_run_log, run, error);
}

/* ---- the live view ---- */

/* Whether the view can open: without a display the bridge runs alone. */
static gboolean
cmd_run_view_possible(void)
{
#if SKELBRIDGE_VIEW
	g_autoptr(GError) error = NULL;

	if (view_init(&error))
		return TRUE;
	cli_warning("--view: %s; running without the view", error->message);
#else
	cli_warning("--view: this skelbridge was built without the view (GTK 4); running "
	            "without it");
#endif
	return FALSE;
}

#if SKELBRIDGE_VIEW
typedef struct {
	CmdRun *run;
	View *view;
	GMainContext *context;
	int status;
} CmdRunThread;

static gpointer
cmd_run_bridge_thread(gpointer data)
{
	CmdRunThread *t = data;

	g_main_context_push_thread_default(t->context);
	t->status = cmd_run_loop(t->run);
	g_main_context_pop_thread_default(t->context);
	view_quit(t->view);
	return NULL;
}

/* Quits the bridge's loop from inside it, so that it cannot be missed
 * however early the window closes. */
static gboolean
cmd_run_quit(gpointer data)
{
	g_main_loop_quit(data);
	return G_SOURCE_REMOVE;
}

/* Where CPU is short, the window gives way: on Linux a thread's nice
 * value is its own, and the threads GTK starts from here (a software
 * renderer's among them) inherit it. The bridge's thread is started first
 * and keeps its priority. */
static void
cmd_run_yield_to_bridge(void)
{
	pid_t self = gettid();
	int niceness;

	errno = 0;
	niceness = getpriority(PRIO_PROCESS, (id_t)self);
	if (errno == 0)
		setpriority(PRIO_PROCESS, (id_t)self, MIN(niceness + VIEW_NICE, 19));
}

static int
cmd_run_with_view(CmdRun *run, const CmdRunArgs *args, GMainContext *context)
{
	g_autofree char *caption = g_strdup_printf("%s (%s)", run->description,
	                                           args->skeletons ? args->skeletons : "tracker");
	g_autoptr(View) view = view_new(run->feed, caption, cmd_run_log, run);
	CmdRunThread t = { run, view, context, 0 };
	GThread *thread;

	if (args->view_screenshot != NULL)
		view_set_screenshot(view, args->view_screenshot,
		                    (guint)MAX(args->view_screenshot_after, 1));
	thread = g_thread_new("skelbridge-bridge", cmd_run_bridge_thread, &t);
	cmd_run_yield_to_bridge();
	view_run(view);
	g_main_context_invoke(context, cmd_run_quit, run->loop);
	g_thread_join(thread);
	return t.status;
}
#endif

static int
cmd_run_start(CmdRun *run, const CmdRunArgs *args, GMainContext *context)
{
#if SKELBRIDGE_VIEW
	if (context != NULL)
		return cmd_run_with_view(run, args, context);
#else
	(void)args;
	(void)context;
#endif
	return cmd_run_loop(run);
}

/* Every frame to the web monitor, and to the live view when there is one. */
static void
cmd_run_watch(Bridge *bridge, const BridgeFrameInfo *info, gpointer user_data)
{
	CmdRun *run = user_data;

	web_monitor_watch(bridge, info, run->monitor);
	if (run->feed != NULL)
		view_feed_watch(bridge, info, run->feed);
}

static void
cmd_run_watch_bridge(CmdRun *run, const CmdRunArgs *args)
{
	g_autofree char *caption = g_strdup_printf("%s (%s)", run->description,
	                                           args->skeletons ? args->skeletons : "tracker");

	run->monitor = web_monitor_new(run->bridge, caption);
	bridge_set_watch(run->bridge, cmd_run_watch, run);
	bridge_set_monitor_func(run->bridge, web_monitor_serve, run->monitor);
}

/* The sensors of several --source, fused in the --room file's room, or
 * sent apart (and said so) without one. */
static CliSensors *
cmd_run_open_sensors(const CliSourceArgs *args, const CmdRunArgs *run_args, GError **error)
{
	g_autoptr(Room) room = NULL;
	SourceOptions options;

	if (run_args->skeletons != NULL && g_strcmp0(run_args->skeletons, "tracker") != 0) {
		g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
		            "--skeletons %s: several sensors are tracked, each by its own tracker",
		            run_args->skeletons);
		return NULL;
	}
	if (!cli_source_options(args, &options, error))
		return NULL;
	if (run_args->room != NULL && (room = room_load(run_args->room, error)) == NULL)
		return NULL;
	if (room == NULL)
		cli_warning(
		        "%u sensors and no --room: each sensor's users are sent apart, in its own "
		        "camera space, the second's ids from %u on; place the sensors with "
		        "skelbridge calibrate to have them fused",
		        cli_n_sources(args), CLI_SENSORS_ID_STRIDE);
	return cli_sensors_new(args->sources, &options, &run_args->settings, room, error);
}

/* The source, or the sensors. */
static gboolean
cmd_run_open_sources(CmdRun *run, const CliSourceArgs *args, const CmdRunArgs *run_args,
                     GError **error)
{
	if (cli_n_sources(args) > 1) {
		run->sensors = cmd_run_open_sensors(args, run_args, error);
		if (run->sensors != NULL)
			run->description = cli_sensors_describe(run->sensors);
		return run->sensors != NULL;
	}
	if (run_args->room != NULL) {
		g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
		            "--room %s: a room is for several sensors; give --source for each",
		            run_args->room);
		return FALSE;
	}
	run->source = cli_open_source(args, error);
	if (run->source != NULL)
		run->description = g_strdup(source_spec(run->source));
	return run->source != NULL;
}

/* Opens the source and the bridge on @context (NULL: the default one), so
 * that the bridge's sources, sockets and file monitors run there. */
static gboolean
cmd_run_open(CmdRun *run, const CliSourceArgs *args, const CmdRunArgs *run_args,
             GMainContext *context, GError **error)
{
	if (context != NULL)
		g_main_context_push_thread_default(context);
	if (cmd_run_open_sources(run, args, run_args, error))
		run->bridge = cmd_run_bridge(run_args, run, error);
	if (run->bridge != NULL)
		cmd_run_watch_bridge(run, run_args);
	if (context != NULL)
		g_main_context_pop_thread_default(context);
	return run->bridge != NULL;
}

static void
cmd_run_clear(CmdRun *run)
{
	g_clear_pointer(&run->bridge, bridge_free);
	g_clear_pointer(&run->monitor, web_monitor_free);
	g_clear_pointer(&run->source, source_free);
	g_clear_pointer(&run->sensors, cli_sensors_free);
	g_clear_pointer(&run->description, g_free);
	g_clear_pointer(&run->loop, g_main_loop_unref);
	g_clear_pointer(&run->feed, view_feed_free);
}

int
cmd_run_main(int argc, char **argv)
{
	g_autoptr(GOptionContext) options = g_option_context_new("- run the bridge");
	g_autoptr(GError) error = NULL;
	g_auto(CliSourceArgs) args = { 0 };
	g_auto(CmdRunArgs) run_args = { 0 };
	g_autoptr(GMainContext) context = NULL;
	CmdRun run = { 0 };
	int status = CLI_EXIT_FAILURE;

	cli_add_source_entries(options, &args);
	cli_add_tracker_entries(options, &run_args.tracker);
	cmd_run_add_entries(options, &run_args);
	if (!cli_parse_tracking(options, "run", &argc, &argv, &run_args.tracker,
	                        &run_args.settings) ||
	    !cli_no_arguments("run", argc, argv))
		return CLI_EXIT_USAGE;
	run.terminal = cli_is_terminal();
	if (run_args.view && cmd_run_view_possible()) {
		context = g_main_context_new();
		run.feed = view_feed_new(VIEW_LINES);
	}
	if (cmd_run_open(&run, &args, &run_args, context, &error)) {
		run.loop = g_main_loop_new(context, FALSE);
		run.max_frames = args.frames;
		status = cmd_run_start(&run, &run_args, context);
	} else {
		status = cli_fail(error);
	}
	cmd_run_clear(&run);
	return status;
}
