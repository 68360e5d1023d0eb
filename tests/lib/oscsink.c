#include "oscsink.h"

#include <lo/lo.h>
#include <string.h>

#include "testutil.h"

struct _OscSink {
	lo_server_thread server;
	gboolean tcp;
	char *group; /* multicast, or NULL */
	GMutex lock;
	GCond arrived;
	GPtrArray *messages; /* OscSinkMessage */
};

static void
osc_sink_message_free(gpointer data)
{
	OscSinkMessage *m = data;

	for (guint k = 0; k < m->n_args; k++) {
		if (m->args[k].type == 's')
			g_free(m->args[k].s);
	}
	g_free(m->args);
	g_free(m->types);
	g_free(m->path);
	g_free(m);
}

static OscSinkMessage *
osc_sink_copy(const char *path, const char *types, lo_arg **argv, int argc)
{
	OscSinkMessage *m = g_new0(OscSinkMessage, 1);

	m->path = g_strdup(path);
	m->types = g_strdup(types);
	m->n_args = (guint)argc;
	m->args = g_new0(OscSinkArg, MAX(argc, 1));
	for (int k = 0; k < argc; k++) {
		m->args[k].type = types[k];
		/* liblo's argument pointers are not aligned for lo_arg. */
		if (types[k] == 'i')
			memcpy(&m->args[k].i, argv[k], sizeof(gint32));
		else if (types[k] == 'f')
			memcpy(&m->args[k].f, argv[k], sizeof(float));
		else if (types[k] == 's')
			m->args[k].s = g_strdup((const char *)argv[k]);
	}
	return m;
}

static int
osc_sink_handler(const char *path, const char *types, lo_arg **argv, int argc,
                 lo_message message G_GNUC_UNUSED, void *user_data)
{
	OscSink *sink = user_data;

	g_mutex_lock(&sink->lock);
	g_ptr_array_add(sink->messages, osc_sink_copy(path, types, argv, argc));
	g_cond_broadcast(&sink->arrived);
	g_mutex_unlock(&sink->lock);
	return 0;
}

static void
osc_sink_error(int number, const char *message, const char *where)
{
	g_test_message("osc sink: liblo error %d: %s (%s)", number, message, where ? where : "");
}

static OscSink *
osc_sink_start(lo_server_thread server, gboolean tcp, const char *group)
{
	OscSink *sink = g_new0(OscSink, 1);

	sink->server = server;
	sink->tcp = tcp;
	sink->group = g_strdup(group);
	g_mutex_init(&sink->lock);
	g_cond_init(&sink->arrived);
	sink->messages = g_ptr_array_new_with_free_func(osc_sink_message_free);
	lo_server_thread_add_method(sink->server, NULL, NULL, osc_sink_handler, sink);
	g_assert_cmpint(lo_server_thread_start(sink->server), ==, 0);
	return sink;
}

OscSink *
osc_sink_new(gboolean tcp, int port)
{
	g_autofree char *service = port ? g_strdup_printf("%d", port) : NULL;
	lo_server_thread server =
	        lo_server_thread_new_with_proto(service, tcp ? LO_TCP : LO_UDP, osc_sink_error);

	g_assert_nonnull(server);
	return osc_sink_start(server, tcp, NULL);
}

OscSink *
osc_sink_new_multicast(const char *group)
{
	lo_server_thread server = lo_server_thread_new_multicast(group, NULL, osc_sink_error);

	return server ? osc_sink_start(server, FALSE, group) : NULL;
}

void
osc_sink_free(OscSink *sink)
{
	if (sink == NULL)
		return;
	lo_server_thread_free(sink->server);
	g_ptr_array_unref(sink->messages);
	g_mutex_clear(&sink->lock);
	g_cond_clear(&sink->arrived);
	g_free(sink->group);
	g_free(sink);
}

int
osc_sink_port(OscSink *sink)
{
	return lo_server_thread_get_port(sink->server);
}

char *
osc_sink_url(OscSink *sink)
{
	return g_strdup_printf("osc.%s://%s:%d", sink->tcp ? "tcp" : "udp",
	                       sink->group ? sink->group : "127.0.0.1", osc_sink_port(sink));
}

GPtrArray *
osc_sink_take(OscSink *sink)
{
	GPtrArray *taken;

	g_mutex_lock(&sink->lock);
	taken = sink->messages;
	sink->messages = g_ptr_array_new_with_free_func(osc_sink_message_free);
	g_mutex_unlock(&sink->lock);
	return taken;
}

static gboolean
osc_sink_has_path(OscSink *sink, const char *path)
{
	for (guint i = 0; i < sink->messages->len; i++) {
		const OscSinkMessage *m = g_ptr_array_index(sink->messages, i);

		if (strcmp(m->path, path) == 0)
			return TRUE;
	}
	return FALSE;
}

/* Waits under the lock until @done says so or the time is up. */
static gboolean
osc_sink_wait(OscSink *sink, guint timeout_ms, gboolean (*done)(OscSink *, gconstpointer),
              gconstpointer data)
{
	gint64 end = g_get_monotonic_time() + testutil_wait_ms(timeout_ms) * 1000;
	gboolean ok;

	g_mutex_lock(&sink->lock);
	while (!(ok = done(sink, data)) && g_cond_wait_until(&sink->arrived, &sink->lock, end))
		;
	ok = ok || done(sink, data);
	g_mutex_unlock(&sink->lock);
	return ok;
}

static gboolean
osc_sink_done_path(OscSink *sink, gconstpointer path)
{
	return osc_sink_has_path(sink, path);
}

static gboolean
osc_sink_done_count(OscSink *sink, gconstpointer n)
{
	return sink->messages->len >= GPOINTER_TO_UINT(n);
}

gboolean
osc_sink_wait_path(OscSink *sink, const char *path, guint timeout_ms)
{
	return osc_sink_wait(sink, timeout_ms, osc_sink_done_path, path);
}

gboolean
osc_sink_wait_count(OscSink *sink, guint n, guint timeout_ms)
{
	return osc_sink_wait(sink, timeout_ms, osc_sink_done_count, GUINT_TO_POINTER(n));
}
