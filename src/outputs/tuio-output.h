/* A TUIO output of the bridge: follows the hands of every frame
 * (TuioState), lays each due frame out as TUIO bundles (tuio_pack) and
 * sends them through its OSC output. It outlives mapping reloads, so
 * session ids and the frame sequence go on rising. */
#pragma once

#include "mapping/mapping.h"
#include "osc-output.h"
#include "tuio-pack.h"

typedef struct _TuioOutput TuioOutput;

/* What a TUIO output takes from the bridge that runs it. */
typedef struct {
	const char
	        *bridge_name;  /* the source's NAME unless the mapping names it; NULL: skelbridge */
	const char *state_dir; /* where the frame sequence is kept across runs; NULL: nowhere */
	OscOutputLogFunc log;  /* warnings about the state file; the label is the output's name */
	gpointer user_data;
} TuioOutputSetup;

/**
 * tuio_output_new:
 * Configured from @config; session ids and the frame sequence seeded from
 * @now_us (the wall clock), spread apart from other bridges' (see
 * tuio-output.c), and the sequence above where it stopped in the last run.
 */
TuioOutput *tuio_output_new(const MappingOutput *config, const TuioOutputSetup *setup,
                            gint64 now_us);
void tuio_output_free(TuioOutput *output);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(TuioOutput, tuio_output_free)

/** tuio_output_configure: a reloaded mapping at @now_us; live cursors keep their ids. */
void tuio_output_configure(TuioOutput *output, const MappingOutput *config, gint64 now_us);

/** tuio_output_frame: follows @frame's hands and sends the frame when due. */
void tuio_output_frame(TuioOutput *output, OscOutput *osc, const TrackerFrame *frame,
                       gint64 timetag_us);

/**
 * tuio_output_finish:
 * Sends an empty frame, so that clients drop every cursor, and writes the
 * sequence down for the next run.
 */
void tuio_output_finish(TuioOutput *output, OscOutput *osc, gint64 time_us, gint64 timetag_us);
