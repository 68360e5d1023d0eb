/* End to end: skelbridge's TUIO output as a TUIO client receives it. Every
 * datagram goes through the strict decoder; the scripted scenes say what
 * must come out. */
#include <gio/gio.h>
#include <signal.h>
#include <string.h>

#include "childproc.h"
#include "mapping/tuio.h"
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

/* ---- several bridges into one client ---- */

/* A client as TuioDump is one: one port, every sender's bundles. Each
 * source's datagrams go through a strict decoder of its own; the
 * reference client's rule for late frames runs over them all, with one
 * frame counter for every source, as TUIO11_CPP keeps it. */
typedef struct {
	Receiver r;          /* its socket; its decoder is unused */
	GHashTable *sources; /* source name -> TuioDecoder */
	gint32 current_frame;
	GArray *fseqs; /* every bundle's, in arrival order */
	guint late;
} Client;

static void
client_init(Client *c)
{
	receiver_init(&c->r, G_SOCKET_TYPE_DATAGRAM, 1472);
	c->sources = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
	                                   (GDestroyNotify)tuio_decoder_free);
	c->current_frame = -1;
	c->fseqs = g_array_new(FALSE, FALSE, sizeof(gint32));
	c->late = 0;
}

static void
client_clear(Client *c)
{
	receiver_clear(&c->r);
	g_hash_table_unref(c->sources);
	g_array_unref(c->fseqs);
}

static void
client_feed(Client *c, const guint8 *data, gsize len)
{
	g_autofree char *source = tuio_decoder_peek_source(data, len);
	g_autoptr(GError) error = NULL;
	TuioDecoder *decoder;
	gint32 fseq;

	g_assert_nonnull(source);
	decoder = g_hash_table_lookup(c->sources, source);
	if (decoder == NULL) {
		decoder = tuio_decoder_new("2Dcur", 1472);
		g_hash_table_insert(c->sources, g_strdup(source), decoder);
	}
	tuio_decoder_feed(decoder, data, len, &error);
	g_assert_no_error(error);
	fseq = tuio_decoder_last_fseq(decoder);
	g_array_append_val(c->fseqs, fseq);
	c->late += !tuio_reference_accepts(&c->current_frame, fseq);
}

static void
client_drain(Client *c)
{
	guint8 buffer[65536];
	gssize len;

	while ((len = g_socket_receive(c->r.socket, (char *)buffer, sizeof(buffer), NULL, NULL)) >
	       0)
		client_feed(c, buffer, (gsize)len);
}

/* Takes what the bridges send while they run, so that no socket buffer
 * overflows, then their exit statuses. */
static void
client_run(Client *c, ChildProc *const *procs, guint n)
{
	gint64 end = g_get_monotonic_time() + (gint64)testutil_wait_ms(WAIT_MS) * 1000;
	gboolean running = TRUE;

	while (running && g_get_monotonic_time() < end) {
		g_main_context_iteration(NULL, FALSE);
		client_drain(c);
		running = FALSE;
		for (guint i = 0; i < n; i++)
			running |= child_proc_pid(procs[i]) != 0;
		g_usleep(2000);
	}
	for (guint i = 0; i < n; i++)
		g_assert_cmpint(child_proc_wait(procs[i], WAIT_MS), ==, 0);
	client_drain(c);
}

static TuioDecoder *
client_source(Client *c, const char *name)
{
	g_autofree char *source = g_strconcat(name, "@", g_get_host_name(), NULL);
	TuioDecoder *decoder = g_hash_table_lookup(c->sources, source);

	g_assert_nonnull(decoder);
	return decoder;
}

static GHashTable *
session_set(const GArray *events)
{
	GHashTable *set = g_hash_table_new(NULL, NULL);

	for (guint i = 0; i < events->len; i++)
		g_hash_table_add(set, GINT_TO_POINTER(g_array_index(events, TuioEvent, i).session));
	return set;
}

/* Two bridges started together into one client, one named on the command
 * line, one by its mapping: two sources, every bundle of both taken, every
 * cursor of both seen, no session id shared. */
static void
test_two_bridges_one_client(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *path = g_build_filename(dir, "right.map", NULL);
	const char *text = "[mapping]\nformat = 1\n\n[output tuio]\nkind = tuio\nsource = right\n";
	g_autofree char *url = NULL;
	ChildProc *procs[2];
	Client c;
	TuioDecoder *left, *right;
	g_autoptr(GHashTable) left_ids = NULL;
	g_autoptr(GHashTable) right_ids = NULL;
	GHashTableIter iter;
	gpointer id;

	testutil_write_file(path, text, strlen(text));
	client_init(&c);
	url = receiver_url(&c.r, "osc.udp");
	{
		const char *a[] = { "run",   "--source",  "demo:tuio-drag", "--skeletons",
			            "truth", "--mapping", "tuio-hands",     "--target",
			            url,     "--bridge",  "left",           "--fast",
			            NULL };
		const char *b[] = { "run",         "--source", "demo:tuio-two",
			            "--skeletons", "truth",    "--mapping",
			            path,          "--target", url,
			            "--fast",      NULL };

		procs[0] = child_proc_start(a);
		procs[1] = child_proc_start(b);
	}
	client_run(&c, procs, 2);
	child_proc_free(procs[0]);
	child_proc_free(procs[1]);
	g_assert_cmpuint(g_hash_table_size(c.sources), ==, 2);
	left = client_source(&c, "left");
	right = client_source(&c, "right");
	g_assert_cmpuint(c.late, ==, 0);
	g_assert_cmpuint(c.fseqs->len, ==,
	                 tuio_decoder_n_bundles(left) + tuio_decoder_n_bundles(right));
	g_assert_cmpuint(count_kind(tuio_decoder_events(left), TUIO_EVENT_ADD), ==, 1);
	g_assert_cmpuint(count_kind(tuio_decoder_events(right), TUIO_EVENT_ADD), ==, 4);
	g_assert_cmpuint(count_kind(tuio_decoder_events(right), TUIO_EVENT_REMOVE), ==, 4);
	left_ids = session_set(tuio_decoder_events(left));
	right_ids = session_set(tuio_decoder_events(right));
	g_hash_table_iter_init(&iter, left_ids);
	while (g_hash_table_iter_next(&iter, &id, NULL))
		g_assert_false(g_hash_table_contains(right_ids, id));
	client_clear(&c);
	testutil_rmdir(dir);
}

/* Where a bridge sending as skelbridge to @url seeds its fseq from the clock now. */
static gint32
clock_floor(const char *url)
{
	g_autofree char *place = g_strdup_printf("skelbridge@%s %s", g_get_host_name(), url);

	return tuio_seed_mix(tuio_seed_from_clock(g_get_real_time()), tuio_seed_spread(place));
}

static ChildProc *
run_fast(const char *url, const char *frames)
{
	const char *args[] = { "run",       "--source",   "demo:tuio-two", "--skeletons", "truth",
		               "--mapping", "tuio-hands", "--target",      url,           "--loop",
		               "--fast",    "--frames",   frames,          NULL };

	return child_proc_start(args);
}

/* A --fast run counts frames faster than the clock; the run after it
 * carries on above its last fseq, and the client takes every frame. */
static void
test_restart_after_fast_run(void)
{
	g_autofree char *state = testutil_tmpdir();
	g_autofree char *home = g_strdup(g_getenv("XDG_STATE_HOME"));
	g_autofree char *url = NULL;
	g_autofree char *files = NULL;
	ChildProc *proc;
	Client c;
	guint first_run;
	gint32 last;

	g_setenv("XDG_STATE_HOME", state, TRUE);
	client_init(&c);
	url = receiver_url(&c.r, "osc.udp");
	proc = run_fast(url, "600");
	client_run(&c, &proc, 1);
	child_proc_free(proc);
	first_run = c.fseqs->len;
	last = g_array_index(c.fseqs, gint32, first_run - 1);
	/* It ran ahead of the clock: a clock seed alone would start the next
	 * run below it (under valgrind it runs too slowly to get ahead). */
	if (g_getenv("SKELBRIDGE_WRAPPER") == NULL)
		g_assert_true(tuio_fseq_after(last, clock_floor(url)));
	proc = run_fast(url, "30");
	client_run(&c, &proc, 1);
	child_proc_free(proc);
	g_assert_cmpuint(c.fseqs->len, >, first_run);
	g_assert_cmpint(g_array_index(c.fseqs, gint32, first_run), >, last);
	g_assert_cmpuint(c.late, ==, 0);
	files = g_build_filename(state, "skelbridge", NULL);
	g_assert_true(g_file_test(files, G_FILE_TEST_IS_DIR));
	client_clear(&c);
	if (home != NULL)
		g_setenv("XDG_STATE_HOME", home, TRUE);
	else
		g_unsetenv("XDG_STATE_HOME");
	testutil_rmdir(state);
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
	g_test_add_func("/tuio/e2e/two-bridges-one-client", test_two_bridges_one_client);
	g_test_add_func("/tuio/e2e/restart-after-fast-run", test_restart_after_fast_run);
	return g_test_run();
}
