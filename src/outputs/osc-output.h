/* OSC output: neutral messages onto the wire, over UDP (unicast or
 * multicast) or TCP, encoded by osc-encode.h, or to the clients of a
 * WebSocket listener (ws-server.h): each packet as one binary message,
 * or each message as JSON text.
 *
 * The network side uses GIO so that nothing blocks the frame loop: host
 * names resolve asynchronously, TCP connects asynchronously and writes
 * without blocking, and a TCP receiver that goes away is reconnected when
 * it comes back. A target that cannot be reached costs counted, logged
 * errors, never the bridge. */
#pragma once

#include <glib.h>

#include "mapping/mapping.h"
#include "mapping/message.h"
#include "osc-encode.h"
#include "ws-server.h"

typedef struct _OscOutput OscOutput;

typedef enum {
	OSC_OUTPUT_RESOLVING,  /* looking the host name up */
	OSC_OUTPUT_CONNECTING, /* TCP: connecting */
	OSC_OUTPUT_READY,      /* sending */
	OSC_OUTPUT_RETRYING,   /* waiting to resolve or connect again */
} OscOutputState;

typedef struct {
	OscOutputState state;
	guint64 packets;        /* handed to the network */
	guint64 messages;       /* in those packets */
	guint64 errors;         /* packets that failed or could not be sent; WebSocket:
	                         * clients refused or dropped */
	const char *last_error; /* valid until the next call into the output; or NULL */
	guint clients;          /* WebSocket: connected now */
	guint64 dropped;        /* WebSocket: clients dropped (too slow, or what they sent) */
	guint64 refused;        /* WebSocket: clients refused (origin, too many) */
} OscOutputStats;

/* Called on every change worth telling: failures, recoveries, connections. */
/* @level: G_LOG_LEVEL_WARNING for a problem, G_LOG_LEVEL_INFO for a recovery. */
typedef void (*OscOutputLogFunc)(GLogLevelFlags level, const char *label, const char *message,
                                 gpointer user_data);

/**
 * osc_output_new:
 * An output sending as @config says, starting at once (on the
 * thread-default main context) to resolve and connect. @label names it in
 * logs.
 */
OscOutput *osc_output_new(const MappingOutput *config, const char *label, OscOutputLogFunc log,
                          gpointer user_data);

/**
 * osc_output_open:
 * As osc_output_new(), for outputs of every kind: a WebSocket output
 * starts listening, and fails when it cannot (a port in use). It takes
 * the listener of @previous (an output being replaced; may be NULL) when
 * that listens on the same address and port, clients and all.
 */
OscOutput *osc_output_open(const MappingOutput *config, const char *label, OscOutputLogFunc log,
                           gpointer user_data, OscOutput *previous, GError **error);
void osc_output_free(OscOutput *output);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(OscOutput, osc_output_free)

/** osc_output_send: encodes and sends @batch; never blocks. */
void osc_output_send(OscOutput *output, const MessageBatch *batch, gint64 timetag_us);

/** osc_output_send_bundles: sends each of @batches as one bundle; never blocks. */
void osc_output_send_bundles(OscOutput *output, MessageBatch *const *batches, guint n_batches,
                             gint64 timetag_us);

/**
 * osc_output_flushed:
 * Everything handed over has gone to the network (TCP keeps what the
 * receiver has not taken yet; UDP sends at once).
 */
gboolean osc_output_flushed(const OscOutput *output);

const MappingOutput *osc_output_config(const OscOutput *output);
const char *osc_output_label(const OscOutput *output);
void osc_output_get_stats(const OscOutput *output, OscOutputStats *stats);
const char *osc_output_state_name(OscOutputState state);

/** osc_output_ws_server: a WebSocket output's listener; NULL for other kinds. */
WsServer *osc_output_ws_server(const OscOutput *output);
