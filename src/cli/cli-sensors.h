/* Several sensors in one bridge: a source and a tracker for each, every
 * tracker on a thread of its own, their users fused in the room a room
 * file describes (room/room-fusion.c), or, with no room file, each
 * sensor's users sent apart in its own camera space with ids of their
 * own (sensor N's user 3 is N * CLI_SENSORS_ID_STRIDE + 3).
 *
 * A sensor's frame that comes while its tracker is still on the one
 * before is left out, as a live Kinect's would be: play recordings at
 * their pace (not --fast) to keep them all, or have recordings wait for
 * their trackers (cli_sensors_watch()). A sensor that stops is
 * left out of the fusion and the others go on; the run ends when every
 * source has ended, or at the first source error. */
#pragma once

#include <glib.h>

#include "room/room.h"
#include "sources/source.h"
#include "tracker/tracker.h"

/* Ids of sensor N's users, sent apart, start at N times this. */
#define CLI_SENSORS_ID_STRIDE 1000000

typedef struct _CliSensors CliSensors;

/* The users of every sensor as one frame, at @time_us on the sources' clock. */
typedef void (*CliSensorsFunc)(const TrackerFrame *frame, gpointer user_data);

/* Sensor @sensor's @frame as its tracker gave it (its users in its own
 * camera space), with the tracker's camera @pose as of that frame. */
typedef void (*CliSensorsTrackedFunc)(guint sensor, const TrackerFrame *frame,
                                      const TrackerCameraPose *pose, gpointer user_data);

/**
 * cli_sensors_new:
 * Opens a source for each of @specs (two to ROOM_MAX_SENSORS) and a
 * tracker with @settings for each. With @room (may be NULL), every source
 * must be one of its sensors, and users are fused there.
 */
CliSensors *cli_sensors_new(char **specs, const SourceOptions *options,
                            const TrackerSettings *settings, const Room *room, GError **error);
void cli_sensors_free(CliSensors *sensors);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(CliSensors, cli_sensors_free)

/**
 * cli_sensors_watch:
 * Has cli_sensors_run() call @func with each sensor's every tracked
 * frame, on the main loop as it comes, before the users are fused or
 * sent apart. With @keep_all, a recording or scene waits for its
 * sensor's tracker instead of a frame being left out, also with --fast;
 * a live sensor's frames are left out as ever.
 */
void cli_sensors_watch(CliSensors *sensors, CliSensorsTrackedFunc func, gboolean keep_all,
                       gpointer user_data);

/**
 * cli_sensors_run:
 * Starts every source, calls @func (may be NULL) with each frame of users, and runs
 * @loop until it quits (every source ended, a source error: *@status is
 * then set, or whatever else quits it); then stops the sources and waits
 * for the trackers. FALSE when a source cannot start.
 */
gboolean cli_sensors_run(CliSensors *sensors, GMainLoop *loop, int *status, CliSensorsFunc func,
                         gpointer user_data, GError **error);

/** cli_sensors_stop: stops every source; cli_sensors_run() returns once @loop quits. */
void cli_sensors_stop(CliSensors *sensors);

/** cli_sensors_describe: "demo:two-sensors@0 + demo:two-sensors@1"; newly allocated. */
char *cli_sensors_describe(const CliSensors *sensors);

/** cli_sensors_dropped: frames left out because the bridge was busy, over all sensors. */
guint64 cli_sensors_dropped(const CliSensors *sensors);
