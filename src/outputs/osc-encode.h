/* OSC encoding: neutral messages into OSC packets (liblo's, only here).
 * Pure: no sockets, no clock; the caller gives the timetag. */
#pragma once

#include <glib.h>

#include "mapping/mapping.h"
#include "mapping/message.h"

/* Encoded packets, back to back in one buffer: reused from frame to frame. */
typedef struct {
	guint offset, length;
	guint messages; /* OSC messages in the packet */
} OscEncodeSpan;

typedef struct {
	GByteArray *data;
	GArray *spans; /* OscEncodeSpan */
} OscEncodePackets;

OscEncodePackets *osc_encode_packets_new(void);
void osc_encode_packets_free(OscEncodePackets *packets);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(OscEncodePackets, osc_encode_packets_free)

/**
 * osc_encode_encode:
 * Encodes @batch into @packets (emptied first) as the output's @bundle mode
 * says: one bundle per frame or per user, with @timetag_us (microseconds
 * since 1970) as the timetag and split into bundles of at most
 * @max_packet bytes, or one plain message per packet.
 */
void osc_encode_batch(const MessageBatch *batch, MappingBundle bundle, guint max_packet,
                      gint64 timetag_us, OscEncodePackets *packets);

/**
 * osc_encode_bundles:
 * Encodes each of @batches as exactly one bundle, in order, into @packets
 * (emptied first): for callers that lay bundles out themselves, as TUIO
 * does.
 */
void osc_encode_bundles(MessageBatch *const *batches, guint n_batches, gint64 timetag_us,
                        OscEncodePackets *packets);
