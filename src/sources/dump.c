#include "dump.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/datafile.h"
#include "base/depth.h"

#define DEPTH_DATA_BYTES (DEPTH_PIXELS * sizeof(guint16))

/* The formatter would space the quark's name out as a subtraction. */
/* clang-format off */
G_DEFINE_QUARK(skelbridge-dump-error-quark, dump_error)
/* clang-format on */

struct _DumpReader {
	char *dir;
	char *index_path;
	FILE *index;   /* INDEX.txt, open for as long as the reader */
	gint64 end;    /* INDEX.txt's length when opened: where a pass ends */
	gint64 offset; /* bytes of INDEX.txt read in this pass */
	guint lineno;  /* lines read in this pass */
	char line[DUMP_MAX_LINE + 1];
	DumpEntry entry; /* the latest depth line; its name points into line */
	guint n_frames;  /* depth lines */
	double first_walltime, last_walltime;
	guint8 *buffer; /* one depth file */
};

struct _DumpWriter {
	char *dir;
	char *index_path;
	int index_fd;
	off_t index_bytes; /* INDEX.txt's length after the last complete line */
	guint n_frames;
	guint8 *buffer;
};

/* Parses "<type>-<walltime>-<timestamp>.<ext>" as fakenect does. */
static gboolean
dump_parse_name(const char *name, char *type, double *walltime, guint32 *timestamp)
{
	const char *p = name;
	char *end = NULL;
	guint64 ts;

	if (p[0] == '\0' || p[1] != '-')
		return FALSE;
	*type = p[0];
	p += 2;
	*walltime = g_ascii_strtod(p, &end);
	if (end == p || *end != '-' || !g_ascii_isdigit(p[0]))
		return FALSE;
	p = end + 1;
	if (!g_ascii_isdigit(p[0]))
		return FALSE;
	ts = g_ascii_strtoull(p, &end, 10);
	if (ts > G_MAXUINT32 || *end != '.' || end[1] == '\0' || strchr(name, '/') != NULL)
		return FALSE;
	*timestamp = (guint32)ts;
	return TRUE;
}

static gboolean
dump_check_header(const DumpReader *reader, const DumpEntry *entry, const char *path,
                  const guint8 *data, gsize len, GError **error)
{
	gsize header_len = strlen(DUMP_DEPTH_HEADER);
	const guint8 *newline = memchr(data, '\n', MIN(len, 64));
	g_autofree char *seen = NULL;

	if (len >= header_len && memcmp(data, DUMP_DEPTH_HEADER, header_len) == 0)
		return TRUE;
	seen = g_strndup((const char *)data, newline ? (gsize)(newline - data) : MIN(len, 20));
	g_strcanon(seen, G_CSET_a_2_z G_CSET_A_2_Z G_CSET_DIGITS " ", '?');
	g_set_error(error, DUMP_ERROR, DUMP_ERROR_BAD_HEADER,
	            "%s:%u: %s: bad header '%s', expected 'P5 640 480 65535'", reader->index_path,
	            entry->line, path, seen);
	return FALSE;
}

/* Opens a listed file, a regular one only (a named pipe would block). */
static FILE *
dump_open_listed(const DumpReader *reader, const DumpEntry *entry, const char *path, GError **error)
{
	g_autoptr(GError) local = NULL;
	int fd = datafile_open(path, &local);
	FILE *fp = fd >= 0 ? fdopen(fd, "rb") : NULL;

	if (fp != NULL)
		return fp;
	if (fd >= 0)
		close(fd);
	g_set_error(error, DUMP_ERROR, DUMP_ERROR_MISSING, "%s:%u: %s", reader->index_path,
	            entry->line, local ? local->message : g_strerror(errno));
	return NULL;
}

/* Checks a listed depth file's header and length without reading it all. */
static gboolean
dump_check_file(DumpReader *reader, const DumpEntry *entry, GError **error)
{
	g_autofree char *path = g_build_filename(reader->dir, entry->name, NULL);
	guint8 head[64];
	gsize len;
	GStatBuf st;
	FILE *fp = dump_open_listed(reader, entry, path, error);

	if (fp == NULL)
		return FALSE;
	if (fstat(fileno(fp), &st) != 0) {
		g_set_error(error, DUMP_ERROR, DUMP_ERROR_MISSING, "%s:%u: %s: %s",
		            reader->index_path, entry->line, path, g_strerror(errno));
		fclose(fp);
		return FALSE;
	}
	len = fread(head, 1, sizeof(head), fp);
	fclose(fp);
	if (!dump_check_header(reader, entry, path, head, len, error))
		return FALSE;
	if ((gsize)st.st_size < strlen(DUMP_DEPTH_HEADER) + DEPTH_DATA_BYTES) {
		g_set_error(error, DUMP_ERROR, DUMP_ERROR_SHORT,
		            "%s:%u: %s: short file: %lld bytes, a depth frame needs %zu",
		            reader->index_path, entry->line, path, (long long)st.st_size,
		            strlen(DUMP_DEPTH_HEADER) + DEPTH_DATA_BYTES);
		return FALSE;
	}
	return TRUE;
}

typedef enum {
	DUMP_LINE_OK,
	DUMP_LINE_END,
	DUMP_LINE_BAD,
} DumpLine;

static DumpLine
dump_line_fail(DumpReader *reader, const char *what, GError **error)
{
	g_set_error(error, DUMP_ERROR, DUMP_ERROR_BAD_NAME, "%s:%u: %s", reader->index_path,
	            reader->lineno, what);
	return DUMP_LINE_BAD;
}

/* Reads INDEX.txt's next line into reader->line, without its line ending.
 * A pass ends where INDEX.txt ended when it was opened, and no line is
 * kept whole beyond DUMP_MAX_LINE bytes. */
static DumpLine
dump_read_line(DumpReader *reader, GError **error)
{
	gsize len = 0;
	gboolean too_long = FALSE, binary = FALSE;
	int c = EOF;

	while (reader->offset < reader->end && (c = getc_unlocked(reader->index)) != EOF) {
		reader->offset++;
		if (c == '\n')
			break;
		binary |= c == '\0';
		too_long |= len == DUMP_MAX_LINE;
		if (len < DUMP_MAX_LINE)
			reader->line[len++] = (char)c;
	}
	if (c == EOF && ferror(reader->index))
		return dump_line_fail(reader, g_strerror(errno), error);
	if (c == EOF && len == 0)
		return DUMP_LINE_END;
	reader->lineno++;
	reader->line[len] = '\0';
	g_strchomp(reader->line);
	if (binary)
		return dump_line_fail(reader, "a NUL byte: INDEX.txt is not a text file", error);
	if (too_long)
		return dump_line_fail(reader,
		                      "a line longer than " G_STRINGIFY(
		                              DUMP_MAX_LINE) " bytes, not a fakenect file name",
		                      error);
	return DUMP_LINE_OK;
}

/* Parses the line just read: TRUE with reader->entry set for a depth file,
 * TRUE with @is_depth FALSE for a colour or motion one. */
static gboolean
dump_parse_line(DumpReader *reader, gboolean *is_depth, GError **error)
{
	DumpEntry entry = { .name = reader->line, .line = reader->lineno };
	char type;

	if (reader->line[0] == '\0') {
		g_set_error(error, DUMP_ERROR, DUMP_ERROR_BLANK_LINE,
		            "%s:%u: blank line (fakenect stops playing at a blank line)",
		            reader->index_path, reader->lineno);
		return FALSE;
	}
	if (!dump_parse_name(reader->line, &type, &entry.walltime, &entry.timestamp)) {
		g_set_error(error, DUMP_ERROR, DUMP_ERROR_BAD_NAME,
		            "%s:%u: '%s' is not a fakenect file name "
		            "(expected d-WALLTIME-TIMESTAMP.pgm)",
		            reader->index_path, reader->lineno, reader->line);
		return FALSE;
	}
	/* (Played as microseconds since the first frame, in 64 bits.) */
	if (!isfinite(entry.walltime) || entry.walltime > DUMP_MAX_WALLTIME) {
		g_set_error(error, DUMP_ERROR, DUMP_ERROR_BAD_NAME,
		            "%s:%u: '%s': the walltime is out of range (0 to %g seconds)",
		            reader->index_path, reader->lineno, reader->line, DUMP_MAX_WALLTIME);
		return FALSE;
	}
	*is_depth = type == 'd';
	if (*is_depth)
		reader->entry = entry;
	return TRUE;
}

/* The next depth line of this pass: DUMP_LINE_OK with reader->entry set. */
static DumpLine
dump_next_depth_line(DumpReader *reader, GError **error)
{
	gboolean is_depth = FALSE;

	while (!is_depth) {
		DumpLine got = dump_read_line(reader, error);

		if (got != DUMP_LINE_OK)
			return got;
		if (!dump_parse_line(reader, &is_depth, error))
			return DUMP_LINE_BAD;
	}
	return DUMP_LINE_OK;
}

gboolean
dump_reader_rewind(DumpReader *reader, GError **error)
{
	if (fseeko(reader->index, 0, SEEK_SET) != 0) {
		g_set_error(error, DUMP_ERROR, DUMP_ERROR_INDEX, "%s: %s", reader->index_path,
		            g_strerror(errno));
		return FALSE;
	}
	reader->offset = 0;
	reader->lineno = 0;
	return TRUE;
}

static gboolean
dump_fail_too_large(const DumpReader *reader, GError **error)
{
	g_autoptr(GError) local = NULL;

	datafile_fail_too_large(reader->index_path, DUMP_MAX_INDEX_BYTES, &local);
	g_set_error(error, DUMP_ERROR, DUMP_ERROR_INDEX, "%s: not a fakenect dump: %s", reader->dir,
	            local->message);
	return FALSE;
}

/* Reads INDEX.txt through once: every line must parse, and the first depth
 * file must be one. */
static gboolean
dump_scan_index(DumpReader *reader, GError **error)
{
	DumpLine got;

	while ((got = dump_next_depth_line(reader, error)) == DUMP_LINE_OK) {
		if (reader->n_frames == 0 && !dump_check_file(reader, &reader->entry, error))
			return FALSE;
		if (reader->n_frames == 0)
			reader->first_walltime = reader->entry.walltime;
		reader->last_walltime = reader->entry.walltime;
		reader->n_frames++;
	}
	if (got == DUMP_LINE_BAD)
		return FALSE;
	if (reader->n_frames == 0) {
		g_set_error(error, DUMP_ERROR, DUMP_ERROR_NO_FRAMES, "%s: lists no depth frames",
		            reader->index_path);
		return FALSE;
	}
	return dump_reader_rewind(reader, error);
}

/* Opens INDEX.txt and takes its length: a pass ends there, so that a
 * file that grows as it is read is read no further than it was long. */
static gboolean
dump_open_index(DumpReader *reader, GError **error)
{
	g_autoptr(GError) local = NULL;
	int fd = datafile_open(reader->index_path, &local);
	GStatBuf st;

	if (fd < 0 && g_error_matches(local, G_FILE_ERROR, G_FILE_ERROR_NOENT)) {
		g_set_error(error, DUMP_ERROR, DUMP_ERROR_NOT_FOUND,
		            "%s: not a fakenect dump: it has no INDEX.txt", reader->dir);
		return FALSE;
	}
	if (fd < 0) {
		g_set_error(error, DUMP_ERROR, DUMP_ERROR_INDEX, "%s: not a fakenect dump: %s",
		            reader->dir, local->message);
		return FALSE;
	}
	if (fstat(fd, &st) != 0 || (reader->index = fdopen(fd, "rb")) == NULL) {
		g_set_error(error, DUMP_ERROR, DUMP_ERROR_INDEX, "%s: %s", reader->index_path,
		            g_strerror(errno));
		close(fd);
		return FALSE;
	}
	if (st.st_size > DUMP_MAX_INDEX_BYTES)
		return dump_fail_too_large(reader, error);
	reader->end = st.st_size;
	return TRUE;
}

DumpReader *
dump_reader_open(const char *dir, GError **error)
{
	g_autoptr(DumpReader) reader = g_new0(DumpReader, 1);

	reader->dir = g_strdup(dir);
	reader->index_path = g_build_filename(dir, "INDEX.txt", NULL);
	if (!dump_open_index(reader, error) || !dump_scan_index(reader, error))
		return NULL;
	reader->buffer = g_malloc(strlen(DUMP_DEPTH_HEADER) + DEPTH_DATA_BYTES);
	return g_steal_pointer(&reader);
}

void
dump_reader_free(DumpReader *reader)
{
	if (reader == NULL)
		return;
	if (reader->index != NULL)
		fclose(reader->index);
	g_free(reader->dir);
	g_free(reader->index_path);
	g_free(reader->buffer);
	g_free(reader);
}

guint
dump_reader_n_frames(const DumpReader *reader)
{
	return reader->n_frames;
}

double
dump_reader_span(const DumpReader *reader)
{
	return reader->last_walltime - reader->first_walltime;
}

double
dump_reader_first_walltime(const DumpReader *reader)
{
	return reader->first_walltime;
}

static gboolean
dump_read_file(DumpReader *reader, const DumpEntry *entry, const char *path, gsize *len,
               GError **error)
{
	gsize want = strlen(DUMP_DEPTH_HEADER) + DEPTH_DATA_BYTES;
	FILE *fp = dump_open_listed(reader, entry, path, error);

	if (fp == NULL)
		return FALSE;
	*len = fread(reader->buffer, 1, want, fp);
	fclose(fp);
	return TRUE;
}

static gboolean
dump_read_depth(DumpReader *reader, const DumpEntry *entry, guint16 *raw, GError **error)
{
	g_autofree char *path = g_build_filename(reader->dir, entry->name, NULL);
	gsize header_len = strlen(DUMP_DEPTH_HEADER);
	gsize len = 0;

	if (!dump_read_file(reader, entry, path, &len, error))
		return FALSE;
	if (!dump_check_header(reader, entry, path, reader->buffer, len, error))
		return FALSE;
	if (len < header_len + DEPTH_DATA_BYTES) {
		g_set_error(error, DUMP_ERROR, DUMP_ERROR_SHORT,
		            "%s:%u: %s: short file: %zu of %zu depth bytes", reader->index_path,
		            entry->line, path, len - header_len, DEPTH_DATA_BYTES);
		return FALSE;
	}
	for (gsize i = 0; i < DEPTH_PIXELS; i++) {
		const guint8 *p = reader->buffer + header_len + 2 * i;
		raw[i] = (guint16)(p[0] | (p[1] << 8));
	}
	return TRUE;
}

DumpReadResult
dump_reader_next(DumpReader *reader, guint16 *raw, const DumpEntry **entry, GError **error)
{
	DumpLine got = dump_next_depth_line(reader, error);

	*entry = NULL;
	if (got == DUMP_LINE_END)
		return DUMP_READ_END;
	if (got == DUMP_LINE_BAD)
		return DUMP_READ_ERROR;
	*entry = &reader->entry;
	return dump_read_depth(reader, &reader->entry, raw, error) ? DUMP_READ_FRAME
	                                                           : DUMP_READ_ERROR;
}

DumpWriter *
dump_writer_new(const char *dir, GError **error)
{
	g_autoptr(DumpWriter) writer = g_new0(DumpWriter, 1);

	writer->index_fd = -1;
	writer->dir = g_strdup(dir);
	writer->index_path = g_build_filename(dir, "INDEX.txt", NULL);
	if (g_mkdir_with_parents(dir, 0755) != 0) {
		g_set_error(error, DUMP_ERROR, DUMP_ERROR_WRITE, "%s: cannot create folder: %s",
		            dir, g_strerror(errno));
		return NULL;
	}
	if (g_file_test(writer->index_path, G_FILE_TEST_EXISTS)) {
		g_set_error(error, DUMP_ERROR, DUMP_ERROR_EXISTS,
		            "%s: already exists; record into a new or empty folder",
		            writer->index_path);
		return NULL;
	}
	writer->index_fd =
	        g_open(writer->index_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (writer->index_fd < 0) {
		g_set_error(error, DUMP_ERROR, DUMP_ERROR_WRITE, "%s: %s", writer->index_path,
		            g_strerror(errno));
		return NULL;
	}
	writer->buffer = g_malloc(strlen(DUMP_DEPTH_HEADER) + DEPTH_DATA_BYTES);
	memcpy(writer->buffer, DUMP_DEPTH_HEADER, strlen(DUMP_DEPTH_HEADER));
	return g_steal_pointer(&writer);
}

static void
dump_encode(DumpWriter *writer, const guint16 *raw)
{
	guint8 *p = writer->buffer + strlen(DUMP_DEPTH_HEADER);

	for (gsize i = 0; i < DEPTH_PIXELS; i++) {
		p[2 * i] = raw[i] & 0xff;
		p[2 * i + 1] = raw[i] >> 8;
	}
}

/* A line that could not be written whole is cut off again: fakenect would
 * stop at a truncated name. */
static gboolean
dump_append_index(DumpWriter *writer, const char *name, GError **error)
{
	g_autofree char *line = g_strconcat(name, "\n", NULL);
	gsize len = strlen(line);
	ssize_t n = write(writer->index_fd, line, len);
	int saved = errno;

	if (n == (ssize_t)len) {
		writer->index_bytes += n;
		return TRUE;
	}
	g_set_error(error, DUMP_ERROR, DUMP_ERROR_WRITE, "%s: %s", writer->index_path,
	            n < 0 ? g_strerror(saved) : "short write");
	if (ftruncate(writer->index_fd, writer->index_bytes) == 0)
		lseek(writer->index_fd, writer->index_bytes, SEEK_SET);
	return FALSE;
}

/* Writes @path under a temporary name and renames it: a full disk leaves
 * no half frame behind. Errors read "PATH: cannot write: REASON". */
static gboolean
dump_write_file(const char *path, const guint8 *data, gsize length, GError **error)
{
	g_autofree char *temporary = g_strconcat(path, ".partial", NULL);
	int fd = g_open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	gsize done = 0;
	int saved = 0;

	if (fd < 0) {
		saved = errno;
		goto failed;
	}
	while (done < length) {
		ssize_t n = write(fd, data + done, length - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			saved = n < 0 ? errno : ENOSPC;
			break;
		}
		done += (gsize)n;
	}
	if (close(fd) != 0 && saved == 0)
		saved = errno;
	if (saved == 0 && g_rename(temporary, path) != 0)
		saved = errno;
	if (saved == 0)
		return TRUE;
	g_unlink(temporary);
failed:
	g_set_error(error, DUMP_ERROR, DUMP_ERROR_WRITE, "%s: cannot write: %s", path,
	            g_strerror(saved));
	return FALSE;
}

gboolean
dump_writer_add(DumpWriter *writer, double walltime, guint32 timestamp, const guint16 *raw,
                GError **error)
{
	char wall[G_ASCII_DTOSTR_BUF_SIZE];
	g_autofree char *name = NULL;
	g_autofree char *path = NULL;

	g_return_val_if_fail(writer->index_fd >= 0, FALSE);
	g_ascii_formatd(wall, sizeof(wall), "%f", walltime);
	name = g_strdup_printf("d-%s-%u.pgm", wall, timestamp);
	path = g_build_filename(writer->dir, name, NULL);
	dump_encode(writer, raw);
	if (!dump_write_file(path, writer->buffer, strlen(DUMP_DEPTH_HEADER) + DEPTH_DATA_BYTES,
	                     error))
		return FALSE;
	if (!dump_append_index(writer, name, error)) {
		g_unlink(path);
		return FALSE;
	}
	writer->n_frames++;
	return TRUE;
}

guint
dump_writer_n_frames(const DumpWriter *writer)
{
	return writer->n_frames;
}

gboolean
dump_writer_close(DumpWriter *writer, GError **error)
{
	gboolean ok = TRUE;

	if (writer->index_fd >= 0 && close(writer->index_fd) != 0) {
		g_set_error(error, DUMP_ERROR, DUMP_ERROR_WRITE, "%s: %s", writer->index_path,
		            g_strerror(errno));
		ok = FALSE;
	}
	writer->index_fd = -1;
	dump_writer_free(writer);
	return ok;
}

void
dump_writer_free(DumpWriter *writer)
{
	if (writer == NULL)
		return;
	if (writer->index_fd >= 0)
		close(writer->index_fd);
	g_free(writer->dir);
	g_free(writer->index_path);
	g_free(writer->buffer);
	g_free(writer);
}
