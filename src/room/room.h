/* The room file: where each of several sensors stands in one room.
 *
 * A small text file, written by calibration and editable by hand:
 *
 *     # skelbridge room: where each sensor stands
 *     [room]
 *     format = 1
 *
 *     [sensor left]
 *     source = freenect:0
 *     x = 0.0
 *     z = 0.0
 *     height = 1000.0
 *     yaw = 0.00
 *     tilt = 1.00
 *     roll = 0.00
 *
 * [room] comes first; each [sensor NAME] needs source, height, tilt and
 * roll (x, z and yaw are 0 when left out). The parser is strict, as the
 * mapping files' is: errors read "path:line: [sensor left] key: what". */
#pragma once

#include <glib.h>

#include "tracker/tracker.h"

#define ROOM_ERROR (room_error_quark())
GQuark room_error_quark(void);

typedef enum {
	ROOM_ERROR_READ,  /* the file cannot be read: missing, not a regular file, too large */
	ROOM_ERROR_PARSE, /* the text or a sensor is not a valid room */
	ROOM_ERROR_WRITE, /* saving failed */
} RoomError;

#define ROOM_MAX_SENSORS 8
#define ROOM_MAX_BYTES   (64 * 1024)
/* How far from the room's origin a sensor may stand, along x and z: a
 * bound well past any room, so that sums of positions stay finite. */
#define ROOM_MAX_FLOOR_MM 100000.0

/* Where one sensor stands in the room. The room's frame: millimetres, y up
 * from the floor, x and z along the floor (the first sensor's floor frame as
 * calibrate writes it: origin on the floor below sensor 1, z along its view).
 * A sensor's camera space goes to its own floor frame through its height,
 * tilt and roll (exactly tracker_camera_pose_to_room() with a pose of
 * floor = TRACKER_FLOOR_SEEN/ASSUMED, height_mm, tilt_deg, roll_deg), then is
 * turned by yaw about the vertical and moved by (x, z) on the floor. */
typedef struct {
	char *name;        /* the section's name: [sensor NAME] */
	char *source;      /* the source spec it is for: "freenect:0", "demo:two-sensors@1" */
	double x_mm, z_mm; /* where it stands on the floor, -ROOM_MAX_FLOOR_MM..ROOM_MAX_FLOOR_MM */
	double height_mm;  /* above the floor, 200..4000 */
	double yaw_deg; /* turned toward +x: its view's direction on the floor is (sin yaw, cos yaw)
	                   in (x, z); -180..180 */
	double tilt_deg; /* positive looking down, -60..60 */
	double roll_deg; /* positive counter-clockwise seen from behind, -45..45 */
} RoomSensor;

typedef struct _Room Room;

/** room_new: a room with no sensor yet. */
Room *room_new(void);
void room_free(Room *room);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Room, room_free)

/**
 * room_add_sensor:
 * Copies @sensor into @room. Fails (ROOM_ERROR_PARSE) on a bad name or
 * source, a duplicate name or source, a value out of range, or more than
 * ROOM_MAX_SENSORS.
 */
gboolean room_add_sensor(Room *room, const RoomSensor *sensor, GError **error);
guint room_n_sensors(const Room *room);
/** room_get_sensor: sensor @i, in the order they were added (the file's). */
const RoomSensor *room_get_sensor(const Room *room, guint i);
/** room_find_source: the sensor for @source, or NULL if none. */
const RoomSensor *room_find_source(const Room *room, const char *source);

/** room_sensor_to_room: the camera-space point @camera (mm) of @s in the room's frame. */
TrackerVec3 room_sensor_to_room(const RoomSensor *s, TrackerVec3 camera);
/** room_sensor_to_camera: a room point in @s's camera space (the exact inverse). */
TrackerVec3 room_sensor_to_camera(const RoomSensor *s, TrackerVec3 room);
/** room_sensor_camera_pose: @s's floor pose (floor = TRACKER_FLOOR_ASSUMED). */
void room_sensor_camera_pose(const RoomSensor *s, TrackerCameraPose *pose);

/**
 * room_parse:
 * The room in @text (@length bytes, NUL bytes refused), read from @path,
 * which errors name. Fails with ROOM_ERROR_PARSE.
 */
Room *room_parse(const char *path, const char *text, gsize length, GError **error);
/**
 * room_load:
 * Reads the regular file @path (at most ROOM_MAX_BYTES; ROOM_ERROR_READ)
 * and parses it.
 */
Room *room_load(const char *path, GError **error);
/**
 * room_to_string:
 * @room as a room file that room_parse() reads back the same, mm to 0.1
 * and degrees to 0.01. Each line of @comment (may be NULL) goes after the
 * file's header as a "# " line.
 */
char *room_to_string(const Room *room, const char *comment);
/**
 * room_save:
 * Writes room_to_string() to @path atomically: a reader sees the old file
 * or the new one, never half of it. Fails with ROOM_ERROR_WRITE naming @path.
 */
gboolean room_save(const Room *room, const char *path, const char *comment, GError **error);
