/* Benchmark: the bridge from skeletons to packets, excluding the tracker.
 * Six users with all fifteen joints go through a mapping with three
 * outputs on loopback (UDP frame bundles, UDP plain messages in body space
 * along a curve, TCP user bundles), received by a thread that drains them. Prints the time from a
 * frame's arrival to the last packet of that frame sent (median and p99)
 * and messages per second; then the time to parse and reload mappings of
 * 2,500 to 20,000 rules, per rule. Asserts nothing about time.
 * Run with: meson test -C build --benchmark mapping --verbose */
#include <gio/gio.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "base/stats.h"
#include "bridge.h"
#include "mapping/mapping-engine.h"
#include "mapping/mapping-parse.h"
#include "testutil.h"

#define FRAMES  3000
#define N_USERS 6

typedef struct {
	GSocket *udp_bundles;
	GSocket *udp_plain;
	GSocket *tcp_listener;
	GSocket *tcp; /* the bridge's connection, once accepted */
	gint stop;
	guint64 datagrams;
	guint64 tcp_bytes;
} Receivers;

static GSocket *
receiver_socket(GSocketType type)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback(G_SOCKET_FAMILY_IPV4);
	g_autoptr(GSocketAddress) any = g_inet_socket_address_new(loopback, 0);
	GSocket *socket = g_socket_new(G_SOCKET_FAMILY_IPV4, type, 0, &error);

	g_assert_no_error(error);
	g_socket_bind(socket, any, TRUE, &error);
	g_assert_no_error(error);
	if (type == G_SOCKET_TYPE_STREAM)
		g_socket_listen(socket, &error);
	g_assert_no_error(error);
	/* Room for bursts, so that the figures measure the sender. */
	g_socket_set_option(socket, SOL_SOCKET, SO_RCVBUF, 8 << 20, NULL);
	return socket;
}

static int
receiver_port(GSocket *socket)
{
	g_autoptr(GSocketAddress) address = g_socket_get_local_address(socket, NULL);

	return g_inet_socket_address_get_port(G_INET_SOCKET_ADDRESS(address));
}

static void
receivers_drain(Receivers *r, struct pollfd *fds)
{
	static char buffer[65536];

	for (guint i = 0; i < 2; i++) {
		if (fds[i].revents & POLLIN)
			r->datagrams += recv(fds[i].fd, buffer, sizeof(buffer), 0) > 0;
	}
	if ((fds[2].revents & POLLIN) && r->tcp == NULL) {
		r->tcp = g_socket_accept(r->tcp_listener, NULL, NULL);
	} else if (fds[2].revents & POLLIN) {
		ssize_t n = recv(fds[2].fd, buffer, sizeof(buffer), 0);

		r->tcp_bytes += n > 0 ? (guint64)n : 0;
	}
}

static gpointer
receivers_run(gpointer data)
{
	Receivers *r = data;

	while (!g_atomic_int_get(&r->stop)) {
		struct pollfd fds[3] = {
			{ g_socket_get_fd(r->udp_bundles), POLLIN, 0 },
			{ g_socket_get_fd(r->udp_plain), POLLIN, 0 },
			{ g_socket_get_fd(r->tcp ? r->tcp : r->tcp_listener), POLLIN, 0 },
		};

		if (poll(fds, 3, 50) > 0)
			receivers_drain(r, fds);
	}
	return NULL;
}

static char *
write_mapping(const char *dir, const Receivers *r)
{
	g_autofree char *text = g_strdup_printf(
	        "[mapping]\nformat = 1\n"
	        "[output bundles]\nkind = osc\ntarget = osc.udp://127.0.0.1:%d\nbundle = frame\n"
	        "[output plain]\nkind = osc\ntarget = osc.udp://127.0.0.1:%d\nbundle = none\n"
	        "[output stream]\nkind = osc\ntarget = osc.tcp://127.0.0.1:%d\nbundle = user\n"
	        "[rule a]\noutput = bundles\nfor = joint\naddress = /skel/user{user}/{joint}\n"
	        "args = x y z confidence\nx = 0:1000 -> 0:-1\ny = 0:1000 -> 0:1\n"
	        "z = 0:1000 -> 0:1\n"
	        "[rule b]\noutput = plain\nfor = joint\naddress = /skel/{joint}\n"
	        "args = user x y z\nspace = body\ny = -3:3 -> 0:1 exp 2\n"
	        "[rule c]\noutput = stream\nfor = joint\naddress = /joint\n"
	        "args = joint user x y z\nx = 1280:-1280 -> 0:1\ny = 960:-960 -> 0:1\n"
	        "z = 0:1280 -> 0:1\n",
	        receiver_port(r->udp_bundles), receiver_port(r->udp_plain),
	        receiver_port(r->tcp_listener));
	char *path = g_build_filename(dir, "bench.map", NULL);

	testutil_write_file(path, text, strlen(text));
	return path;
}

/* Six people waving: every joint moves from frame to frame. */
static void
make_frame(TrackerFrame *frame, guint k)
{
	frame->frame = k;
	frame->time_us = (gint64)k * G_USEC_PER_SEC / 30;
	frame->n_users = N_USERS;
	for (guint u = 0; u < N_USERS; u++) {
		TrackerUser *user = &frame->users[u];

		user->id = u + 1;
		for (guint j = 0; j < TRACKER_N_JOINTS; j++) {
			double phase = 0.1 * k + 0.5 * u + 0.3 * j;

			user->joints[j].position =
			        tracker_vec3(-1500.0 + 600 * u + 50 * sin(phase), 800.0 - 110 * j,
			                     2500 + 30 * cos(phase));
			user->joints[j].u = 100 + 80 * u;
			user->joints[j].v = 40 + 25 * j;
			user->joints[j].confidence = 1;
		}
	}
}

static gboolean
bridge_ready(Bridge *bridge)
{
	for (guint i = 0; i < bridge_n_outputs(bridge); i++) {
		OscOutputStats stats;

		osc_output_get_stats(bridge_output(bridge, i, NULL), &stats);
		if (stats.state != OSC_OUTPUT_READY)
			return FALSE;
	}
	return TRUE;
}

static double
thread_cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Every output has written all it was given: a TCP output that could not
 * write it all at once would finish later, from the main loop. */
static gboolean
bridge_all_written(Bridge *bridge)
{
	for (guint i = 0; i < bridge_n_outputs(bridge); i++) {
		if (!osc_output_flushed(bridge_output(bridge, i, NULL)))
			return FALSE;
	}
	return TRUE;
}

/* @ms: wall-clock time per frame, from the skeletons' arrival to the last
 * packet handed to the kernel; @cpu_ms: the thread's own CPU time, which
 * leaves out the time other processes took the CPU away; @late: frames
 * whose last bytes were not written by then. */
static void
bench_frames(Bridge *bridge, double *ms, double *cpu_ms, double *secs, guint *late)
{
	TrackerFrame frame = { 0 };
	gint64 start = g_get_monotonic_time();

	for (guint k = 0; k < FRAMES; k++) {
		gint64 t0;
		double cpu0;

		make_frame(&frame, k);
		t0 = g_get_monotonic_time();
		cpu0 = thread_cpu_ms();
		bridge_push(bridge, &frame, g_get_real_time());
		cpu_ms[k] = thread_cpu_ms() - cpu0;
		ms[k] = (g_get_monotonic_time() - t0) / 1000.0;
		*late += !bridge_all_written(bridge);
		/* The loop runs between frames, as in the bridge (TCP writes). */
		while (g_main_context_iteration(NULL, FALSE))
			;
	}
	*secs = (g_get_monotonic_time() - start) / (double)G_USEC_PER_SEC;
}

static void
bench_report(Bridge *bridge, Receivers *r, double *ms, double *cpu_ms, double secs, guint late)
{
	double median = testutil_percentile(ms, FRAMES, 0.5);
	double p99 = testutil_percentile(ms, FRAMES, 0.99);
	double max = testutil_percentile(ms, FRAMES, 1.0);
	g_autofree char *load = NULL;
	guint64 sent_datagrams = 0;
	BridgeStats stats;

	bridge_get_stats(bridge, &stats);
	/* The wall-clock figures depend on what else the machine runs. */
	if (g_file_get_contents("/proc/loadavg", &load, NULL, NULL))
		g_strchomp(load);
	else
		load = g_strdup("unknown");
	for (guint i = 0; i < 2; i++) {
		OscOutputStats output;

		osc_output_get_stats(bridge_output(bridge, i, NULL), &output);
		sent_datagrams += output.packets;
	}
	printf("mapping: frame to last packet sent: %.3f ms median, %.3f ms p99, %.3f ms max "
	       "(%d users x %d joints to 3 outputs, %" G_GUINT64_FORMAT " messages per frame, "
	       "%d frames)\n",
	       median, p99, max, N_USERS, TRACKER_N_JOINTS, stats.messages / FRAMES, FRAMES);
	printf("mapping: frames whose last packet was still queued when the frame was done: "
	       "%u of %d\n",
	       late, FRAMES);
	printf("mapping: CPU time of the bridge's thread per frame: %.3f ms median, %.3f ms p99 "
	       "(load average %s)\n",
	       testutil_percentile(cpu_ms, FRAMES, 0.5), testutil_percentile(cpu_ms, FRAMES, 0.99),
	       load);
	printf("mapping: %.0f messages/s on loopback (UDP frame bundles, UDP plain messages, "
	       "TCP user bundles); %" G_GUINT64_FORMAT " errors; receivers got %" G_GUINT64_FORMAT
	       " of %" G_GUINT64_FORMAT " datagrams and %" G_GUINT64_FORMAT " TCP bytes\n",
	       stats.messages / secs, stats.errors, r->datagrams, sent_datagrams, r->tcp_bytes);
}

/* ---- parsing and reloading many rules ---- */

/* A mapping of @n_rules frame rules to one output. */
static char *
many_rules(guint n_rules)
{
	GString *text = g_string_new("[mapping]\nformat = 1\n[output o]\nkind = osc\n"
	                             "target = osc.udp://127.0.0.1:9\n");

	for (guint i = 0; i < n_rules; i++)
		g_string_append_printf(text, "[rule r%u]\noutput = o\nfor = frame\naddress = /a\n",
		                       i);
	return g_string_free(text, FALSE);
}

/* Median milliseconds to parse @text and build its engine over @previous's
 * (a reload: every rule's state is looked for in the old engine). */
static double
parse_reload_ms(const char *text, const Mapping *previous)
{
	double runs[5];

	for (guint r = 0; r < G_N_ELEMENTS(runs); r++) {
		gint64 start = g_get_monotonic_time();
		g_autoptr(GError) error = NULL;
		Mapping *mapping = mapping_parse("many.map", text, strlen(text), &error);
		MappingEngine *old = mapping_engine_new(previous, NULL);
		MappingEngine *engine = mapping_engine_new(mapping, old);

		runs[r] = (g_get_monotonic_time() - start) / 1000.0;
		g_assert_no_error(error);
		mapping_engine_free(engine);
		mapping_engine_free(old);
		mapping_free(mapping);
	}
	return stats_median(runs, G_N_ELEMENTS(runs));
}

/* Linear time: the cost per rule stays put as the file grows to the 1 MiB
 * a mapping file may hold (a quadratic parse grows it 8-fold here). */
static void
bench_parse(void)
{
	static const guint sizes[] = { 2500, 5000, 10000, 20000 };
	double first_per_rule = 0;

	for (guint i = 0; i < G_N_ELEMENTS(sizes); i++) {
		g_autofree char *text = many_rules(sizes[i]);
		g_autoptr(GError) error = NULL;
		g_autoptr(Mapping) previous = mapping_parse("many.map", text, strlen(text), &error);
		double ms, per_rule;

		g_assert_no_error(error);
		g_assert_cmpuint(strlen(text), <=, MAPPING_MAX_BYTES);
		ms = parse_reload_ms(text, previous);
		per_rule = ms * 1000.0 / sizes[i];
		if (i == 0)
			first_per_rule = per_rule;
		printf("mapping: parse and reload of %u rules (%.0f KiB): %.1f ms median, %.2f "
		       "us per rule, %.2fx the per-rule cost of %u rules\n",
		       sizes[i], strlen(text) / 1024.0, ms, per_rule, per_rule / first_per_rule,
		       sizes[0]);
	}
}

int
main(void)
{
	g_autofree char *dir = testutil_tmpdir();
	Receivers r = { receiver_socket(G_SOCKET_TYPE_DATAGRAM),
		        receiver_socket(G_SOCKET_TYPE_DATAGRAM),
		        receiver_socket(G_SOCKET_TYPE_STREAM),
		        NULL,
		        0,
		        0,
		        0 };
	g_autofree char *path = write_mapping(dir, &r);
	const char *mappings[] = { path, NULL };
	BridgeOptions options = { .mappings = mappings, .skeletons = "truth", .state_dir = "" };
	g_autoptr(GError) error = NULL;
	g_autoptr(Bridge) bridge = bridge_new(&options, NULL, NULL, &error);
	GThread *thread = g_thread_new("receivers", receivers_run, &r);
	g_autofree double *ms = g_new(double, FRAMES);
	g_autofree double *cpu_ms = g_new(double, FRAMES);
	double secs;
	guint late = 0;

	g_assert_no_error(error);
	while (!bridge_ready(bridge))
		g_main_context_iteration(NULL, TRUE);
	bench_frames(bridge, ms, cpu_ms, &secs, &late);
	/* Let the receivers catch up before counting what they got. */
	g_usleep(300000);
	g_atomic_int_set(&r.stop, 1);
	g_thread_join(thread);
	bench_report(bridge, &r, ms, cpu_ms, secs, late);
	bench_parse();
	g_clear_object(&r.tcp);
	g_object_unref(r.udp_bundles);
	g_object_unref(r.udp_plain);
	g_object_unref(r.tcp_listener);
	testutil_rmdir(dir);
	return 0;
}
