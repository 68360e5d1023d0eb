/* "raw:FILE[,FILE...]": headerless 640x480 little-endian uint16 millimetre
 * stills, as libfreenect's FREENECT_DEPTH_MM delivers them. The stills are
 * unrelated to each other; they play one after the other. */
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/datafile.h"
#include "source.h"

#define RAW_FILE_BYTES (DEPTH_PIXELS * 2)

typedef struct {
	char **files;
	gboolean loop;
	guint next;
	guint64 number;
} SourceRaw;

/* The still @path as a file to read: a regular one (never a named pipe or
 * a device), or the reason it is not. */
static int
source_raw_open_file(const char *path, GError **error)
{
	g_autoptr(GError) local = NULL;
	int fd = path[0] != '\0' ? datafile_open(path, &local) : -1;

	if (fd >= 0)
		return fd;
	if (path[0] == '\0')
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_SPEC,
		            "raw: an empty file name (raw:FILE[,FILE...])");
	else
		g_set_error(error, SOURCE_ERROR,
		            g_error_matches(local, G_FILE_ERROR, G_FILE_ERROR_NOENT)
		                    ? SOURCE_ERROR_NOT_FOUND
		                    : SOURCE_ERROR_DATA,
		            "raw:%s", local->message);
	return -1;
}

/* Every file must exist and be one frame long before we start. */
static gboolean
source_raw_check(char **files, GError **error)
{
	for (guint i = 0; files[i] != NULL; i++) {
		int fd = source_raw_open_file(files[i], error);
		struct stat st = { 0 };

		if (fd < 0)
			return FALSE;
		if (fstat(fd, &st) != 0)
			st.st_size = -1;
		close(fd);
		if (st.st_size != RAW_FILE_BYTES) {
			g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_DATA,
			            "raw:%s: %lld bytes, a 640x480 16-bit frame has %d", files[i],
			            (long long)st.st_size, RAW_FILE_BYTES);
			return FALSE;
		}
	}
	return TRUE;
}

static gpointer
source_raw_open(const char *arg, const SourceOptions *options, GError **error)
{
	SourceRaw *raw;

	if (arg == NULL || arg[0] == '\0') {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_SPEC,
		            "raw needs at least one file: raw:FILE[,FILE...]");
		return NULL;
	}
	raw = g_new0(SourceRaw, 1);
	raw->files = g_strsplit(arg, ",", -1);
	raw->loop = options->loop;
	if (!source_raw_check(raw->files, error)) {
		g_strfreev(raw->files);
		g_free(raw);
		return NULL;
	}
	return raw;
}

static gboolean
source_raw_load(const char *path, DepthFrame *frame, GError **error)
{
	g_autoptr(GError) local = NULL;
	g_autofree char *data = NULL;
	gsize len = 0;

	/* (One byte more than a frame: a file grown since is told apart.) */
	if (!datafile_read(path, RAW_FILE_BYTES + 1, &data, &len, &local)) {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_DATA, "raw:%s", local->message);
		return FALSE;
	}
	if (len != RAW_FILE_BYTES) {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_DATA,
		            "raw:%s: %zu bytes, a 640x480 16-bit frame has %d", path, len,
		            RAW_FILE_BYTES);
		return FALSE;
	}
	for (gsize i = 0; i < DEPTH_PIXELS; i++) {
		const guint8 *p = (const guint8 *)data + 2 * i;
		frame->mm[i] = (guint16)(p[0] | (p[1] << 8));
	}
	return TRUE;
}

static SourceReadResult
source_raw_read(gpointer data, DepthFrame *frame, GError **error)
{
	SourceRaw *raw = data;

	if (raw->files[raw->next] == NULL) {
		if (!raw->loop)
			return SOURCE_READ_END;
		raw->next = 0;
	}
	if (!source_raw_load(raw->files[raw->next], frame, error))
		return SOURCE_READ_ERROR;
	for (gsize i = 0; i < DEPTH_PIXELS; i++)
		frame->mm[i] = MIN(frame->mm[i], DEPTH_MM_MAX);
	depth_convert_mm_to_raw(frame->mm, frame->raw, DEPTH_PIXELS);
	frame->number = raw->number;
	frame->time_us = (gint64)(raw->number * G_USEC_PER_SEC / 30);
	frame->timestamp = (guint32)frame->time_us;
	frame->truth = NULL;
	frame->still = TRUE;
	raw->number++;
	raw->next++;
	return SOURCE_READ_FRAME;
}

static void
source_raw_free(gpointer data)
{
	SourceRaw *raw = data;

	g_strfreev(raw->files);
	g_free(raw);
}

const SourceBackend source_raw_backend = {
	.name = "raw",
	.usage = "raw:FILE[,FILE...]   640x480 little-endian uint16 millimetre stills",
	.open = source_raw_open,
	.read = source_raw_read,
	.free = source_raw_free,
};
