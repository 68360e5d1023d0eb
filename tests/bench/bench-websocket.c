/* Benchmark: the web mapping's WebSocket output over the demo's crowd
 * scene, with no client and with sixteen, one of which has stopped
 * reading. The fifteen others read in a thread of their own, as pages in
 * a browser would. Prints, per frame, the time from the skeletons' arrival
 * to the bridge having handed the frame's last packet on (the frame loop's
 * cost), and to the last of the readers having received it, median and
 * p99. Asserts nothing about time.
 * Run with: meson test -C build --benchmark websocket --verbose */
#include <libsoup/soup.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "bridge.h"
#include "testutil.h"

#define FRAMES 900
/* Frames come at the Kinect's pace, as they do in the bridge. */
#define FRAME_US     33333
#define SCENE_FRAMES 150
#define READERS      15

typedef struct {
	SoupWebsocketConnection *conn;
	gint64 *arrivals; /* monotonic time of each message */
	guint n;
} Reader;

typedef struct {
	guint port;
	GMainContext *context;
	GMainLoop *loop;
	Reader readers[READERS];
	GSocket *stalled;
	guint connected;
	GMutex lock;
} Clients;

static void
reader_message(SoupWebsocketConnection *conn G_GNUC_UNUSED, gint type G_GNUC_UNUSED,
               GBytes *message G_GNUC_UNUSED, gpointer user_data)
{
	Reader *r = user_data;

	if (r->n < FRAMES * 32)
		r->arrivals[r->n] = g_get_monotonic_time();
	g_atomic_int_inc((gint *)&r->n);
}

static void
reader_connected(GObject *session, GAsyncResult *result, gpointer user_data)
{
	Reader *r = user_data;
	g_autoptr(GError) error = NULL;

	r->conn = soup_session_websocket_connect_finish(SOUP_SESSION(session), result, &error);
	g_assert_no_error(error);
	soup_websocket_connection_set_max_incoming_payload_size(r->conn, 1 << 20);
	g_signal_connect(r->conn, "message", G_CALLBACK(reader_message), r);
}

/* A client that does the handshake and never reads again. */
static GSocket *
stalled_client(guint port)
{
	static const char handshake[] =
	        "GET /osc HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
	        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
	        "Sec-WebSocket-Version: 13\r\n\r\n";
	g_autoptr(GSocketAddress) address =
	        g_inet_socket_address_new_from_string("127.0.0.1", port);
	GSocket *socket = g_socket_new(G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
	                               G_SOCKET_PROTOCOL_TCP, NULL);

	g_socket_set_option(socket, SOL_SOCKET, SO_RCVBUF, 4096, NULL);
	g_assert_true(g_socket_connect(socket, address, NULL, NULL));
	g_assert_cmpint(g_socket_send(socket, handshake, strlen(handshake), NULL, NULL), ==,
	                strlen(handshake));
	return socket;
}

static gpointer
clients_run(gpointer data)
{
	Clients *c = data;
	g_autoptr(SoupSession) session = NULL;
	g_autofree char *url = g_strdup_printf("ws://127.0.0.1:%u/osc", c->port);

	g_main_context_push_thread_default(c->context);
	session = soup_session_new();
	for (guint i = 0; i < READERS; i++) {
		g_autoptr(SoupMessage) msg = soup_message_new(SOUP_METHOD_GET, url);

		soup_session_websocket_connect_async(session, msg, NULL, NULL, G_PRIORITY_DEFAULT,
		                                     NULL, reader_connected, &c->readers[i]);
	}
	c->stalled = stalled_client(c->port);
	g_main_loop_run(c->loop);
	for (guint i = 0; i < READERS; i++)
		g_clear_object(&c->readers[i].conn);
	g_clear_object(&c->stalled);
	g_main_context_pop_thread_default(c->context);
	return NULL;
}

static void
log_drops(GLogLevelFlags level, const char *message, gpointer user_data G_GNUC_UNUSED)
{
	if (level == G_LOG_LEVEL_WARNING)
		printf("websocket: (bridge: %s)\n", message);
}

static Bridge *
web_bridge(guint port)
{
	g_autofree char *target = g_strdup_printf("web=ws://127.0.0.1:%u/osc", port);
	const char *mappings[] = { "web", NULL };
	const char *targets[] = { target, NULL };
	BridgeOptions options = {
		.mappings = mappings, .targets = targets, .skeletons = "truth", .state_dir = ""
	};
	g_autoptr(GError) error = NULL;
	Bridge *bridge = bridge_new(&options, log_drops, NULL, &error);

	g_assert_no_error(error);
	return bridge;
}

static void
ws_stats(Bridge *bridge, OscOutputStats *stats)
{
	osc_output_get_stats(bridge_output(bridge, 0, NULL), stats);
}

/* Pushes the scene's frames: @push_ms the bridge's time per frame, and
 * @packets the output's packet count after each. */
static void
run_frames(Bridge *bridge, const TrackerFrame *scene, gint64 *t0, double *push_ms, guint64 *packets)
{
	for (guint k = 0; k < FRAMES; k++) {
		TrackerFrame frame = scene[k % SCENE_FRAMES];
		OscOutputStats stats;

		frame.frame = k;
		frame.time_us = (gint64)k * 33333;
		t0[k] = g_get_monotonic_time();
		bridge_push(bridge, &frame, g_get_real_time());
		push_ms[k] = (g_get_monotonic_time() - t0[k]) / 1000.0;
		ws_stats(bridge, &stats);
		packets[k] = stats.packets;
		while (g_get_monotonic_time() < t0[k] + FRAME_US) {
			if (!g_main_context_iteration(NULL, FALSE))
				g_usleep(200);
		}
	}
}

static void
print_push(const char *what, double *push_ms)
{
	printf("websocket: %s: frame to last packet handed on: %.3f ms median, %.3f ms p99\n", what,
	       testutil_percentile(push_ms, FRAMES, 0.5),
	       testutil_percentile(push_ms, FRAMES, 0.99));
}

static gboolean
readers_have(Clients *c, guint64 n)
{
	for (guint i = 0; i < READERS; i++) {
		if ((guint64)(guint)g_atomic_int_get((gint *)&c->readers[i].n) < n)
			return FALSE;
	}
	return TRUE;
}

/* Frame to its last packet at the last reader to get it. */
static void
print_received(Clients *c, const gint64 *t0, const guint64 *packets)
{
	g_autofree double *ms = g_new(double, FRAMES);

	for (guint k = 0; k < FRAMES; k++) {
		gint64 last = t0[k];

		for (guint i = 0; i < READERS; i++)
			last = MAX(last, c->readers[i].arrivals[packets[k] - 1]);
		ms[k] = (last - t0[k]) / 1000.0;
	}
	printf("websocket: 16 clients (1 stalled): frame to last packet received by all 15 "
	       "readers: %.3f ms median, %.3f ms p99\n",
	       testutil_percentile(ms, FRAMES, 0.5), testutil_percentile(ms, FRAMES, 0.99));
}

static void
bench_alone(const TrackerFrame *scene, guint port)
{
	g_autoptr(Bridge) bridge = web_bridge(port);
	g_autofree gint64 *t0 = g_new(gint64, FRAMES);
	g_autofree double *push_ms = g_new(double, FRAMES);
	g_autofree guint64 *packets = g_new(guint64, FRAMES);

	run_frames(bridge, scene, t0, push_ms, packets);
	print_push("0 clients", push_ms);
	printf("websocket: %" G_GUINT64_FORMAT " packets in %d frames\n", packets[FRAMES - 1],
	       FRAMES);
}

static void
clients_connect(Bridge *bridge)
{
	OscOutputStats stats;
	gint64 deadline = g_get_monotonic_time() + 10 * G_USEC_PER_SEC;

	do {
		if (!g_main_context_iteration(NULL, FALSE))
			g_usleep(1000);
		ws_stats(bridge, &stats);
	} while (stats.clients < READERS + 1 && g_get_monotonic_time() < deadline);
	g_assert_cmpuint(stats.clients, ==, READERS + 1);
}

static void
bench_clients(const TrackerFrame *scene, guint port)
{
	g_autoptr(Bridge) bridge = web_bridge(port);
	g_autofree gint64 *t0 = g_new(gint64, FRAMES);
	g_autofree double *push_ms = g_new(double, FRAMES);
	g_autofree guint64 *packets = g_new(guint64, FRAMES);
	Clients c = { .port = port };
	GThread *thread;
	OscOutputStats stats;
	gint64 deadline;

	for (guint i = 0; i < READERS; i++)
		c.readers[i].arrivals = g_new0(gint64, FRAMES * 32);
	c.context = g_main_context_new();
	c.loop = g_main_loop_new(c.context, FALSE);
	thread = g_thread_new("readers", clients_run, &c);
	clients_connect(bridge);
	run_frames(bridge, scene, t0, push_ms, packets);
	deadline = g_get_monotonic_time() + 10 * G_USEC_PER_SEC;
	while (!readers_have(&c, packets[FRAMES - 1]) && g_get_monotonic_time() < deadline) {
		if (!g_main_context_iteration(NULL, FALSE))
			g_usleep(1000);
	}
	g_assert_true(readers_have(&c, packets[FRAMES - 1]));
	ws_stats(bridge, &stats);
	print_push("16 clients (1 stalled)", push_ms);
	print_received(&c, t0, packets);
	printf("websocket: clients left %u, dropped %" G_GUINT64_FORMAT "\n", stats.clients,
	       stats.dropped);
	g_main_loop_quit(c.loop);
	g_thread_join(thread);
	g_main_loop_unref(c.loop);
	g_main_context_unref(c.context);
	for (guint i = 0; i < READERS; i++)
		g_free(c.readers[i].arrivals);
}

int
main(void)
{
	g_autofree TrackerFrame *scene = testutil_scene_frames("crowd", SCENE_FRAMES);
	guint port = (guint)testutil_free_port(G_SOCKET_TYPE_STREAM);
	g_autofree char *load = NULL;

	if (g_file_get_contents("/proc/loadavg", &load, NULL, NULL))
		g_strchomp(load);
	printf("websocket: the web mapping over the crowd scene, %d frames (load average %s)\n",
	       FRAMES, load ? load : "unknown");
	bench_alone(scene, port);
	bench_clients(scene, (guint)testutil_free_port(G_SOCKET_TYPE_STREAM));
	return 0;
}
