#include "tuio-output.h"

#include <unistd.h>

#include "tuio-store.h"

struct _TuioOutput {
	TuioState *state;
	TuioPacked *packed;
	TuioFrame frame;
	TuioProfile profile;
	guint max_packet;
	char *bridge_name; /* the source's name when the mapping gives none */
	char *source;      /* "NAME@HOST" when the source message goes out, or NULL */
	char *place;       /* "NAME@HOST URL": what sets this output apart from others */
	guint32 fseq_spread;
	char *state_dir;  /* NULL: the sequence is not kept across runs */
	TuioStore *store; /* ...or kept there */
	char *label;
	OscOutputLogFunc log;
	gpointer user_data;
	gboolean write_failed; /* told once: the next writes would fail alike */
};

static void tuio_output_warn(TuioOutput *output, const char *format, ...) G_GNUC_PRINTF(2, 3);

static void
tuio_output_warn(TuioOutput *output, const char *format, ...)
{
	g_autofree char *message = NULL;
	va_list args;

	va_start(args, format);
	message = g_strdup_vprintf(format, args);
	va_end(args);
	if (output->log != NULL)
		output->log(G_LOG_LEVEL_WARNING, output->label, message, output->user_data);
}

/* The clock's seed, moved to this output's place in the id space. */
static gint32
tuio_output_fseq_floor(const TuioOutput *output, gint64 unix_time_us)
{
	return tuio_seed_mix(tuio_seed_from_clock(unix_time_us), output->fseq_spread);
}

/* Where the sequence stopped the last time an output sent from this place:
 * the next frame goes on above it. */
static void
tuio_output_resume(TuioOutput *output, gint64 now_us)
{
	g_autoptr(GError) error = NULL;
	gint32 last;

	if (output->store == NULL)
		return;
	last = tuio_store_load(output->store, now_us, &error);
	if (error != NULL)
		tuio_output_warn(output, "%s; the frame sequence starts from the clock",
		                 error->message);
	if (last > 0)
		tuio_state_raise_fseq(output->state, tuio_seed_mix(last, 1));
}

static void
tuio_output_save(TuioOutput *output, gint64 now_us)
{
	g_autoptr(GError) error = NULL;
	gint32 last = output->state ? tuio_state_last_fseq(output->state) : 0;

	if (output->store == NULL || last == 0)
		return;
	if (!tuio_store_save(output->store, last, now_us, &error) && !output->write_failed)
		tuio_output_warn(output, "%s; a restart may start its frame sequence lower",
		                 error->message);
}

static char *
tuio_output_name_host(const TuioOutput *output, const MappingOutput *config)
{
	const char *name =
	        config->tuio_source.name ? config->tuio_source.name : output->bridge_name;

	return g_strconcat(name, "@", g_get_host_name(), NULL);
}

/* Takes @config's settings. Of them, the source's name and the target set
 * the output apart: its place in the id space and its state file; FALSE
 * when they did not change. */
static gboolean
tuio_output_apply(TuioOutput *output, const MappingOutput *config, gint64 now_us)
{
	g_autofree char *name_host = tuio_output_name_host(output, config);
	g_autofree char *url = mapping_target_to_string(&config->target);
	g_autofree char *place = g_strconcat(name_host, " ", url, NULL);

	output->profile = config->tuio.profile;
	output->max_packet = config->max_packet;
	g_clear_pointer(&output->source, g_free);
	if (config->tuio_source.send)
		output->source = g_strdup(name_host);
	if (g_strcmp0(output->place, place) == 0)
		return FALSE;
	tuio_output_save(output, now_us);
	g_clear_pointer(&output->store, tuio_store_free);
	g_free(output->place);
	output->place = g_steal_pointer(&place);
	output->fseq_spread = tuio_seed_spread(output->place);
	if (output->state_dir != NULL)
		output->store = tuio_store_new(output->state_dir, name_host, url);
	return TRUE;
}

/* Session ids: the clock's seed, moved by a hash of what is unique to this
 * run (the source's name and host, the target, the process and a random
 * number), so that two bridges started in the same second, whose clock
 * seeds agree, land at independent, evenly spread places among the 2^24 - 1
 * ids. Each counts up one id per new cursor; their ids collide only if the
 * two runs of ids overlap, with odds of (n1 + n2) / 2^24 for runs of n1 and
 * n2 cursors: 1 in 8400 for a thousand cursors each, a long busy day; 1 in
 * 84000 for a hundred. Even then the reference clients keep them apart
 * when their source names differ. The frame sequence is placed by the source's name,
 * host and target alone, so that a restart comes back to the same place:
 * two bridges' sequences, both following the clock, stay as far apart as
 * their places, closer than the clients' 100 late frames for 1 pair of
 * names in 83000. */
static gint32
tuio_output_session_seed(const TuioOutput *output, const MappingOutput *config, gint64 now_us)
{
	g_autofree char *name_host = tuio_output_name_host(output, config);
	g_autofree char *url = mapping_target_to_string(&config->target);
	g_autofree char *run =
	        g_strdup_printf("%s %s %d %u", name_host, url, (int)getpid(), g_random_int());

	return tuio_seed_mix(tuio_seed_from_clock(now_us), tuio_seed_spread(run));
}

TuioOutput *
tuio_output_new(const MappingOutput *config, const TuioOutputSetup *setup, gint64 now_us)
{
	TuioOutput *output = g_new0(TuioOutput, 1);

	output->bridge_name = g_strdup(setup->bridge_name ? setup->bridge_name : "skelbridge");
	output->state_dir = g_strdup(setup->state_dir);
	output->label = g_strdup(config->name);
	output->log = setup->log;
	output->user_data = setup->user_data;
	tuio_output_apply(output, config, now_us);
	output->state =
	        tuio_state_new_full(&config->tuio, tuio_output_session_seed(output, config, now_us),
	                            tuio_output_fseq_floor(output, now_us));
	output->packed = tuio_packed_new();
	tuio_output_resume(output, now_us);
	return output;
}

void
tuio_output_free(TuioOutput *output)
{
	if (output == NULL)
		return;
	tuio_store_free(output->store);
	tuio_state_free(output->state);
	tuio_packed_free(output->packed);
	g_free(output->bridge_name);
	g_free(output->source);
	g_free(output->place);
	g_free(output->state_dir);
	g_free(output->label);
	g_free(output);
}

void
tuio_output_configure(TuioOutput *output, const MappingOutput *config, gint64 now_us)
{
	tuio_state_set_config(output->state, &config->tuio);
	/* A new place: the sequence goes on rising, above where it stopped there. */
	if (!tuio_output_apply(output, config, now_us))
		return;
	tuio_state_raise_fseq(output->state, tuio_output_fseq_floor(output, now_us));
	tuio_output_resume(output, now_us);
}

static void
tuio_output_send(TuioOutput *output, OscOutput *osc, gint64 timetag_us)
{
	tuio_pack(&output->frame, output->profile, output->source, output->max_packet,
	          output->packed);
	osc_output_send_bundles(osc, (MessageBatch *const *)output->packed->bundles->pdata,
	                        output->packed->n_bundles, timetag_us);
}

/* Writes the sequence down now and then; a write that failed is told once
 * it is known, and the bridge runs on. */
static void
tuio_output_remember(TuioOutput *output, gint64 now_us)
{
	g_autofree char *error = NULL;

	if (output->store == NULL)
		return;
	tuio_store_remember(output->store, tuio_state_last_fseq(output->state), now_us);
	error = tuio_store_take_error(output->store);
	if (error != NULL && !output->write_failed)
		tuio_output_warn(output, "%s; a restart may start its frame sequence lower", error);
	output->write_failed |= error != NULL;
}

void
tuio_output_frame(TuioOutput *output, OscOutput *osc, const TrackerFrame *frame, gint64 timetag_us)
{
	/* An idle output sends a frame a second: the clock keeps its sequence
	 * where a busy one's would be, a whole range away from other bridges'. */
	tuio_state_raise_fseq(output->state, tuio_output_fseq_floor(output, timetag_us));
	if (!tuio_state_update(output->state, frame, &output->frame))
		return;
	tuio_output_send(output, osc, timetag_us);
	tuio_output_remember(output, timetag_us);
}

void
tuio_output_finish(TuioOutput *output, OscOutput *osc, gint64 time_us, gint64 timetag_us)
{
	tuio_state_finish(output->state, time_us, &output->frame);
	tuio_output_send(output, osc, timetag_us);
	tuio_output_save(output, timetag_us);
}
