#include "tuio-store.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include "base/datafile.h"
#include "mapping/tuio.h"

/* The formatter would space the quark's name out as a subtraction. */
/* clang-format off */
G_DEFINE_QUARK(skelbridge-tuio-store-error-quark, tuio_store_error)
/* clang-format on */

/* ---- pure ---- */

char *
tuio_store_format(const char *source, const char *target, gint32 fseq, gint64 unix_time_us)
{
	return g_strdup_printf("# skelbridge: where a TUIO output's frame sequence stopped\n"
	                       "format = %d\nsource = %s\ntarget = %s\nfseq = %d\n"
	                       "time = %" G_GINT64_FORMAT "\n",
	                       TUIO_STORE_FORMAT, source, target, fseq,
	                       unix_time_us / G_USEC_PER_SEC);
}

/* "path:line: what", or "path: what" for @line 0. */
static gboolean store_fail(GError **error, const char *path, guint line, const char *format, ...)
        G_GNUC_PRINTF(4, 5);

static gboolean
store_fail(GError **error, const char *path, guint line, const char *format, ...)
{
	g_autofree char *what = NULL;
	g_autofree char *where = line ? g_strdup_printf("%s:%u", path, line) : g_strdup(path);
	va_list args;

	va_start(args, format);
	what = g_strdup_vprintf(format, args);
	va_end(args);
	g_set_error(error, TUIO_STORE_ERROR, TUIO_STORE_ERROR_INVALID, "%s: %s", where, what);
	return FALSE;
}

static gboolean
store_number(const char *value, gint64 min, gint64 max, gint64 *out)
{
	return g_ascii_string_to_signed(value, 10, min, max, out, NULL);
}

/* One "key = value" line into what is known so far. */
static gboolean
store_parse_line(const char *path, const char *line, guint number, gint64 values[3], GError **error)
{
	static const char *const keys[] = { "format", "fseq", "time" };
	static const gint64 max[] = { G_MAXINT32, TUIO_ID_LIMIT - 1, G_MAXINT64 / G_USEC_PER_SEC };
	g_auto(GStrv) parts = g_strsplit(line, " = ", 2);

	if (g_strv_length(parts) != 2)
		return store_fail(error, path, number, "expected KEY = VALUE");
	for (guint k = 0; k < G_N_ELEMENTS(keys); k++) {
		if (strcmp(parts[0], keys[k]) != 0)
			continue;
		if (!store_number(parts[1], 1, max[k], &values[k]))
			return store_fail(error, path, number,
			                  "%s: expected a number from 1 to %" G_GINT64_FORMAT
			                  ", got '%s'",
			                  keys[k], max[k], parts[1]);
	}
	return TRUE; /* unknown keys are for newer versions */
}

gboolean
tuio_store_parse(const char *path, const char *text, gsize length, gint32 *fseq,
                 gint64 *unix_time_us, GError **error)
{
	g_autofree char *copy = g_strndup(text, length);
	g_auto(GStrv) lines = g_strsplit(copy, "\n", -1);
	gint64 values[3] = { 0, 0, 0 }; /* format, fseq, time */
	guint n = g_strv_length(lines);

	if (strlen(copy) != length)
		return store_fail(error, path, 0, "a NUL byte: not a text file");
	for (guint i = 0; i < n; i++) {
		if (lines[i][0] == '\0' || lines[i][0] == '#')
			continue;
		if (!store_parse_line(path, lines[i], i + 1, values, error))
			return FALSE;
	}
	if (values[0] != TUIO_STORE_FORMAT)
		return store_fail(error, path, 0, "expected format = %d", TUIO_STORE_FORMAT);
	if (values[1] == 0 || values[2] == 0)
		return store_fail(error, path, 0, "no %s", values[1] == 0 ? "fseq" : "time");
	*fseq = (gint32)values[1];
	*unix_time_us = values[2] * G_USEC_PER_SEC;
	return TRUE;
}

gint32
tuio_store_resume(gint32 fseq, gint64 written_us, gint64 now_us)
{
	/* A clock set back a little (a minute) still trusts the file. */
	gint64 age = now_us - written_us;

	return age > (gint64)-60 * G_USEC_PER_SEC && age < TUIO_STORE_FRESH_US ? fseq : 0;
}

char *
tuio_store_file_name(const char *source, const char *target)
{
	g_autofree char *key = g_strconcat(source, " ", target, NULL);
	g_autofree char *hash = g_compute_checksum_for_string(G_CHECKSUM_SHA256, key, -1);

	return g_strdup_printf("tuio-%.16s.state", hash);
}

/* ---- the file ---- */

struct _TuioStore {
	char *dir;
	char *path;
	char *source;
	char *target;
	gint64 last_write_us; /* when the last write was handed out, 0 for none */
	GThreadPool *writer;  /* one thread, started on the first write */
	GMutex lock;          /* guards busy and error */
	gboolean busy;        /* a write on its way */
	char *error;          /* of the last background write */
};

TuioStore *
tuio_store_new(const char *dir, const char *source, const char *target)
{
	TuioStore *store = g_new0(TuioStore, 1);
	g_autofree char *name = tuio_store_file_name(source, target);

	store->dir = g_strdup(dir);
	store->path = g_build_filename(dir, name, NULL);
	store->source = g_strdup(source);
	store->target = g_strdup(target);
	g_mutex_init(&store->lock);
	return store;
}

/* Waits for the write on its way. */
static void
store_stop_writer(TuioStore *store)
{
	if (store->writer != NULL)
		g_thread_pool_free(store->writer, FALSE, TRUE);
	store->writer = NULL;
}

void
tuio_store_free(TuioStore *store)
{
	if (store == NULL)
		return;
	store_stop_writer(store);
	g_mutex_clear(&store->lock);
	g_free(store->dir);
	g_free(store->path);
	g_free(store->source);
	g_free(store->target);
	g_free(store->error);
	g_free(store);
}

const char *
tuio_store_path(const TuioStore *store)
{
	return store->path;
}

gint32
tuio_store_load(TuioStore *store, gint64 now_us, GError **error)
{
	g_autoptr(GError) local = NULL;
	g_autofree char *text = NULL;
	gsize length = 0;
	gint32 fseq = 0;
	gint64 written_us = 0;

	if (!g_file_test(store->path, G_FILE_TEST_EXISTS))
		return 0;
	if (!datafile_read(store->path, TUIO_STORE_MAX_BYTES, &text, &length, &local)) {
		g_set_error(error, TUIO_STORE_ERROR, TUIO_STORE_ERROR_IO, "%s", local->message);
		return 0;
	}
	if (!tuio_store_parse(store->path, text, length, &fseq, &written_us, error))
		return 0;
	return tuio_store_resume(fseq, written_us, now_us);
}

static gboolean
store_write(const char *dir, const char *path, const char *text, GError **error)
{
	g_autoptr(GError) local = NULL;

	if (g_mkdir_with_parents(dir, 0700) != 0) {
		g_set_error(error, TUIO_STORE_ERROR, TUIO_STORE_ERROR_IO, "%s: %s", dir,
		            g_strerror(errno));
		return FALSE;
	}
	if (g_file_set_contents_full(path, text, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0600, &local))
		return TRUE;
	g_set_error(error, TUIO_STORE_ERROR, TUIO_STORE_ERROR_IO, "%s", local->message);
	return FALSE;
}

/* On the writer's thread: an atomic replace may wait on the disk. */
static void
store_write_job(gpointer data, gpointer user_data)
{
	TuioStore *store = user_data;
	g_autofree char *text = data;
	g_autoptr(GError) error = NULL;
	gboolean ok = store_write(store->dir, store->path, text, &error);

	g_mutex_lock(&store->lock);
	store->busy = FALSE;
	if (!ok) {
		g_free(store->error);
		store->error = g_strdup(error->message);
	}
	g_mutex_unlock(&store->lock);
}

static gboolean
store_take_busy(TuioStore *store)
{
	gboolean taken;

	g_mutex_lock(&store->lock);
	taken = !store->busy;
	store->busy = TRUE;
	g_mutex_unlock(&store->lock);
	return taken;
}

void
tuio_store_remember(TuioStore *store, gint32 fseq, gint64 now_us)
{
	if (store->last_write_us != 0 && now_us - store->last_write_us < TUIO_STORE_INTERVAL_US &&
	    now_us >= store->last_write_us)
		return;
	if (!store_take_busy(store))
		return; /* the disk is slow: the next one will do */
	if (store->writer == NULL)
		store->writer = g_thread_pool_new(store_write_job, store, 1, FALSE, NULL);
	store->last_write_us = now_us;
	g_thread_pool_push(store->writer,
	                   tuio_store_format(store->source, store->target, fseq, now_us), NULL);
}

gboolean
tuio_store_save(TuioStore *store, gint32 fseq, gint64 now_us, GError **error)
{
	g_autofree char *text = tuio_store_format(store->source, store->target, fseq, now_us);

	/* The write on its way is older: it must not land after this one. */
	store_stop_writer(store);
	store->busy = FALSE;
	store->last_write_us = now_us;
	return store_write(store->dir, store->path, text, error);
}

char *
tuio_store_take_error(TuioStore *store)
{
	char *error;

	g_mutex_lock(&store->lock);
	error = g_steal_pointer(&store->error);
	g_mutex_unlock(&store->lock);
	return error;
}
