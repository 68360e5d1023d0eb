/* skelbridge: depth camera to OSC and TUIO. One binary, one subcommand per
 * job; each lives in its own cmd-*.c. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

typedef struct {
	const char *name;
	int (*main)(int argc, char **argv);
	const char *summary;
} Command;

static const Command commands[] = {
	{ "run", cmd_run_main, "run the bridge: depth source to OSC and TUIO" },
	{ "track", cmd_track_main, "track people and print their joints, one line a frame" },
	{ "snapshot", cmd_snapshot_main, "picture what the tracker sees: depth, users, skeletons" },
	{ "record", cmd_record_main, "record a source to a fakenect dump" },
	{ "check", cmd_check_main, "check mapping files" },
	{ "calibrate", cmd_calibrate_main,
	  "place several sensors in one room from a walk-through" },
};

static void
usage(FILE *out)
{
	fprintf(out, "Usage: skelbridge COMMAND [OPTION...]\n\nCommands:\n");
	for (guint i = 0; i < G_N_ELEMENTS(commands); i++)
		fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n'skelbridge COMMAND --help' tells more.\n");
}

int
main(int argc, char **argv)
{
	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? CLI_EXIT_USAGE : CLI_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("skelbridge %s\n", SKELBRIDGE_VERSION);
		return 0;
	}
	cli_prepare();
	for (guint i = 0; i < G_N_ELEMENTS(commands); i++) {
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].main(argc - 1, argv + 1);
	}
	fprintf(stderr, "skelbridge: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return CLI_EXIT_USAGE;
}
