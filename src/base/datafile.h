/* Reading the files skelbridge is given: mapping files, recordings, stills.
 *
 * Only regular files, opened without blocking: a named pipe where a file
 * should be would otherwise wait for a writer for ever (and the signals
 * that stop skelbridge with it), and /dev/zero would be read until memory
 * runs out. Each caller says how much it reads at most. Errors are
 * G_FILE_ERROR's, and name the path. */
#pragma once

#include <glib.h>

/**
 * datafile_open:
 * Opens @path for reading when it is a regular file: a file descriptor
 * (close-on-exec, blocking again once open), or -1 with @error set ("PATH:
 * not a regular file but a named pipe", or the system's reason).
 */
int datafile_open(const char *path, GError **error);

/**
 * datafile_read:
 * The whole of the regular file @path, at most @max_bytes of it (more is an
 * error naming the sizes), with a NUL after its @length bytes.
 */
gboolean datafile_read(const char *path, gsize max_bytes, char **contents, gsize *length,
                       GError **error);

/**
 * datafile_fail_too_large:
 * Sets @error to say that @path holds more than @max_bytes, in the words
 * datafile_read() uses, and returns FALSE: for readers that stream a file.
 */
gboolean datafile_fail_too_large(const char *path, gsize max_bytes, GError **error);
