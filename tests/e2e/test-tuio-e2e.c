/* End to end: skelbridge's TUIO output as a TUIO client receives it. Every
 * datagram goes through the strict decoder; the scripted scenes say what
 * must come out. */
#include <gio/gio.h>
#include <signal.h>
#include <string.h>

#include "childproc.h"
#include "testutil.h"
#include "tuio-decoder.h"

#define WAIT_MS 60000

typedef struct {
	GSocket *socket;
	TuioDecoder *decoder;
	guint max_alive;
} Receiver;

static void
receiver_init(Receiver *r, GSocketType type, gsize max_datagram)
{
	g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback(G_SOCKET_FAMILY_IPV4);
	g_autoptr(GSocketAddress) any = g_inet_socket_address_new(loopback, 0);
	g_autoptr(GError) error = NULL;

	r->socket = g_socket_new(G_SOCKET_FAMILY_IPV4, type, 0, &error);
	g_assert_no_error(error);
	g_socket_bind(r->socket, any, TRUE, &error);
	g_assert_no_error(error);
	if (type == G_SOCKET_TYPE_STREAM)
		g_socket_listen(r->socket, &error);
	g_assert_no_error(error);
	g_socket_set_blocking(r->socket, FALSE);
	r->decoder = tuio_decoder_new("2Dcur", max_datagram);
	r->max_alive = 0;
}

static void
receiver_clear(Receiver *r)
{
	g_clear_object(&r->socket);
	g_clear_pointer(&r->decoder, tuio_decoder_free);
}

static char *
receiver_url(Receiver *r, const char *scheme)
{
	g_autoptr(GSocketAddress) local = g_socket_get_local_address(r->socket, NULL);

	return g_strdup_printf("%s://127.0.0.1:%u", scheme,
	                       g_inet_socket_address_get_port(G_INET_SOCKET_ADDRESS(local)));
}

static void
receiver_feed(Receiver *r, const guint8 *data, gsize len)
{
	g_autoptr(GError) error = NULL;

	tuio_decoder_feed(r->decoder, data, len, &error);
	g_assert_no_error(error);
	r->max_alive = MAX(r->max_alive, tuio_decoder_n_alive(r->decoder));
}

/* Takes every datagram waiting; how many there were. */
static guint
receiver_drain(Receiver *r)
{
	guint8 buffer[65536];
	guint n = 0;
	gssize len;

	while ((len = g_socket_receive(r->socket, (char *)buffer, sizeof(buffer), NULL, NULL)) >
	       0) {
		receiver_feed(r, buffer, (gsize)len);
		n++;
	}
	return n;
}

static ChildProc *
run_bridge(const char *scene, const char *skeletons, const char *mapping, const char *url,
           gboolean paced)
{
	g_autofree char *source = g_strconcat("demo:", scene, NULL);
	const char *args[] = {
		"run",       "--source", source,     "--skeletons", skeletons,
		"--mapping", mapping,    "--target", url,           paced ? "--loop" : "--fast",
		NULL
	};

	return child_proc_start(args);
}

static void
run_to_end(Receiver *r, const char *scene, const char *skeletons, const char *mapping)
{
	g_autofree char *url = receiver_url(r, "osc.udp");
	g_autoptr(ChildProc) proc = run_bridge(scene, skeletons, mapping, url, FALSE);
	g_autoptr(GError) error = NULL;

	g_assert_cmpint(child_proc_wait(proc, WAIT_MS), ==, 0);
	g_assert_cmpuint(receiver_drain(r), >, 0);
	g_assert_true(tuio_decoder_finish(r->decoder, &error));
	g_assert_no_error(error);
}

static guint
count_kind(const GArray *events, TuioEventKind kind)
{
	guint n = 0;

	for (guint i = 0; i < events->len; i++)
		n += g_array_index(events, TuioEvent, i).kind == kind;
	return n;
}

/* One hand pushes, drags to the user's right and pulls back: one cursor,
 * added, moved toward the surface's right (mirrored), removed. */
static void
check_one_drag(Receiver *r)
{
	const GArray *events = tuio_decoder_events(r->decoder);
	const TuioEvent *first, *last_move;

	g_assert_cmpuint(count_kind(events, TUIO_EVENT_ADD), ==, 1);
	g_assert_cmpuint(count_kind(events, TUIO_EVENT_REMOVE), ==, 1);
	g_assert_cmpuint(events->len, >, 20);
	first = &g_array_index(events, TuioEvent, 0);
	last_move = &g_array_index(events, TuioEvent, events->len - 2);
	g_assert_cmpuint(first->kind, ==, TUIO_EVENT_ADD);
	g_assert_cmpuint(g_array_index(events, TuioEvent, events->len - 1).kind, ==,
	                 TUIO_EVENT_REMOVE);
	g_assert_cmpint(last_move->session, ==, first->session);
	g_assert_cmpfloat(last_move->x - first->x, >, 0.2);
	g_assert_cmpuint(tuio_decoder_n_alive(r->decoder), ==, 0);
	g_assert_cmpuint(r->max_alive, ==, 1);
	g_assert_true(g_str_has_prefix(tuio_decoder_source(r->decoder), "skelbridge@"));
}

static void
test_push_drag_release_truth(void)
{
	Receiver r;

	receiver_init(&r, G_SOCKET_TYPE_DATAGRAM, 1472);
	run_to_end(&r, "tuio-drag", "truth", "tuio-hands");
	check_one_drag(&r);
	receiver_clear(&r);
}

/* The same scene through the tracker: its noise must not make the touch
 * flicker. */
static void
test_push_drag_release_tracker(void)
{
	Receiver r;

	receiver_init(&r, G_SOCKET_TYPE_DATAGRAM, 1472);
	run_to_end(&r, "tuio-drag", "tracker", "tuio-hands");
	check_one_drag(&r);
	receiver_clear(&r);
}

static void
test_two_users_four_cursors(void)
{
	const GArray *events;
	Receiver r;

	receiver_init(&r, G_SOCKET_TYPE_DATAGRAM, 1472);
	run_to_end(&r, "tuio-two", "truth", "tuio-hands");
	events = tuio_decoder_events(r.decoder);
	g_assert_cmpuint(count_kind(events, TUIO_EVENT_ADD), ==, 4);
	g_assert_cmpuint(count_kind(events, TUIO_EVENT_REMOVE), ==, 4);
	g_assert_cmpuint(r.max_alive, ==, 4);
	receiver_clear(&r);
}

/* Bundles capped at 200 bytes: four cursors need frames split in parts,
 * each with the whole alive list and the same fseq. */
static void
test_split_frames(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *path = g_build_filename(dir, "small.map", NULL);
	const char *text =
	        "[mapping]\nformat = 1\n\n[output tuio]\nkind = tuio\nmax_packet = 200\n";
	Receiver r;

	testutil_write_file(path, text, strlen(text));
	receiver_init(&r, G_SOCKET_TYPE_DATAGRAM, 200);
	run_to_end(&r, "tuio-two", "truth", path);
	g_assert_cmpuint(r.max_alive, ==, 4);
	g_assert_cmpuint(tuio_decoder_n_bundles(r.decoder), >,
	                 count_kind(tuio_decoder_events(r.decoder), TUIO_EVENT_UPDATE) / 3);
	receiver_clear(&r);
	testutil_rmdir(dir);
}

static gboolean
receiver_wait_alive(Receiver *r, guint n, guint timeout_ms)
{
	gint64 end = g_get_monotonic_time() + timeout_ms * 1000;

	while (g_get_monotonic_time() < end) {
		receiver_drain(r);
		if (tuio_decoder_n_alive(r->decoder) >= n)
			return TRUE;
		g_usleep(5000);
	}
	return FALSE;
}

/* Stopped while a hand touches, the bridge tells clients to drop it. */
static void
test_sigterm_drops_cursors(void)
{
	Receiver r;
	g_autofree char *url = NULL;
	g_autoptr(ChildProc) proc = NULL;

	receiver_init(&r, G_SOCKET_TYPE_DATAGRAM, 1472);
	url = receiver_url(&r, "osc.udp");
	proc = run_bridge("tuio-drag", "truth", "tuio-hands", url, TRUE);
	g_assert_true(receiver_wait_alive(&r, 1, WAIT_MS));
	child_proc_signal(proc, SIGTERM);
	g_assert_cmpint(child_proc_wait(proc, WAIT_MS), ==, 0);
	receiver_drain(&r);
	g_assert_cmpuint(tuio_decoder_n_alive(r.decoder), ==, 0);
	g_assert_cmpuint(count_kind(tuio_decoder_events(r.decoder), TUIO_EVENT_REMOVE), ==, 1);
	receiver_clear(&r);
}

/* TUIO over TCP: each packet after its 4-byte big-endian length. */
static void
read_stream(Receiver *r, GSocket *peer)
{
	g_autoptr(GByteArray) stream = g_byte_array_new();
	guint8 buffer[8192];
	gssize n;
	gsize at = 0;

	g_socket_set_blocking(peer, TRUE);
	while ((n = g_socket_receive(peer, (char *)buffer, sizeof(buffer), NULL, NULL)) > 0)
		g_byte_array_append(stream, buffer, (guint)n);
	while (at + 4 <= stream->len) {
		const guint8 *p = stream->data + at;
		gsize len = (gsize)p[0] << 24 | (gsize)p[1] << 16 | (gsize)p[2] << 8 | p[3];

		g_assert_cmpuint(at + 4 + len, <=, stream->len);
		receiver_feed(r, p + 4, len);
		at += 4 + len;
	}
	g_assert_cmpuint(at, ==, stream->len);
}

static void
test_tcp(void)
{
	Receiver r;
	g_autofree char *url = NULL;
	g_autoptr(ChildProc) proc = NULL;
	g_autoptr(GSocket) peer = NULL;
	gint64 end;

	receiver_init(&r, G_SOCKET_TYPE_STREAM, 65536);
	url = receiver_url(&r, "osc.tcp");
	proc = run_bridge("tuio-drag", "truth", "tuio-hands", url, FALSE);
	end = g_get_monotonic_time() + WAIT_MS * 1000;
	while (peer == NULL && g_get_monotonic_time() < end) {
		peer = g_socket_accept(r.socket, NULL, NULL);
		if (peer == NULL)
			g_usleep(5000);
	}
	g_assert_nonnull(peer);
	g_assert_cmpint(child_proc_wait(proc, WAIT_MS), ==, 0);
	read_stream(&r, peer);
	check_one_drag(&r);
	receiver_clear(&r);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/tuio/e2e/push-drag-release/truth", test_push_drag_release_truth);
	g_test_add_func("/tuio/e2e/push-drag-release/tracker", test_push_drag_release_tracker);
	g_test_add_func("/tuio/e2e/two-users-four-cursors", test_two_users_four_cursors);
	g_test_add_func("/tuio/e2e/split-frames", test_split_frames);
	g_test_add_func("/tuio/e2e/sigterm-drops-cursors", test_sigterm_drops_cursors);
	g_test_add_func("/tuio/e2e/tcp", test_tcp);
	return g_test_run();
}
