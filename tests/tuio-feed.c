/* tuio-feed: plays a source's hands to a TUIO receiver the way the bridge's
 * TUIO output does, with the bridge's own parts: the skeletons of the
 * frames ("truth" backend) through the TUIO cursor state (src/tuio.c), laid
 * out as bundles (src/tuio-pack.c) and sent by the OSC output
 * (src/osc-output.c), on the source's own pace. It takes skelbridge run's
 * source options, so that a test can swap it for `skelbridge run` with a
 * TUIO mapping.
 *
 *   tuio-feed [--source S] [--fast] [--frames N] [--seed N]
 *             [--target osc.udp://HOST:PORT] [--max-packet BYTES]
 *
 * It sends 2Dcur with the TUIO state's default settings, names itself as
 * the source "skelbridge@HOST", and ends with an empty frame. */
#include <stdio.h>

#include "cli.h"
#include "osc-output.h"
#include "skeletons.h"
#include "tuio-pack.h"
#include "tuio.h"

#define DEFAULT_TARGET "osc.udp://127.0.0.1:3333"

typedef struct {
	GMainLoop *loop;
	Skeletons *skeletons;
	TuioState *tuio;
	TuioPacked *packed;
	OscOutput *output;
	char *source_name;
	guint max_packet;
	gint64 max_frames;
	gint64 frames;
	int status;
} TuioFeed;

static void
tuio_feed_log(const char *label, const char *message, gpointer user_data G_GNUC_UNUSED)
{
	fprintf(stderr, "tuio-feed: %s: %s\n", label, message);
}

static void
tuio_feed_send(TuioFeed *feed, const TuioFrame *frame)
{
	tuio_pack(frame, TUIO_PROFILE_2DCUR, feed->source_name, feed->max_packet, feed->packed);
	osc_output_send_bundles(feed->output, (MessageBatch *const *)feed->packed->bundles->pdata,
	                        feed->packed->n_bundles, g_get_real_time());
}

static void
tuio_feed_frame(Source *source, const DepthFrame *depth, gpointer user_data)
{
	TuioFeed *feed = user_data;
	TrackerFrame users;
	TuioFrame frame;

	skeletons_process(feed->skeletons, depth, &users);
	if (tuio_state_update(feed->tuio, &users, &frame))
		tuio_feed_send(feed, &frame);
	feed->frames++;
	if (feed->max_frames > 0 && feed->frames >= feed->max_frames) {
		source_stop(source);
		g_main_loop_quit(feed->loop);
	}
}

static void
tuio_feed_event(Source *source G_GNUC_UNUSED, SourceEvent event, const GError *error,
                gpointer user_data)
{
	TuioFeed *feed = user_data;

	if (error != NULL)
		fprintf(stderr, "tuio-feed: %s\n", error->message);
	if (event == SOURCE_EVENT_ERROR)
		feed->status = 1;
	if (event == SOURCE_EVENT_END || event == SOURCE_EVENT_ERROR)
		g_main_loop_quit(feed->loop);
}

static gboolean
tuio_feed_output(TuioFeed *feed, const char *target, GError **error)
{
	MappingOutput config = { 0 };

	config.name = (char *)"tuio";
	config.kind = MAPPING_OUTPUT_OSC;
	config.bundle = MAPPING_BUNDLE_FRAME;
	config.max_packet = feed->max_packet;
	config.ttl = 1;
	if (!mapping_target_parse(target, &config.target, error))
		return FALSE;
	feed->output = osc_output_new(&config, target, tuio_feed_log, feed);
	mapping_target_clear(&config.target);
	return TRUE;
}

static int
tuio_feed_run(TuioFeed *feed, Source *source)
{
	static const SourceCallbacks callbacks = { tuio_feed_frame, tuio_feed_event };
	g_autoptr(GError) error = NULL;
	TuioFrame last;

	if (!source_start(source, &callbacks, feed, &error)) {
		fprintf(stderr, "tuio-feed: %s\n", error->message);
		return 1;
	}
	g_main_loop_run(feed->loop);
	source_stop(source);
	tuio_state_finish(feed->tuio, g_get_real_time(), &last);
	tuio_feed_send(feed, &last);
	return feed->status;
}

int
main(int argc, char **argv)
{
	g_auto(CliSourceArgs) source_args = { 0 };
	g_autofree char *target = NULL;
	gint max_packet = 1472;
	const GOptionEntry entries[] = {
		{ "target", 't', 0, G_OPTION_ARG_STRING, &target,
		  "Where to send (default " DEFAULT_TARGET ")", "URL" },
		{ "max-packet", 0, 0, G_OPTION_ARG_INT, &max_packet,
		  "Split frames into bundles of at most this many bytes (default 1472)", "BYTES" },
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GOptionContext) context = g_option_context_new("- play the hands as TUIO");
	g_autoptr(GError) error = NULL;
	g_autoptr(Source) source = NULL;
	TuioConfig config;
	TuioFeed feed = { 0 };
	int status;

	cli_add_source_entries(context, &source_args);
	g_option_context_add_main_entries(context, entries, NULL);
	if (!cli_parse(context, "tuio-feed", &argc, &argv))
		return 2;
	feed.max_packet = (guint)CLAMP(max_packet, 64, 65507);
	feed.max_frames = source_args.frames;
	source = cli_open_source(&source_args, &error);
	if (source == NULL || (feed.skeletons = skeletons_open("truth", &error)) == NULL ||
	    !tuio_feed_output(&feed, target ? target : DEFAULT_TARGET, &error)) {
		fprintf(stderr, "tuio-feed: %s\n", error->message);
		skeletons_free(feed.skeletons);
		return 1;
	}
	tuio_config_init(&config);
	feed.tuio = tuio_state_new(&config, tuio_seed_from_clock(g_get_real_time()));
	feed.packed = tuio_packed_new();
	feed.source_name = g_strconcat("skelbridge@", g_get_host_name(), NULL);
	feed.loop = g_main_loop_new(NULL, FALSE);
	status = tuio_feed_run(&feed, source);
	g_main_loop_unref(feed.loop);
	g_free(feed.source_name);
	tuio_packed_free(feed.packed);
	tuio_state_free(feed.tuio);
	osc_output_free(feed.output);
	skeletons_free(feed.skeletons);
	return status;
}
