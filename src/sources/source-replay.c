/* "replay:DIR": plays a fakenect dump natively, at the recorded pace (or
 * as fast as possible), once or in a loop. */
#include "dump.h"
#include "source.h"

typedef struct {
	DumpReader *reader;
	gboolean loop;
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

/* The time from the first frame of a pass to the first of the next. */
static gint64
pass_length_us(const SourceReplay *replay)
{
	guint n = dump_reader_n_frames(replay->reader);
	gint64 span = (gint64)(dump_reader_span(replay->reader) * G_USEC_PER_SEC);

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

/* At the end of a pass, when looping: plays on from the first frame. */
static gboolean
source_replay_wrap(SourceReplay *replay, GError **error)
{
	if (!dump_reader_rewind(replay->reader, error))
		return FALSE;
	replay->loop_offset_us += pass_length_us(replay);
	return TRUE;
}

static SourceReadResult
source_replay_read(gpointer data, DepthFrame *frame, GError **error)
{
	SourceReplay *replay = data;
	const DumpEntry *entry = NULL;
	DumpReadResult got = dump_reader_next(replay->reader, frame->raw, &entry, error);

	if (got == DUMP_READ_END && !replay->loop)
		return SOURCE_READ_END;
	if (got == DUMP_READ_END) {
		if (!source_replay_wrap(replay, error))
			return SOURCE_READ_ERROR;
		got = dump_reader_next(replay->reader, frame->raw, &entry, error);
	}
	if (got == DUMP_READ_END) {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_DATA,
		            "the recording's INDEX.txt lists no frames any more");
		return SOURCE_READ_ERROR;
	}
	if (got != DUMP_READ_FRAME)
		return source_replay_skip(replay, error);
	replay->unreadable = 0;
	depth_convert_raw_to_mm(frame->raw, frame->mm, DEPTH_PIXELS);
	frame->number = replay->number++;
	frame->timestamp = entry->timestamp;
	frame->time_us = replay->loop_offset_us +
	                 (gint64)((entry->walltime - dump_reader_first_walltime(replay->reader)) *
	                          G_USEC_PER_SEC);
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
