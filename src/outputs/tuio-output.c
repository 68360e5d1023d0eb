#include "tuio-output.h"

struct _TuioOutput {
	TuioState *state;
	TuioPacked *packed;
	TuioFrame frame;
	TuioProfile profile;
	guint max_packet;
	char *source; /* "skelbridge@host", or NULL to leave the source out */
};

static void
tuio_output_apply(TuioOutput *output, const MappingOutput *config)
{
	output->profile = config->tuio.profile;
	output->max_packet = config->max_packet;
	g_clear_pointer(&output->source, g_free);
	if (config->tuio_source.send)
		output->source = g_strconcat(config->tuio_source.name ? config->tuio_source.name
		                                                      : "skelbridge",
		                             "@", g_get_host_name(), NULL);
}

TuioOutput *
tuio_output_new(const MappingOutput *config)
{
	TuioOutput *output = g_new0(TuioOutput, 1);

	output->state = tuio_state_new(&config->tuio, tuio_seed_from_clock(g_get_real_time()));
	output->packed = tuio_packed_new();
	tuio_output_apply(output, config);
	return output;
}

void
tuio_output_free(TuioOutput *output)
{
	if (output == NULL)
		return;
	tuio_state_free(output->state);
	tuio_packed_free(output->packed);
	g_free(output->source);
	g_free(output);
}

void
tuio_output_configure(TuioOutput *output, const MappingOutput *config)
{
	tuio_state_set_config(output->state, &config->tuio);
	tuio_output_apply(output, config);
}

static void
tuio_output_send(TuioOutput *output, OscOutput *osc, gint64 timetag_us)
{
	tuio_pack(&output->frame, output->profile, output->source, output->max_packet,
	          output->packed);
	osc_output_send_bundles(osc, (MessageBatch *const *)output->packed->bundles->pdata,
	                        output->packed->n_bundles, timetag_us);
}

void
tuio_output_frame(TuioOutput *output, OscOutput *osc, const TrackerFrame *frame, gint64 timetag_us)
{
	if (tuio_state_update(output->state, frame, &output->frame))
		tuio_output_send(output, osc, timetag_us);
}

void
tuio_output_finish(TuioOutput *output, OscOutput *osc, gint64 time_us, gint64 timetag_us)
{
	tuio_state_finish(output->state, time_us, &output->frame);
	tuio_output_send(output, osc, timetag_us);
}
