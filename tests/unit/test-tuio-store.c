/* Where a TUIO output's frame sequence stopped, kept across runs: the
 * file's text both ways, which files are trusted, and the file itself in a
 * temporary folder (written in the background, at most so often, and
 * every failure told rather than fatal). */
#include <string.h>

#include "outputs/tuio-store.h"
#include "mapping/tuio.h"
#include "testutil.h"

#define T0      ((gint64)1790000000 * G_USEC_PER_SEC)
#define WAIT_US (10 * G_USEC_PER_SEC)

static void
test_round_trip(void)
{
	g_autofree char *text =
	        tuio_store_format("left@stage", "osc.udp://10.0.0.2:3333", 1234567, T0 + 500000);
	g_autoptr(GError) error = NULL;
	gint32 fseq = 0;
	gint64 time_us = 0;

	g_assert_true(tuio_store_parse("s", text, strlen(text), &fseq, &time_us, &error));
	g_assert_no_error(error);
	g_assert_cmpint(fseq, ==, 1234567);
	g_assert_cmpint(time_us, ==, T0);
	g_assert_nonnull(strstr(text, "source = left@stage\n"));
}

/* A newer skelbridge may write more: a reader takes what it knows. */
static void
test_parse_ignores_unknown_keys(void)
{
	const char *text = "# a comment\nformat = 1\nsessions = 40\n\nfseq = 99\ntime = 5\n";
	gint32 fseq = 0;
	gint64 time_us = 0;

	g_assert_true(tuio_store_parse("s", text, strlen(text), &fseq, &time_us, NULL));
	g_assert_cmpint(fseq, ==, 99);
	g_assert_cmpint(time_us, ==, 5 * G_USEC_PER_SEC);
}

typedef struct {
	const char *name;
	const char *text;
	gsize length; /* 0: strlen */
	const char *message;
} StoreErrorCase;

static const StoreErrorCase error_cases[] = {
	{ "not-key-value", "format = 1\nfseq: 5\n", 0, "s:2: expected KEY = VALUE" },
	{ "bad-number", "format = 1\nfseq = -3\ntime = 5\n", 0,
	  "s:2: fseq: expected a number from 1 to 16777215, got '-3'" },
	{ "past-the-limit", "format = 1\nfseq = 16777216\ntime = 5\n", 0,
	  "s:2: fseq: expected a number from 1 to 16777215, got '16777216'" },
	{ "other-format", "format = 2\nfseq = 5\ntime = 5\n", 0, "s: expected format = 1" },
	{ "no-fseq", "format = 1\ntime = 5\n", 0, "s: no fseq" },
	{ "no-time", "format = 1\nfseq = 5\n", 0, "s: no time" },
	{ "nul-byte", "format = 1\0fseq = 5\n", 20, "s: a NUL byte: not a text file" },
	{ "empty", "", 0, "s: expected format = 1" },
};

static void
test_parse_error(gconstpointer data)
{
	const StoreErrorCase *c = data;
	g_autoptr(GError) error = NULL;
	gint32 fseq = 0;
	gint64 time_us = 0;

	g_assert_false(tuio_store_parse("s", c->text, c->length ? c->length : strlen(c->text),
	                                &fseq, &time_us, &error));
	g_assert_error(error, TUIO_STORE_ERROR, TUIO_STORE_ERROR_INVALID);
	g_assert_cmpstr(error->message, ==, c->message);
}

/* An old file says nothing of where today's clock seed lies. */
static void
test_resume_trusts_fresh_files_only(void)
{
	g_assert_cmpint(tuio_store_resume(700, T0, T0 + G_USEC_PER_SEC), ==, 700);
	g_assert_cmpint(tuio_store_resume(700, T0, T0 + TUIO_STORE_FRESH_US - 1), ==, 700);
	g_assert_cmpint(tuio_store_resume(700, T0, T0 + TUIO_STORE_FRESH_US), ==, 0);
	/* The clock set back a little since: still trusted. */
	g_assert_cmpint(tuio_store_resume(700, T0, T0 - 30 * G_USEC_PER_SEC), ==, 700);
	g_assert_cmpint(tuio_store_resume(700, T0, T0 - (gint64)3600 * G_USEC_PER_SEC), ==, 0);
}

static void
test_file_name_safe_and_distinct(void)
{
	g_autofree char *a = tuio_store_file_name("left@stage", "osc.udp://10.0.0.2:3333");
	g_autofree char *b = tuio_store_file_name("right@stage", "osc.udp://10.0.0.2:3333");
	g_autofree char *c = tuio_store_file_name("left@stage", "osc.udp://10.0.0.2:3334");
	g_autofree char *again = tuio_store_file_name("left@stage", "osc.udp://10.0.0.2:3333");

	g_assert_cmpstr(a, ==, again);
	g_assert_cmpstr(a, !=, b);
	g_assert_cmpstr(a, !=, c);
	g_assert_true(g_str_has_prefix(a, "tuio-") && g_str_has_suffix(a, ".state"));
	g_assert_cmpuint(strlen(a), ==, strlen("tuio-") + 16 + strlen(".state"));
	g_assert_null(strchr(a, '/'));
}

static void
test_file_missing_is_a_first_run(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *sub = g_build_filename(dir, "not-yet", NULL);
	g_autoptr(TuioStore) store = tuio_store_new(sub, "skelbridge@h", "osc.udp://h:1");
	g_autoptr(GError) error = NULL;

	g_assert_cmpint(tuio_store_load(store, T0, &error), ==, 0);
	g_assert_no_error(error);
	/* Saving makes the folder. */
	g_assert_true(tuio_store_save(store, 4321, T0, &error));
	g_assert_no_error(error);
	g_assert_cmpint(tuio_store_load(store, T0 + G_USEC_PER_SEC, &error), ==, 4321);
	g_assert_no_error(error);
	testutil_rmdir(dir);
}

static void
test_file_broken_is_an_error(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autoptr(TuioStore) store = tuio_store_new(dir, "skelbridge@h", "osc.udp://h:1");
	g_autoptr(GError) error = NULL;
	g_autofree char *message = NULL;

	testutil_write_file(tuio_store_path(store), "format = 1\nfseq = many\n", 23);
	g_assert_cmpint(tuio_store_load(store, T0, &error), ==, 0);
	g_assert_error(error, TUIO_STORE_ERROR, TUIO_STORE_ERROR_INVALID);
	message = g_strdup_printf("%s:2: fseq: expected a number from 1 to 16777215, got 'many'",
	                          tuio_store_path(store));
	g_assert_cmpstr(error->message, ==, message);
	testutil_rmdir(dir);
}

/* The fseq on file, read as another store would, once the background write landed. */
static gint32
wait_for_fseq(const char *dir, gint32 want)
{
	g_autoptr(TuioStore) reader = tuio_store_new(dir, "skelbridge@h", "osc.udp://h:1");
	gint64 end = g_get_monotonic_time() + WAIT_US;
	gint32 fseq = 0;

	while (g_get_monotonic_time() < end) {
		fseq = tuio_store_load(reader, T0, NULL);
		if (fseq == want)
			break;
		g_usleep(2000);
	}
	return fseq;
}

static void
test_file_written_at_most_every_interval(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autoptr(TuioStore) store = tuio_store_new(dir, "skelbridge@h", "osc.udp://h:1");

	tuio_store_remember(store, 100, T0);
	g_assert_cmpint(wait_for_fseq(dir, 100), ==, 100);
	tuio_store_remember(store, 200, T0 + TUIO_STORE_INTERVAL_US - 1);
	g_usleep(50000);
	g_assert_cmpint(wait_for_fseq(dir, 100), ==, 100);
	tuio_store_remember(store, 300, T0 + TUIO_STORE_INTERVAL_US);
	g_assert_cmpint(wait_for_fseq(dir, 300), ==, 300);
	/* Stopping writes at once, whatever the interval. */
	g_assert_true(tuio_store_save(store, 301, T0 + TUIO_STORE_INTERVAL_US + 1, NULL));
	g_assert_cmpint(wait_for_fseq(dir, 301), ==, 301);
	g_assert_null(tuio_store_take_error(store));
	testutil_rmdir(dir);
}

/* A folder that cannot be made: every write fails, and says so. */
static void
test_file_unwritable_is_told(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *blocker = g_build_filename(dir, "file", NULL);
	g_autofree char *inside = g_build_filename(blocker, "skelbridge", NULL);
	g_autoptr(TuioStore) store = tuio_store_new(inside, "skelbridge@h", "osc.udp://h:1");
	g_autoptr(GError) error = NULL;
	gint64 end = g_get_monotonic_time() + WAIT_US;
	char *message = NULL;

	testutil_write_file(blocker, "x", 1);
	tuio_store_remember(store, 100, T0);
	while (message == NULL && g_get_monotonic_time() < end) {
		g_usleep(2000);
		message = tuio_store_take_error(store);
	}
	g_assert_nonnull(message);
	g_assert_true(g_str_has_prefix(message, inside));
	g_free(message);
	g_assert_false(tuio_store_save(store, 101, T0, &error));
	g_assert_error(error, TUIO_STORE_ERROR, TUIO_STORE_ERROR_IO);
	testutil_rmdir(dir);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/tuio-store/round-trip", test_round_trip);
	g_test_add_func("/tuio-store/parse/ignores-unknown-keys", test_parse_ignores_unknown_keys);
	for (guint i = 0; i < G_N_ELEMENTS(error_cases); i++) {
		g_autofree char *path =
		        g_strdup_printf("/tuio-store/parse/error/%s", error_cases[i].name);

		g_test_add_data_func(path, &error_cases[i], test_parse_error);
	}
	g_test_add_func("/tuio-store/resume/trusts-fresh-files-only",
	                test_resume_trusts_fresh_files_only);
	g_test_add_func("/tuio-store/file-name/safe-and-distinct",
	                test_file_name_safe_and_distinct);
	g_test_add_func("/tuio-store/file/missing-is-a-first-run",
	                test_file_missing_is_a_first_run);
	g_test_add_func("/tuio-store/file/broken-is-an-error", test_file_broken_is_an_error);
	g_test_add_func("/tuio-store/file/written-at-most-every-interval",
	                test_file_written_at_most_every_interval);
	g_test_add_func("/tuio-store/file/unwritable-is-told", test_file_unwritable_is_told);
	return g_test_run();
}
