/* skelbridge snapshot: pictures of what the tracker sees. One frame of a
 * source to a PNG, or a numbered PNG every N frames into a folder. Files
 * and the demo are played as fast as they go: every frame before the one
 * pictured still goes through the skeletons, so the tracker's state is the
 * one a bridge would have at that frame. */
#include <errno.h>
#include <stdio.h>

#include "cli.h"
#include "commands.h"
#include "skeletons/skeletons.h"
#include "view/snapshot.h"

typedef struct {
	char *skeletons;
	gint64 first;
	gint64 every;
	gint64 count;
} CmdSnapshotArgs;

typedef struct {
	GMainLoop *loop;
	Skeletons *skeletons;
	const char *out; /* the file, or with every > 0 the folder */
	char *caption;   /* "SOURCE (SKELETONS)" */
	guint64 first;
	guint64 every; /* 0: one picture */
	guint64 count; /* pictures to take; 0 for no limit */
	guint64 max_frames;
	guint64 frames;
	guint64 written;
	guint8 *labels;
	gboolean signalled;
	int status;
} CmdSnapshot;

static gboolean
cmd_snapshot_due(const CmdSnapshot *snap, guint64 n)
{
	if (n < snap->first)
		return FALSE;
	return snap->every == 0 ? n == snap->first : (n - snap->first) % snap->every == 0;
}

static gboolean
cmd_snapshot_done(const CmdSnapshot *snap)
{
	if (snap->every == 0)
		return snap->written > 0;
	return snap->count > 0 && snap->written >= snap->count;
}

static char *
cmd_snapshot_path(const CmdSnapshot *snap, guint64 n)
{
	g_autofree char *name = NULL;

	if (snap->every == 0)
		return g_strdup(snap->out);
	name = g_strdup_printf("frame-%06" G_GUINT64_FORMAT ".png", n);
	return g_build_filename(snap->out, name, NULL);
}

static gboolean
cmd_snapshot_write(CmdSnapshot *snap, const DepthFrame *depth, const TrackerFrame *frame, double ms,
                   GError **error)
{
	g_autofree char *path = cmd_snapshot_path(snap, depth->number);
	gboolean labelled = skeletons_get_labels(snap->skeletons, depth, frame, snap->labels);
	SnapshotInput in = { depth->mm, labelled ? snap->labels : NULL, frame, snap->caption, ms };
	cairo_surface_t *surface = snapshot_draw(&in);
	gboolean ok = snapshot_write_png(surface, path, error);

	cairo_surface_destroy(surface);
	if (ok)
		printf("%s\n", path);
	fflush(stdout);
	return ok;
}

static void
cmd_snapshot_stop(CmdSnapshot *snap, Source *source)
{
	source_stop(source);
	g_main_loop_quit(snap->loop);
}

static void
cmd_snapshot_frame(Source *source, const DepthFrame *depth, gpointer user_data)
{
	CmdSnapshot *snap = user_data;
	g_autoptr(GError) error = NULL;
	TrackerFrame frame;
	gint64 start = g_get_monotonic_time();
	double ms;

	if (!skeletons_process(snap->skeletons, depth, &frame, &error)) {
		cli_warning("%s", error->message);
		g_clear_error(&error);
	}
	ms = (g_get_monotonic_time() - start) / 1000.0;
	snap->frames++;
	if (cmd_snapshot_due(snap, depth->number)) {
		if (!cmd_snapshot_write(snap, depth, &frame, ms, &error)) {
			snap->status = cli_fail(error);
			cmd_snapshot_stop(snap, source);
			return;
		}
		snap->written++;
	}
	if (cmd_snapshot_done(snap) || (snap->max_frames > 0 && snap->frames >= snap->max_frames))
		cmd_snapshot_stop(snap, source);
}

static void
cmd_snapshot_event(Source *source, SourceEvent event, const GError *error, gpointer user_data)
{
	CmdSnapshot *snap = user_data;

	if (cli_source_event(source, event, error, snap->loop, &snap->status))
		skeletons_reset(snap->skeletons);
}

static int
cmd_snapshot_loop(CmdSnapshot *snap, Source *source)
{
	static const SourceCallbacks callbacks = { cmd_snapshot_frame, cmd_snapshot_event };
	g_autoptr(GError) error = NULL;

	if (!cli_run_source(source, &callbacks, snap, snap->loop, &snap->status, &snap->signalled,
	                    &error))
		return cli_fail(error);
	if (snap->status == 0 && snap->written == 0 && !snap->signalled) {
		cli_error("%s: the source ended after %" G_GUINT64_FORMAT
		          " frames, before frame %" G_GUINT64_FORMAT,
		          source_spec(source), snap->frames, snap->first);
		return CLI_EXIT_FAILURE;
	}
	return snap->status;
}

static void
cmd_snapshot_add_entries(GOptionContext *context, CmdSnapshotArgs *args)
{
	const GOptionEntry entries[] = {
		{ "skeletons", 0, 0, G_OPTION_ARG_STRING, &args->skeletons,
		  "Where skeletons come from (default tracker; see below)", "NAME" },
		{ "frame", 0, 0, G_OPTION_ARG_INT64, &args->first,
		  "The frame to picture, from 0 (default 0); with --every, the first", "N" },
		{ "every", 0, 0, G_OPTION_ARG_INT64, &args->every,
		  "A picture every N frames into the folder OUT, named frame-NNNNNN.png", "N" },
		{ "count", 0, 0, G_OPTION_ARG_INT64, &args->count,
		  "With --every: stop after N pictures (default: at the source's end)", "N" },
		G_OPTION_ENTRY_NULL
	};
	g_option_context_add_main_entries(context, entries, NULL);
	cli_add_skeletons_help(context);
}

static void
cmd_snapshot_args_clear(CmdSnapshotArgs *args)
{
	g_free(args->skeletons);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(CmdSnapshotArgs, cmd_snapshot_args_clear)

static gboolean
cmd_snapshot_check_args(const CmdSnapshotArgs *args, int argc)
{
	if (argc != 2)
		cli_error("snapshot: give one OUT: a .png file, or a folder with --every");
	else if (args->first < 0 || args->every < 0 || args->count < 0)
		cli_error("snapshot: --frame, --every and --count take N >= 0");
	else if (args->count > 0 && args->every == 0)
		cli_error("snapshot: --count goes with --every");
	else
		return TRUE;
	return FALSE;
}

static gboolean
cmd_snapshot_make_folder(const char *path)
{
	if (g_mkdir_with_parents(path, 0777) == 0)
		return TRUE;
	cli_error("%s: cannot make the folder: %s", path, g_strerror(errno));
	return FALSE;
}

static void
cmd_snapshot_init(CmdSnapshot *snap, const CmdSnapshotArgs *args, const CliSourceArgs *source)
{
	snap->first = (guint64)args->first;
	snap->every = (guint64)args->every;
	snap->count = (guint64)args->count;
	snap->max_frames = (guint64)source->frames;
	snap->labels = g_malloc(DEPTH_PIXELS);
}

int
cmd_snapshot_main(int argc, char **argv)
{
	g_autoptr(GOptionContext) context =
	        g_option_context_new("OUT - picture what the tracker sees");
	g_autoptr(GError) error = NULL;
	g_auto(CliSourceArgs) source_args = { 0 };
	g_auto(CmdSnapshotArgs) args = { 0 };
	CliTrackerArgs tracker_args = { 0 };
	TrackerSettings settings;
	g_autoptr(Source) source = NULL;
	g_autoptr(Skeletons) skeletons = NULL;
	g_autoptr(GMainLoop) loop = NULL;
	CmdSnapshot snap = { 0 };
	int status;

	cli_add_source_entries(context, &source_args);
	cli_add_tracker_entries(context, &tracker_args);
	cmd_snapshot_add_entries(context, &args);
	if (!cli_parse_tracking(context, "snapshot", &argc, &argv, &tracker_args, &settings) ||
	    !cmd_snapshot_check_args(&args, argc))
		return CLI_EXIT_USAGE;
	if (args.every > 0 && !cmd_snapshot_make_folder(argv[1]))
		return CLI_EXIT_IO;
	/* Pictures, not a performance: no reason to wait for the recorded pace. */
	source_args.fast = TRUE;
	source = cli_open_source(&source_args, &error);
	if (source == NULL ||
	    (skeletons = skeletons_open_full(args.skeletons ? args.skeletons : "tracker", &settings,
	                                     &error)) == NULL)
		return cli_fail(error);
	loop = g_main_loop_new(NULL, FALSE);
	snap.loop = loop;
	snap.skeletons = skeletons;
	snap.out = argv[1];
	snap.caption = g_strdup_printf("%s (%s)", source_spec(source), skeletons_name(skeletons));
	cmd_snapshot_init(&snap, &args, &source_args);
	status = cmd_snapshot_loop(&snap, source);
	g_free(snap.caption);
	g_free(snap.labels);
	return status;
}
