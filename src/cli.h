/* What the subcommands share: source options, signals, messages. */
#pragma once

#include <glib.h>

#include "source.h"

typedef struct {
	char *source; /* spec; NULL for the default */
	gboolean fast;
	gboolean loop;
	gint64 frames; /* stop after this many; 0 for no limit */
	gint64 seed;
} CliSourceArgs;

/** cli_add_source_entries: adds --source, --fast, --loop, --frames, --seed. */
void cli_add_source_entries(GOptionContext *context, CliSourceArgs *args);
void cli_source_args_clear(CliSourceArgs *args);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(CliSourceArgs, cli_source_args_clear)

/** cli_open_source: opens args->source, or "demo" when it is unset. */
Source *cli_open_source(const CliSourceArgs *args, GError **error);

/**
 * cli_parse:
 * Parses @argv for a subcommand; on a bad option prints the error and the
 * usage hint and returns FALSE.
 */
gboolean cli_parse(GOptionContext *context, const char *command, int *argc, char ***argv);

/**
 * cli_quit_on_signals:
 * SIGINT and SIGTERM quit @loop and set *@signalled; they are handled on
 * @loop's own context.
 */
void cli_quit_on_signals(GMainLoop *loop, gboolean *signalled);

/** cli_error: prints "skelbridge: message" on stderr. */
void cli_error(const char *format, ...) G_GNUC_PRINTF(1, 2);

/** cli_is_terminal: stderr is a terminal (live status lines). */
gboolean cli_is_terminal(void);
