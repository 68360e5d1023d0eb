/* The mapping file parser: text in, Mapping out, strictly. */
#pragma once

#include "mapping.h"

/**
 * mapping_parse:
 * Parses @length bytes of @text; @path only names the file in errors and
 * warnings. Errors read "path:line: [section] key: what is wrong".
 */
Mapping *mapping_parse(const char *path, const char *text, gsize length, GError **error);
