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
