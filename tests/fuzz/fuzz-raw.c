/* Fuzz target: the raw millimetre still reader, with whatever bytes a file
 * may hold. What comes out stays in range: millimetres capped at
 * libfreenect's maximum, raw values 11-bit, and no reading in both at once. */
#include <glib/gstdio.h>
#include <stdint.h>
#include <unistd.h>

#include "sources/source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *path;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autofree char *spec = NULL;
	g_autoptr(Source) source = NULL;
	const DepthFrame *frame;

	if (path == NULL) {
		int fd = g_file_open_tmp("skelbridge-fuzz-XXXXXX.raw", &path, NULL);
		g_assert_cmpint(fd, >=, 0);
		close(fd);
	}
	/* A short input fills a whole frame by repetition, so that most runs
	 * get past the size check. */
	if (size > 0 && size < DEPTH_PIXELS * 2) {
		g_autofree uint8_t *full = g_malloc(DEPTH_PIXELS * 2);

		for (size_t i = 0; i < DEPTH_PIXELS * 2; i++)
			full[i] = data[i % size];
		g_file_set_contents(path, (const char *)full, DEPTH_PIXELS * 2, NULL);
	} else {
		g_file_set_contents(path, (const char *)data, (gssize)size, NULL);
	}
	spec = g_strconcat("raw:", path, NULL);
	source = source_open(spec, NULL, NULL);
	if (source == NULL)
		return 0;
	frame = source_read(source, NULL);
	for (guint i = 0; frame != NULL && i < DEPTH_PIXELS; i++) {
		g_assert_cmpuint(frame->mm[i], <=, DEPTH_MM_MAX);
		g_assert_cmpuint(frame->raw[i], <=, DEPTH_RAW_NONE);
		g_assert_cmpint(frame->mm[i] == 0, ==, frame->raw[i] == DEPTH_RAW_NONE);
	}
	return 0;
}
