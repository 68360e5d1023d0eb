/* OSC encoding: a frame's neutral messages into OSC packets, with liblo,
 * which only this file includes. Plain messages, or bundles per frame or
 * per user, split so that none passes the output's max_packet. */
#include "osc-encode.h"

#include <lo/lo.h>

/* Seconds from 1900 (OSC's epoch, NTP's) to 1970. */
#define NTP_UNIX_OFFSET 2208988800u

OscEncodePackets *
osc_encode_packets_new(void)
{
	OscEncodePackets *packets = g_new0(OscEncodePackets, 1);

	packets->data = g_byte_array_new();
	packets->spans = g_array_new(FALSE, FALSE, sizeof(OscEncodeSpan));
	return packets;
}

void
osc_encode_packets_free(OscEncodePackets *packets)
{
	if (packets == NULL)
		return;
	g_byte_array_unref(packets->data);
	g_array_unref(packets->spans);
	g_free(packets);
}

static lo_timetag
osc_encode_timetag(gint64 unix_us)
{
	lo_timetag tt;
	gint64 secs = unix_us / G_USEC_PER_SEC;
	guint64 us = (guint64)(unix_us - secs * G_USEC_PER_SEC);

	tt.sec = (uint32_t)(secs + NTP_UNIX_OFFSET);
	tt.frac = (uint32_t)((us << 32) / G_USEC_PER_SEC);
	return tt;
}

static lo_message
osc_encode_lo_message(const MessageBatch *batch, const Message *message)
{
	lo_message m = lo_message_new();

	for (guint k = 0; k < message->n_args; k++) {
		const MessageArg *arg = message_arg(batch, message, k);

		switch (arg->type) {
		case MESSAGE_ARG_INT32:
			lo_message_add_int32(m, arg->i);
			break;
		case MESSAGE_ARG_FLOAT32:
			lo_message_add_float(m, arg->f);
			break;
		case MESSAGE_ARG_STRING:
			lo_message_add_string(m, message_arg_string(batch, arg));
			break;
		}
	}
	return m;
}

/* Makes room for a packet of @length bytes and returns where it goes. */
static void *
osc_encode_packets_reserve(OscEncodePackets *packets, gsize length, guint messages)
{
	OscEncodeSpan span = { packets->data->len, (guint)length, messages };

	g_byte_array_set_size(packets->data, packets->data->len + (guint)length);
	g_array_append_val(packets->spans, span);
	return packets->data->data + span.offset;
}

static void
osc_encode_packets_add_message(OscEncodePackets *packets, const MessageBatch *batch,
                               const Message *message)
{
	const char *address = message_address(batch, message);
	lo_message m = osc_encode_lo_message(batch, message);
	size_t length = lo_message_length(m, address);

	lo_message_serialise(m, address, osc_encode_packets_reserve(packets, length, 1), &length);
	lo_message_free(m);
}

static void
osc_encode_packets_add_bundle(OscEncodePackets *packets, lo_bundle bundle, guint messages)
{
	size_t length = lo_bundle_length(bundle);

	lo_bundle_serialise(bundle, osc_encode_packets_reserve(packets, length, messages), &length);
}

/* A bundle being filled, flushed into the packets when the next message
 * would take it past max_packet. */
typedef struct {
	OscEncodePackets *packets;
	lo_timetag tt;
	guint max_packet;
	lo_bundle bundle;
	gsize size;
	guint messages;
} OscEncodeBundleWriter;

static void
osc_encode_bundle_flush(OscEncodeBundleWriter *w)
{
	if (w->bundle == NULL)
		return;
	osc_encode_packets_add_bundle(w->packets, w->bundle, w->messages);
	/* Plain lo_bundle_free would leak the messages. */
	lo_bundle_free_recursive(w->bundle);
	w->bundle = NULL;
}

static void
osc_encode_bundle_add(OscEncodeBundleWriter *w, const MessageBatch *batch, const Message *message)
{
	const char *address = message_address(batch, message);
	lo_message m = osc_encode_lo_message(batch, message);
	/* Each element is a 4-byte size and the message. */
	gsize element = 4 + lo_message_length(m, address);

	if (w->bundle != NULL && w->size + element > w->max_packet)
		osc_encode_bundle_flush(w);
	if (w->bundle == NULL) {
		w->bundle = lo_bundle_new(w->tt);
		w->size = 16; /* "#bundle\0" and the timetag */
		w->messages = 0;
	}
	lo_bundle_add_message(w->bundle, address, m);
	w->size += element;
	w->messages++;
}

/* The distinct users of @batch's messages, in order of first appearance. */
static GArray *
osc_encode_batch_users(const MessageBatch *batch)
{
	GArray *users = g_array_sized_new(FALSE, FALSE, sizeof(guint), 8);

	for (guint i = 0; i < message_batch_length(batch); i++) {
		guint user = message_batch_get(batch, i)->user;
		guint k = 0;

		while (k < users->len && g_array_index(users, guint, k) != user)
			k++;
		if (k == users->len)
			g_array_append_val(users, user);
	}
	return users;
}

static void
osc_encode_user(const MessageBatch *batch, guint user, OscEncodeBundleWriter *w)
{
	for (guint i = 0; i < message_batch_length(batch); i++) {
		const Message *message = message_batch_get(batch, i);

		if (message->user == user)
			osc_encode_bundle_add(w, batch, message);
	}
	osc_encode_bundle_flush(w);
}

static void
osc_encode_grouped(const MessageBatch *batch, gboolean per_user, OscEncodeBundleWriter *w)
{
	g_autoptr(GArray) users = NULL;

	if (!per_user) {
		for (guint i = 0; i < message_batch_length(batch); i++)
			osc_encode_bundle_add(w, batch, message_batch_get(batch, i));
		osc_encode_bundle_flush(w);
		return;
	}
	users = osc_encode_batch_users(batch);
	for (guint u = 0; u < users->len; u++)
		osc_encode_user(batch, g_array_index(users, guint, u), w);
}

void
osc_encode_batch(const MessageBatch *batch, MappingBundle bundle, guint max_packet,
                 gint64 timetag_us, OscEncodePackets *packets)
{
	OscEncodeBundleWriter w = {
		packets, osc_encode_timetag(timetag_us), max_packet, NULL, 0, 0
	};

	g_byte_array_set_size(packets->data, 0);
	g_array_set_size(packets->spans, 0);
	if (bundle == MAPPING_BUNDLE_NONE) {
		for (guint i = 0; i < message_batch_length(batch); i++)
			osc_encode_packets_add_message(packets, batch, message_batch_get(batch, i));
		return;
	}
	if (message_batch_length(batch) > 0)
		osc_encode_grouped(batch, bundle == MAPPING_BUNDLE_USER, &w);
}

void
osc_encode_bundles(MessageBatch *const *batches, guint n_batches, gint64 timetag_us,
                   OscEncodePackets *packets)
{
	OscEncodeBundleWriter w = {
		packets, osc_encode_timetag(timetag_us), G_MAXUINT, NULL, 0, 0
	};

	g_byte_array_set_size(packets->data, 0);
	g_array_set_size(packets->spans, 0);
	for (guint k = 0; k < n_batches; k++)
		osc_encode_grouped(batches[k], FALSE, &w);
}
