/* What the subcommands share: source and tracker options, signals, messages. */
#pragma once

#include <glib.h>

#include "sources/source.h"
#include "tracker/tracker.h"

typedef struct {
	char **sources; /* specs, one per --source; NULL for the default */
	gboolean fast;
	gboolean loop;
	gint64 frames; /* stop after this many; 0 for no limit */
	gint64 seed;
} CliSourceArgs;

/** cli_add_source_entries: adds --source, --fast, --loop, --frames, --seed. */
void cli_add_source_entries(GOptionContext *context, CliSourceArgs *args);
void cli_source_args_clear(CliSourceArgs *args);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(CliSourceArgs, cli_source_args_clear)

/**
 * cli_open_source:
 * Opens the one --source, or "demo" when there is none. A negative
 * --frames, or several --source, is a G_OPTION_ERROR.
 */
Source *cli_open_source(const CliSourceArgs *args, GError **error);

/** cli_sources_once: FALSE, with a usage error, when a sensor's source is given twice. */
gboolean cli_sources_once(char **specs, GError **error);

/** cli_n_sources: how many --source were given. */
guint cli_n_sources(const CliSourceArgs *args);

/** cli_source_options: the options every source of @args opens with; FALSE on a bad --frames. */
gboolean cli_source_options(const CliSourceArgs *args, SourceOptions *options, GError **error);

/* The options of the commands that track: the camera pose. */
typedef struct {
	double camera_height; /* mm; 0: not given */
	double camera_tilt;   /* degrees, positive down */
	double camera_roll;   /* degrees, positive counter-clockwise from behind */
} CliTrackerArgs;

/** cli_add_tracker_entries: adds --camera-height, --camera-tilt, --camera-roll. */
void cli_add_tracker_entries(GOptionContext *context, CliTrackerArgs *args);

/**
 * cli_parse:
 * Parses @argv for a subcommand, with --log-level added to its options; on
 * a bad option prints the error and the usage hint and returns FALSE.
 */
gboolean cli_parse(GOptionContext *context, const char *command, int *argc, char ***argv);

/**
 * cli_no_arguments:
 * TRUE when nothing is left of @argv after @command's options; otherwise
 * says what is left over (a typo, or an option without its dashes) and
 * returns FALSE.
 */
gboolean cli_no_arguments(const char *command, int argc, char **argv);

/**
 * cli_parse_tracking:
 * As cli_parse(), for a command that tracks: then the tracker's defaults
 * with @args into @settings. A value out of range is a bad option: the
 * error names the option, its value and the range the tracker takes.
 */
gboolean cli_parse_tracking(GOptionContext *context, const char *command, int *argc, char ***argv,
                            const CliTrackerArgs *args, TrackerSettings *settings);

/**
 * cli_prepare:
 * Readies the process before any command runs: raises the soft limit on
 * open files to the hard one (systemd's soft default of 1024 is for
 * select(), which GLib does not use), and makes the descriptors GLib makes
 * lazily (the main context's wakeup, the signal-handling worker's) while
 * there are descriptors to make them with: a mapping with more outputs than
 * descriptors then fails output by output instead of aborting in GLib.
 * And takes SIGINT, SIGTERM and SIGHUP: one that comes while a command
 * starts (a source opening, a mapping loading) waits for the command's main
 * loop (cli_quit_on_signals(), cli_take_hangup()) instead of killing
 * skelbridge half-way, a recording unclosed.
 */
void cli_prepare(void);

/* How a command ends: its exit status (skelbridge(1), EXIT STATUS). */
typedef enum {
	CLI_EXIT_OK = 0,
	CLI_EXIT_FAILURE = 1,   /* anything not below: a device failing mid-run */
	CLI_EXIT_USAGE = 2,     /* a bad command line: command, option, value, source or target */
	CLI_EXIT_MAPPING = 3,   /* a mapping file not found, unreadable or invalid */
	CLI_EXIT_NO_SOURCE = 4, /* the source is not there: no Kinect, no such recording or still */
	CLI_EXIT_IO = 5,        /* reading or writing failed: a broken recording, a full disk */
	CLI_EXIT_INTERRUPTED = 130, /* stopped by SIGINT (Ctrl-C) before its end: 128 + SIGINT */
} CliExit;

/** cli_exit_status: the exit status for a command stopped by @error. */
CliExit cli_exit_status(const GError *error);

/** cli_fail: prints @error's message as an error; its exit status. */
CliExit cli_fail(const GError *error);

/**
 * cli_source_event:
 * What a command does with its source's events: reports losses, recoveries
 * and errors at their levels, and quits @loop at the end of the source or on
 * an error (which also sets *@status to its exit status). Returns TRUE when the source
 * resumed, for the caller to start its skeletons afresh.
 */
gboolean cli_source_event(Source *source, SourceEvent event, const GError *error, GMainLoop *loop,
                          int *status);

/**
 * cli_quit_on_signals:
 * SIGINT and SIGTERM quit @loop; they are handled on @loop's own context,
 * including one that came before. SIGTERM asks for the command's end
 * (systemd stopping the service): the status stays as it is; so does
 * SIGHUP (the terminal closed) unless cli_take_hangup() took it first.
 * SIGINT interrupts it: *@status, when still CLI_EXIT_OK, becomes
 * CLI_EXIT_INTERRUPTED. *@signalled (or NULL) is set to TRUE on any. Once
 * per process.
 */
void cli_quit_on_signals(GMainLoop *loop, int *status, gboolean *signalled);

/**
 * cli_run_source:
 * The loop every command runs: starts @source with @callbacks and @data,
 * quits @loop on signals (cli_quit_on_signals(); take SIGHUP before, when
 * the command has a use for it), runs @loop until a callback or a signal
 * quits it, and stops @source. FALSE with @error set when @source would
 * not start.
 */
gboolean cli_run_source(Source *source, const SourceCallbacks *callbacks, gpointer data,
                        GMainLoop *loop, int *status, gboolean *signalled, GError **error);

/**
 * cli_add_skeletons_help:
 * Adds the skeleton backends to @context's description, after the sources,
 * for the commands with --skeletons.
 */
void cli_add_skeletons_help(GOptionContext *context);

/**
 * cli_take_hangup:
 * SIGHUP calls @func(@data) on @loop's context (run: reload the mappings),
 * including one that came before. Before cli_quit_on_signals().
 */
void cli_take_hangup(GMainLoop *loop, GSourceFunc func, gpointer data);

/* How much skelbridge says, least first; --log-level picks one. */
typedef enum {
	CLI_LOG_ERROR,   /* what stops a command or loses data */
	CLI_LOG_WARNING, /* faults it rides out: a dead target, a rejected edit, a lost camera */
	CLI_LOG_INFO,  /* what it does: loads, reloads, recoveries, periodic status (the default) */
	CLI_LOG_DEBUG, /* comings and goings: users, connections being made */
} CliLogLevel;

/**
 * cli_log:
 * Prints "skelbridge: message" on stderr when @level is within the chosen
 * level. When stderr is the systemd journal, the line carries the journal's
 * priority prefix instead, so that `journalctl -p warning` filters it.
 */
void cli_log(CliLogLevel level, const char *format, ...) G_GNUC_PRINTF(2, 3);
#define cli_error(...)   cli_log(CLI_LOG_ERROR, __VA_ARGS__)
#define cli_warning(...) cli_log(CLI_LOG_WARNING, __VA_ARGS__)
#define cli_info(...)    cli_log(CLI_LOG_INFO, __VA_ARGS__)
#define cli_debug(...)   cli_log(CLI_LOG_DEBUG, __VA_ARGS__)

/** cli_log_enabled: whether messages of @level are printed. */
gboolean cli_log_enabled(CliLogLevel level);

/** cli_is_terminal: stderr is a terminal (live status lines). */
gboolean cli_is_terminal(void);
