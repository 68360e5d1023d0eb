/* TUIO frames as OSC bundles: source (optional), alive with every live
 * session, one set per cursor, fseq last. A frame too large for one
 * datagram is split as the reference server splits it: every part carries
 * the full alive list and the same fseq, and the sets are shared out.
 * Pure: neutral messages out, one MessageBatch per bundle. */
#pragma once

#include "mapping/message.h"
#include "mapping/tuio.h"

/* One frame's bundles, reused from frame to frame. */
typedef struct {
	GPtrArray *bundles; /* MessageBatch, the first n_bundles in use */
	guint n_bundles;
} TuioPacked;

TuioPacked *tuio_packed_new(void);
void tuio_packed_free(TuioPacked *packed);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(TuioPacked, tuio_packed_free)

/** tuio_pack_profile_address: "/tuio/2Dcur", "/tuio/25Dcur" or "/tuio/3Dcur". */
const char *tuio_pack_profile_address(TuioProfile profile);

/**
 * tuio_pack:
 * Packs @frame into bundles of at most @max_packet bytes each (unless a
 * single set cannot fit, when each part carries one). @source names the
 * sender ("skelbridge@host") or is NULL to leave the source message out.
 */
void tuio_pack(const TuioFrame *frame, TuioProfile profile, const char *source, guint max_packet,
               TuioPacked *packed);
