/* skelbridge calibrate: where several sensors stand in one room, from a
 * person walking through where their views overlap. Every source is
 * tracked on its own thread (cli-sensors.c); what each saw goes to the
 * calibrator (room/room-calibrator.c) with the frame's time, and at the
 * end (every source over, --seconds of frames, or Ctrl-C) the sensors are
 * placed and written to a room file that `run --room` takes. */
#include <math.h>
#include <stdio.h>

#include "cli-sensors.h"
#include "cli.h"
#include "commands.h"
#include "room/room-calibrator.h"
#include "room/room.h"

/* A floor two sensors disagree on by more than this shows in the same
 * torsos seen at different heights. */
#define CALIBRATE_HEIGHT_WARN_MM 60.0

typedef struct {
	GMainLoop *loop;
	CliSensors *sensors;
	RoomCalibrator *calibrator;
	char **specs; /* the sources, in the sensors' order */
	guint n_sensors;
	gint64 max_us;   /* stop after this much of the first sensor's time; 0: at the end */
	gint64 first_us; /* the first sensor's first frame's time, or -1 */
	int status;
} CmdCalibrate;

static void
cmd_calibrate_tracked(guint sensor, const TrackerFrame *frame, const TrackerCameraPose *pose,
                      gpointer user_data)
{
	CmdCalibrate *cal = user_data;

	if (!room_calibrator_add(cal->calibrator, sensor, frame->time_us, frame, pose))
		cli_debug("%s: frame %" G_GUINT64_FORMAT " not kept", cal->specs[sensor],
		          frame->frame);
	if (sensor != 0)
		return;
	if (cal->first_us < 0)
		cal->first_us = frame->time_us;
	if (cal->max_us > 0 && frame->time_us - cal->first_us >= cal->max_us) {
		cli_sensors_stop(cal->sensors);
		g_main_loop_quit(cal->loop);
	}
}

/* Each sensor tracked on a thread of its own, every frame of a recording
 * or scene kept (also with --fast), until every source is over, a source
 * error, --seconds of frames or Ctrl-C. */
static gboolean
cmd_calibrate_run(CmdCalibrate *cal, GError **error)
{
	cli_sensors_watch(cal->sensors, cmd_calibrate_tracked, TRUE, cal);
	cli_info("calibrating %u sensors: walk through where their views overlap%s", cal->n_sensors,
	         cal->max_us > 0 ? "" : "; Ctrl-C ends the walk");
	if (!cli_sensors_run(cal->sensors, cal->loop, &cal->status, NULL, NULL, error))
		return FALSE;
	/* Ctrl-C ends the walk-through: what was seen is calibrated. */
	if (cal->status == CLI_EXIT_INTERRUPTED)
		cal->status = CLI_EXIT_OK;
	return TRUE;
}

static void
cmd_calibrate_report(const CmdCalibrate *cal, const RoomCalibration *placed)
{
	for (guint i = 0; i < cal->n_sensors; i++) {
		const RoomCalibration *p = &placed[i];

		printf("sensor %u (%s): x %.0f z %.0f mm, yaw %.2f; height %.0f mm, tilt %.2f, "
		       "roll %.2f",
		       i + 1, cal->specs[i], p->x_mm, p->z_mm, p->yaw_deg, p->height_mm,
		       p->tilt_deg, p->roll_deg);
		if (i > 0)
			printf("; from %u sightings with sensor %u, %.0f mm apart (rms)",
			       p->samples, p->reference + 1, p->residual_mm);
		printf("\n");
		if (i > 0 && fabs(p->height_offset_mm) > CALIBRATE_HEIGHT_WARN_MM)
			cli_warning(
			        "sensors %u and %u see the same person %.0f mm apart in height: "
			        "one of them misjudges its floor (give --camera-height, or aim "
			        "it so that more floor is in view)",
			        p->reference + 1, i + 1, p->height_offset_mm);
	}
	fflush(stdout);
}

/* @mm to whole millimetres, without a "-0". */
static double
cmd_calibrate_round(double mm)
{
	return fabs(mm) < 0.5 ? 0.0 : mm;
}

static void
cmd_calibrate_to_sensor(const RoomCalibration *p, guint index, const char *spec, RoomSensor *s)
{
	s->name = g_strdup_printf("sensor%u", index + 1);
	s->source = g_strdup(spec);
	s->x_mm = p->x_mm;
	s->z_mm = p->z_mm;
	s->yaw_deg = p->yaw_deg;
	s->height_mm = p->height_mm;
	s->tilt_deg = p->tilt_deg;
	s->roll_deg = p->roll_deg;
}

/* Places the sensors and writes the room file. */
static gboolean
cmd_calibrate_save(CmdCalibrate *cal, const char *path, GError **error)
{
	RoomCalibration placed[ROOM_CALIBRATOR_MAX_SENSORS];
	g_autoptr(Room) room = room_new();
	g_autoptr(GString) comment = g_string_new(NULL);

	if (!room_calibrator_solve(cal->calibrator, placed, error))
		return FALSE;
	cmd_calibrate_report(cal, placed);
	for (guint i = 0; i < cal->n_sensors; i++) {
		RoomSensor s;
		gboolean added;

		cmd_calibrate_to_sensor(&placed[i], i, cal->specs[i], &s);
		added = room_add_sensor(room, &s, error);
		g_free(s.name);
		g_free(s.source);
		if (!added)
			return FALSE;
		if (i > 0)
			g_string_append_printf(
			        comment,
			        "sensor%u placed against sensor%u from %u sightings, "
			        "%.0f mm apart (rms), heights %.0f mm apart\n",
			        i + 1, placed[i].reference + 1, placed[i].samples,
			        placed[i].residual_mm,
			        cmd_calibrate_round(placed[i].height_offset_mm));
	}
	return room_save(room, path, comment->str, error);
}

static void
cmd_calibrate_clear(CmdCalibrate *cal)
{
	g_clear_pointer(&cal->sensors, cli_sensors_free);
	g_clear_pointer(&cal->calibrator, room_calibrator_free);
	g_clear_pointer(&cal->loop, g_main_loop_unref);
}

/* Two to ROOM_CALIBRATOR_MAX_SENSORS --source and one file to write. */
static gboolean
cmd_calibrate_check_args(char **specs, int argc, double seconds)
{
	guint n = specs != NULL ? g_strv_length(specs) : 0;

	if (n < 2 || n > ROOM_CALIBRATOR_MAX_SENSORS) {
		cli_error("calibrate: give --source for each sensor, 2 to %u of them (%u given)",
		          ROOM_CALIBRATOR_MAX_SENSORS, n);
		return FALSE;
	}
	if (argc != 2) {
		cli_error("calibrate: give one room file to write (see 'skelbridge calibrate "
		          "--help')");
		return FALSE;
	}
	if (!(seconds >= 0.0 && seconds <= 24 * 3600.0)) {
		cli_error("calibrate: --seconds %g: give 0 (until the sources end or Ctrl-C) to "
		          "86400",
		          seconds);
		return FALSE;
	}
	return TRUE;
}

int
cmd_calibrate_main(int argc, char **argv)
{
	g_autoptr(GOptionContext) context =
	        g_option_context_new("ROOM.conf - place several sensors in one room");
	g_autoptr(GError) error = NULL;
	g_auto(GStrv) specs = NULL;
	CliTrackerArgs tracker_args = { 0 };
	TrackerSettings settings;
	SourceOptions options = { 0 };
	gint64 seed = 1;
	double seconds = 0.0;
	const GOptionEntry entries[] = {
		{ "source", 's', 0, G_OPTION_ARG_STRING_ARRAY, &specs,
		  "A sensor's source, once for each sensor (see below)", "S" },
		{ "seconds", 0, 0, G_OPTION_ARG_DOUBLE, &seconds,
		  "Stop after this many seconds of frames (default: at the sources' end, or "
		  "Ctrl-C)",
		  "N" },
		{ "fast", 0, 0, G_OPTION_ARG_NONE, &options.fast,
		  "Play recordings and the demo as fast as possible", NULL },
		{ "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Noise seed for demo scenes (default 1)",
		  "N" },
		G_OPTION_ENTRY_NULL
	};
	g_autofree char *description = g_strdup_printf("Sources:\n%s", source_usage());
	CmdCalibrate cal = { 0 };
	int status;

	g_option_context_add_main_entries(context, entries, NULL);
	g_option_context_set_description(context, description);
	cli_add_tracker_entries(context, &tracker_args);
	if (!cli_parse_tracking(context, "calibrate", &argc, &argv, &tracker_args, &settings) ||
	    !cmd_calibrate_check_args(specs, argc, seconds))
		return CLI_EXIT_USAGE;
	options.seed = (guint64)seed;
	cal.loop = g_main_loop_new(NULL, FALSE);
	cal.specs = specs;
	cal.n_sensors = g_strv_length(specs);
	cal.calibrator = room_calibrator_new(cal.n_sensors);
	cal.max_us = (gint64)(seconds * G_USEC_PER_SEC);
	cal.first_us = -1;
	cal.sensors = cli_sensors_new(specs, &options, &settings, NULL, &error);
	if (cal.sensors == NULL || !cmd_calibrate_run(&cal, &error)) {
		cmd_calibrate_clear(&cal);
		return cli_fail(error);
	}
	status = cal.status;
	if (status == CLI_EXIT_OK && !cmd_calibrate_save(&cal, argv[1], &error))
		status = cli_fail(error);
	cmd_calibrate_clear(&cal);
	return status;
}
