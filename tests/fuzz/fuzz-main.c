/* Runs a fuzz target over files, without libFuzzer: every build replays
 * the committed corpus (seeds and past findings) as a regression test.
 * Arguments are files or folders of files. */
#include <glib.h>
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
run_file(const char *path)
{
	g_autofree char *data = NULL;
	gsize len = 0;

	if (!g_file_get_contents(path, &data, &len, NULL)) {
		fprintf(stderr, "%s: cannot read\n", path);
		return 1;
	}
	LLVMFuzzerTestOneInput((const uint8_t *)data, len);
	return 0;
}

static int
run_path(const char *path, guint *count)
{
	g_autoptr(GDir) dir = NULL;
	const char *name;
	int failures = 0;

	if (!g_file_test(path, G_FILE_TEST_IS_DIR)) {
		(*count)++;
		return run_file(path);
	}
	dir = g_dir_open(path, 0, NULL);
	while (dir != NULL && (name = g_dir_read_name(dir)) != NULL) {
		g_autofree char *child = g_build_filename(path, name, NULL);

		failures += run_path(child, count);
	}
	return failures;
}

int
main(int argc, char **argv)
{
	guint count = 0;
	int failures = 0;

	for (int i = 1; i < argc; i++)
		failures += run_path(argv[i], &count);
	printf("%u inputs, %d unreadable\n", count, failures);
	return failures == 0 && count > 0 ? 0 : 1;
}
