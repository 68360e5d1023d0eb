/* WebSocket outputs from a bridge in process, against libsoup's client
 * and raw sockets that misbehave: what clients get (the UDP receiver's
 * very bytes, or JSON), and that no client can hold up or change the
 * bridge: stalled, refused, oversized, malformed, cut off. */
#include <libsoup/soup.h>
#include <string.h>
#include <sys/socket.h>

#include "bridge.h"
#include "oscsink.h"
#include "testutil.h"

#define WAIT_MS      5000
#define SCENE_FRAMES 40

/* ---- the rig: a bridge, its log, its clients ---- */

typedef struct {
	char *dir;
	char *path;
	guint port;
	Bridge *bridge;
	GPtrArray *log; /* char *, every line the bridge logged */
	TrackerFrame *frames;
	guint sent; /* frames pushed */
} Rig;

static void
rig_log(GLogLevelFlags level G_GNUC_UNUSED, const char *message, gpointer user_data)
{
	Rig *rig = user_data;

	g_ptr_array_add(rig->log, g_strdup(message));
	if (g_getenv("TEST_WEBSOCKET_VERBOSE") != NULL)
		g_printerr("log: %s\n", message);
}

static gboolean
rig_logged(const Rig *rig, const char *part)
{
	for (guint i = 0; i < rig->log->len; i++) {
		if (strstr(g_ptr_array_index(rig->log, i), part) != NULL)
			return TRUE;
	}
	return FALSE;
}

typedef struct {
	const Rig *rig;
	const char *part;
} Logged;

static gboolean
logged(gpointer data)
{
	const Logged *l = data;

	return rig_logged(l->rig, l->part);
}

static gboolean spin_until(gboolean (*done)(gpointer), gpointer data);

/* Waits for a line with @part: what libsoup closes, it tells a moment later. */
static gboolean
rig_wait_log(const Rig *rig, const char *part)
{
	Logged l = { rig, part };

	return spin_until(logged, &l);
}

static void
rig_write(Rig *rig, const char *outputs, const char *rules)
{
	g_autofree char *text = g_strdup_printf("[mapping]\nformat = 1\n%s%s", outputs, rules);

	testutil_write_file(rig->path, text, strlen(text));
}

/* "[output ws]" on the rig's port, with @extra keys. */
static char *
rig_ws_output(const Rig *rig, const char *extra)
{
	return g_strdup_printf("[output ws]\nkind = websocket\ntarget = ws://127.0.0.1:%u/osc\n%s",
	                       rig->port, extra);
}

static Bridge *
rig_bridge(Rig *rig, GError **error)
{
	const char *mappings[] = { rig->path, NULL };
	BridgeOptions options = { .mappings = mappings, .skeletons = "truth", .state_dir = "" };

	return bridge_new(&options, rig_log, rig, error);
}

static Rig *
rig_new(void)
{
	Rig *rig = g_new0(Rig, 1);

	rig->dir = testutil_tmpdir();
	rig->path = g_build_filename(rig->dir, "ws.map", NULL);
	rig->port = (guint)testutil_free_port(G_SOCKET_TYPE_STREAM);
	rig->log = g_ptr_array_new_with_free_func(g_free);
	rig->frames = testutil_scene_frames("crowd", SCENE_FRAMES);
	return rig;
}

static void
rig_start(Rig *rig, const char *outputs, const char *rules)
{
	g_autoptr(GError) error = NULL;

	rig_write(rig, outputs, rules);
	rig->bridge = rig_bridge(rig, &error);
	g_assert_no_error(error);
}

static void
rig_free(Rig *rig)
{
	g_clear_pointer(&rig->bridge, bridge_free);
	/* What the clients still have to hear of the close. */
	while (g_main_context_iteration(NULL, FALSE))
		;
	testutil_rmdir(rig->dir);
	g_free(rig->dir);
	g_free(rig->path);
	g_ptr_array_unref(rig->log);
	g_free(rig->frames);
	g_free(rig);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Rig, rig_free)

static void
spin(void)
{
	while (g_main_context_iteration(NULL, FALSE))
		;
}

/* Runs the main context until @done says so or the wait is over. */
static gboolean
spin_until(gboolean (*done)(gpointer), gpointer data)
{
	gint64 deadline = g_get_monotonic_time() + testutil_wait_ms(WAIT_MS) * 1000;

	while (!done(data)) {
		if (g_get_monotonic_time() > deadline)
			return FALSE;
		if (!g_main_context_iteration(NULL, FALSE))
			g_usleep(1000);
	}
	return TRUE;
}

/* The scene's frames over and over, each a new frame to the bridge. */
static void
rig_push(Rig *rig)
{
	TrackerFrame frame = rig->frames[rig->sent % SCENE_FRAMES];

	frame.frame = rig->sent;
	frame.time_us = 1000000 + (gint64)rig->sent * 33333;
	bridge_push(rig->bridge, &frame, 1764950000000000 + (gint64)rig->sent * 33333);
	rig->sent++;
}

/* ---- a well-behaved client: libsoup's ---- */

typedef struct {
	SoupSession *session;
	SoupWebsocketConnection *conn;
	GError *error;
	guint status; /* of the handshake */
	gboolean done, closed;
	GPtrArray *messages; /* GBytes */
	GPtrArray *types;    /* SoupWebsocketDataType, as pointers */
} Client;

static void
client_message(SoupWebsocketConnection *conn G_GNUC_UNUSED, gint type, GBytes *message,
               gpointer user_data)
{
	Client *c = user_data;

	g_ptr_array_add(c->messages, g_bytes_ref(message));
	g_ptr_array_add(c->types, GINT_TO_POINTER(type));
}

static void
client_closed(SoupWebsocketConnection *conn G_GNUC_UNUSED, gpointer user_data)
{
	((Client *)user_data)->closed = TRUE;
}

static void
client_connected(GObject *session, GAsyncResult *result, gpointer user_data)
{
	Client *c = user_data;
	SoupMessage *msg = soup_session_get_async_result_message(SOUP_SESSION(session), result);

	c->conn = soup_session_websocket_connect_finish(SOUP_SESSION(session), result, &c->error);
	c->status = msg != NULL ? soup_message_get_status(msg) : 0;
	c->done = TRUE;
	if (c->conn == NULL)
		return;
	g_signal_connect(c->conn, "message", G_CALLBACK(client_message), c);
	g_signal_connect(c->conn, "closed", G_CALLBACK(client_closed), c);
}

static gboolean
client_done(gpointer data)
{
	return ((Client *)data)->done;
}

/* Starts connecting; client_wait() sees it through. */
static Client *
client_start(guint port, const char *path, const char *origin)
{
	Client *c = g_new0(Client, 1);
	g_autofree char *url = g_strdup_printf("ws://127.0.0.1:%u%s", port, path);
	g_autoptr(SoupMessage) msg = soup_message_new(SOUP_METHOD_GET, url);

	c->session = soup_session_new();
	c->messages = g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
	c->types = g_ptr_array_new();
	soup_session_websocket_connect_async(c->session, msg, origin, NULL, G_PRIORITY_DEFAULT,
	                                     NULL, client_connected, c);
	return c;
}

static void
client_wait(Client *c)
{
	g_assert_true(spin_until(client_done, c));
}

static Client *
client_new(guint port, const char *origin)
{
	Client *c = client_start(port, "/osc", origin);

	client_wait(c);
	g_assert_no_error(c->error);
	return c;
}

/* Connects from @origin and asserts that the bridge refuses with @status;
 * the refused client, for client_free(). */
static Client *
client_refused(guint port, const char *origin, guint status)
{
	Client *c = client_start(port, "/osc", origin);

	client_wait(c);
	g_assert_null(c->conn);
	g_assert_cmpuint(c->status, ==, status);
	return c;
}

static void
client_free(Client *c)
{
	if (c->conn != NULL) {
		g_signal_handlers_disconnect_by_data(c->conn, c);
		if (soup_websocket_connection_get_state(c->conn) == SOUP_WEBSOCKET_STATE_OPEN)
			soup_websocket_connection_close(c->conn, SOUP_WEBSOCKET_CLOSE_NORMAL, NULL);
		g_object_unref(c->conn);
	}
	g_clear_error(&c->error);
	g_object_unref(c->session);
	g_ptr_array_unref(c->messages);
	g_ptr_array_unref(c->types);
	g_free(c);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Client, client_free)

typedef struct {
	Client **clients;
	guint n;
	guint count;
} Count;

static gboolean
clients_have(gpointer data)
{
	const Count *w = data;

	for (guint i = 0; i < w->n; i++) {
		if (w->clients[i]->messages->len < w->count)
			return FALSE;
	}
	return TRUE;
}

static gboolean
client_is_closed(gpointer data)
{
	return ((Client *)data)->closed;
}

/* ---- a raw client, to misbehave ---- */

#define HANDSHAKE                                                                                  \
	"GET /osc HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"    \
	"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"

typedef struct {
	GSocket *socket;
	GString *got;
} Raw;

static gboolean
raw_has_headers(gpointer data)
{
	Raw *raw = data;
	char buffer[256];
	gssize n = g_socket_receive(raw->socket, buffer, sizeof(buffer), NULL, NULL);

	if (n > 0)
		g_string_append_len(raw->got, buffer, n);
	return strstr(raw->got->str, "\r\n\r\n") != NULL;
}

/* A raw connection through the handshake; a small receive buffer with
 * @rcvbuf (0: the system's). */
static Raw *
raw_new(guint port, int rcvbuf)
{
	Raw *raw = g_new0(Raw, 1);
	g_autoptr(GSocketAddress) address =
	        g_inet_socket_address_new_from_string("127.0.0.1", port);
	g_autoptr(GError) error = NULL;

	raw->got = g_string_new(NULL);
	raw->socket = g_socket_new(G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
	                           G_SOCKET_PROTOCOL_TCP, &error);
	g_assert_no_error(error);
	if (rcvbuf > 0)
		g_assert_true(
		        g_socket_set_option(raw->socket, SOL_SOCKET, SO_RCVBUF, rcvbuf, NULL));
	g_assert_true(g_socket_connect(raw->socket, address, NULL, &error));
	g_socket_set_blocking(raw->socket, FALSE);
	g_assert_cmpint(g_socket_send(raw->socket, HANDSHAKE, strlen(HANDSHAKE), NULL, &error), ==,
	                strlen(HANDSHAKE));
	g_assert_true(spin_until(raw_has_headers, raw));
	g_assert_true(g_str_has_prefix(raw->got->str, "HTTP/1.1 101"));
	return raw;
}

static void
raw_free(Raw *raw)
{
	g_object_unref(raw->socket);
	g_string_free(raw->got, TRUE);
	g_free(raw);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Raw, raw_free)

static void
raw_send(Raw *raw, const void *data, gsize length)
{
	g_autoptr(GError) error = NULL;

	g_assert_cmpint(g_socket_send(raw->socket, data, length, NULL, &error), ==, length);
}

/* The server has closed the connection: reading ends (after whatever came). */
static gboolean
raw_at_end(gpointer data)
{
	Raw *raw = data;
	char buffer[4096];
	g_autoptr(GError) error = NULL;
	gssize n = g_socket_receive(raw->socket, buffer, sizeof(buffer), NULL, &error);

	return n == 0 || (n < 0 && !g_error_matches(error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK));
}

/* ---- a raw UDP receiver, for the bytes themselves ---- */

static GSocket *
udp_new(guint *port)
{
	g_autoptr(GSocketAddress) any = g_inet_socket_address_new_from_string("127.0.0.1", 0);
	g_autoptr(GSocketAddress) bound = NULL;
	GSocket *socket = g_socket_new(G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_DATAGRAM,
	                               G_SOCKET_PROTOCOL_UDP, NULL);

	g_assert_true(g_socket_bind(socket, any, TRUE, NULL));
	g_socket_set_option(socket, SOL_SOCKET, SO_RCVBUF, 4 * 1024 * 1024, NULL);
	g_socket_set_blocking(socket, FALSE);
	bound = g_socket_get_local_address(socket, NULL);
	*port = g_inet_socket_address_get_port(G_INET_SOCKET_ADDRESS(bound));
	return socket;
}

static void
udp_take(GSocket *socket, GPtrArray *datagrams)
{
	char buffer[65536];
	gssize n;

	while ((n = g_socket_receive(socket, buffer, sizeof(buffer), NULL, NULL)) > 0)
		g_ptr_array_add(datagrams, g_bytes_new(buffer, n));
}

/* ---- what clients get ---- */

#define JOINTS_TO(output)                                                                          \
	"[rule joints_" output "]\noutput = " output "\nfor = joint\n"                             \
	"address = /skel/user{user}/{joint}\nargs = x y z confidence\nx = 0:1000 -> 0:-1\n"        \
	"[rule users_" output "]\noutput = " output "\nfor = frame\naddress = /skel/users\n"       \
	"args = users\n"

/* Every packet, byte for byte, as a UDP receiver of the same rules gets it. */
static void
test_osc_same_bytes(void)
{
	g_autoptr(Rig) rig = rig_new();
	guint udp_port;
	g_autoptr(GSocket) udp = udp_new(&udp_port);
	g_autofree char *ws = rig_ws_output(rig, "max_packet = 1000\n");
	g_autofree char *outputs = g_strdup_printf(
	        "[output udp]\nkind = osc\ntarget = osc.udp://127.0.0.1:%u\nmax_packet = 1000\n%s",
	        udp_port, ws);
	g_autoptr(GPtrArray) datagrams =
	        g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
	g_autoptr(Client) c = NULL;
	Count wait;

	rig_start(rig, outputs, JOINTS_TO("udp") JOINTS_TO("ws"));
	c = client_new(rig->port, NULL);
	for (guint i = 0; i < SCENE_FRAMES; i++) {
		rig_push(rig);
		spin();
		udp_take(udp, datagrams);
	}
	g_usleep(20000);
	udp_take(udp, datagrams);
	g_assert_cmpuint(datagrams->len, >, SCENE_FRAMES);
	wait = (Count){ &c, 1, datagrams->len };
	g_assert_true(spin_until(clients_have, &wait));
	g_assert_cmpuint(c->messages->len, ==, datagrams->len);
	for (guint i = 0; i < datagrams->len; i++) {
		g_assert_cmpint(GPOINTER_TO_INT(g_ptr_array_index(c->types, i)), ==,
		                SOUP_WEBSOCKET_DATA_BINARY);
		g_assert_true(g_bytes_equal(g_ptr_array_index(c->messages, i),
		                            g_ptr_array_index(datagrams, i)));
	}
}

/* The shipped web mapping sends what the default mapping sends, byte for byte. */
static void
test_web_map(void)
{
	g_autoptr(Rig) rig = rig_new();
	guint udp_port;
	g_autoptr(GSocket) udp = udp_new(&udp_port);
	g_autofree char *to_udp = g_strdup_printf("default=osc.udp://127.0.0.1:%u", udp_port);
	g_autofree char *to_ws = g_strdup_printf("web=ws://127.0.0.1:%u/osc", rig->port);
	const char *mappings[] = { "default", "web", NULL };
	const char *targets[] = { to_udp, to_ws, NULL };
	BridgeOptions options = {
		.mappings = mappings, .targets = targets, .skeletons = "truth", .state_dir = ""
	};
	g_autoptr(GPtrArray) datagrams =
	        g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
	g_autoptr(GError) error = NULL;
	g_autoptr(Client) c = NULL;

	rig->bridge = bridge_new(&options, rig_log, rig, &error);
	g_assert_no_error(error);
	c = client_new(rig->port, NULL);
	for (guint i = 0; i < SCENE_FRAMES; i++) {
		rig_push(rig);
		spin();
		udp_take(udp, datagrams);
	}
	g_usleep(20000);
	udp_take(udp, datagrams);
	g_assert_cmpuint(datagrams->len, >=, SCENE_FRAMES);
	g_assert_true(spin_until(clients_have, &(Count){ &c, 1, datagrams->len }));
	g_assert_cmpuint(c->messages->len, ==, datagrams->len);
	for (guint i = 0; i < datagrams->len; i++)
		g_assert_true(g_bytes_equal(g_ptr_array_index(c->messages, i),
		                            g_ptr_array_index(datagrams, i)));
}

/* {"address": "/skel/user1/head", "args": [x, y, z, c], "time": T} */
static void
check_json(const char *text, const OscSinkMessage *expected, gint64 timetag_us)
{
	g_autoptr(GRegex) regex = g_regex_new(
	        "^\\{\"address\": \"([^\"]*)\", \"args\": \\[([^]]*)\\], \"time\": ([0-9.]+)\\}$",
	        0, 0, NULL);
	g_autoptr(GMatchInfo) match = NULL;
	g_autofree char *address = NULL, *args = NULL, *time = NULL;
	g_auto(GStrv) values = NULL;

	g_assert_true(g_regex_match(regex, text, 0, &match));
	address = g_match_info_fetch(match, 1);
	args = g_match_info_fetch(match, 2);
	time = g_match_info_fetch(match, 3);
	g_assert_cmpstr(address, ==, expected->path);
	values = g_strsplit(args, ", ", -1);
	g_assert_cmpuint(g_strv_length(values), ==, expected->n_args);
	for (guint a = 0; a < expected->n_args; a++) {
		const OscSinkArg *arg = &expected->args[a];

		if (arg->type == 'f')
			g_assert_cmpfloat((float)g_ascii_strtod(values[a], NULL), ==, arg->f);
		else
			g_assert_cmpint(g_ascii_strtoll(values[a], NULL, 10), ==, arg->i);
	}
	g_assert_cmpfloat_with_epsilon(g_ascii_strtod(time, NULL), timetag_us / 1e6, 1e-6);
}

/* format = json: each message as text, the same values as OSC's. */
static void
test_json_messages(void)
{
	g_autoptr(Rig) rig = rig_new();
	g_autoptr(OscSink) sink = osc_sink_new(FALSE, 0);
	g_autofree char *url = osc_sink_url(sink);
	g_autofree char *ws = rig_ws_output(rig, "format = json\n");
	g_autofree char *outputs = g_strdup_printf(
	        "[output udp]\nkind = osc\ntarget = %s\nbundle = none\n%s", url, ws);
	g_autoptr(Client) c = NULL;
	g_autoptr(GPtrArray) received = NULL;
	Count wait;

	rig_start(rig, outputs, JOINTS_TO("udp") JOINTS_TO("ws"));
	c = client_new(rig->port, NULL);
	rig_push(rig);
	spin();
	g_assert_true(osc_sink_wait_path(sink, "/skel/users", WAIT_MS));
	received = osc_sink_take(sink);
	wait = (Count){ &c, 1, received->len };
	g_assert_true(spin_until(clients_have, &wait));
	g_assert_cmpuint(c->messages->len, ==, received->len);
	for (guint i = 0; i < received->len; i++) {
		g_assert_cmpint(GPOINTER_TO_INT(g_ptr_array_index(c->types, i)), ==,
		                SOUP_WEBSOCKET_DATA_TEXT);
		check_json(g_bytes_get_data(g_ptr_array_index(c->messages, i), NULL),
		           g_ptr_array_index(received, i), 1764950000000000);
	}
}

/* ---- clients that cannot hold the bridge up ---- */

#define N_GOOD 15

/* A client that stops reading is dropped once its backlog is full; the
 * fifteen others get every frame, and go on getting them. */
static void
test_stalled_client(void)
{
	g_autoptr(Rig) rig = rig_new();
	g_autofree char *ws = rig_ws_output(rig, "max_packet = 65507\n");
	Client *clients[N_GOOD];
	g_autoptr(Raw) stalled = NULL;
	OscOutputStats stats;
	Count wait;
	guint frames;

	rig_start(rig, ws, JOINTS_TO("ws"));
	for (guint i = 0; i < N_GOOD; i++)
		clients[i] = client_new(rig->port, NULL);
	stalled = raw_new(rig->port, 4096);
	for (frames = 0; frames < 20000 && !rig_logged(rig, "is not reading"); frames++) {
		rig_push(rig);
		spin();
	}
	g_assert_true(rig_logged(rig, "is not reading"));
	/* The bridge goes on: more frames, to everyone left. */
	for (guint i = 0; i < 10; i++, frames++) {
		rig_push(rig);
		spin();
	}
	wait = (Count){ clients, N_GOOD, frames };
	g_assert_true(spin_until(clients_have, &wait));
	for (guint i = 0; i < N_GOOD; i++) {
		g_assert_cmpuint(clients[i]->messages->len, ==, frames);
		g_assert_false(clients[i]->closed);
	}
	osc_output_get_stats(bridge_output(rig->bridge, 0, NULL), &stats);
	g_assert_cmpuint(stats.clients, ==, N_GOOD);
	g_assert_cmpuint(stats.dropped, ==, 1);
	g_assert_cmpuint(stats.packets, ==, frames);
	for (guint i = 0; i < N_GOOD; i++)
		client_free(clients[i]);
}

static void
test_origin_refused(void)
{
	g_autoptr(Rig) rig = rig_new();
	g_autofree char *ws = rig_ws_output(rig, "");
	g_autofree char *own = g_strdup_printf("http://127.0.0.1:%u", rig->port);
	g_autoptr(Client) evil = NULL;
	g_autoptr(Client) page = NULL;
	g_autoptr(Client) file = NULL;

	rig_start(rig, ws, JOINTS_TO("ws"));
	evil = client_refused(rig->port, "http://evil.example", SOUP_STATUS_FORBIDDEN);
	g_assert_true(rig_logged(rig, "origin http://evil.example is not allowed"));
	page = client_new(rig->port, own);
	file = client_new(rig->port, "null");
	rig_push(rig);
	g_assert_true(spin_until(clients_have, &(Count){ &page, 1, 1 }));
}

/* allow_origins names the pages: only those. */
static void
test_origin_listed(void)
{
	g_autoptr(Rig) rig = rig_new();
	g_autofree char *ws = rig_ws_output(rig, "allow_origins = http://studio.local:8080\n");
	g_autofree char *own = g_strdup_printf("http://127.0.0.1:%u", rig->port);
	g_autoptr(Client) studio = NULL;
	g_autoptr(Client) other = NULL;

	rig_start(rig, ws, JOINTS_TO("ws"));
	studio = client_new(rig->port, "http://studio.local:8080");
	other = client_refused(rig->port, own, SOUP_STATUS_FORBIDDEN);
}

static void
test_max_clients(void)
{
	g_autoptr(Rig) rig = rig_new();
	g_autofree char *ws = rig_ws_output(rig, "");
	Client *clients[16];
	g_autoptr(Client) extra = NULL;

	rig_start(rig, ws, JOINTS_TO("ws"));
	for (guint i = 0; i < 16; i++)
		clients[i] = client_new(rig->port, NULL);
	extra = client_refused(rig->port, NULL, SOUP_STATUS_SERVICE_UNAVAILABLE);
	g_assert_true(rig_logged(rig, "16 clients are connected already (max_clients)"));
	/* One leaves: there is room again. */
	client_free(clients[15]);
	g_clear_pointer(&extra, client_free);
	spin_until(client_is_closed, &(Client){ .closed = TRUE });
	for (gint64 end = g_get_monotonic_time() + 200000; g_get_monotonic_time() < end;)
		spin();
	clients[15] = client_new(rig->port, NULL);
	rig_push(rig);
	g_assert_true(spin_until(clients_have, &(Count){ clients, 16, 1 }));
	for (guint i = 0; i < 16; i++)
		client_free(clients[i]);
}

/* What a client says is ignored; too much of it closes that client alone. */
static void
test_oversized_incoming(void)
{
	g_autoptr(Rig) rig = rig_new();
	g_autofree char *ws = rig_ws_output(rig, "");
	g_autofree char *big = g_strnfill(8192, 'x');
	g_autoptr(Client) talker = NULL;
	g_autoptr(Client) other = NULL;

	rig_start(rig, ws, JOINTS_TO("ws"));
	talker = client_new(rig->port, NULL);
	other = client_new(rig->port, NULL);
	soup_websocket_connection_send_text(talker->conn, "/skel/users 99");
	rig_push(rig);
	g_assert_true(spin_until(clients_have, &(Count){ &talker, 1, 1 }));
	soup_websocket_connection_send_binary(talker->conn, big, 8192);
	g_assert_true(spin_until(client_is_closed, talker));
	g_assert_true(rig_wait_log(rig, "larger than configured max-incoming-payload-size"));
	rig_push(rig);
	g_assert_true(spin_until(clients_have, &(Count){ &other, 1, 2 }));
	g_assert_false(other->closed);
}

/* Garbage after the handshake closes that client. */
static void
test_malformed_frames(void)
{
	/* An unmasked frame (a client must mask its frames), then noise. */
	static const guint8 garbage[] = { 0x82, 0x05, 'h',  'e',  'l',  'l',  'o',  0xff,
		                          0xff, 0xff, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05 };
	g_autoptr(Rig) rig = rig_new();
	g_autofree char *ws = rig_ws_output(rig, "");
	g_autoptr(Raw) raw = NULL;
	g_autoptr(Client) other = NULL;

	rig_start(rig, ws, JOINTS_TO("ws"));
	raw = raw_new(rig->port, 0);
	other = client_new(rig->port, NULL);
	raw_send(raw, garbage, sizeof(garbage));
	g_assert_true(spin_until(raw_at_end, raw));
	g_assert_true(rig_wait_log(rig, "closed:"));
	rig_push(rig);
	g_assert_true(spin_until(clients_have, &(Count){ &other, 1, 1 }));
}

/* A client gone in the middle of a frame it was sending. */
static void
test_disconnect_mid_message(void)
{
	/* A masked binary frame of 100 bytes, of which 6 come. */
	static const guint8 part[] = { 0x82, 0x80 | 100, 1, 2, 3, 4, 'a', 'b', 'c', 'd', 'e', 'f' };
	g_autoptr(Rig) rig = rig_new();
	g_autofree char *ws = rig_ws_output(rig, "");
	g_autoptr(Raw) raw = NULL;
	g_autoptr(Client) other = NULL;
	OscOutputStats stats;

	rig_start(rig, ws, JOINTS_TO("ws"));
	raw = raw_new(rig->port, 0);
	other = client_new(rig->port, NULL);
	rig_push(rig);
	raw_send(raw, part, sizeof(part));
	spin();
	g_socket_close(raw->socket, NULL);
	g_assert_true(rig_wait_log(rig, "closed:"));
	rig_push(rig);
	g_assert_true(spin_until(clients_have, &(Count){ &other, 1, 2 }));
	osc_output_get_stats(bridge_output(rig->bridge, 0, NULL), &stats);
	g_assert_cmpuint(stats.clients, ==, 1);
}

/* ---- the listener ---- */

static GSocket *
occupy(guint port)
{
	g_autoptr(GSocketAddress) address =
	        g_inet_socket_address_new_from_string("127.0.0.1", port);
	GSocket *socket = g_socket_new(G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
	                               G_SOCKET_PROTOCOL_TCP, NULL);

	g_assert_true(g_socket_bind(socket, address, FALSE, NULL));
	g_assert_true(g_socket_listen(socket, NULL));
	return socket;
}

static void
test_port_in_use(void)
{
	g_autoptr(Rig) rig = rig_new();
	g_autofree char *ws = rig_ws_output(rig, "");
	g_autoptr(GSocket) other = occupy(rig->port);
	g_autoptr(GError) error = NULL;
	g_autofree char *where = NULL;

	g_assert_nonnull(other);
	rig_write(rig, ws, JOINTS_TO("ws"));
	rig->bridge = rig_bridge(rig, &error);
	g_assert_null(rig->bridge);
	g_assert_nonnull(error);
	where = g_strdup_printf("output ws (ws://127.0.0.1:%u/osc): cannot listen on 127.0.0.1:%u",
	                        rig->port, rig->port);
	g_assert_nonnull(strstr(error->message, where));
}

/* A reload onto a port in use keeps the mapping in force, listener and all. */
static void
test_reload_port_in_use(void)
{
	g_autoptr(Rig) rig = rig_new();
	g_autofree char *ws = rig_ws_output(rig, "");
	guint busy = (guint)testutil_free_port(G_SOCKET_TYPE_STREAM);
	g_autoptr(GSocket) other = occupy(busy);
	g_autofree char *moved = g_strdup_printf(
	        "[output ws]\nkind = websocket\ntarget = ws://127.0.0.1:%u/osc\n", busy);
	g_autoptr(Client) c = NULL;

	g_assert_nonnull(other);
	rig_start(rig, ws, JOINTS_TO("ws"));
	c = client_new(rig->port, NULL);
	rig_write(rig, moved, JOINTS_TO("ws"));
	bridge_reload(rig->bridge);
	g_assert_true(rig_logged(rig, "the mapping in force stays"));
	rig_push(rig);
	g_assert_true(spin_until(clients_have, &(Count){ &c, 1, 1 }));
	g_assert_false(c->closed);
}

/* A reload that changes the output but not its address keeps the clients. */
static void
test_reload_keeps_clients(void)
{
	g_autoptr(Rig) rig = rig_new();
	g_autofree char *ws = rig_ws_output(rig, "");
	g_autofree char *json = rig_ws_output(rig, "format = json\n");
	g_autoptr(Client) c = NULL;

	rig_start(rig, ws, JOINTS_TO("ws"));
	c = client_new(rig->port, NULL);
	rig_write(rig, json, JOINTS_TO("ws"));
	bridge_reload(rig->bridge);
	g_assert_true(rig_logged(rig, "reloaded"));
	rig_push(rig);
	g_assert_true(spin_until(clients_have, &(Count){ &c, 1, 1 }));
	g_assert_cmpint(GPOINTER_TO_INT(g_ptr_array_index(c->types, 0)), ==,
	                SOUP_WEBSOCKET_DATA_TEXT);
}

/* ---- the monitor's routes ---- */

static GBytes *
hello_route(const char *path, const char **content_type, gpointer user_data)
{
	if (strcmp(path, "/missing") == 0)
		return NULL;
	*content_type = "text/plain";
	return g_bytes_new_take(g_strdup_printf("%s at %s", (const char *)user_data, path),
	                        strlen(user_data) + 4 + strlen(path));
}

static void
monitor_found(WsServer *server, const MappingOutput *config, gpointer user_data)
{
	guint *found = user_data;

	g_assert_true(config->websocket.monitor);
	ws_server_add_route(server, "/", hello_route, g_strdup("root"), g_free);
	ws_server_add_route(server, "/static/", hello_route, g_strdup("static"), g_free);
	(*found)++;
}

typedef struct {
	GBytes *body;
	guint status;
	gboolean done;
} Get;

static void
got(GObject *session, GAsyncResult *result, gpointer user_data)
{
	Get *g = user_data;
	SoupMessage *msg = soup_session_get_async_result_message(SOUP_SESSION(session), result);

	g->body = soup_session_send_and_read_finish(SOUP_SESSION(session), result, NULL);
	g->status = soup_message_get_status(msg);
	g->done = TRUE;
}

static gboolean
get_done(gpointer data)
{
	return ((Get *)data)->done;
}

static char *
http_get(guint port, const char *path, guint *status)
{
	g_autoptr(SoupSession) session = soup_session_new();
	g_autofree char *url = g_strdup_printf("http://127.0.0.1:%u%s", port, path);
	g_autoptr(SoupMessage) msg = soup_message_new(SOUP_METHOD_GET, url);
	Get g = { 0 };

	soup_session_send_and_read_async(session, msg, G_PRIORITY_DEFAULT, NULL, got, &g);
	g_assert_true(spin_until(get_done, &g));
	*status = g.status;
	if (g.body == NULL)
		return NULL;
	return g_strndup(g_bytes_get_data(g.body, NULL), g_bytes_get_size(g.body));
}

static void
test_monitor_routes(void)
{
	g_autoptr(Rig) rig = rig_new();
	g_autofree char *ws = rig_ws_output(rig, "monitor = true\n");
	g_autofree char *changed = rig_ws_output(rig, "monitor = true\nmax_clients = 4\n");
	g_autofree char *plain = rig_ws_output(rig, "max_clients = 4\n");
	g_autofree char *body = NULL, *deep = NULL, *missing = NULL;
	guint found = 0, status = 0;
	g_autoptr(Client) c = NULL;

	rig_start(rig, ws, JOINTS_TO("ws"));
	bridge_set_monitor_func(rig->bridge, monitor_found, &found);
	g_assert_cmpuint(found, ==, 1);
	body = http_get(rig->port, "/", &status);
	g_assert_cmpuint(status, ==, 200);
	g_assert_cmpstr(body, ==, "root at /");
	deep = http_get(rig->port, "/static/app.js", &status);
	g_assert_cmpuint(status, ==, 200);
	g_assert_cmpstr(deep, ==, "static at /static/app.js");
	missing = http_get(rig->port, "/missing", &status);
	g_assert_cmpuint(status, ==, 404);
	/* The WebSocket beside the pages. */
	c = client_new(rig->port, NULL);
	rig_push(rig);
	g_assert_true(spin_until(clients_have, &(Count){ &c, 1, 1 }));
	/* A reload that changes the output tells of it again, and the pages stay. */
	rig_write(rig, changed, JOINTS_TO("ws"));
	bridge_reload(rig->bridge);
	g_assert_cmpuint(found, ==, 2);
	g_free(body);
	body = http_get(rig->port, "/", &status);
	g_assert_cmpuint(status, ==, 200);
	g_assert_false(c->closed);
	/* monitor = false: the pages go, the clients stay. */
	rig_write(rig, plain, JOINTS_TO("ws"));
	bridge_reload(rig->bridge);
	g_assert_cmpuint(found, ==, 2);
	g_free(body);
	body = http_get(rig->port, "/", &status);
	g_assert_cmpuint(status, ==, 404);
	rig_push(rig);
	g_assert_true(spin_until(clients_have, &(Count){ &c, 1, 2 }));
}

static guint
open_descriptors(void)
{
	g_autoptr(GDir) dir = g_dir_open("/proc/self/fd", 0, NULL);
	guint n = 0;

	g_assert_nonnull(dir);
	while (g_dir_read_name(dir) != NULL)
		n++;
	return n;
}

typedef struct {
	guint most;
} Descriptors;

static gboolean
descriptors_back(gpointer data)
{
	return open_descriptors() <= ((Descriptors *)data)->most;
}

/* Pages that ask and go: a client session keeps its connection alive and
 * closes it when it goes, which libsoup 3.2's server never frees. Two
 * hundred of them leave the bridge no more descriptors than it had. */
static void
test_pages_leave_no_descriptors(void)
{
	g_autoptr(Rig) rig = rig_new();
	g_autofree char *ws = rig_ws_output(rig, "monitor = true\n");
	guint found = 0, status = 0;
	Descriptors before;

	rig_start(rig, ws, JOINTS_TO("ws"));
	bridge_set_monitor_func(rig->bridge, monitor_found, &found);
	spin();
	before.most = open_descriptors() + 4;
	for (int i = 0; i < 200; i++) {
		g_autofree char *body = http_get(rig->port, i % 2 ? "/" : "/missing", &status);

		g_assert_cmpuint(status, ==, i % 2 ? 200 : 404);
		g_assert_true(i % 2 == 0 || body != NULL);
	}
	g_assert_true(spin_until(descriptors_back, &before));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/websocket/osc/same-bytes-as-udp", test_osc_same_bytes);
	g_test_add_func("/websocket/osc/web-map-sends-what-default-sends", test_web_map);
	g_test_add_func("/websocket/json/same-values-as-osc", test_json_messages);
	g_test_add_func("/websocket/client/stalled-is-dropped", test_stalled_client);
	g_test_add_func("/websocket/client/origin-not-allowed-is-refused", test_origin_refused);
	g_test_add_func("/websocket/client/allow-origins-replaces-the-default", test_origin_listed);
	g_test_add_func("/websocket/client/seventeenth-is-refused", test_max_clients);
	g_test_add_func("/websocket/client/oversized-message-closes-it", test_oversized_incoming);
	g_test_add_func("/websocket/client/malformed-frames-close-it", test_malformed_frames);
	g_test_add_func("/websocket/client/gone-mid-message", test_disconnect_mid_message);
	g_test_add_func("/websocket/listener/port-in-use", test_port_in_use);
	g_test_add_func("/websocket/listener/reload-onto-port-in-use-keeps-it",
	                test_reload_port_in_use);
	g_test_add_func("/websocket/listener/reload-keeps-clients", test_reload_keeps_clients);
	g_test_add_func("/websocket/monitor/routes", test_monitor_routes);
	g_test_add_func("/websocket/monitor/pages-leave-no-descriptors",
	                test_pages_leave_no_descriptors);
	return g_test_run();
}
