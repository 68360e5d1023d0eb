#include "ws-server.h"

#include <libsoup/soup.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

typedef struct {
	char *prefix;
	WsServerGetFunc func;
	gpointer user_data;
	GDestroyNotify destroy;
} WsRoute;

typedef struct {
	WsServer *server;
	SoupWebsocketConnection *conn;
	GSocket *socket; /* the connection's, to ask the kernel what the client took */
	char *peer;      /* "127.0.0.1:50312", for logs */
	guint64 handed;  /* bytes on the wire given to libsoup for this client */
	guint64 acked0;  /* the kernel's count of bytes the client acknowledged, at the start */
	char *error;     /* what went wrong, told when it closes */
	gboolean closed;
} WsClient;

struct _WsServer {
	SoupServer *soup;
	GSocketService *service; /* accepts the connections, see ws_server_incoming() */
	GHashTable *peers;       /* "address:port" of each connection's peer -> WsServerPeer */
	char *label;
	WsServerLogFunc log;
	gpointer user_data;
	char *host;
	guint port;
	char *path;
	char **allow_origins; /* NULL: the listener's own, file:// and null */
	guint max_clients;
	GPtrArray *clients; /* WsClient */
	GPtrArray *routes;  /* WsRoute */
	gboolean sending;   /* in ws_server_broadcast: closed clients wait to be reaped */
	WsServerStats stats;
};

static void ws_server_log(WsServer *s, GLogLevelFlags level, const char *format, ...)
        G_GNUC_PRINTF(3, 4);

/* A connection's peer, while the connection lasts. */
typedef struct {
	WsServer *server;
	char *peer;          /* "address:port" */
	GObject *connection; /* not held: watched, NULL once it is gone */
	GSocket *socket;
} WsServerPeer;

static void ws_server_connection_gone(gpointer data, GObject *connection);

static void
ws_server_peer_free(gpointer data)
{
	WsServerPeer *p = data;

	if (p->connection != NULL)
		g_object_weak_unref(p->connection, ws_server_connection_gone, p);
	g_object_unref(p->socket);
	g_free(p->peer);
	g_free(p);
}

static void
ws_server_log(WsServer *s, GLogLevelFlags level, const char *format, ...)
{
	g_autofree char *message = NULL;
	va_list args;

	va_start(args, format);
	message = g_strdup_vprintf(format, args);
	va_end(args);
	if (s->log != NULL)
		s->log(level, s->label, message, s->user_data);
}

/* ---- routes ---- */

static void
ws_route_free(gpointer data)
{
	WsRoute *route = data;

	if (route->destroy != NULL)
		route->destroy(route->user_data);
	g_free(route->prefix);
	g_free(route);
}

static gboolean
ws_route_matches(const WsRoute *route, const char *path)
{
	gsize n = strlen(route->prefix);

	if (n > 0 && route->prefix[n - 1] == '/')
		return strncmp(path, route->prefix, n) == 0;
	return strcmp(path, route->prefix) == 0;
}

/* The route with the longest prefix that takes @path. */
static const WsRoute *
ws_server_find_route(const WsServer *s, const char *path)
{
	const WsRoute *best = NULL;

	for (guint i = 0; i < s->routes->len; i++) {
		const WsRoute *route = g_ptr_array_index(s->routes, i);

		if (ws_route_matches(route, path) &&
		    (best == NULL || strlen(route->prefix) > strlen(best->prefix)))
			best = route;
	}
	return best;
}

void
ws_server_remove_route(WsServer *s, const char *prefix)
{
	for (guint i = 0; i < s->routes->len; i++) {
		const WsRoute *route = g_ptr_array_index(s->routes, i);

		if (strcmp(route->prefix, prefix) == 0) {
			g_ptr_array_remove_index(s->routes, i);
			return;
		}
	}
}

void
ws_server_add_route(WsServer *s, const char *prefix, WsServerGetFunc func, gpointer user_data,
                    GDestroyNotify destroy)
{
	WsRoute *route = g_new0(WsRoute, 1);

	g_return_if_fail(prefix != NULL && prefix[0] == '/' && func != NULL);
	ws_server_remove_route(s, prefix);
	route->prefix = g_strdup(prefix);
	route->func = func;
	route->user_data = user_data;
	route->destroy = destroy;
	g_ptr_array_add(s->routes, route);
}

void
ws_server_clear_routes(WsServer *s)
{
	g_ptr_array_set_size(s->routes, 0);
}

static void
ws_server_http(SoupServer *soup G_GNUC_UNUSED, SoupServerMessage *msg, const char *path,
               GHashTable *query G_GNUC_UNUSED, gpointer user_data)
{
	WsServer *s = user_data;
	const char *method = soup_server_message_get_method(msg);
	const WsRoute *route = ws_server_find_route(s, path);
	const char *content_type = "application/octet-stream";
	g_autoptr(GBytes) body = NULL;
	SoupMessageHeaders *headers = soup_server_message_get_response_headers(msg);

	if (strcmp(method, SOUP_METHOD_GET) != 0 && strcmp(method, SOUP_METHOD_HEAD) != 0) {
		soup_message_headers_append(headers, "Allow", "GET, HEAD");
		soup_server_message_set_status(msg, SOUP_STATUS_METHOD_NOT_ALLOWED, NULL);
		return;
	}
	if (route != NULL)
		body = route->func(path, &content_type, route->user_data);
	if (body == NULL) {
		soup_server_message_set_status(msg, SOUP_STATUS_NOT_FOUND, NULL);
		return;
	}
	/* What the page shows is live: never from a cache. */
	soup_message_headers_append(headers, "Cache-Control", "no-store");
	soup_message_headers_append(headers, "X-Content-Type-Options", "nosniff");
	soup_server_message_set_response(msg, content_type, SOUP_MEMORY_COPY,
	                                 g_bytes_get_data(body, NULL), g_bytes_get_size(body));
	soup_server_message_set_status(msg, SOUP_STATUS_OK, NULL);
}

/* ---- who may connect ---- */

static char *
ws_server_address_string(GSocketAddress *address)
{
	g_autofree char *host = NULL;

	if (!G_IS_INET_SOCKET_ADDRESS(address))
		return g_strdup("?");
	host = g_inet_address_to_string(
	        g_inet_socket_address_get_address(G_INET_SOCKET_ADDRESS(address)));
	return g_strdup_printf("%s:%u", host,
	                       g_inet_socket_address_get_port(G_INET_SOCKET_ADDRESS(address)));
}

/* The listener's own origins: the address the client reached it on (a
 * page it served), and localhost. Host names other than localhost are
 * not taken on trust: a page of any site can have its name point here. */
static gboolean
ws_server_own_origin(const WsServer *s, SoupServerMessage *msg, const char *origin)
{
	g_autofree char *local =
	        ws_server_address_string(soup_server_message_get_local_address(msg));
	g_autofree char *own = g_strdup_printf("http://%s", local);
	g_autofree char *localhost = g_strdup_printf("http://localhost:%u", s->port);
	g_autofree char *loopback = g_strdup_printf("http://127.0.0.1:%u", s->port);

	return strcmp(origin, own) == 0 || strcmp(origin, localhost) == 0 ||
	       strcmp(origin, loopback) == 0;
}

static gboolean
ws_server_origin_allowed(const WsServer *s, SoupServerMessage *msg, const char *origin)
{
	/* Programs that are no browser send none: they are no page to be wary of. */
	if (origin == NULL)
		return TRUE;
	if (s->allow_origins == NULL)
		return strcmp(origin, "null") == 0 || strcmp(origin, "file://") == 0 ||
		       ws_server_own_origin(s, msg, origin);
	for (guint i = 0; s->allow_origins[i] != NULL; i++) {
		if (strcmp(s->allow_origins[i], "*") == 0 ||
		    strcmp(s->allow_origins[i], origin) == 0)
			return TRUE;
	}
	return FALSE;
}

static gboolean
ws_server_is_ws_path(const WsServer *s, const char *path)
{
	gsize n = strlen(s->path);

	return strncmp(path, s->path, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

static guint
ws_server_n_open(const WsServer *s)
{
	guint n = 0;

	for (guint i = 0; i < s->clients->len; i++)
		n += !((WsClient *)g_ptr_array_index(s->clients, i))->closed;
	return n;
}

/* Before the handshake: refused here, a client never becomes one.
 *
 * Every answer but a WebSocket's handshake (which libsoup's own headers
 * replace) closes its connection: libsoup 3.2 (Debian 12's) never frees
 * a kept-alive connection that the client then closes, descriptor and
 * all, so that a monitor page polling for weeks, or anyone with a loop of
 * requests, would use up the bridge's descriptors. Pages poll a few
 * times a second; a connection each costs nothing worth keeping. */
static void
ws_server_request_read(SoupServer *soup G_GNUC_UNUSED, SoupServerMessage *msg, gpointer user_data)
{
	WsServer *s = user_data;
	const char *path = g_uri_get_path(soup_server_message_get_uri(msg));
	const char *origin = soup_message_headers_get_one(
	        soup_server_message_get_request_headers(msg), "Origin");
	const char *peer = soup_server_message_get_remote_host(msg);

	soup_message_headers_replace(soup_server_message_get_response_headers(msg), "Connection",
	                             "close");
	if (!ws_server_is_ws_path(s, path))
		return;
	if (!ws_server_origin_allowed(s, msg, origin)) {
		s->stats.refused++;
		ws_server_log(s, G_LOG_LEVEL_WARNING,
		              "refused a client at %s: its page's origin %s is not allowed "
		              "(allow_origins)",
		              peer ? peer : "?", origin);
		soup_server_message_set_status(msg, SOUP_STATUS_FORBIDDEN, NULL);
		return;
	}
	if (ws_server_n_open(s) >= s->max_clients) {
		s->stats.refused++;
		ws_server_log(s, G_LOG_LEVEL_WARNING,
		              "refused a client at %s: %u clients are connected already "
		              "(max_clients)",
		              peer ? peer : "?", s->max_clients);
		soup_server_message_set_status(msg, SOUP_STATUS_SERVICE_UNAVAILABLE, NULL);
	}
}

/* ---- clients ---- */

static void
ws_client_free(gpointer data)
{
	WsClient *c = data;

	g_signal_handlers_disconnect_by_data(c->conn, c);
	/* Whatever is still queued for it goes with it: its stream is closed. */
	if (soup_websocket_connection_get_state(c->conn) != SOUP_WEBSOCKET_STATE_CLOSED)
		g_object_run_dispose(G_OBJECT(c->conn));
	g_object_unref(c->conn);
	g_clear_object(&c->socket);
	g_free(c->peer);
	g_free(c->error);
	g_free(c);
}

/* The bytes the client's TCP has acknowledged: all it has taken. */
static gboolean
ws_client_acked(const WsClient *c, guint64 *acked)
{
	struct tcp_info info;
	socklen_t length = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (c->socket == NULL ||
	    getsockopt(g_socket_get_fd(c->socket), IPPROTO_TCP, TCP_INFO, &info, &length) != 0)
		return FALSE;
	*acked = info.tcpi_bytes_acked;
	return TRUE;
}

/* Bytes given to the client that it has not taken: in libsoup's queue,
 * which has no bound of its own, and in the kernel's. */
static guint64
ws_client_backlog(const WsClient *c)
{
	guint64 acked;

	if (!ws_client_acked(c, &acked))
		return 0;
	acked -= MIN(acked, c->acked0);
	return c->handed > acked ? c->handed - acked : 0;
}

static void
ws_server_reap(WsServer *s)
{
	for (guint i = s->clients->len; i-- > 0;) {
		if (((WsClient *)g_ptr_array_index(s->clients, i))->closed)
			g_ptr_array_remove_index_fast(s->clients, i);
	}
	s->stats.clients = s->clients->len;
}

static void
ws_client_closed(SoupWebsocketConnection *conn, gpointer user_data)
{
	WsClient *c = user_data;
	WsServer *s = c->server;
	gushort code = soup_websocket_connection_get_close_code(conn);

	if (c->error != NULL) {
		s->stats.dropped++;
		ws_server_log(s, G_LOG_LEVEL_WARNING, "client %s closed: %s", c->peer, c->error);
	} else if (code == 0) {
		/* Without a close of its own: it broke the protocol (libsoup closed it)
		 * or its connection went. */
		s->stats.dropped++;
		ws_server_log(s, G_LOG_LEVEL_WARNING,
		              "client %s closed: it sent a malformed frame or went without "
		              "closing",
		              c->peer);
	} else {
		ws_server_log(s, G_LOG_LEVEL_DEBUG, "client %s left (code %u)", c->peer, code);
	}
	c->closed = TRUE;
	if (!s->sending)
		ws_server_reap(s);
}

static void
ws_client_error(SoupWebsocketConnection *conn G_GNUC_UNUSED, GError *error, gpointer user_data)
{
	WsClient *c = user_data;

	if (c->error == NULL)
		c->error = g_strdup(error->message);
}

/* Clients have nothing to say to the bridge: what they send is dropped. */
static void
ws_client_message(SoupWebsocketConnection *conn G_GNUC_UNUSED, gint type G_GNUC_UNUSED,
                  GBytes *message G_GNUC_UNUSED, gpointer user_data G_GNUC_UNUSED)
{
}

/* The client's socket, for TCP_INFO: libsoup knows only the stream it was
 * handed (ws_server_incoming()); the peer's address and port find it. */
static GSocket *
ws_server_client_socket(WsServer *s, SoupServerMessage *msg)
{
	g_autofree char *peer =
	        ws_server_address_string(soup_server_message_get_remote_address(msg));
	WsServerPeer *p = g_hash_table_lookup(s->peers, peer);

	return p != NULL ? g_object_ref(p->socket) : NULL;
}

static void
ws_server_open(SoupServer *soup G_GNUC_UNUSED, SoupServerMessage *msg,
               const char *path G_GNUC_UNUSED, SoupWebsocketConnection *conn, gpointer user_data)
{
	WsServer *s = user_data;
	WsClient *c = g_new0(WsClient, 1);

	c->server = s;
	c->conn = g_object_ref(conn);
	c->socket = ws_server_client_socket(s, msg);
	c->peer = ws_server_address_string(soup_server_message_get_remote_address(msg));
	soup_websocket_connection_set_max_incoming_payload_size(conn, WS_SERVER_MAX_INCOMING);
	g_signal_connect(conn, "message", G_CALLBACK(ws_client_message), c);
	g_signal_connect(conn, "error", G_CALLBACK(ws_client_error), c);
	g_signal_connect(conn, "closed", G_CALLBACK(ws_client_closed), c);
	/* Two handshakes at once can both pass the count before either is open. */
	if (ws_server_n_open(s) >= s->max_clients) {
		s->stats.refused++;
		ws_server_log(s, G_LOG_LEVEL_WARNING,
		              "refused a client at %s: %u clients are connected already "
		              "(max_clients)",
		              c->peer, s->max_clients);
		soup_websocket_connection_close(conn, SOUP_WEBSOCKET_CLOSE_POLICY_VIOLATION, NULL);
		ws_client_free(c);
		return;
	}
	if (c->socket == NULL || !ws_client_acked(c, &c->acked0)) {
		s->stats.refused++;
		ws_server_log(s, G_LOG_LEVEL_WARNING,
		              "refused a client at %s: cannot tell how much it takes", c->peer);
		ws_client_free(c);
		return;
	}
	g_ptr_array_add(s->clients, c);
	s->stats.accepted++;
	s->stats.clients = s->clients->len;
	ws_server_log(s, G_LOG_LEVEL_DEBUG, "client %s connected", c->peer);
}

/* ---- sending ---- */

/* A server's frame header: 2 bytes, 4 past 125 bytes, 10 past 65535. */
static gsize
ws_server_wire_size(gsize length)
{
	return length + (length < 126 ? 2 : length < 65536 ? 4 : 10);
}

static void
ws_server_drop(WsServer *s, WsClient *c, guint64 backlog)
{
	s->stats.dropped++;
	ws_server_log(s, G_LOG_LEVEL_WARNING,
	              "client %s is not reading (%" G_GUINT64_FORMAT
	              " KiB waiting for it); dropped",
	              c->peer, backlog / 1024);
	g_signal_handlers_disconnect_by_data(c->conn, c);
	c->closed = TRUE;
}

static void
ws_server_send_one(WsServer *s, WsClient *c, gboolean text, const void *data, gsize length)
{
	guint64 backlog;

	if (c->closed || soup_websocket_connection_get_state(c->conn) != SOUP_WEBSOCKET_STATE_OPEN)
		return;
	backlog = ws_client_backlog(c);
	if (backlog + ws_server_wire_size(length) > WS_SERVER_MAX_BACKLOG) {
		ws_server_drop(s, c, backlog);
		return;
	}
	c->handed += ws_server_wire_size(length);
	s->stats.messages++;
	s->stats.bytes += length;
	if (text)
		soup_websocket_connection_send_text(c->conn, data);
	else
		soup_websocket_connection_send_binary(c->conn, data, length);
}

void
ws_server_broadcast(WsServer *s, gboolean text, const void *data, gsize length)
{
	s->sending = TRUE;
	for (guint i = 0; i < s->clients->len; i++)
		ws_server_send_one(s, g_ptr_array_index(s->clients, i), text, data, length);
	s->sending = FALSE;
	ws_server_reap(s);
}

/* ---- the server ---- */

static const char *
ws_server_listen_host(const char *host)
{
	return strcmp(host, "localhost") == 0 ? "127.0.0.1" : host;
}

static void
ws_server_set_origins(WsServer *s, const char *const *origins)
{
	g_strfreev(s->allow_origins);
	s->allow_origins = origins != NULL ? g_strdupv((char **)origins) : NULL;
}

/* A connection, handed to libsoup as a stream. libsoup 3.2's own listener
 * (soup_server_listen()) keeps a reference to every socket it accepts, so
 * that each connection would cost the bridge some 340 bytes for good: a
 * monitor page polling for a day, some 200 MB. GIO's service accepts
 * them here instead, and the socket goes with its connection. */
/* The connection is gone: its peer's address may come again. */
static void
ws_server_connection_gone(gpointer data, GObject *connection G_GNUC_UNUSED)
{
	WsServerPeer *p = data;

	p->connection = NULL;
	g_hash_table_remove(p->server->peers, p->peer);
}

static gboolean
ws_server_incoming(GSocketService *service G_GNUC_UNUSED, GSocketConnection *connection,
                   GObject *source G_GNUC_UNUSED, gpointer user_data)
{
	WsServer *s = user_data;
	g_autoptr(GSocketAddress) local = g_socket_connection_get_local_address(connection, NULL);
	g_autoptr(GSocketAddress) remote = g_socket_connection_get_remote_address(connection, NULL);
	g_autoptr(GError) error = NULL;
	WsServerPeer *p = g_new0(WsServerPeer, 1);

	p->server = s;
	p->peer = ws_server_address_string(remote);
	p->connection = G_OBJECT(connection);
	p->socket = g_object_ref(g_socket_connection_get_socket(connection));
	g_object_weak_ref(p->connection, ws_server_connection_gone, p);
	g_hash_table_replace(s->peers, p->peer, p);
	if (!soup_server_accept_iostream(s->soup, G_IO_STREAM(connection), local, remote, &error))
		ws_server_log(s, G_LOG_LEVEL_WARNING, "could not take a connection: %s",
		              error->message);
	return TRUE;
}

static gboolean
ws_server_listen(WsServer *s, GError **error)
{
	g_autoptr(GSocketAddress) address =
	        g_inet_socket_address_new_from_string(ws_server_listen_host(s->host), s->port);
	g_autoptr(GError) local = NULL;

	if (address == NULL) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
		            "output %s: cannot listen on '%s': not an address", s->label, s->host);
		return FALSE;
	}
	s->service = g_socket_service_new();
	if (!g_socket_listener_add_address(G_SOCKET_LISTENER(s->service), address,
	                                   G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, NULL, NULL,
	                                   &local)) {
		g_set_error(error, local->domain, local->code,
		            "output %s: cannot listen on %s:%u: %s", s->label, s->host, s->port,
		            local->message);
		return FALSE;
	}
	g_signal_connect(s->service, "incoming", G_CALLBACK(ws_server_incoming), s);
	g_socket_service_start(s->service);
	return TRUE;
}

static void
ws_server_handle_path(WsServer *s, const char *path)
{
	if (s->path != NULL)
		soup_server_remove_handler(s->soup, s->path);
	g_free(s->path);
	s->path = g_strdup(path);
	soup_server_add_websocket_handler(s->soup, s->path, NULL, NULL, ws_server_open, s, NULL);
}

WsServer *
ws_server_new(const WsServerSetup *setup, const char *label, WsServerLogFunc log,
              gpointer user_data, GError **error)
{
	g_autoptr(WsServer) s = g_new0(WsServer, 1);

	s->label = g_strdup(label);
	s->log = log;
	s->user_data = user_data;
	s->host = g_strdup(setup->host);
	s->port = setup->port;
	s->max_clients = setup->max_clients;
	ws_server_set_origins(s, setup->allow_origins);
	s->clients = g_ptr_array_new_with_free_func(ws_client_free);
	s->peers = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, ws_server_peer_free);
	s->routes = g_ptr_array_new_with_free_func(ws_route_free);
	s->soup = soup_server_new("server-header", "skelbridge", NULL);
	/* Compressed frames would hide what a client has taken from the
	 * kernel's count; frames of floats hardly compress anyway. */
	soup_server_remove_websocket_extension(s->soup, SOUP_TYPE_WEBSOCKET_EXTENSION_DEFLATE);
	g_signal_connect(s->soup, "request-read", G_CALLBACK(ws_server_request_read), s);
	soup_server_add_handler(s->soup, NULL, ws_server_http, s, NULL);
	ws_server_handle_path(s, setup->path);
	if (!ws_server_listen(s, error))
		return NULL;
	return g_steal_pointer(&s);
}

void
ws_server_configure(WsServer *s, const WsServerSetup *setup, const char *label)
{
	g_return_if_fail(ws_server_matches(s, setup));
	g_free(s->label);
	s->label = g_strdup(label);
	s->max_clients = setup->max_clients;
	ws_server_set_origins(s, setup->allow_origins);
	if (strcmp(s->path, setup->path) != 0)
		ws_server_handle_path(s, setup->path);
}

void
ws_server_set_log(WsServer *s, WsServerLogFunc log, gpointer user_data)
{
	s->log = log;
	s->user_data = user_data;
}

gboolean
ws_server_matches(const WsServer *s, const WsServerSetup *setup)
{
	return s->port == setup->port && strcmp(s->host, setup->host) == 0;
}

void
ws_server_free(WsServer *s)
{
	if (s == NULL)
		return;
	if (s->service != NULL) {
		g_signal_handlers_disconnect_by_data(s->service, s);
		g_socket_service_stop(s->service);
		g_socket_listener_close(G_SOCKET_LISTENER(s->service));
		g_object_unref(s->service);
	}
	if (s->soup != NULL) {
		g_signal_handlers_disconnect_by_data(s->soup, s);
		soup_server_disconnect(s->soup);
		g_object_unref(s->soup);
	}
	/* Clients are told the bridge is going, as far as their queues allow. */
	for (guint i = 0; s->clients != NULL && i < s->clients->len; i++) {
		WsClient *c = g_ptr_array_index(s->clients, i);

		if (soup_websocket_connection_get_state(c->conn) == SOUP_WEBSOCKET_STATE_OPEN)
			soup_websocket_connection_close(c->conn, SOUP_WEBSOCKET_CLOSE_GOING_AWAY,
			                                NULL);
	}
	g_clear_pointer(&s->clients, g_ptr_array_unref);
	g_clear_pointer(&s->routes, g_ptr_array_unref);
	g_clear_pointer(&s->peers, g_hash_table_unref);
	g_strfreev(s->allow_origins);
	g_free(s->label);
	g_free(s->host);
	g_free(s->path);
	g_free(s);
}

void
ws_server_get_stats(const WsServer *s, WsServerStats *stats)
{
	*stats = s->stats;
	stats->clients = ws_server_n_open(s);
}

guint
ws_server_port(const WsServer *s)
{
	return s->port;
}
