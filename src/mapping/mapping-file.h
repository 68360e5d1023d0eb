/* Mapping files on disk: found by name or path, read, loaded. */
#pragma once

#include "mapping.h"

/**
 * mapping_file_read:
 * The text of the mapping file @path: a regular file of at most
 * MAPPING_MAX_BYTES (never a named pipe or a device). MAPPING_ERROR_READ
 * names the path and the reason.
 */
gboolean mapping_file_read(const char *path, char **text, gsize *length, GError **error);

/** mapping_file_load: reads and parses the file at @path. */
Mapping *mapping_file_load(const char *path, GError **error);

/* Folders to find mappings by name in before the shipped ones, separated
 * by ':' (a staged install's `share/skelbridge/mappings`, or one's own). */
#define MAPPING_DIRS_ENV "SKELBRIDGE_MAPPINGS_PATH"

/**
 * mapping_file_locate:
 * The file for @name_or_path: a path when it contains a '/' or ends in
 * ".map", otherwise a mapping found by name in the folders of
 * $SKELBRIDGE_MAPPINGS_PATH, then in the installed data folder (and,
 * before that, in the source tree when running from the build tree).
 */
char *mapping_file_locate(const char *name_or_path, GError **error);

/** mapping_file_search_path: the folders mapping_file_locate() looks in, in order. */
GPtrArray *mapping_file_search_path(void);
