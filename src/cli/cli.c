#include "cli.h"

#include <glib-unix.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bridge.h"
#include "sources/dump.h"
#include "mapping/mapping.h"
#include "skeletons/skeletons.h"

void
cli_add_source_entries(GOptionContext *context, CliSourceArgs *args)
{
	const GOptionEntry entries[] = {
		{ "source", 's', 0, G_OPTION_ARG_STRING_ARRAY, &args->sources,
		  "Where depth comes from (default demo; see below)", "S" },
		{ "fast", 0, 0, G_OPTION_ARG_NONE, &args->fast,
		  "Play recordings and the demo as fast as possible", NULL },
		{ "loop", 0, 0, G_OPTION_ARG_NONE, &args->loop,
		  "Start recordings and scenes again at their end", NULL },
		{ "frames", 'n', 0, G_OPTION_ARG_INT64, &args->frames, "Stop after N frames", "N" },
		{ "seed", 0, 0, G_OPTION_ARG_INT64, &args->seed,
		  "Noise seed for the demo scene (default 1)", "N" },
		G_OPTION_ENTRY_NULL
	};
	g_autofree char *description = g_strdup_printf("Sources:\n%s", source_usage());

	args->seed = 1;
	g_option_context_add_main_entries(context, entries, NULL);
	g_option_context_set_description(context, description);
}

void
cli_source_args_clear(CliSourceArgs *args)
{
	g_clear_pointer(&args->sources, g_strfreev);
}

gboolean
cli_source_options(const CliSourceArgs *args, SourceOptions *options, GError **error)
{
	/* (A negative count would read as no limit: record would fill the disk.) */
	if (args->frames < 0) {
		g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
		            "--frames %" G_GINT64_FORMAT ": give a number of frames from 1 up, or "
		            "leave it out to go on to the source's end",
		            args->frames);
		return FALSE;
	}
	memset(options, 0, sizeof(*options));
	options->fast = args->fast;
	options->loop = args->loop;
	options->seed = (guint64)args->seed;
	return TRUE;
}

gboolean
cli_sources_once(char **specs, GError **error)
{
	for (guint i = 0; specs[i] != NULL; i++) {
		for (guint j = 0; j < i; j++) {
			if (g_strcmp0(specs[i], specs[j]) == 0) {
				g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
				            "--source %s is given twice: give each sensor once",
				            specs[i]);
				return FALSE;
			}
		}
	}
	return TRUE;
}

guint
cli_n_sources(const CliSourceArgs *args)
{
	return args->sources != NULL ? g_strv_length(args->sources) : 0;
}

Source *
cli_open_source(const CliSourceArgs *args, GError **error)
{
	SourceOptions options;

	if (cli_n_sources(args) > 1) {
		g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
		            "--source is given %u times: only run and calibrate take several "
		            "sensors",
		            cli_n_sources(args));
		return NULL;
	}
	if (!cli_source_options(args, &options, error))
		return NULL;
	return source_open(args->sources != NULL ? args->sources[0] : "demo", &options, error);
}

void
cli_add_tracker_entries(GOptionContext *context, CliTrackerArgs *args)
{
	const GOptionEntry entries[] = {
		{ "camera-height", 0, 0, G_OPTION_ARG_DOUBLE, &args->camera_height,
		  "The sensor's height above the floor in mm, for rooms where the floor is not in "
		  "view (default: measured from the floor)",
		  "MM" },
		{ "camera-tilt", 0, 0, G_OPTION_ARG_DOUBLE, &args->camera_tilt,
		  "How far the sensor looks down in degrees, up if negative (default 0; a floor "
		  "in view is measured instead)",
		  "DEG" },
		{ "camera-roll", 0, 0, G_OPTION_ARG_DOUBLE, &args->camera_roll,
		  "How far the sensor is turned counter-clockwise, seen from behind, in degrees "
		  "(default 0; a floor in view is measured instead)",
		  "DEG" },
		G_OPTION_ENTRY_NULL
	};

	g_option_context_add_main_entries(context, entries, NULL);
}

/* Checks @value of --@option alone, where @offset puts it in the settings,
 * so that the error names the option. */
static gboolean
cli_tracker_setting(const char *option, double value, glong offset, TrackerSettings *settings,
                    GError **error)
{
	g_autoptr(GError) bad = NULL;
	TrackerSettings alone;
	char text[G_ASCII_DTOSTR_BUF_SIZE];

	tracker_settings_init(&alone);
	G_STRUCT_MEMBER(double, &alone, offset) = value;
	if (!tracker_settings_check(&alone, &bad)) {
		g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--%s=%s: %s", option,
		            g_ascii_formatd(text, sizeof(text), "%g", value), bad->message);
		return FALSE;
	}
	G_STRUCT_MEMBER(double, settings, offset) = value;
	return TRUE;
}

/* The tracker's defaults with @args in @settings; each option is checked
 * through the tracker's own check. */
static gboolean
cli_tracker_settings(const CliTrackerArgs *args, TrackerSettings *settings, GError **error)
{
	tracker_settings_init(settings);
	return cli_tracker_setting("camera-height", args->camera_height,
	                           G_STRUCT_OFFSET(TrackerSettings, camera_height_mm), settings,
	                           error) &&
	       cli_tracker_setting("camera-tilt", args->camera_tilt,
	                           G_STRUCT_OFFSET(TrackerSettings, camera_tilt_deg), settings,
	                           error) &&
	       cli_tracker_setting("camera-roll", args->camera_roll,
	                           G_STRUCT_OFFSET(TrackerSettings, camera_roll_deg), settings,
	                           error);
}

/* ---- messages ---- */

static CliLogLevel cli_log_level = CLI_LOG_INFO;
static const char *const cli_log_names[] = { "error", "warning", "info", "debug" };

gboolean
cli_log_enabled(CliLogLevel level)
{
	return level <= cli_log_level;
}

/* Whether stderr is a stream into the systemd journal ($JOURNAL_STREAM
 * names its device and inode, as systemd.exec(5) says). */
static gboolean
cli_stderr_is_journal(void)
{
	static int answer = -1;
	const char *stream;
	struct stat st;
	unsigned long long dev, ino;

	if (answer >= 0)
		return answer;
	stream = g_getenv("JOURNAL_STREAM");
	answer = stream != NULL && sscanf(stream, "%llu:%llu", &dev, &ino) == 2 &&
	         fstat(STDERR_FILENO, &st) == 0 && (unsigned long long)st.st_dev == dev &&
	         (unsigned long long)st.st_ino == ino;
	return answer;
}

void
cli_log(CliLogLevel level, const char *format, ...)
{
	/* syslog priorities: err, warning, info, debug */
	static const int priorities[] = { 3, 4, 6, 7 };
	g_autofree char *message = NULL;
	va_list args;

	if (!cli_log_enabled(level))
		return;
	va_start(args, format);
	message = g_strdup_vprintf(format, args);
	va_end(args);
	if (cli_stderr_is_journal())
		fprintf(stderr, "<%d>%s\n", priorities[level], message);
	else
		fprintf(stderr, "skelbridge: %s\n", message);
}

/* Sets the level from --log-level's @text. */
static gboolean
cli_set_log_level(const char *text, GError **error)
{
	for (guint i = 0; i < G_N_ELEMENTS(cli_log_names); i++) {
		if (g_strcmp0(text, cli_log_names[i]) == 0) {
			cli_log_level = (CliLogLevel)i;
			return TRUE;
		}
	}
	g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
	            "--log-level %s: not a level (error, warning, info, debug)", text);
	return FALSE;
}

static void
cli_usage_error(const char *command, const GError *error)
{
	cli_error("%s: %s (see 'skelbridge %s --help')", command, error->message, command);
}

gboolean
cli_parse(GOptionContext *context, const char *command, int *argc, char ***argv)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *level = NULL;
	const GOptionEntry entries[] = {
		{ "log-level", 0, 0, G_OPTION_ARG_STRING, &level,
		  "How much to say: error, warning, info (the default) or debug", "LEVEL" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};

	g_option_context_add_main_entries(context, entries, NULL);
	if (g_option_context_parse(context, argc, argv, &error) &&
	    (level == NULL || cli_set_log_level(level, &error)))
		return TRUE;
	cli_usage_error(command, error);
	return FALSE;
}

gboolean
cli_no_arguments(const char *command, int argc, char **argv)
{
	if (argc <= 1)
		return TRUE;
	cli_error("%s: '%s' is not an option, and %s takes no arguments (see 'skelbridge %s "
	          "--help')",
	          command, argv[1], command, command);
	return FALSE;
}

gboolean
cli_parse_tracking(GOptionContext *context, const char *command, int *argc, char ***argv,
                   const CliTrackerArgs *args, TrackerSettings *settings)
{
	g_autoptr(GError) error = NULL;

	if (!cli_parse(context, command, argc, argv))
		return FALSE;
	if (cli_tracker_settings(args, settings, &error))
		return TRUE;
	cli_usage_error(command, error);
	return FALSE;
}

/* The signals skelbridge takes, each with its source from cli_prepare()
 * on: GLib handles a signal while a source for it exists, and keeps it
 * pending on the source until the source's context runs. */
static const int cli_signal_numbers[] = { SIGINT, SIGTERM, SIGHUP };
static GSource *cli_signals[G_N_ELEMENTS(cli_signal_numbers)];

static GSource *
cli_signal_source(int signum)
{
	for (guint i = 0; i < G_N_ELEMENTS(cli_signal_numbers); i++)
		if (cli_signal_numbers[i] == signum)
			return cli_signals[i];
	g_return_val_if_reached(NULL);
}

void
cli_prepare(void)
{
	struct rlimit files;

	if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
		files.rlim_cur = files.rlim_max;
		setrlimit(RLIMIT_NOFILE, &files);
	}
	g_main_context_default();
	/* (The first signal source brings GLib's worker thread up.) */
	for (guint i = 0; i < G_N_ELEMENTS(cli_signal_numbers); i++)
		cli_signals[i] = g_unix_signal_source_new(cli_signal_numbers[i]);
}

CliExit
cli_exit_status(const GError *error)
{
	if (error->domain == G_OPTION_ERROR || error->domain == BRIDGE_ERROR ||
	    error->domain == SKELETONS_ERROR ||
	    g_error_matches(error, MAPPING_ERROR, MAPPING_ERROR_TARGET) ||
	    g_error_matches(error, SOURCE_ERROR, SOURCE_ERROR_SPEC))
		return CLI_EXIT_USAGE;
	if (error->domain == MAPPING_ERROR)
		return CLI_EXIT_MAPPING;
	if (g_error_matches(error, SOURCE_ERROR, SOURCE_ERROR_NO_DEVICE) ||
	    g_error_matches(error, SOURCE_ERROR, SOURCE_ERROR_NOT_FOUND) ||
	    g_error_matches(error, DUMP_ERROR, DUMP_ERROR_NOT_FOUND))
		return CLI_EXIT_NO_SOURCE;
	if (error->domain == DUMP_ERROR || error->domain == G_IO_ERROR ||
	    error->domain == G_FILE_ERROR ||
	    g_error_matches(error, SOURCE_ERROR, SOURCE_ERROR_DATA))
		return CLI_EXIT_IO;
	return CLI_EXIT_FAILURE;
}

CliExit
cli_fail(const GError *error)
{
	cli_error("%s", error->message);
	return cli_exit_status(error);
}

gboolean
cli_source_event(Source *source, SourceEvent event, const GError *error, GMainLoop *loop,
                 int *status)
{
	switch (event) {
	case SOURCE_EVENT_END:
		g_main_loop_quit(loop);
		break;
	case SOURCE_EVENT_ERROR:
		*status = cli_fail(error);
		g_main_loop_quit(loop);
		break;
	case SOURCE_EVENT_LOST:
	case SOURCE_EVENT_WARNING:
		cli_warning("%s", error->message);
		break;
	case SOURCE_EVENT_RESUMED:
		cli_info("%s: frames again", source_spec(source));
		return TRUE;
	}
	return FALSE;
}

typedef struct {
	GMainLoop *loop;
	int *status;
	gboolean *signalled;
	gboolean interrupts; /* SIGINT's, not SIGTERM's */
} SignalData;

static gboolean
cli_on_signal(gpointer user_data)
{
	SignalData *data = user_data;

	if (data->signalled != NULL)
		*data->signalled = TRUE;
	if (data->interrupts && *data->status == CLI_EXIT_OK)
		*data->status = CLI_EXIT_INTERRUPTED;
	g_main_loop_quit(data->loop);
	return G_SOURCE_CONTINUE;
}

static void
cli_attach_signal(int signum, GMainLoop *loop, int *status, gboolean *signalled)
{
	GSource *source = cli_signal_source(signum);
	SignalData *data;

	if (source == NULL || g_source_get_context(source) != NULL)
		return; /* taken by the command */
	data = g_new0(SignalData, 1);
	data->loop = loop;
	data->status = status;
	data->signalled = signalled;
	data->interrupts = signum == SIGINT;
	g_source_set_priority(source, G_PRIORITY_HIGH);
	g_source_set_callback(source, cli_on_signal, data, g_free);
	g_source_attach(source, g_main_loop_get_context(loop));
}

void
cli_quit_on_signals(GMainLoop *loop, int *status, gboolean *signalled)
{
	cli_attach_signal(SIGINT, loop, status, signalled);
	cli_attach_signal(SIGTERM, loop, status, signalled);
	cli_attach_signal(SIGHUP, loop, status, signalled);
}

void
cli_take_hangup(GMainLoop *loop, GSourceFunc func, gpointer data)
{
	GSource *source = cli_signal_source(SIGHUP);

	g_return_if_fail(source != NULL && g_source_get_context(source) == NULL);
	g_source_set_callback(source, func, data, NULL);
	g_source_attach(source, g_main_loop_get_context(loop));
}

gboolean
cli_is_terminal(void)
{
	return isatty(STDERR_FILENO);
}

gboolean
cli_run_source(Source *source, const SourceCallbacks *callbacks, gpointer data, GMainLoop *loop,
               int *status, gboolean *signalled, GError **error)
{
	if (!source_start(source, callbacks, data, error))
		return FALSE;
	cli_quit_on_signals(loop, status, signalled);
	g_main_loop_run(loop);
	source_stop(source);
	return TRUE;
}

void
cli_add_skeletons_help(GOptionContext *context)
{
	g_autofree char *skeletons = skeletons_usage();
	g_autofree char *description = g_strdup_printf(
	        "%s\nSkeletons:\n%s", g_option_context_get_description(context), skeletons);

	g_option_context_set_description(context, description);
}
