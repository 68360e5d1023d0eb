/* The subcommands' entry points: argv[0] is the subcommand's name. */
#pragma once

#include <glib.h>

int cmd_run_main(int argc, char **argv);
int cmd_record_main(int argc, char **argv);
int cmd_check_main(int argc, char **argv);
int cmd_track_main(int argc, char **argv);
int cmd_snapshot_main(int argc, char **argv);
int cmd_calibrate_main(int argc, char **argv);
