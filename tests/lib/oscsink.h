/* A liblo server inside a test: collects every OSC message sent to it, on
 * its own thread, for the test to wait for and inspect. */
#pragma once

#include <glib.h>

typedef struct {
	char type; /* 'i', 'f' or 's'; anything else is kept as its type only */
	union {
		gint32 i;
		float f;
		char *s;
	};
} OscSinkArg;

typedef struct {
	char *path;
	char *types; /* without the ',' */
	OscSinkArg *args;
	guint n_args;
} OscSinkMessage;

typedef struct _OscSink OscSink;

/** osc_sink_new: listens on @port (0: any free port) over UDP or, with @tcp, TCP. */
OscSink *osc_sink_new(gboolean tcp, int port);
/** osc_sink_new_multicast: joins @group on a free port; NULL when the system cannot. */
OscSink *osc_sink_new_multicast(const char *group);
void osc_sink_free(OscSink *sink);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(OscSink, osc_sink_free)

int osc_sink_port(OscSink *sink);
/** osc_sink_url: "osc.udp://127.0.0.1:PORT" (or osc.tcp, or the multicast group). */
char *osc_sink_url(OscSink *sink);

/** osc_sink_take: the messages received so far (OscSinkMessage); the sink starts afresh. */
GPtrArray *osc_sink_take(OscSink *sink);

/**
 * osc_sink_wait_path:
 * Waits up to @timeout_ms for a message to @path among those not yet taken.
 */
gboolean osc_sink_wait_path(OscSink *sink, const char *path, guint timeout_ms);

/** osc_sink_wait_count: waits up to @timeout_ms for @n messages not yet taken. */
gboolean osc_sink_wait_count(OscSink *sink, guint n, guint timeout_ms);
