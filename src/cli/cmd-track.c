/* skelbridge track: the tracker on any source, one line per frame on
 * standard output, as JSON for other programs or as a short summary. A
 * JSON line ends with the camera pose as of that frame: every line stands
 * alone, and a reader that wants changes compares two. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "skeletons/skeletons.h"

typedef struct {
	GMainLoop *loop;
	Skeletons *skeletons; /* the tracker */
	gboolean json;
	gint64 max_frames;
	guint64 frames;
	int status;
} CmdTrack;

static void
cmd_track_number(GString *out, const char *key, double value, const char *format)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];

	g_string_append_printf(out, "\"%s\":%s", key,
	                       g_ascii_formatd(buf, sizeof(buf), format, value));
}

static void
cmd_track_joint(GString *out, const TrackerJoint *joint)
{
	g_string_append_c(out, '{');
	cmd_track_number(out, "x", joint->position.x, "%.1f");
	g_string_append_c(out, ',');
	cmd_track_number(out, "y", joint->position.y, "%.1f");
	g_string_append_c(out, ',');
	cmd_track_number(out, "z", joint->position.z, "%.1f");
	g_string_append_c(out, ',');
	cmd_track_number(out, "u", joint->u, "%.1f");
	g_string_append_c(out, ',');
	cmd_track_number(out, "v", joint->v, "%.1f");
	g_string_append_c(out, ',');
	cmd_track_number(out, "confidence", joint->confidence, "%.3f");
	g_string_append_c(out, '}');
}

/* A joint not found (confidence 0) is left out. */
static void
cmd_track_user(GString *out, const TrackerUser *user)
{
	gboolean first = TRUE;

	g_string_append_printf(out, "{\"id\":%u,\"joints\":{", user->id);
	for (int j = 0; j < TRACKER_N_JOINTS; j++) {
		if (user->joints[j].confidence <= 0.0)
			continue;
		g_string_append_printf(out, "%s\"%s\":", first ? "" : ",", tracker_joint_name(j));
		cmd_track_joint(out, &user->joints[j]);
		first = FALSE;
	}
	g_string_append(out, "}}");
}

static const char *
cmd_track_floor_name(TrackerFloorState floor)
{
	switch (floor) {
	case TRACKER_FLOOR_UNKNOWN:
		return "unknown";
	case TRACKER_FLOOR_ASSUMED:
		return "assumed";
	case TRACKER_FLOOR_SEEN:
		return "seen";
	}
	g_return_val_if_reached("unknown");
}

/* @degrees to hundredths, without the "-0.00" of a level sensor's noise. */
static double
cmd_track_angle(double degrees)
{
	double rounded = round(degrees * 100.0) / 100.0;

	return rounded == 0.0 ? 0.0 : rounded;
}

/* ,"camera":{"floor":"seen","height":1001.8,"tilt":1.05,"roll":0.00} */
static void
cmd_track_camera(GString *out, const TrackerCameraPose *pose)
{
	g_string_append_printf(out, ",\"camera\":{\"floor\":\"%s\",",
	                       cmd_track_floor_name(pose->floor));
	cmd_track_number(out, "height", pose->height_mm, "%.1f");
	g_string_append_c(out, ',');
	cmd_track_number(out, "tilt", cmd_track_angle(pose->tilt_deg), "%.2f");
	g_string_append_c(out, ',');
	cmd_track_number(out, "roll", cmd_track_angle(pose->roll_deg), "%.2f");
	g_string_append_c(out, '}');
}

static void
cmd_track_print_json(const TrackerFrame *frame, guint32 timestamp, Skeletons *skeletons)
{
	g_autoptr(GString) out = g_string_new(NULL);
	TrackerCameraPose pose;

	g_string_append_printf(out, "{\"frame\":%" G_GUINT64_FORMAT ",\"timestamp\":%u,\"users\":[",
	                       frame->frame, timestamp);
	for (guint u = 0; u < frame->n_users; u++) {
		if (u > 0)
			g_string_append_c(out, ',');
		cmd_track_user(out, &frame->users[u]);
	}
	g_string_append_c(out, ']');
	if (skeletons_get_camera_pose(skeletons, &pose))
		cmd_track_camera(out, &pose);
	g_string_append(out, "}\n");
	fputs(out->str, stdout);
}

static void
cmd_track_print_summary(const TrackerFrame *frame)
{
	printf("frame %" G_GUINT64_FORMAT ": %u user%s", frame->frame, frame->n_users,
	       frame->n_users == 1 ? "" : "s");
	for (guint u = 0; u < frame->n_users; u++) {
		guint found = 0;

		for (int j = 0; j < TRACKER_N_JOINTS; j++)
			found += frame->users[u].joints[j].confidence > 0.0;
		printf("%s id %u (%u joints)", u == 0 ? ":" : ",", frame->users[u].id, found);
	}
	printf("\n");
}

static void
cmd_track_frame(Source *source, const DepthFrame *frame, gpointer user_data)
{
	CmdTrack *track = user_data;
	TrackerFrame out;

	g_autoptr(GError) error = NULL;

	if (!skeletons_process(track->skeletons, frame, &out, &error))
		cli_warning("%s", error->message);
	if (track->json)
		cmd_track_print_json(&out, frame->timestamp, track->skeletons);
	else
		cmd_track_print_summary(&out);
	fflush(stdout);
	track->frames++;
	if (track->max_frames > 0 && track->frames >= (guint64)track->max_frames) {
		source_stop(source);
		g_main_loop_quit(track->loop);
	}
}

static void
cmd_track_event(Source *source, SourceEvent event, const GError *error, gpointer user_data)
{
	CmdTrack *track = user_data;

	/* Time and people moved on while the device was away. */
	if (cli_source_event(source, event, error, track->loop, &track->status))
		skeletons_reset(track->skeletons);
}

static int
cmd_track_loop(CmdTrack *track, Source *source)
{
	static const SourceCallbacks callbacks = { cmd_track_frame, cmd_track_event };
	g_autoptr(GError) error = NULL;

	if (!cli_run_source(source, &callbacks, track, track->loop, &track->status, NULL, &error))
		return cli_fail(error);
	return track->status;
}

int
cmd_track_main(int argc, char **argv)
{
	g_autoptr(GOptionContext) context =
	        g_option_context_new("- track people, one line a frame");
	g_autoptr(GError) error = NULL;
	g_auto(CliSourceArgs) args = { 0 };
	CliTrackerArgs tracker_args = { 0 };
	TrackerSettings settings;
	g_autoptr(Source) source = NULL;
	g_autoptr(Skeletons) skeletons = NULL;
	g_autoptr(GMainLoop) loop = NULL;
	gboolean json = FALSE;
	const GOptionEntry entries[] = {
		{ "json", 0, 0, G_OPTION_ARG_NONE, &json,
		  "One JSON object a line: frame, timestamp, users and their joints, camera pose",
		  NULL },
		G_OPTION_ENTRY_NULL
	};
	CmdTrack track = { 0 };

	cli_add_source_entries(context, &args);
	cli_add_tracker_entries(context, &tracker_args);
	g_option_context_add_main_entries(context, entries, NULL);
	if (!cli_parse_tracking(context, "track", &argc, &argv, &tracker_args, &settings) ||
	    !cli_no_arguments("track", argc, argv))
		return CLI_EXIT_USAGE;
	source = cli_open_source(&args, &error);
	if (source == NULL ||
	    (skeletons = skeletons_open_full("tracker", &settings, &error)) == NULL)
		return cli_fail(error);
	loop = g_main_loop_new(NULL, FALSE);
	track.loop = loop;
	track.skeletons = skeletons;
	track.json = json;
	track.max_frames = args.frames;
	return cmd_track_loop(&track, source);
}
