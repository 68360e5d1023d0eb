/* TUIO frames on the wire: what tuio_pack lays out, encoded by the OSC
 * output's encoder, must pass the strict decoder, split or not. */
#include <lo/lo.h>
#include <string.h>

#include "outputs/osc-encode.h"
#include "tuio-decoder.h"
#include "outputs/tuio-pack.h"

static void
cursor(TuioFrame *f, gint32 session, float x, float y)
{
	TuioCursor *c = &f->cursors[f->n_cursors++];

	memset(c, 0, sizeof(*c));
	c->session = session;
	c->user = 1;
	c->x = x;
	c->y = y;
	c->z = 0.5f;
	c->vx = 0.25f;
}

/* Encodes @frame and feeds every datagram to @decoder. */
static guint
send_frame(const TuioFrame *frame, TuioProfile profile, const char *source, guint max_packet,
           TuioDecoder *decoder)
{
	g_autoptr(TuioPacked) packed = tuio_packed_new();
	g_autoptr(OscEncodePackets) packets = osc_encode_packets_new();
	g_autoptr(GError) error = NULL;

	tuio_pack(frame, profile, source, max_packet, packed);
	osc_encode_bundles((MessageBatch *const *)packed->bundles->pdata, packed->n_bundles,
	                   1000000, packets);
	g_assert_cmpuint(packets->spans->len, ==, packed->n_bundles);
	for (guint i = 0; i < packets->spans->len; i++) {
		const OscEncodeSpan *span = &g_array_index(packets->spans, OscEncodeSpan, i);

		g_assert_cmpuint(span->length, <=, max_packet);
		tuio_decoder_feed(decoder, packets->data->data + span->offset, span->length,
		                  &error);
		g_assert_no_error(error);
	}
	return packed->n_bundles;
}

static void
test_osc_size_matches_liblo(void)
{
	g_autoptr(MessageBatch) b = message_batch_new();
	const char *strings[] = { "", "a", "abc", "abcd", "skelbridge@host" };

	for (guint k = 0; k < G_N_ELEMENTS(strings); k++) {
		lo_message m = lo_message_new();
		const Message *msg;

		message_batch_clear(b);
		message_batch_add(b, 0, "/tuio/2Dcur");
		message_batch_add_string(b, strings[k]);
		message_batch_add_int32(b, 7);
		message_batch_add_float32(b, 0.5f);
		lo_message_add_string(m, strings[k]);
		lo_message_add_int32(m, 7);
		lo_message_add_float(m, 0.5f);
		msg = message_batch_get(b, 0);
		g_assert_cmpuint(message_osc_size(b, msg), ==, lo_message_length(m, "/tuio/2Dcur"));
		lo_message_free(m);
	}
}

static void
test_one_frame(void)
{
	g_autoptr(TuioDecoder) d = tuio_decoder_new("2Dcur", 1472);
	TuioFrame f = { .fseq = 42 };
	const TuioEvent *e;

	cursor(&f, 10, 0.25f, 0.75f);
	cursor(&f, 11, 0.5f, 0.5f);
	g_assert_cmpuint(send_frame(&f, TUIO_PROFILE_2DCUR, "skelbridge@test", 1472, d), ==, 1);
	g_assert_cmpstr(tuio_decoder_source(d), ==, "skelbridge@test");
	g_assert_cmpint(tuio_decoder_last_fseq(d), ==, 42);
	g_assert_cmpuint(tuio_decoder_events(d)->len, ==, 2);
	e = &g_array_index(tuio_decoder_events(d), TuioEvent, 0);
	g_assert_cmpuint(e->kind, ==, TUIO_EVENT_ADD);
	g_assert_cmpint(e->session, ==, 10);
	g_assert_cmpfloat(e->x, ==, 0.25f);
	g_assert_cmpfloat(e->y, ==, 0.75f);
	g_assert_cmpfloat(e->vx, ==, 0.25f);
}

static void
test_empty_frame_without_source(void)
{
	g_autoptr(TuioDecoder) d = tuio_decoder_new("2Dcur", 1472);
	TuioFrame f = { .fseq = 5 };

	g_assert_cmpuint(send_frame(&f, TUIO_PROFILE_2DCUR, NULL, 1472, d), ==, 1);
	g_assert_null(tuio_decoder_source(d));
	g_assert_cmpuint(tuio_decoder_n_bundles(d), ==, 1);
	g_assert_cmpuint(tuio_decoder_n_alive(d), ==, 0);
}

/* Many cursors and a small datagram: several bundles, each within the
 * limit, each with the full alive list and the same fseq. */
static void
test_split_frame(void)
{
	g_autoptr(TuioDecoder) d = tuio_decoder_new("2Dcur", 300);
	g_autoptr(GError) error = NULL;
	TuioFrame f = { .fseq = 9 };
	guint n;

	for (gint32 s = 1; s <= TUIO_MAX_CURSORS; s++)
		cursor(&f, s, 0.05f * s, 0.5f);
	n = send_frame(&f, TUIO_PROFILE_2DCUR, "skelbridge@test", 300, d);
	g_assert_cmpuint(n, >, 2);
	g_assert_true(tuio_decoder_finish(d, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(tuio_decoder_n_alive(d), ==, TUIO_MAX_CURSORS);
	g_assert_cmpuint(tuio_decoder_events(d)->len, ==, TUIO_MAX_CURSORS);
}

static void
test_3dcur(void)
{
	g_autoptr(TuioDecoder) d = tuio_decoder_new("3Dcur", 1472);
	TuioFrame f = { .fseq = 1 };

	cursor(&f, 3, 0.1f, 0.2f);
	send_frame(&f, TUIO_PROFILE_3DCUR, NULL, 1472, d);
	g_assert_cmpfloat(g_array_index(tuio_decoder_events(d), TuioEvent, 0).z, ==, 0.5f);
}

/* The state and the packer together: a hand pushes, drags and pulls back. */
static void
test_push_drag_release(void)
{
	g_autoptr(TuioDecoder) d = tuio_decoder_new("2Dcur", 1472);
	TuioConfig config;
	g_autoptr(TuioState) state = NULL;
	TrackerFrame tf = { 0 };
	TrackerUser *u = &tf.users[0];
	const GArray *events;
	TuioFrame out;

	tuio_config_init(&config);
	state = tuio_state_new(&config, 100);
	tf.n_users = 1;
	u->id = 1;
	for (int j = 0; j < TRACKER_N_JOINTS; j++)
		u->joints[j].confidence = 1.0;
	u->joints[TRACKER_JOINT_LEFT_SHOULDER].position = tracker_vec3(180, 400, 2500);
	u->joints[TRACKER_JOINT_RIGHT_SHOULDER].position = tracker_vec3(-180, 400, 2500);
	u->joints[TRACKER_JOINT_LEFT_ELBOW].position = tracker_vec3(180, 70, 2500);
	u->joints[TRACKER_JOINT_LEFT_HAND].position = tracker_vec3(180, -260, 2500);
	u->joints[TRACKER_JOINT_RIGHT_ELBOW].position = tracker_vec3(-180, 70, 2500);
	u->joints[TRACKER_JOINT_RIGHT_HAND].position = tracker_vec3(-180, -260, 2500);
	for (int k = 0; k < 40; k++) {
		double push = k < 10 ? 0.0 : k < 30 ? 0.7 : 0.1;

		tf.time_us = k * 33333;
		u->joints[TRACKER_JOINT_RIGHT_HAND].position = tracker_vec3(
		        -180 + (k >= 10 && k < 30 ? (k - 10) * 15 : 0), 300, 2500 - push * 660);
		if (tuio_state_update(state, &tf, &out))
			send_frame(&out, config.profile, "skelbridge@test", 1472, d);
	}
	events = tuio_decoder_events(d);
	g_assert_cmpuint(g_array_index(events, TuioEvent, 0).kind, ==, TUIO_EVENT_ADD);
	g_assert_cmpuint(g_array_index(events, TuioEvent, events->len - 1).kind, ==,
	                 TUIO_EVENT_REMOVE);
	g_assert_cmpuint(events->len, ==, 1 + 19 + 1);
	/* Dragged toward the user's left: the surface's left. */
	g_assert_cmpfloat(g_array_index(events, TuioEvent, 19).x, <,
	                  g_array_index(events, TuioEvent, 0).x);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/tuio-pack/osc-size-matches-liblo", test_osc_size_matches_liblo);
	g_test_add_func("/tuio-pack/one-frame", test_one_frame);
	g_test_add_func("/tuio-pack/empty-frame-without-source", test_empty_frame_without_source);
	g_test_add_func("/tuio-pack/split-frame", test_split_frame);
	g_test_add_func("/tuio-pack/3dcur", test_3dcur);
	g_test_add_func("/tuio-pack/push-drag-release", test_push_drag_release);
	return g_test_run();
}
