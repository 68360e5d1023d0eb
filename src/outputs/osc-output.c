#include "osc-output.h"

#include <errno.h>
#include <math.h>
#include <gio/gio.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>

/* Retry delays for resolving and connecting. */
#define BACKOFF_MIN_MS 100
#define BACKOFF_MAX_MS 2000
/* A TCP connection after a failure counts as recovered (back-off reset,
 * "connected" logged) once it has held this long: a receiver that accepts
 * and closes at once is a failure that repeats, not a recovery each time. */
#define STABLE_MS 1000
/* A TCP receiver this far behind is not reading: drop rather than queue. */
#define TCP_PENDING_MAX (1024 * 1024)
/* The most that waits for a connection on its way: a second or more of
 * frames of several users. */
#define TCP_HOLD_MAX (256 * 1024)

/* ---- sending ---- */

struct _OscOutput {
	MappingOutput config;
	char *label;
	OscOutputLogFunc log;
	gpointer user_data;
	OscEncodePackets *packets; /* scratch: the frame being sent */
	GCancellable *cancellable; /* the resolve or connect under way */
	GSocketAddress *address;   /* NULL until resolved */
	GSocket *socket;           /* UDP: ours; TCP: the connection's */
	GSocketConnection *connection;
	GSource *retry;
	GSource *stable;      /* TCP: a new connection after a failure, holding */
	GSource *read_watch;  /* TCP: notices the receiver going away */
	GSource *write_watch; /* TCP: pending bytes can go */
	GByteArray *pending;  /* TCP: framed packets not yet written */
	GArray *vectors;      /* UDP: GOutputVector, one per packet of the frame */
	GArray *datagrams;    /* UDP: GOutputMessage, one per packet of the frame */
	guint backoff_ms;
	OscOutputState state;
	guint64 packets_sent, messages_sent, errors;
	/* TCP, not connected yet: the latest frame, held in pending until the
	 * connection is made (a TUIO client would otherwise miss the first). */
	guint held_packets, held_messages;
	char *last_error; /* while failing */
	char *last_kind;  /* what kind of failure it is, for telling repeats */
	guint repeats;    /* the times a failure of that kind came again unlogged */
	WsServer *ws;     /* kind websocket: the listener */
	GString *json;    /* kind websocket, format json: scratch */
};

static void osc_output_advance(OscOutput *o);

const char *
osc_output_state_name(OscOutputState state)
{
	switch (state) {
	case OSC_OUTPUT_RESOLVING:
		return "resolving";
	case OSC_OUTPUT_CONNECTING:
		return "connecting";
	case OSC_OUTPUT_READY:
		return "ok";
	case OSC_OUTPUT_RETRYING:
		return "retrying";
	}
	return "?";
}

static void osc_output_log(OscOutput *o, GLogLevelFlags level, const char *format, ...)
        G_GNUC_PRINTF(3, 4);

static void
osc_output_log(OscOutput *o, GLogLevelFlags level, const char *format, ...)
{
	g_autofree char *message = NULL;
	va_list args;

	va_start(args, format);
	message = g_strdup_vprintf(format, args);
	va_end(args);
	if (o->log != NULL)
		o->log(level, o->label, message, o->user_data);
}

/* Logs a problem when it is of a new @kind, so that a dead target does not
 * flood the log; the times one came again are counted, and told with what
 * ends it. */
static void
osc_output_problem_of(OscOutput *o, const char *kind, const char *message)
{
	g_free(o->last_error);
	o->last_error = g_strdup(message);
	if (g_strcmp0(o->last_kind, kind) == 0) {
		o->repeats++;
		return;
	}
	if (o->repeats > 0)
		osc_output_log(o, G_LOG_LEVEL_WARNING, "%s (the failure before came %u more times)",
		               message, o->repeats);
	else
		osc_output_log(o, G_LOG_LEVEL_WARNING, "%s", message);
	g_free(o->last_kind);
	o->last_kind = g_strdup(kind);
	o->repeats = 0;
}

static void
osc_output_problem(OscOutput *o, const char *message)
{
	osc_output_problem_of(o, message, message);
}

static void
osc_output_recovered(OscOutput *o, const char *message)
{
	if (o->last_error != NULL && o->repeats > 0)
		osc_output_log(o, G_LOG_LEVEL_INFO, "%s (the failure came %u more times before)",
		               message, o->repeats);
	else if (o->last_error != NULL)
		osc_output_log(o, G_LOG_LEVEL_INFO, "%s", message);
	g_clear_pointer(&o->last_error, g_free);
	g_clear_pointer(&o->last_kind, g_free);
	o->repeats = 0;
	o->backoff_ms = BACKOFF_MIN_MS;
}

static void
osc_output_clear_source(GSource **source)
{
	if (*source == NULL)
		return;
	g_source_destroy(*source);
	g_source_unref(*source);
	*source = NULL;
}

static gboolean
osc_output_retry_due(gpointer user_data)
{
	OscOutput *o = user_data;

	osc_output_clear_source(&o->retry);
	osc_output_advance(o);
	return G_SOURCE_REMOVE;
}

/* Tries the failed step again after a delay that grows with each failure. */
static void
osc_output_retry(OscOutput *o)
{
	o->state = OSC_OUTPUT_RETRYING;
	osc_output_clear_source(&o->retry);
	o->retry = g_timeout_source_new(o->backoff_ms);
	g_source_set_callback(o->retry, osc_output_retry_due, o, NULL);
	g_source_set_name(o->retry, "skelbridge output retry");
	g_source_attach(o->retry, g_main_context_get_thread_default());
	o->backoff_ms = MIN(o->backoff_ms * 2, BACKOFF_MAX_MS);
}

/* ---- UDP ---- */

static gboolean
osc_output_multicast_interface(OscOutput *o, GError **error)
{
	struct ip_mreqn request = { 0 };

	request.imr_ifindex = (int)if_nametoindex(o->config.interface);
	if (request.imr_ifindex == 0) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "no network interface '%s'",
		            o->config.interface);
		return FALSE;
	}
	if (setsockopt(g_socket_get_fd(o->socket), IPPROTO_IP, IP_MULTICAST_IF, &request,
	               sizeof(request)) != 0) {
		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno),
		            "cannot send multicast on '%s': %s", o->config.interface,
		            g_strerror(errno));
		return FALSE;
	}
	return TRUE;
}

static gboolean
osc_output_multicast(OscOutput *o, GError **error)
{
	GInetAddress *inet = g_inet_socket_address_get_address(G_INET_SOCKET_ADDRESS(o->address));

	if (!g_inet_address_get_is_multicast(inet))
		return TRUE;
	g_socket_set_multicast_ttl(o->socket, o->config.ttl);
	/* Receivers on this machine hear the group too. */
	g_socket_set_multicast_loopback(o->socket, TRUE);
	return o->config.interface == NULL || osc_output_multicast_interface(o, error);
}

static void
osc_output_open_udp(OscOutput *o)
{
	g_autoptr(GError) error = NULL;

	o->socket = g_socket_new(g_socket_address_get_family(o->address), G_SOCKET_TYPE_DATAGRAM,
	                         G_SOCKET_PROTOCOL_UDP, &error);
	if (o->socket != NULL && osc_output_multicast(o, &error)) {
		g_socket_set_blocking(o->socket, FALSE);
		/* A broadcast address (192.168.1.255) needs it; others ignore it. */
		g_socket_set_broadcast(o->socket, TRUE);
		/* Connected, the socket takes datagrams from the target alone:
		 * skelbridge offers no open UDP port to the network. */
		if (g_socket_connect(o->socket, o->address, NULL, &error)) {
			o->state = OSC_OUTPUT_READY;
			return;
		}
	}
	g_clear_object(&o->socket);
	osc_output_problem(o, error->message);
	osc_output_retry(o);
}

/* Points o->datagrams at the frame's packets, for one sendmmsg() call. */
static void
osc_output_udp_prepare(OscOutput *o)
{
	guint n = o->packets->spans->len;

	g_array_set_size(o->vectors, n);
	g_array_set_size(o->datagrams, n);
	for (guint i = 0; i < n; i++) {
		const OscEncodeSpan *span = &g_array_index(o->packets->spans, OscEncodeSpan, i);
		GOutputVector *vector = &g_array_index(o->vectors, GOutputVector, i);
		GOutputMessage *datagram = &g_array_index(o->datagrams, GOutputMessage, i);

		vector->buffer = o->packets->data->data + span->offset;
		vector->size = span->length;
		memset(datagram, 0, sizeof(*datagram));
		datagram->address = NULL; /* the connected target */
		datagram->vectors = vector;
		datagram->num_vectors = 1;
	}
}

/* A frame in plain messages is many datagrams: one system call sends them. */
static void
osc_output_send_udp(OscOutput *o)
{
	guint n = o->packets->spans->len, done = 0;

	osc_output_udp_prepare(o);
	while (done < n) {
		g_autoptr(GError) error = NULL;
		GOutputMessage *next = &g_array_index(o->datagrams, GOutputMessage, done);
		gint sent = g_socket_send_messages(o->socket, next, n - done, 0, NULL, &error);

		/* A connected UDP socket hears of a closed port from an earlier
		 * datagram's ICMP reply, and sends nothing this time: nobody
		 * listens yet, which is normal (Pd started later); send again. */
		if (sent < 0 && g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED)) {
			g_clear_error(&error);
			sent = g_socket_send_messages(o->socket, next, n - done, 0, NULL, &error);
		}
		if (sent < 0) {
			/* Only the first failed: count it and go on with the rest. */
			o->errors++;
			osc_output_problem(o, error->message);
			done++;
			continue;
		}
		for (guint i = done; i < done + (guint)sent; i++)
			o->messages_sent +=
			        g_array_index(o->packets->spans, OscEncodeSpan, i).messages;
		o->packets_sent += (guint)sent;
		done += (guint)sent;
		osc_output_recovered(o, "sending again");
	}
}

/* ---- TCP ---- */

static void
osc_output_tcp_close(OscOutput *o)
{
	osc_output_clear_source(&o->stable);
	osc_output_clear_source(&o->read_watch);
	osc_output_clear_source(&o->write_watch);
	if (o->connection != NULL)
		g_io_stream_close(G_IO_STREAM(o->connection), NULL, NULL);
	g_clear_object(&o->connection);
	o->socket = NULL;
	/* A packet cut in the middle cannot be finished on a new connection. */
	g_byte_array_set_size(o->pending, 0);
	o->held_packets = o->held_messages = 0;
}

static void
osc_output_tcp_lost(OscOutput *o, const char *reason)
{
	g_autofree char *message = g_strdup_printf("connection lost (%s); reconnecting", reason);

	/* (The back-off goes on growing unless the connection had held.) */
	osc_output_problem_of(o, "connection lost", message);
	osc_output_tcp_close(o);
	osc_output_retry(o);
}

static void osc_output_tcp_flush(OscOutput *o);
static void osc_output_tcp_release(OscOutput *o);

static gboolean
osc_output_tcp_writable(GSocket *socket G_GNUC_UNUSED, GIOCondition condition G_GNUC_UNUSED,
                        gpointer user_data)
{
	OscOutput *o = user_data;

	osc_output_clear_source(&o->write_watch);
	osc_output_tcp_flush(o);
	return G_SOURCE_REMOVE;
}

static void
osc_output_tcp_flush(OscOutput *o)
{
	while (o->pending->len > 0) {
		g_autoptr(GError) error = NULL;
		gssize n = g_socket_send(o->socket, (const char *)o->pending->data, o->pending->len,
		                         NULL, &error);

		if (n < 0 && g_error_matches(error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK)) {
			if (o->write_watch == NULL) {
				o->write_watch = g_socket_create_source(o->socket, G_IO_OUT, NULL);
				g_source_set_callback(o->write_watch,
				                      G_SOURCE_FUNC(osc_output_tcp_writable), o,
				                      NULL);
				g_source_attach(o->write_watch,
				                g_main_context_get_thread_default());
			}
			return;
		}
		if (n < 0) {
			osc_output_tcp_lost(o, error->message);
			return;
		}
		g_byte_array_remove_range(o->pending, 0, (guint)n);
	}
}

/* Receivers do not talk back: readable means gone (or a stray byte). */
static gboolean
osc_output_tcp_readable(GSocket *socket, GIOCondition condition G_GNUC_UNUSED, gpointer user_data)
{
	OscOutput *o = user_data;
	g_autoptr(GError) error = NULL;
	char buffer[512];
	gssize n = g_socket_receive(socket, buffer, sizeof(buffer), NULL, &error);

	if (n == 0)
		osc_output_tcp_lost(o, "the receiver closed it");
	else if (n < 0 && !g_error_matches(error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
		osc_output_tcp_lost(o, error->message);
	return o->read_watch != NULL ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

/* A connection made after a failure has held: the output has recovered. */
static gboolean
osc_output_tcp_held(gpointer user_data)
{
	OscOutput *o = user_data;

	osc_output_clear_source(&o->stable);
	osc_output_recovered(o, "connected");
	return G_SOURCE_REMOVE;
}

static void
osc_output_tcp_ready(OscOutput *o, GSocketConnection *connection)
{
	o->connection = connection;
	o->socket = g_socket_connection_get_socket(connection);
	g_socket_set_blocking(o->socket, FALSE);
	/* The connect timeout stays on the socket and would make the quiet
	 * read watch report a timeout: a silent receiver is a healthy one. */
	g_socket_set_timeout(o->socket, 0);
	/* Frames are small and late is useless: no Nagle delay. */
	g_socket_set_option(o->socket, IPPROTO_TCP, TCP_NODELAY, 1, NULL);
	o->read_watch = g_socket_create_source(o->socket, G_IO_IN | G_IO_HUP | G_IO_ERR, NULL);
	g_source_set_callback(o->read_watch, G_SOURCE_FUNC(osc_output_tcp_readable), o, NULL);
	g_source_attach(o->read_watch, g_main_context_get_thread_default());
	o->state = OSC_OUTPUT_READY;
	if (o->last_error == NULL) {
		osc_output_recovered(o, "connected");
	} else {
		o->stable = g_timeout_source_new(STABLE_MS);
		g_source_set_callback(o->stable, osc_output_tcp_held, o, NULL);
		g_source_set_name(o->stable, "skelbridge output connection held");
		g_source_attach(o->stable, g_main_context_get_thread_default());
	}
	osc_output_tcp_release(o);
}

static void
osc_output_connected(GObject *client, GAsyncResult *result, gpointer user_data)
{
	g_autoptr(GError) error = NULL;
	GSocketConnection *connection =
	        g_socket_client_connect_finish(G_SOCKET_CLIENT(client), result, &error);
	OscOutput *o = user_data;

	/* Cancelled: the output is gone. */
	if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
		return;
	g_clear_object(&o->cancellable);
	if (connection == NULL) {
		osc_output_problem(o, error->message);
		osc_output_retry(o);
		return;
	}
	osc_output_tcp_ready(o, connection);
}

static void
osc_output_connect(OscOutput *o)
{
	g_autoptr(GSocketClient) client = g_socket_client_new();

	o->state = OSC_OUTPUT_CONNECTING;
	o->cancellable = g_cancellable_new();
	g_socket_client_set_timeout(client, 2);
	g_socket_client_connect_async(client, G_SOCKET_CONNECTABLE(o->address), o->cancellable,
	                              osc_output_connected, o);
}

/* Frames the packets in o->packets onto o->pending: OSC over TCP
 * (liblo's osc.tcp, TUIO) puts a 4-byte big-endian length before each.
 * Returns the packets taken, and adds their messages to @messages. */
static guint
osc_output_tcp_frame(OscOutput *o, guint *messages)
{
	guint taken = 0;

	for (guint i = 0; i < o->packets->spans->len; i++) {
		const OscEncodeSpan *span = &g_array_index(o->packets->spans, OscEncodeSpan, i);
		guint32 length = GUINT32_TO_BE(span->length);

		if (o->pending->len + 4 + span->length > TCP_PENDING_MAX) {
			o->errors++;
			osc_output_problem(o, "the receiver is not reading; dropping messages");
			continue;
		}
		g_byte_array_append(o->pending, (const guint8 *)&length, 4);
		g_byte_array_append(o->pending, o->packets->data->data + span->offset,
		                    span->length);
		taken++;
		*messages += span->messages;
	}
	return taken;
}

/* Not connected. While a connection is on its way (the name resolving,
 * the connect in flight: a fraction of a second, longer on a loaded
 * machine) frames wait for it in order, up to TCP_HOLD_MAX bytes, so that
 * a receiver misses none of the first ones. Waiting to retry, this frame
 * replaces the one held (which is lost): a receiver that comes back gets
 * the present, not a burst of the past. */
static void
osc_output_tcp_hold(OscOutput *o)
{
	gboolean on_its_way = o->state == OSC_OUTPUT_RESOLVING || o->state == OSC_OUTPUT_CONNECTING;

	if (!on_its_way || o->pending->len > TCP_HOLD_MAX) {
		o->errors += o->held_packets;
		g_byte_array_set_size(o->pending, 0);
		o->held_messages = 0;
		o->held_packets = 0;
	}
	o->held_packets += osc_output_tcp_frame(o, &o->held_messages);
}

/* Connected: what was held goes first. */
static void
osc_output_tcp_release(OscOutput *o)
{
	o->packets_sent += o->held_packets;
	o->messages_sent += o->held_messages;
	o->held_packets = o->held_messages = 0;
	osc_output_tcp_flush(o);
}

static void
osc_output_send_tcp(OscOutput *o)
{
	guint messages = 0;

	o->packets_sent += osc_output_tcp_frame(o, &messages);
	o->messages_sent += messages;
	osc_output_tcp_flush(o);
}

/* ---- resolving ---- */

/* Receivers (liblo, Pd) mostly listen on IPv4: prefer it. */
static GInetAddress *
osc_output_pick_address(GList *addresses)
{
	for (GList *l = addresses; l != NULL; l = l->next) {
		if (g_inet_address_get_family(l->data) == G_SOCKET_FAMILY_IPV4)
			return l->data;
	}
	return addresses->data;
}

static void
osc_output_have_address(OscOutput *o, GInetAddress *inet)
{
	o->address = g_inet_socket_address_new(inet, (guint16)o->config.target.port);
	osc_output_advance(o);
}

static void
osc_output_resolved(GObject *resolver, GAsyncResult *result, gpointer user_data)
{
	g_autoptr(GError) error = NULL;
	GList *addresses = g_resolver_lookup_by_name_finish(G_RESOLVER(resolver), result, &error);
	OscOutput *o = user_data;

	if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
		return;
	g_clear_object(&o->cancellable);
	if (addresses == NULL) {
		osc_output_problem(o, error->message);
		osc_output_retry(o);
		return;
	}
	osc_output_have_address(o, osc_output_pick_address(addresses));
	g_resolver_free_addresses(addresses);
}

static void
osc_output_resolve(OscOutput *o)
{
	g_autoptr(GInetAddress) literal = g_inet_address_new_from_string(o->config.target.host);
	g_autoptr(GResolver) resolver = NULL;

	if (literal != NULL) {
		osc_output_have_address(o, literal);
		return;
	}
	o->state = OSC_OUTPUT_RESOLVING;
	o->cancellable = g_cancellable_new();
	resolver = g_resolver_get_default();
	g_resolver_lookup_by_name_async(resolver, o->config.target.host, o->cancellable,
	                                osc_output_resolved, o);
}

/* ---- WebSocket ---- */

/* Each packet, bundle or message, as one binary message: osc.js's way. */
static void
osc_output_send_ws(OscOutput *o)
{
	for (guint i = 0; i < o->packets->spans->len; i++) {
		const OscEncodeSpan *span = &g_array_index(o->packets->spans, OscEncodeSpan, i);

		ws_server_broadcast(o->ws, FALSE, o->packets->data->data + span->offset,
		                    span->length);
		o->packets_sent++;
		o->messages_sent += span->messages;
	}
}

static void
osc_output_json_string(GString *s, const char *text)
{
	g_string_append_c(s, '"');
	for (const char *c = text; *c != '\0'; c++) {
		if (*c == '"' || *c == '\\')
			g_string_append_printf(s, "\\%c", *c);
		else if ((guchar)*c < 0x20)
			g_string_append_printf(s, "\\u%04x", (guchar)*c);
		else
			g_string_append_c(s, *c);
	}
	g_string_append_c(s, '"');
}

static void
osc_output_json_arg(GString *s, const MessageBatch *batch, const MessageArg *arg)
{
	char number[G_ASCII_DTOSTR_BUF_SIZE];

	switch (arg->type) {
	case MESSAGE_ARG_INT32:
		g_string_append_printf(s, "%" G_GINT32_FORMAT, arg->i);
		break;
	case MESSAGE_ARG_FLOAT32:
		/* JSON has no NaN or infinity. */
		if (!isfinite(arg->f))
			g_string_append(s, "null");
		else
			g_string_append(
			        s, g_ascii_formatd(number, sizeof(number), "%.9g", (double)arg->f));
		break;
	case MESSAGE_ARG_STRING:
		osc_output_json_string(s, message_arg_string(batch, arg));
		break;
	}
}

/* {"address": "/skel/user1/head", "args": [0.1, 0.5, 2.9, 1], "time": 1764950000.25} */
static void
osc_output_json_message(GString *s, const MessageBatch *batch, const Message *m, gint64 timetag_us)
{
	g_string_assign(s, "{\"address\": ");
	osc_output_json_string(s, message_address(batch, m));
	g_string_append(s, ", \"args\": [");
	for (guint a = 0; a < m->n_args; a++) {
		if (a > 0)
			g_string_append(s, ", ");
		osc_output_json_arg(s, batch, message_arg(batch, m, a));
	}
	g_string_append_printf(s, "], \"time\": %" G_GINT64_FORMAT ".%06d}",
	                       timetag_us / G_USEC_PER_SEC, (int)(timetag_us % G_USEC_PER_SEC));
}

static void
osc_output_send_json(OscOutput *o, const MessageBatch *batch, gint64 timetag_us)
{
	for (guint i = 0; i < message_batch_length(batch); i++) {
		osc_output_json_message(o->json, batch, message_batch_get(batch, i), timetag_us);
		ws_server_broadcast(o->ws, TRUE, o->json->str, o->json->len);
		o->packets_sent++;
		o->messages_sent++;
	}
}

static void
osc_output_ws_setup(const MappingOutput *config, WsServerSetup *setup)
{
	setup->host = config->target.host;
	setup->port = config->target.port;
	setup->path = config->target.path;
	setup->allow_origins = (const char *const *)config->websocket.allow_origins;
	setup->max_clients = config->websocket.max_clients;
}

static void
osc_output_ws_log(GLogLevelFlags level, const char *label G_GNUC_UNUSED, const char *message,
                  gpointer user_data)
{
	OscOutput *o = user_data;

	if (o->log != NULL)
		o->log(level, o->label, message, o->user_data);
}

/* Takes @previous's listener when it listens where @o would. */
static gboolean
osc_output_ws_listen(OscOutput *o, OscOutput *previous, GError **error)
{
	WsServerSetup setup;

	osc_output_ws_setup(&o->config, &setup);
	if (previous != NULL && previous->ws != NULL && ws_server_matches(previous->ws, &setup)) {
		o->ws = g_steal_pointer(&previous->ws);
		ws_server_configure(o->ws, &setup, o->label);
		/* The monitor's pages go with monitor = true; the clients stay. */
		if (!o->config.websocket.monitor)
			ws_server_clear_routes(o->ws);
	} else {
		o->ws = ws_server_new(&setup, o->label, osc_output_ws_log, o, error);
	}
	if (o->ws == NULL)
		return FALSE;
	/* The listener logs through the output that holds it now. */
	ws_server_set_log(o->ws, osc_output_ws_log, o);
	o->json = g_string_new(NULL);
	o->state = OSC_OUTPUT_READY;
	return TRUE;
}

/* ---- the output ---- */

/* The next step towards sending: resolve, then connect or open a socket. */
static void
osc_output_advance(OscOutput *o)
{
	if (o->address == NULL)
		osc_output_resolve(o);
	else if (o->config.target.transport == MAPPING_TRANSPORT_TCP)
		osc_output_connect(o);
	else
		osc_output_open_udp(o);
}

static OscOutput *
osc_output_make(const MappingOutput *config, const char *label, OscOutputLogFunc log,
                gpointer user_data)
{
	OscOutput *o = g_new0(OscOutput, 1);

	o->config = *config;
	o->config.name = g_strdup(config->name);
	mapping_target_copy(&o->config.target, &config->target);
	o->config.interface = g_strdup(config->interface);
	o->config.websocket.allow_origins = g_strdupv(config->websocket.allow_origins);
	o->label = g_strdup(label);
	o->log = log;
	o->user_data = user_data;
	o->packets = osc_encode_packets_new();
	o->pending = g_byte_array_new();
	o->vectors = g_array_new(FALSE, FALSE, sizeof(GOutputVector));
	o->datagrams = g_array_new(FALSE, FALSE, sizeof(GOutputMessage));
	o->backoff_ms = BACKOFF_MIN_MS;
	return o;
}

OscOutput *
osc_output_new(const MappingOutput *config, const char *label, OscOutputLogFunc log,
               gpointer user_data)
{
	OscOutput *o;

	g_return_val_if_fail(config->kind != MAPPING_OUTPUT_WEBSOCKET, NULL);
	o = osc_output_make(config, label, log, user_data);
	osc_output_advance(o);
	return o;
}

OscOutput *
osc_output_open(const MappingOutput *config, const char *label, OscOutputLogFunc log,
                gpointer user_data, OscOutput *previous, GError **error)
{
	g_autoptr(OscOutput) o = NULL;

	if (config->kind != MAPPING_OUTPUT_WEBSOCKET)
		return osc_output_new(config, label, log, user_data);
	o = osc_output_make(config, label, log, user_data);
	if (!osc_output_ws_listen(o, previous, error))
		return NULL;
	return g_steal_pointer(&o);
}

void
osc_output_free(OscOutput *o)
{
	if (o == NULL)
		return;
	if (o->cancellable != NULL)
		g_cancellable_cancel(o->cancellable);
	g_clear_object(&o->cancellable);
	g_clear_pointer(&o->ws, ws_server_free);
	if (o->json != NULL)
		g_string_free(o->json, TRUE);
	/* Whatever the kernel takes now still reaches the receiver. */
	if (o->connection != NULL)
		osc_output_tcp_flush(o);
	osc_output_clear_source(&o->retry);
	if (o->config.target.transport == MAPPING_TRANSPORT_TCP)
		osc_output_tcp_close(o);
	else
		g_clear_object(&o->socket);
	g_clear_object(&o->address);
	g_byte_array_unref(o->pending);
	g_array_unref(o->vectors);
	g_array_unref(o->datagrams);
	osc_encode_packets_free(o->packets);
	g_free(o->last_error);
	g_free(o->last_kind);
	g_free(o->label);
	g_free(o->config.name);
	mapping_target_clear(&o->config.target);
	g_free(o->config.interface);
	g_strfreev(o->config.websocket.allow_origins);
	g_free(o);
}

/* Sends what is encoded in o->packets. */
static void
osc_output_transmit(OscOutput *o)
{
	if (o->ws != NULL) {
		osc_output_send_ws(o);
		return;
	}
	if (o->state != OSC_OUTPUT_READY && o->config.target.transport == MAPPING_TRANSPORT_TCP) {
		osc_output_tcp_hold(o);
		return;
	}
	if (o->state != OSC_OUTPUT_READY) {
		o->errors += o->packets->spans->len;
		return;
	}
	if (o->config.target.transport == MAPPING_TRANSPORT_TCP)
		osc_output_send_tcp(o);
	else
		osc_output_send_udp(o);
}

void
osc_output_send(OscOutput *o, const MessageBatch *batch, gint64 timetag_us)
{
	if (message_batch_length(batch) == 0)
		return;
	if (o->ws != NULL && o->config.websocket.format == MAPPING_WS_JSON) {
		osc_output_send_json(o, batch, timetag_us);
		return;
	}
	osc_encode_batch(batch, o->config.bundle, o->config.max_packet, timetag_us, o->packets);
	osc_output_transmit(o);
}

void
osc_output_send_bundles(OscOutput *o, MessageBatch *const *batches, guint n_batches,
                        gint64 timetag_us)
{
	osc_encode_bundles(batches, n_batches, timetag_us, o->packets);
	osc_output_transmit(o);
}

gboolean
osc_output_flushed(const OscOutput *o)
{
	return o->state != OSC_OUTPUT_READY || o->pending->len == 0;
}

const MappingOutput *
osc_output_config(const OscOutput *o)
{
	return &o->config;
}

const char *
osc_output_label(const OscOutput *o)
{
	return o->label;
}

void
osc_output_get_stats(const OscOutput *o, OscOutputStats *stats)
{
	stats->state = o->state;
	stats->packets = o->packets_sent;
	stats->messages = o->messages_sent;
	stats->errors = o->errors;
	stats->last_error = o->last_error;
	stats->clients = 0;
	stats->dropped = stats->refused = 0;
	if (o->ws != NULL) {
		WsServerStats ws;

		ws_server_get_stats(o->ws, &ws);
		stats->clients = ws.clients;
		stats->dropped = ws.dropped;
		stats->refused = ws.refused;
		stats->errors += ws.dropped + ws.refused;
	}
}

WsServer *
osc_output_ws_server(const OscOutput *o)
{
	return o->ws;
}
