/* skelbridge record: writes a source to a fakenect dump that replay:DIR and
 * libfreenect's own fakenect play back. */
#include <stdio.h>

#include "cli.h"
#include "commands.h"
#include "sources/dump.h"

typedef struct {
	GMainLoop *loop;
	DumpWriter *writer;
	const char *dir;
	gint64 max_frames;
	gboolean have_first;
	gint64 first_time_us;
	double start_walltime;
	int status;
} CmdRecord;

static void
cmd_record_stop(CmdRecord *rec, Source *source)
{
	source_stop(source);
	g_main_loop_quit(rec->loop);
}

static void
cmd_record_frame(Source *source, const DepthFrame *frame, gpointer user_data)
{
	CmdRecord *rec = user_data;
	g_autoptr(GError) error = NULL;
	double walltime;

	/* fakenect paces playback by the walltimes in the names: keep the
	 * source's own pacing, anchored at the time recording started. */
	if (!rec->have_first) {
		rec->have_first = TRUE;
		rec->first_time_us = frame->time_us;
	}
	walltime = rec->start_walltime + (frame->time_us - rec->first_time_us) / 1e6;
	if (!dump_writer_add(rec->writer, walltime, frame->timestamp, frame->raw, &error)) {
		cli_error("recording stopped after %u frames: %s (the frames before it are kept)",
		          dump_writer_n_frames(rec->writer), error->message);
		rec->status = CLI_EXIT_IO;
		cmd_record_stop(rec, source);
		return;
	}
	if (rec->max_frames > 0 && dump_writer_n_frames(rec->writer) >= rec->max_frames)
		cmd_record_stop(rec, source);
}

static void
cmd_record_event(Source *source, SourceEvent event, const GError *error, gpointer user_data)
{
	CmdRecord *rec = user_data;

	cli_source_event(source, event, error, rec->loop, &rec->status);
}

static int
cmd_record_run(CmdRecord *rec, Source *source)
{
	static const SourceCallbacks callbacks = { cmd_record_frame, cmd_record_event };
	g_autoptr(GError) error = NULL;
	guint n;

	rec->start_walltime = g_get_real_time() / 1e6;
	if (!cli_run_source(source, &callbacks, rec, rec->loop, &rec->status, NULL, &error))
		return cli_fail(error);
	n = dump_writer_n_frames(rec->writer);
	if (!dump_writer_close(g_steal_pointer(&rec->writer), &error))
		return cli_fail(error);
	cli_info("recorded %u frames from %s to %s", n, source_spec(source), rec->dir);
	return rec->status;
}

int
cmd_record_main(int argc, char **argv)
{
	g_autoptr(GOptionContext) context = g_option_context_new("DIR - record a fakenect dump");
	g_autoptr(GError) error = NULL;
	g_auto(CliSourceArgs) args = { 0 };
	g_autoptr(Source) source = NULL;
	g_autoptr(GMainLoop) loop = NULL;
	CmdRecord rec = { 0 };
	int status;

	cli_add_source_entries(context, &args);
	if (!cli_parse(context, "record", &argc, &argv))
		return CLI_EXIT_USAGE;
	if (argc != 2) {
		cli_error(
		        "record: give one folder to record into (see 'skelbridge record --help')");
		return CLI_EXIT_USAGE;
	}
	source = cli_open_source(&args, &error);
	if (source == NULL)
		return cli_fail(error);
	rec.writer = dump_writer_new(argv[1], &error);
	if (rec.writer == NULL)
		return cli_fail(error);
	loop = g_main_loop_new(NULL, FALSE);
	rec.loop = loop;
	rec.dir = argv[1];
	rec.max_frames = args.frames;
	status = cmd_record_run(&rec, source);
	dump_writer_free(rec.writer);
	return status;
}
