/* A strict TUIO 1.1 cursor-profile decoder for tests: it reads datagrams
 * as a client would, byte by byte, and rejects anything the reference
 * clients would misread or the specification forbids: OSC framing and
 * padding, type tags, message order (source, alive, set..., fseq last),
 * value ranges, fseq that goes backwards, sets for ids not alive, alive
 * lists that differ within one split frame, reused session ids, and
 * datagrams larger than allowed. It turns the stream into add, update and
 * remove events. */
#pragma once

#include <glib.h>

typedef enum {
	TUIO_EVENT_ADD,
	TUIO_EVENT_UPDATE,
	TUIO_EVENT_REMOVE,
} TuioEventKind;

typedef struct {
	TuioEventKind kind;
	gint32 session;
	gint32 fseq;
	float x, y, z; /* z is 0 in the 2Dcur profile */
	float vx, vy, vz, accel;
} TuioEvent;

typedef struct _TuioDecoder TuioDecoder;

/** @profile: "2Dcur", "25Dcur" or "3Dcur". */
TuioDecoder *tuio_decoder_new(const char *profile, gsize max_datagram);
void tuio_decoder_free(TuioDecoder *decoder);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(TuioDecoder, tuio_decoder_free)

/** tuio_decoder_feed: checks one datagram and applies it. */
gboolean tuio_decoder_feed(TuioDecoder *decoder, const guint8 *data, gsize len, GError **error);

/** tuio_decoder_finish: checks that the last frame set all its sessions. */
gboolean tuio_decoder_finish(TuioDecoder *decoder, GError **error);

/** Every event so far, in order (TuioEvent). */
const GArray *tuio_decoder_events(const TuioDecoder *decoder);
guint tuio_decoder_n_bundles(const TuioDecoder *decoder);
/** The sessions alive after the last bundle. */
guint tuio_decoder_n_alive(const TuioDecoder *decoder);
gint32 tuio_decoder_last_fseq(const TuioDecoder *decoder);
/** The source name last announced, or NULL. */
const char *tuio_decoder_source(const TuioDecoder *decoder);

/**
 * tuio_decoder_peek_source:
 * The source named by the first message of the bundle @data, or NULL when
 * it has none; newly allocated. For a test that hands each source's
 * datagrams to a decoder of its own.
 */
char *tuio_decoder_peek_source(const guint8 *data, gsize len);

/**
 * tuio_reference_accepts:
 * Whether the reference client (TUIO11_CPP's TuioClient, as TuioDump uses
 * it) takes a frame with @fseq, given the last frame it took,
 * @current_frame (-1 at first), which it updates. It keeps one
 * @current_frame for every source and drops a frame up to 100 behind it as
 * late; fseq -1 (a redundant frame) always goes through.
 */
gboolean tuio_reference_accepts(gint32 *current_frame, gint32 fseq);
