/* fakenect dumps: reading, writing and every malformed dump's message. */
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

#include "sources/dump.h"
#include "testutil.h"

typedef struct {
	char *dir;
	char *index;
} Fixture;

static void
fixture_setup(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	f->dir = testutil_tmpdir();
	f->index = g_build_filename(f->dir, "INDEX.txt", NULL);
}

static void
fixture_teardown(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	testutil_rmdir(f->dir);
	g_free(f->dir);
	g_free(f->index);
}

static void
write_index(Fixture *f, const char *text)
{
	testutil_write_file(f->index, text, strlen(text));
}

/* A depth file with @header and @data_bytes bytes of data. */
static void
write_depth_file(Fixture *f, const char *name, const char *header, gsize data_bytes)
{
	g_autofree char *path = g_build_filename(f->dir, name, NULL);
	gsize len = strlen(header) + data_bytes;
	g_autofree guint8 *buf = g_malloc0(len);

	memcpy(buf, header, strlen(header));
	testutil_write_file(path, buf, len);
}

/* @expected names the dump's folder as DIR. */
static void
expect_error(Fixture *f, int code, const char *expected)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(DumpReader) reader = dump_reader_open(f->dir, &error);
	g_auto(GStrv) parts = g_strsplit(expected, "DIR", -1);
	g_autofree char *message = g_strjoinv(f->dir, parts);

	g_assert_null(reader);
	g_assert_error(error, DUMP_ERROR, code);
	g_assert_cmpstr(error->message, ==, message);
}

/* The next frame of @reader, which must read. */
static const DumpEntry *
next_frame(DumpReader *reader, guint16 *raw)
{
	g_autoptr(GError) error = NULL;
	const DumpEntry *entry = NULL;

	g_assert_cmpint(dump_reader_next(reader, raw, &entry, &error), ==, DUMP_READ_FRAME);
	g_assert_no_error(error);
	g_assert_nonnull(entry);
	return entry;
}

/* The next frame of @reader, which must fail with @code and @expected
 * (DIR standing for the dump's folder). */
static void
next_fails(Fixture *f, DumpReader *reader, int code, const char *expected)
{
	g_autoptr(GError) error = NULL;
	g_autofree guint16 *raw = g_new(guint16, DEPTH_PIXELS);
	const DumpEntry *entry = NULL;
	g_auto(GStrv) parts = g_strsplit(expected, "DIR", -1);
	g_autofree char *message = g_strjoinv(f->dir, parts);

	g_assert_cmpint(dump_reader_next(reader, raw, &entry, &error), ==, DUMP_READ_ERROR);
	g_assert_error(error, DUMP_ERROR, code);
	g_assert_cmpstr(error->message, ==, message);
}

static void
assert_end(DumpReader *reader)
{
	g_autoptr(GError) error = NULL;
	g_autofree guint16 *raw = g_new(guint16, DEPTH_PIXELS);
	const DumpEntry *entry = NULL;

	g_assert_cmpint(dump_reader_next(reader, raw, &entry, &error), ==, DUMP_READ_END);
	g_assert_no_error(error);
	g_assert_null(entry);
}

static void
test_roundtrip(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(DumpReader) reader = NULL;
	g_autofree guint16 *want = g_new(guint16, DEPTH_PIXELS);
	g_autofree guint16 *got = g_new(guint16, DEPTH_PIXELS);

	testutil_write_dump(f->dir, 3, 0.5);
	reader = dump_reader_open(f->dir, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(dump_reader_n_frames(reader), ==, 3);
	g_assert_cmpfloat_with_epsilon(dump_reader_first_walltime(reader), 1000.0, 1e-6);
	g_assert_cmpfloat_with_epsilon(dump_reader_span(reader), 1.0, 1e-6);
	for (guint k = 0; k < 3; k++) {
		const DumpEntry *entry = next_frame(reader, got);

		testutil_pattern(k, want);
		g_assert_cmpmem(got, DEPTH_PIXELS * 2, want, DEPTH_PIXELS * 2);
		g_assert_cmpfloat_with_epsilon(entry->walltime, 1000.0 + 0.5 * k, 1e-6);
		g_assert_cmpuint(entry->timestamp, ==, 100000 + 1000 * k);
		g_assert_cmpuint(entry->line, ==, k + 1);
		if (k == 1)
			g_assert_cmpstr(entry->name, ==, "d-1000.500000-101000.pgm");
	}
	assert_end(reader);
	g_assert_true(dump_reader_rewind(reader, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(next_frame(reader, got)->timestamp, ==, 100000);
}

/* INDEX.txt is read as the frames play, so a line spoilt since the dump
 * was opened costs that frame and no more. (Colour lines between the
 * frames put the spoilt line beyond what a read buffer holds.) */
static void
test_index_read_as_played(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(DumpReader) reader = NULL;
	g_autofree guint16 *raw = g_new(guint16, DEPTH_PIXELS);
	g_autoptr(GString) index = g_string_new("d-1.5-100.pgm\n");
	gsize spoilt;
	FILE *fp;

	for (guint i = 0; i < 10000; i++)
		g_string_append(index, "r-1.4-90.ppm\n");
	spoilt = index->len;
	g_string_append(index, "d-1.6-100.pgm\nd-1.7-100.pgm\n");
	write_depth_file(f, "d-1.5-100.pgm", DUMP_DEPTH_HEADER, DEPTH_PIXELS * 2);
	write_depth_file(f, "d-1.7-100.pgm", DUMP_DEPTH_HEADER, DEPTH_PIXELS * 2);
	write_index(f, index->str);
	reader = dump_reader_open(f->dir, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(dump_reader_n_frames(reader), ==, 3);
	fp = fopen(f->index, "r+");
	g_assert_nonnull(fp);
	g_assert_cmpint(fseek(fp, (long)spoilt + 1, SEEK_SET), ==, 0);
	g_assert_cmpint(fputs("_", fp), >=, 0);
	fclose(fp);
	g_assert_cmpuint(next_frame(reader, raw)->line, ==, 1);
	next_fails(f, reader, DUMP_ERROR_BAD_NAME,
	           "DIR/INDEX.txt:10002: 'd_1.6-100.pgm' is not a fakenect file name "
	           "(expected d-WALLTIME-TIMESTAMP.pgm)");
	g_assert_cmpuint(next_frame(reader, raw)->line, ==, 10003);
	assert_end(reader);
}

static void
test_file_is_little_endian(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *path = g_build_filename(f->dir, "d-1000.000000-100000.pgm", NULL);
	g_autofree char *contents = NULL;
	gsize len = 0;
	const guint8 *data_bytes;

	testutil_write_dump(f->dir, 1, 0.0);
	g_file_get_contents(path, &contents, &len, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(len, ==, strlen(DUMP_DEPTH_HEADER) + DEPTH_PIXELS * 2);
	g_assert_true(g_str_has_prefix(contents, "P5 640 480 65535\n"));
	/* Pixel 0 holds 2047 and pixel 1 holds 407 in pattern frame 0. */
	data_bytes = (const guint8 *)contents + strlen(DUMP_DEPTH_HEADER);
	g_assert_cmphex(data_bytes[0], ==, 0xff);
	g_assert_cmphex(data_bytes[1], ==, 0x07);
	g_assert_cmphex(data_bytes[2], ==, 0x97);
	g_assert_cmphex(data_bytes[3], ==, 0x01);
}

static void
test_skips_colour_and_accel(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(DumpReader) reader = NULL;
	g_autofree guint16 *raw = g_new(guint16, DEPTH_PIXELS);

	write_depth_file(f, "d-1.5-100.pgm", DUMP_DEPTH_HEADER, DEPTH_PIXELS * 2);
	write_index(f, "r-1.4-90.ppm\na-1.45-95.dump\nd-1.5-100.pgm\n");
	reader = dump_reader_open(f->dir, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(dump_reader_n_frames(reader), ==, 1);
	g_assert_cmpuint(next_frame(reader, raw)->line, ==, 3);
}

static void
test_error_no_index(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(DumpReader) reader = dump_reader_open(f->dir, &error);

	g_assert_null(reader);
	g_assert_error(error, DUMP_ERROR, DUMP_ERROR_NOT_FOUND);
	g_assert_true(g_str_has_prefix(error->message, f->dir));
	g_assert_nonnull(strstr(error->message, "not a fakenect dump"));
	g_assert_nonnull(strstr(error->message, "INDEX.txt"));
}

static void
test_error_blank_line(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	write_depth_file(f, "d-1.5-100.pgm", DUMP_DEPTH_HEADER, DEPTH_PIXELS * 2);
	write_index(f, "d-1.5-100.pgm\n\nd-1.5-100.pgm\n");
	expect_error(f, DUMP_ERROR_BLANK_LINE,
	             "DIR/INDEX.txt:2: blank line (fakenect stops playing at a blank line)");
}

static void
test_error_bad_name(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	write_index(f, "depth0001.pgm\n");
	expect_error(f, DUMP_ERROR_BAD_NAME,
	             "DIR/INDEX.txt:1: 'depth0001.pgm' is not a fakenect file name "
	             "(expected d-WALLTIME-TIMESTAMP.pgm)");
}

/* 1e308 seconds would overflow the microseconds it is played in. */
static void
test_error_walltime_range(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	write_depth_file(f, "d-1e308-100.pgm", DUMP_DEPTH_HEADER, DEPTH_PIXELS * 2);
	write_index(f, "d-1e308-100.pgm\n");
	expect_error(f, DUMP_ERROR_BAD_NAME,
	             "DIR/INDEX.txt:1: 'd-1e308-100.pgm': the walltime is out of range (0 to "
	             "1e+12 seconds)");
}

/* Named pipes where files should be: refused at once, never waited on. */
static void
test_error_fifo_index(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	g_assert_cmpint(mkfifo(f->index, 0600), ==, 0);
	expect_error(f, DUMP_ERROR_INDEX,
	             "DIR: not a fakenect dump: DIR/INDEX.txt: not a file but a named pipe");
}

static void
test_error_fifo_frame(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	g_autofree char *frame = g_build_filename(f->dir, "d-1.5-100.pgm", NULL);

	g_assert_cmpint(mkfifo(frame, 0600), ==, 0);
	write_index(f, "d-1.5-100.pgm\n");
	expect_error(f, DUMP_ERROR_MISSING,
	             "DIR/INDEX.txt:1: DIR/d-1.5-100.pgm: not a file but a named pipe");
}

/* Only the first frame is opened with the dump (a day's recording would
 * otherwise open a million files before it plays); a later frame that is
 * missing fails as it is played, and the rest play on. */
static void
test_error_missing_file(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(DumpReader) reader = NULL;
	g_autofree guint16 *raw = g_new(guint16, DEPTH_PIXELS);

	write_depth_file(f, "d-1.5-100.pgm", DUMP_DEPTH_HEADER, DEPTH_PIXELS * 2);
	write_index(f, "d-1.5-100.pgm\nd-1.6-200.pgm\nd-1.5-100.pgm\n");
	reader = dump_reader_open(f->dir, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(dump_reader_n_frames(reader), ==, 3);
	next_frame(reader, raw);
	next_fails(f, reader, DUMP_ERROR_MISSING,
	           "DIR/INDEX.txt:2: DIR/d-1.6-200.pgm: No such file or directory");
	g_assert_cmpuint(next_frame(reader, raw)->line, ==, 3);
	assert_end(reader);
}

static void
test_error_first_file_missing(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	write_depth_file(f, "d-1.6-200.pgm", DUMP_DEPTH_HEADER, DEPTH_PIXELS * 2);
	write_index(f, "r-1.4-90.ppm\nd-1.5-100.pgm\nd-1.6-200.pgm\n");
	expect_error(f, DUMP_ERROR_MISSING,
	             "DIR/INDEX.txt:2: DIR/d-1.5-100.pgm: No such file or directory");
}

static void
test_error_nul_byte(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	testutil_write_file(f->index, "r-1.4-90.ppm\nd-1.5\0-100.pgm\n", 29);
	expect_error(f, DUMP_ERROR_BAD_NAME,
	             "DIR/INDEX.txt:2: a NUL byte: INDEX.txt is not a text file");
}

/* A line is never kept whole beyond DUMP_MAX_LINE, nor quoted. */
static void
test_error_long_line(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	g_autofree char *line = g_strnfill(10 * 1024 * 1024, 'd');

	write_index(f, line);
	expect_error(f, DUMP_ERROR_BAD_NAME,
	             "DIR/INDEX.txt:1: a line longer than 1024 bytes, not a fakenect file name");
}

/* Refused from its size, before a byte is read (a sparse file here). */
static void
test_error_index_too_large(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	write_index(f, "d-1.5-100.pgm\n");
	g_assert_cmpint(truncate(f->index, DUMP_MAX_INDEX_BYTES + 1), ==, 0);
	expect_error(f, DUMP_ERROR_INDEX,
	             "DIR: not a fakenect dump: DIR/INDEX.txt: larger than 256 MiB, more than "
	             "such a file ever holds");
}

static void
test_error_short_file(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	write_depth_file(f, "d-1.5-100.pgm", DUMP_DEPTH_HEADER, 1000);
	write_index(f, "d-1.5-100.pgm\n");
	expect_error(f, DUMP_ERROR_SHORT,
	             "DIR/INDEX.txt:1: DIR/d-1.5-100.pgm: short file: 1017 bytes, a depth frame "
	             "needs 614417");
}

static void
test_error_bad_header(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	/* A PGM as image tools write it: 8-bit maximum. */
	write_depth_file(f, "d-1.5-100.pgm", "P5 640 480 255\n", DEPTH_PIXELS * 2);
	write_index(f, "d-1.5-100.pgm\n");
	expect_error(f, DUMP_ERROR_BAD_HEADER,
	             "DIR/INDEX.txt:1: DIR/d-1.5-100.pgm: bad header 'P5 640 480 255', expected "
	             "'P5 640 480 65535'");
}

static void
test_error_bad_header_after_open(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(DumpReader) reader = NULL;

	write_depth_file(f, "d-1.5-100.pgm", DUMP_DEPTH_HEADER, DEPTH_PIXELS * 2);
	write_index(f, "d-1.5-100.pgm\n");
	reader = dump_reader_open(f->dir, &error);
	g_assert_no_error(error);
	write_depth_file(f, "d-1.5-100.pgm", "garbage\n", DEPTH_PIXELS * 2 + 100);
	next_fails(f, reader, DUMP_ERROR_BAD_HEADER,
	           "DIR/INDEX.txt:1: DIR/d-1.5-100.pgm: bad header 'garbage', expected "
	           "'P5 640 480 65535'");
}

static void
test_error_truncated_after_open(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(DumpReader) reader = NULL;

	write_depth_file(f, "d-1.5-100.pgm", DUMP_DEPTH_HEADER, DEPTH_PIXELS * 2);
	write_index(f, "d-1.5-100.pgm\n");
	reader = dump_reader_open(f->dir, &error);
	g_assert_no_error(error);
	write_depth_file(f, "d-1.5-100.pgm", DUMP_DEPTH_HEADER, 10);
	next_fails(f, reader, DUMP_ERROR_SHORT,
	           "DIR/INDEX.txt:1: DIR/d-1.5-100.pgm: short file: 10 of 614400 depth bytes");
}

static void
test_error_no_frames(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	write_index(f, "r-1.4-90.ppm\n");
	expect_error(f, DUMP_ERROR_NO_FRAMES, "DIR/INDEX.txt: lists no depth frames");
}

static void
test_writer_refuses_existing_dump(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(DumpWriter) writer = NULL;
	g_autofree char *expected = NULL;

	write_index(f, "d-1.5-100.pgm\n");
	writer = dump_writer_new(f->dir, &error);
	g_assert_null(writer);
	g_assert_error(error, DUMP_ERROR, DUMP_ERROR_EXISTS);
	expected = g_strdup_printf(
	        "%s/INDEX.txt: already exists; record into a new or empty folder", f->dir);
	g_assert_cmpstr(error->message, ==, expected);
}

static void
test_writer_creates_folder(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	g_autofree char *sub = g_build_filename(f->dir, "a", "b", NULL);
	g_autoptr(GError) error = NULL;
	g_autoptr(DumpReader) reader = NULL;

	testutil_write_dump(sub, 2, 0.1);
	reader = dump_reader_open(sub, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(dump_reader_n_frames(reader), ==, 2);
}

#define ADD(path, func) g_test_add(path, Fixture, NULL, fixture_setup, func, fixture_teardown)

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	ADD("/dump/roundtrip", test_roundtrip);
	ADD("/dump/file-is-little-endian", test_file_is_little_endian);
	ADD("/dump/skips-colour-and-accelerometer", test_skips_colour_and_accel);
	ADD("/dump/error/no-index", test_error_no_index);
	ADD("/dump/error/blank-line", test_error_blank_line);
	ADD("/dump/error/bad-name", test_error_bad_name);
	ADD("/dump/error/walltime-out-of-range", test_error_walltime_range);
	ADD("/dump/error/index-is-a-fifo", test_error_fifo_index);
	ADD("/dump/error/frame-is-a-fifo", test_error_fifo_frame);
	ADD("/dump/index-read-as-played", test_index_read_as_played);
	ADD("/dump/error/missing-file", test_error_missing_file);
	ADD("/dump/error/first-file-missing", test_error_first_file_missing);
	ADD("/dump/error/nul-byte", test_error_nul_byte);
	ADD("/dump/error/long-line", test_error_long_line);
	ADD("/dump/error/index-too-large", test_error_index_too_large);
	ADD("/dump/error/short-file", test_error_short_file);
	ADD("/dump/error/bad-header", test_error_bad_header);
	ADD("/dump/error/bad-header-after-open", test_error_bad_header_after_open);
	ADD("/dump/error/truncated-after-open", test_error_truncated_after_open);
	ADD("/dump/error/no-frames", test_error_no_frames);
	ADD("/dump/writer/refuses-existing-dump", test_writer_refuses_existing_dump);
	ADD("/dump/writer/creates-folder", test_writer_creates_folder);
	return g_test_run();
}
