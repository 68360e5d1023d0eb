/* Mapping files on disk: finding one by name among the shipped mappings,
 * reading it (a regular file, up to MAPPING_MAX_BYTES) and loading it (read
 * and parsed). Every mapping file, for check, run and reloads alike, is
 * read here, with one wording for its failures. */
#include "mapping-file.h"

#include <string.h>

#include "base/datafile.h"
#include "mapping-parse.h"

gboolean
mapping_file_read(const char *path, char **text, gsize *length, GError **error)
{
	g_autoptr(GError) local = NULL;

	if (datafile_read(path, MAPPING_MAX_BYTES, text, length, &local))
		return TRUE;
	g_set_error(error, MAPPING_ERROR, MAPPING_ERROR_READ, "%s", local->message);
	return FALSE;
}

Mapping *
mapping_file_load(const char *path, GError **error)
{
	g_autofree char *text = NULL;
	gsize length;

	if (!mapping_file_read(path, &text, &length, error))
		return NULL;
	return mapping_parse(path, text, length, error);
}

/* The binary in the build tree finds the source tree's mappings first, so
 * that a developer's edits take effect without installing. */
static gboolean
mapping_file_running_uninstalled(void)
{
	g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);

	return exe != NULL && g_str_has_prefix(exe, SKELBRIDGE_BUILD_ROOT G_DIR_SEPARATOR_S);
}

GPtrArray *
mapping_file_search_path(void)
{
	GPtrArray *dirs = g_ptr_array_new_with_free_func(g_free);
	const char *env = g_getenv(MAPPING_DIRS_ENV);

	/* Folders a user names come first: a staged install's, or one's own. */
	if (env != NULL) {
		g_auto(GStrv) named = g_strsplit(env, G_SEARCHPATH_SEPARATOR_S, -1);

		for (guint i = 0; named[i] != NULL; i++) {
			if (*named[i] != '\0')
				g_ptr_array_add(dirs, g_strdup(named[i]));
		}
	}
	if (mapping_file_running_uninstalled())
		g_ptr_array_add(dirs, g_strdup(SKELBRIDGE_SOURCE_MAPPINGS_DIR));
	g_ptr_array_add(dirs, g_strdup(SKELBRIDGE_MAPPINGS_DIR));
	return dirs;
}

static gboolean
mapping_file_is_path(const char *name_or_path)
{
	return strchr(name_or_path, '/') != NULL || g_str_has_suffix(name_or_path, ".map");
}

static int
mapping_file_compare_names(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* "default, osceleton": the shipped names, for an error message; NULL
 * when there are none. */
static char *
mapping_file_list_names(GPtrArray *dirs)
{
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);

	for (guint i = 0; i < dirs->len; i++) {
		g_autoptr(GDir) dir = g_dir_open(g_ptr_array_index(dirs, i), 0, NULL);
		const char *file;

		while (dir != NULL && (file = g_dir_read_name(dir)) != NULL) {
			char *name;

			if (!g_str_has_suffix(file, ".map"))
				continue;
			name = g_strndup(file, strlen(file) - strlen(".map"));
			if (g_ptr_array_find_with_equal_func(names, name, g_str_equal, NULL))
				g_free(name);
			else
				g_ptr_array_add(names, name);
		}
	}
	g_ptr_array_sort(names, mapping_file_compare_names);
	g_ptr_array_add(names, NULL);
	return names->len > 1 ? g_strjoinv(", ", (char **)names->pdata) : NULL;
}

/* No mapping called @name in @dirs: the names there, or, when there are
 * none at all (an install that lost its data), the folders. */
static void
mapping_file_not_found(const char *name, GPtrArray *dirs, GError **error)
{
	g_autofree char *known = mapping_file_list_names(dirs);
	g_autofree char *where = NULL;

	if (known != NULL) {
		g_set_error(error, MAPPING_ERROR, MAPPING_ERROR_NOT_FOUND,
		            "no mapping called '%s' (shipped mappings: %s); give a path to use a "
		            "file of your own",
		            name, known);
		return;
	}
	g_ptr_array_add(dirs, NULL);
	where = g_strjoinv(", ", (char **)dirs->pdata);
	g_set_error(error, MAPPING_ERROR, MAPPING_ERROR_NOT_FOUND,
	            "no mapping called '%s', and no mappings at all in %s (is skelbridge "
	            "installed? %s names more folders); give a path to use a file of your own",
	            name, where, MAPPING_DIRS_ENV);
}

char *
mapping_file_locate(const char *name_or_path, GError **error)
{
	g_autoptr(GPtrArray) dirs = NULL;
	g_autofree char *file = NULL;

	if (mapping_file_is_path(name_or_path))
		return g_strdup(name_or_path);
	dirs = mapping_file_search_path();
	file = g_strconcat(name_or_path, ".map", NULL);
	for (guint i = 0; i < dirs->len; i++) {
		char *path = g_build_filename(g_ptr_array_index(dirs, i), file, NULL);

		if (g_file_test(path, G_FILE_TEST_IS_REGULAR))
			return path;
		g_free(path);
	}
	mapping_file_not_found(name_or_path, dirs, error);
	return NULL;
}
