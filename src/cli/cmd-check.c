/* skelbridge check: validates mapping files, names or paths, as `run
 * --mapping` would load them. Errors and warnings read "path:line: what",
 * which editors and CI logs link to the line. */
#include <stdio.h>

#include "cli.h"
#include "commands.h"
#include "mapping/mapping-file.h"

static void
cmd_check_summary(const Mapping *mapping)
{
	printf("%s: ok: %u rule%s, %u output%s", mapping->path, mapping->rules->len,
	       mapping->rules->len == 1 ? "" : "s", mapping->outputs->len,
	       mapping->outputs->len == 1 ? "" : "s");
	for (guint i = 0; i < mapping->outputs->len; i++) {
		const MappingOutput *output = mapping_get_output(mapping, i);
		g_autofree char *target = mapping_target_to_string(&output->target);

		printf("%s %s to %s", i == 0 ? ":" : ",", output->name, target);
	}
	printf("\n");
	fflush(stdout);
}

/* Returns whether @name_or_path is a valid mapping. */
static gboolean
cmd_check_one(const char *name_or_path)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *path = mapping_file_locate(name_or_path, &error);
	g_autoptr(Mapping) mapping = NULL;

	if (path != NULL)
		mapping = mapping_file_load(path, &error);
	if (mapping == NULL) {
		fprintf(stderr, "%s\n", error->message);
		return FALSE;
	}
	for (guint i = 0; i < mapping->warnings->len; i++)
		fprintf(stderr, "%s\n", (const char *)g_ptr_array_index(mapping->warnings, i));
	cmd_check_summary(mapping);
	return TRUE;
}

int
cmd_check_main(int argc, char **argv)
{
	g_autoptr(GOptionContext) context =
	        g_option_context_new("MAPPING... - check mapping files (names or paths)");
	gboolean ok = TRUE;

	g_option_context_set_summary(context,
	                             "Exits with 0 when every file is valid, 3 otherwise.");
	if (!cli_parse(context, "check", &argc, &argv))
		return CLI_EXIT_USAGE;
	if (argc < 2) {
		cli_error("check: give one or more mapping files (see 'skelbridge check --help')");
		return CLI_EXIT_USAGE;
	}
	for (int i = 1; i < argc; i++)
		ok &= cmd_check_one(argv[i]);
	return ok ? CLI_EXIT_OK : CLI_EXIT_MAPPING;
}
