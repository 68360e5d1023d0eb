/* Soak: the bridge on the demo source as fast as it goes, for
 * SOAK_FRAMES frames (100000 by default), through the tracker and every
 * kind of output at once (OSC over UDP in bundles and plain, OSC over TCP,
 * multicast, TUIO over UDP and TCP), into receivers that drain everything.
 * Prints resident memory and open descriptors after warm-up and at the end,
 * and the frame rate. Memory and descriptors must not grow: the benchmark
 * fails if descriptors grow at all or memory by more than SOAK_RSS_SLACK_KB
 * (1024 by default). */
#include <gio/gio.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "childproc.h"
#include "testutil.h"

#define N_UDP 3
#define N_TCP 2

/* ---- receivers that read and drop everything ---- */

typedef struct {
	GSocket *udp[N_UDP];
	GSocket *listeners[N_TCP];
	GPtrArray *streams; /* GSocket: accepted TCP connections */
	guint64 bytes;
	gboolean stop;
	GThread *thread;
} Drain;

static GSocket *
drain_bind(GSocketType type)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback(G_SOCKET_FAMILY_IPV4);
	g_autoptr(GSocketAddress) address = g_inet_socket_address_new(loopback, 0);
	GSocket *socket =
	        g_socket_new(G_SOCKET_FAMILY_IPV4, type, G_SOCKET_PROTOCOL_DEFAULT, &error);

	g_assert_no_error(error);
	g_socket_bind(socket, address, TRUE, &error);
	g_assert_no_error(error);
	if (type == G_SOCKET_TYPE_STREAM) {
		g_socket_listen(socket, &error);
		g_assert_no_error(error);
	}
	g_socket_set_blocking(socket, FALSE);
	return socket;
}

static int
drain_port(GSocket *socket)
{
	g_autoptr(GSocketAddress) address = g_socket_get_local_address(socket, NULL);

	return g_inet_socket_address_get_port(G_INET_SOCKET_ADDRESS(address));
}

/* Reads what @socket has; FALSE when a stream has closed. */
static gboolean
drain_read(Drain *d, GSocket *socket)
{
	static char buffer[65536];
	gssize n;

	while ((n = g_socket_receive(socket, buffer, sizeof buffer, NULL, NULL)) > 0)
		d->bytes += (guint64)n;
	return n != 0;
}

static gpointer
drain_run(gpointer data)
{
	Drain *d = data;

	while (!g_atomic_int_get(&d->stop)) {
		g_autoptr(GArray) fds = g_array_new(FALSE, TRUE, sizeof(struct pollfd));
		g_autoptr(GPtrArray) sockets = g_ptr_array_new();

		for (guint i = 0; i < N_UDP; i++)
			g_ptr_array_add(sockets, d->udp[i]);
		for (guint i = 0; i < N_TCP; i++)
			g_ptr_array_add(sockets, d->listeners[i]);
		for (guint i = 0; i < d->streams->len; i++)
			g_ptr_array_add(sockets, g_ptr_array_index(d->streams, i));
		g_array_set_size(fds, sockets->len);
		for (guint i = 0; i < sockets->len; i++) {
			g_array_index(fds, struct pollfd, i).fd =
			        g_socket_get_fd(g_ptr_array_index(sockets, i));
			g_array_index(fds, struct pollfd, i).events = POLLIN;
		}
		if (poll((struct pollfd *)(void *)fds->data, fds->len, 100) <= 0)
			continue;
		for (guint i = 0; i < sockets->len; i++) {
			GSocket *socket = g_ptr_array_index(sockets, i);
			GSocket *accepted;

			if (!(g_array_index(fds, struct pollfd, i).revents & (POLLIN | POLLHUP)))
				continue;
			if (i >= N_UDP && i < N_UDP + N_TCP) {
				accepted = g_socket_accept(socket, NULL, NULL);
				if (accepted != NULL) {
					g_socket_set_blocking(accepted, FALSE);
					g_ptr_array_add(d->streams, accepted);
				}
			} else if (!drain_read(d, socket)) {
				g_ptr_array_remove(d->streams, socket);
			}
		}
	}
	return NULL;
}

static Drain *
drain_new(void)
{
	Drain *d = g_new0(Drain, 1);

	for (guint i = 0; i < N_UDP; i++)
		d->udp[i] = drain_bind(G_SOCKET_TYPE_DATAGRAM);
	for (guint i = 0; i < N_TCP; i++)
		d->listeners[i] = drain_bind(G_SOCKET_TYPE_STREAM);
	d->streams = g_ptr_array_new_with_free_func(g_object_unref);
	d->thread = g_thread_new("drain", drain_run, d);
	return d;
}

static void
drain_free(Drain *d)
{
	g_atomic_int_set(&d->stop, TRUE);
	g_thread_join(d->thread);
	for (guint i = 0; i < N_UDP; i++)
		g_object_unref(d->udp[i]);
	for (guint i = 0; i < N_TCP; i++)
		g_object_unref(d->listeners[i]);
	g_ptr_array_unref(d->streams);
	g_free(d);
}

/* ---- the mapping: every output kind ---- */

static char *
soak_mapping(const Drain *d)
{
	return g_strdup_printf(
	        "[mapping]\nformat = 1\ndescription = Every kind of output at once, for the soak\n"
	        "[output stream]\nkind = osc\ntarget = osc.tcp://127.0.0.1:%d\nbundle = user\n"
	        "[output group]\nkind = osc\ntarget = osc.udp://239.255.77.77:%d\nttl = 0\n"
	        "[output cursors]\nkind = tuio\ntarget = osc.tcp://127.0.0.1:%d\n"
	        "profile = 3Dcur\ntouch = always\n"
	        "[rule joints]\noutput = stream\nfor = joint\naddress = /s/user{user}/{joint}\n"
	        "args = user joint x y z u v confidence\n"
	        "x = -1000:1000 -> 0:1\nclamp = true\n"
	        "[rule users]\noutput = group\nfor = user\naddress = /g/user\n"
	        "args = user frame users\non_change = 0\nrefresh = 1\n"
	        "[rule events]\noutput = stream\nfor = event\n"
	        "events = new_user new_skel lost_user\naddress = /s/{event}\nargs = user event\n",
	        drain_port(d->listeners[0]), drain_port(d->udp[0]), drain_port(d->listeners[1]));
}

/* ---- what the bridge holds ---- */

typedef struct {
	guint64 frame; /* the last frame the bridge reported */
	guint rss_kb;
	guint fds;
} Sample;

static gboolean
sample_take(int pid, Sample *s)
{
	g_autofree char *status_path = g_strdup_printf("/proc/%d/status", pid);
	g_autofree char *fd_path = g_strdup_printf("/proc/%d/fd", pid);
	g_autofree char *status = NULL;
	g_autoptr(GDir) dir = NULL;
	const char *rss;

	if (!g_file_get_contents(status_path, &status, NULL, NULL))
		return FALSE;
	rss = strstr(status, "VmRSS:");
	dir = g_dir_open(fd_path, 0, NULL);
	if (rss == NULL || dir == NULL)
		return FALSE;
	s->rss_kb = (guint)g_ascii_strtoull(rss + strlen("VmRSS:"), NULL, 10);
	s->fds = 0;
	while (g_dir_read_name(dir) != NULL)
		s->fds++;
	return TRUE;
}

/* The frame of the last "demo: frame N, ..." line in the bridge's log. */
static guint64
last_frame(ChildProc *proc)
{
	g_autofree char *log = child_proc_log(proc);
	const char *p = log, *last = NULL;

	while ((p = strstr(p, ": frame ")) != NULL) {
		last = p;
		p++;
	}
	return last ? g_ascii_strtoull(last + strlen(": frame "), NULL, 10) : 0;
}

/* The bridge's closing line: "skelbridge: demo: N frames in S s (F fps)". */
static const char *
summary_line(const char *log, char *out, gsize size)
{
	const char *p = strstr(log, " frames in ");
	gsize n;

	if (p == NULL)
		return "(no summary: the bridge did not finish)";
	while (p > log && p[-1] != '\n')
		p--;
	n = strcspn(p, "\n");
	g_strlcpy(out, p, MIN(n + 1, size));
	return out;
}

int
main(void)
{
	const char *frames_env = g_getenv("SOAK_FRAMES");
	const char *slack_env = g_getenv("SOAK_RSS_SLACK_KB");
	guint64 frames = frames_env ? g_ascii_strtoull(frames_env, NULL, 10) : 100000;
	guint slack_kb = slack_env ? (guint)g_ascii_strtoull(slack_env, NULL, 10) : 1024;
	Drain *drain = drain_new();
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *text = soak_mapping(drain);
	g_autofree char *path = g_build_filename(dir, "soak.map", NULL);
	g_autofree char *frames_text = g_strdup_printf("%" G_GUINT64_FORMAT, frames);
	g_autofree char *t_default =
	        g_strdup_printf("default=osc.udp://127.0.0.1:%d", drain_port(drain->udp[0]));
	g_autofree char *t_osceleton =
	        g_strdup_printf("osceleton=osc.udp://127.0.0.1:%d", drain_port(drain->udp[1]));
	g_autofree char *t_tuio =
	        g_strdup_printf("tuio=osc.udp://127.0.0.1:%d", drain_port(drain->udp[2]));
	const char *args[] = { "run",       "--source",  "demo",       "--fast",    "--loop",
		               "--frames",  frames_text, "--mapping",  "default",   "--mapping",
		               "osceleton", "--mapping", "tuio-hands", "--mapping", path,
		               "--target",  t_default,   "--target",   t_osceleton, "--target",
		               t_tuio,      NULL };
	g_autoptr(ChildProc) proc = NULL;
	g_autofree char *log = NULL;
	Sample start = { 0 }, end = { 0 }, now = { 0 };
	guint peak_kb = 0;
	int pid, status;
	char line[512];
	gboolean ok;

	testutil_write_file(path, text, strlen(text));
	proc = child_proc_start(args);
	pid = child_proc_pid(proc);
	/* Sample until the bridge exits; "start" is the first sample past
	 * 5% of the frames, once caches and buffers have settled. */
	while (child_proc_pid(proc) != 0 && sample_take(pid, &now)) {
		now.frame = last_frame(proc);
		peak_kb = MAX(peak_kb, now.rss_kb);
		if (start.frame == 0 && now.frame >= frames / 20)
			start = now;
		if (now.frame > 0)
			end = now;
		g_usleep(G_USEC_PER_SEC / 2);
	}
	status = child_proc_wait(proc, 60000);
	log = child_proc_log(proc);
	printf("soak: %" G_GUINT64_FORMAT " demo frames through the tracker, 6 outputs "
	       "(OSC UDP bundles, OSC UDP plain, OSC TCP, multicast, TUIO UDP, TUIO TCP)\n",
	       frames);
	printf("  %s\n", summary_line(log, line, sizeof line));
	printf("  receivers drained %.1f MB\n", drain->bytes / 1e6);
	printf("  resident memory: %u kB at frame %" G_GUINT64_FORMAT
	       ", %u kB at frame %" G_GUINT64_FORMAT " (%+d kB), peak %u kB\n",
	       start.rss_kb, start.frame, end.rss_kb, end.frame,
	       (int)end.rss_kb - (int)start.rss_kb, peak_kb);
	printf("  open descriptors: %u at frame %" G_GUINT64_FORMAT
	       ", %u at frame %" G_GUINT64_FORMAT "\n",
	       start.fds, start.frame, end.fds, end.frame);
	ok = status == 0 && start.frame > 0 && end.fds <= start.fds &&
	     end.rss_kb <= start.rss_kb + slack_kb;
	if (ok)
		printf("  memory and descriptors held steady\n");
	else if (status != 0)
		printf("  FAILED: the bridge exited with %d\n", status);
	else if (start.frame == 0)
		printf("  FAILED: too short to sample after warm-up (the bridge logs its frame "
		       "every 10 s)\n");
	else
		printf("  FAILED: memory or descriptors grew\n");
	if (status != 0)
		printf("%s\n", log);
	drain_free(drain);
	testutil_rmdir(dir);
	return ok ? 0 : 1;
}
