/* Fuzz target: the fakenect dump reader. The input's first part (up to a
 * zero byte) becomes INDEX.txt; the rest becomes every file it lists. */
#include <glib/gstdio.h>
#include <stdint.h>
#include <string.h>

#include "base/depth.h"
#include "sources/dump.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *dir;

static void
write_listed_files(const char *index, const uint8_t *body, size_t body_size)
{
	g_auto(GStrv) lines = g_strsplit(index, "\n", 8);

	for (guint i = 0; lines[i] != NULL; i++) {
		g_autofree char *path = NULL;

		if (lines[i][0] == '\0' || strchr(lines[i], '/') != NULL ||
		    strcmp(lines[i], ".") == 0 || strcmp(lines[i], "..") == 0 ||
		    strlen(lines[i]) > 200)
			continue;
		path = g_build_filename(dir, lines[i], NULL);
		g_file_set_contents(path, (const char *)body, (gssize)body_size, NULL);
	}
}

static void
clear_dir(void)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *name;

	while (d != NULL && (name = g_dir_read_name(d)) != NULL) {
		g_autofree char *path = g_build_filename(dir, name, NULL);
		g_unlink(path);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *zero = memchr(data, 0, size);
	size_t index_size = zero ? (size_t)(zero - data) : size;
	g_autofree char *index = g_strndup((const char *)data, index_size);
	g_autofree char *index_path = NULL;
	g_autoptr(DumpReader) reader = NULL;
	g_autofree guint16 *raw = g_new(guint16, DEPTH_PIXELS);

	if (dir == NULL)
		dir = g_dir_make_tmp("skelbridge-fuzz-XXXXXX", NULL);
	clear_dir();
	index_path = g_build_filename(dir, "INDEX.txt", NULL);
	g_file_set_contents(index_path, (const char *)data, (gssize)index_size, NULL);
	if (zero != NULL)
		write_listed_files(index, zero + 1, size - index_size - 1);
	reader = dump_reader_open(dir, NULL);
	for (guint i = 0; reader != NULL && i <= dump_reader_n_frames(reader); i++) {
		const DumpEntry *entry = NULL;

		if (dump_reader_next(reader, raw, &entry, NULL) == DUMP_READ_END)
			break;
	}
	return 0;
}
