/* A TUIO output of the bridge: follows the hands of every frame
 * (TuioState), lays each due frame out as TUIO bundles (tuio_pack) and
 * sends them through its OSC output. It outlives mapping reloads, so
 * session ids and the frame sequence go on rising. */
#pragma once

#include "mapping/mapping.h"
#include "osc-output.h"
#include "tuio-pack.h"

typedef struct _TuioOutput TuioOutput;

/** tuio_output_new: seeded from the wall clock, configured from @config. */
TuioOutput *tuio_output_new(const MappingOutput *config);
void tuio_output_free(TuioOutput *output);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(TuioOutput, tuio_output_free)

/** tuio_output_configure: a reloaded mapping; live cursors keep their ids. */
void tuio_output_configure(TuioOutput *output, const MappingOutput *config);

/** tuio_output_frame: follows @frame's hands and sends the frame when due. */
void tuio_output_frame(TuioOutput *output, OscOutput *osc, const TrackerFrame *frame,
                       gint64 timetag_us);

/** tuio_output_finish: sends an empty frame, so that clients drop every cursor. */
void tuio_output_finish(TuioOutput *output, OscOutput *osc, gint64 time_us, gint64 timetag_us);
