/* Calibration without a pattern: where each of several sensors stands in
 * one room, from what they saw of the same people at the same time.
 *
 * Each sensor's tracker already knows its own height, tilt and roll from
 * the floor it sees; what is left is where on the floor it stands and
 * which way it is turned. A person walking through where two sensors'
 * views overlap is seen by both: their torso's track on the floor, as
 * each sensor saw it, is the same track turned and moved. The turn and
 * the move are found by RANSAC over pairs of those sightings (which user
 * of one sensor is which of the other's is not known) and refined by
 * least squares over every sighting that agrees.
 *
 * The room's frame is the first sensor's floor frame (see
 * tracker_camera_pose_to_room()): its origin on the floor below sensor 0,
 * y up, z along the floor the way sensor 0 looks. Pure logic: frames and
 * their times come in, poses go out. */
#pragma once

#include <glib.h>

#include "tracker/tracker.h"

#define ROOM_CALIBRATOR_ERROR (room_calibrator_error_quark())
GQuark room_calibrator_error_quark(void);

typedef enum {
	ROOM_CALIBRATOR_ERROR_NO_FLOOR,  /* a sensor never knew its floor */
	ROOM_CALIBRATOR_ERROR_UNMATCHED, /* two sensors never saw one person together */
	ROOM_CALIBRATOR_ERROR_NARROW,    /* ...or only on a spot too small to turn about */
} RoomCalibratorError;

#define ROOM_CALIBRATOR_MAX_SENSORS 8
/* Frames kept per sensor: 20 minutes at 30 fps. Later ones are not used. */
#define ROOM_CALIBRATOR_MAX_FRAMES (20 * 60 * 30)
/* Sightings of one person by two sensors within this of each other in
 * time are matched, the earlier sensor's interpolated to the later's. */
#define ROOM_CALIBRATOR_MAX_GAP_US 70000
/* A pair of sensors is placed from at least this many sightings that
 * agree, spread over at least ROOM_CALIBRATOR_MIN_SPREAD_MM of floor. */
#define ROOM_CALIBRATOR_MIN_SAMPLES   45
#define ROOM_CALIBRATOR_MIN_SPREAD_MM 800.0

/* Where one sensor stands: its floor frame, turned by @yaw_deg about the
 * vertical (toward +x: it looks along (sin yaw, cos yaw) in x, z) and
 * moved by @x_mm, @z_mm, is the room's. */
typedef struct {
	double x_mm, z_mm, yaw_deg;
	/* As the sensor's tracker measured them: the median over the frames
	 * it saw the floor in (or the settings', when it never did). */
	TrackerFloorState floor;
	double height_mm, tilt_deg, roll_deg;
	/* How it was placed: against which sensor (itself for sensor 0), from
	 * how many sightings, how far apart they still lie on the floor after
	 * the fit (root mean square), and how much higher the reference saw
	 * the same torsos (two floors that agree give about 0). */
	guint reference;
	guint samples;
	double residual_mm;
	double height_offset_mm;
} RoomCalibration;

typedef struct _RoomCalibrator RoomCalibrator;

/** room_calibrator_new: a calibrator for @n_sensors sensors, 2 to ROOM_CALIBRATOR_MAX_SENSORS. */
RoomCalibrator *room_calibrator_new(guint n_sensors);
void room_calibrator_free(RoomCalibrator *calibrator);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RoomCalibrator, room_calibrator_free)

/**
 * room_calibrator_add:
 * What sensor @sensor saw at @time_us, on a clock all sensors share: its
 * users and its camera pose as of that frame. One sensor's frames come in
 * time order; sensors may interleave in any order. Returns FALSE when the
 * sensor's frames are full (ROOM_CALIBRATOR_MAX_FRAMES) or @time_us is not
 * later than its last, and the frame is not kept.
 */
gboolean room_calibrator_add(RoomCalibrator *calibrator, guint sensor, gint64 time_us,
                             const TrackerFrame *frame, const TrackerCameraPose *pose);

/** room_calibrator_frames: how many frames of @sensor are kept. */
guint room_calibrator_frames(const RoomCalibrator *calibrator, guint sensor);

/**
 * room_calibrator_solve:
 * Every sensor's place, into @out (n_sensors of them; sensor 0 at the
 * origin, yaw 0). A sensor that shares no sightings with sensor 0 is
 * placed from one placed already. Fails naming the first sensor that
 * cannot be placed and why.
 */
gboolean room_calibrator_solve(RoomCalibrator *calibrator, RoomCalibration *out, GError **error);
