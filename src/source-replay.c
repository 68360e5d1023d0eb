/* "replay:DIR": plays a fakenect dump natively, at the recorded pace (or
 * as fast as possible), once or in a loop. */
#include "dump.h"
#include "source.h"

typedef struct {
	DumpReader *reader;
	gboolean loop;
	guint next;
	guint64 number;
	gint64 loop_offset_us; /* added to frame times after each loop */
	guint unreadable;      /* frames skipped in a row */
} SourceReplay;

static gpointer
source_replay_open(const char *arg, const SourceOptions *options, GError **error)
{
	SourceReplay *replay;
	DumpReader *reader;

	if (arg == NULL || arg[0] == '\0') {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_SPEC,
		            "replay needs a folder: replay:DIR");
		return NULL;
	}
	reader = dump_reader_open(arg, error);
	if (reader == NULL)
		return NULL;
	replay = g_new0(SourceReplay, 1);
	replay->reader = reader;
	replay->loop = options->loop;
	return replay;
}

static gint64
walltime_us(const SourceReplay *replay, guint index)
{
	const DumpEntry *first = dump_reader_entry(replay->reader, 0);
	const DumpEntry *entry = dump_reader_entry(replay->reader, index);

	return (gint64)((entry->walltime - first->walltime) * G_USEC_PER_SEC);
}

/* The time from the first frame of a pass to the first of the next. */
static gint64
pass_length_us(const SourceReplay *replay)
{
	guint n = dump_reader_n_frames(replay->reader);
	gint64 span = walltime_us(replay, n - 1);

	return span + (n > 1 ? span / (n - 1) : G_USEC_PER_SEC / 30);
}

/* A frame deleted or cut short since the dump was opened is left out and
 * the rest plays on (an installation looping a recording keeps going); a
 * whole pass of them in a row, and there is nothing left to play. */
static SourceReadResult
source_replay_skip(SourceReplay *replay, GError **error)
{
	if (++replay->unreadable >= dump_reader_n_frames(replay->reader)) {
		g_prefix_error(error, "no frame of the recording can be read any more: ");
		return SOURCE_READ_ERROR;
	}
	g_prefix_error(error, "frame skipped: ");
	return SOURCE_READ_SKIPPED;
}

static SourceReadResult
source_replay_read(gpointer data, DepthFrame *frame, GError **error)
{
	SourceReplay *replay = data;
	const DumpEntry *entry;

	if (replay->next >= dump_reader_n_frames(replay->reader)) {
		if (!replay->loop)
			return SOURCE_READ_END;
		replay->next = 0;
		replay->loop_offset_us += pass_length_us(replay);
	}
	if (!dump_reader_read(replay->reader, replay->next++, frame->raw, error))
		return source_replay_skip(replay, error);
	replay->unreadable = 0;
	entry = dump_reader_entry(replay->reader, replay->next - 1);
	depth_convert_raw_to_mm(frame->raw, frame->mm, DEPTH_PIXELS);
	frame->number = replay->number++;
	frame->timestamp = entry->timestamp;
	frame->time_us = replay->loop_offset_us + walltime_us(replay, replay->next - 1);
	frame->truth = NULL;
	return SOURCE_READ_FRAME;
}

static void
source_replay_free(gpointer data)
{
	SourceReplay *replay = data;

	dump_reader_free(replay->reader);
	g_free(replay);
}

const SourceBackend source_replay_backend = {
	.name = "replay",
	.usage = "replay:DIR           a fakenect dump (INDEX.txt + d-*.pgm), e.g. from record",
	.open = source_replay_open,
	.read = source_replay_read,
	.free = source_replay_free,
};
