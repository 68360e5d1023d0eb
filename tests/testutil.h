/* Helpers the tests share: temporary folders and small synthetic dumps. */
#pragma once

#include <glib.h>

#include "depth.h"

/** testutil_tmpdir: a fresh temporary folder, removed by testutil_rmdir(). */
char *testutil_tmpdir(void);
void testutil_rmdir(const char *dir);

/** testutil_pattern: raw frame @n of a deterministic test pattern. */
void testutil_pattern(guint n, guint16 *raw);

/**
 * testutil_write_dump:
 * Writes @n pattern frames to @dir with fakenect names, @interval seconds
 * apart; walltimes start at 1000 s, timestamps at 100000.
 */
void testutil_write_dump(const char *dir, guint n, double interval);

/** testutil_write_file: writes @len bytes or fails the test. */
void testutil_write_file(const char *path, const void *data, gsize len);

/** testutil_percentile: the @p (0..1) percentile of @values, which it sorts. */
double testutil_percentile(double *values, guint n, double p);

/** testutil_binary: the skelbridge binary under test (from $SKELBRIDGE). */
const char *testutil_binary(void);

/**
 * testutil_load_raw:
 * Reads a headerless 640x480 little-endian uint16 millimetre frame into
 * @mm, or fails the test.
 */
void testutil_load_raw(const char *path, guint16 *mm);

/**
 * testutil_real_kinect_dir:
 * The folder of real Kinect frames ($SKELBRIDGE_REAL_KINECT), or NULL
 * when it is not set or does not exist.
 */
const char *testutil_real_kinect_dir(void);

/** testutil_real_kinect_files: the frames in that folder, sorted; free with g_strfreev. */
char **testutil_real_kinect_files(const char *dir);

/* What a spawned program did: exit status, standard output and error. */
typedef struct {
	int status;
	char *out;
	char *err;
} TestutilSpawned;

void testutil_spawned_clear(TestutilSpawned *s);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(TestutilSpawned, testutil_spawned_clear)

/** testutil_spawn: runs @argv to the end into @s, or fails the test. */
void testutil_spawn(TestutilSpawned *s, const char *const *argv);
