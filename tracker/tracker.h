/* The skeleton tracker: one depth frame and its time in, the users in view
 * out, each with a stable id and fifteen joints (tracker-types.h).
 *
 * No calibration pose, no background to capture first: the first frame
 * already gives skeletons. The tracker keeps state from frame to frame
 * (the floor, the users and their ids, smoothing), so frames of one
 * sequence go in order; tracker_reset() starts a new sequence. It reads
 * no clock and does no I/O; one tracker is used by one thread at a time,
 * and separate trackers share nothing.
 *
 * The stages, each in a file of its own, per frame:
 * - grid (tracker-grid.c): the depth as 160x120 cells of 3D points.
 * - floor (tracker-floor.c): RANSAC over cells that face up, about the up
 *   the camera pose settings give; kept while people hide it, searched
 *   again while a better one may be in view; the pose settings stand in
 *   when it is out of view. Nothing below needs it: it only tells heights.
 * - room (tracker-planes.c, tracker-background.c): what is not a person.
 *   Large flat surfaces (walls, doors, table tops) are found every few
 *   frames, and what stays in view of the floor's is kept from one search
 *   to the next (a strip of floor people stand on); a background model
 *   learns, per cell, the depth that has held while no user was on it
 *   (see tracker-background.h): users' outlines and a margin about them
 *   learn nothing of the user, but what they read from before the user
 *   was first seen, or farther back than the user reaches, is still the
 *   room's (the desk a person walks behind). Both are masked out before
 *   segmentation.
 * - segmentation (tracker-segment.c): connected surfaces of what is left.
 *   A person is found from a head (a cap of head width that is an outline
 *   against what lies behind, all of one depth, on shoulders and a torso
 *   of its depth, judged on what an arm in front leaves in view; a
 *   forearm going up past the image's top beside it is no head cut off), from
 *   shoulders and torso cut by the image's top (the head above it; in a
 *   corner, a shoulder past the side as well), or, for a user already
 *   tracked, from whatever large part of the body stays in view. Touching
 *   people are split along the surface from their heads, on under an arm
 *   or a head in front of it; parts cut off by
 *   an arm's depth step or shadow join the person they lie under.
 * - body (tracker-body.c): a torso fitted from above gives place, height and
 *   facing; the torso looks the same turned half a turn, so a user is taken
 *   to face the sensor unless, side-on, it walks the other way (people walk
 *   forward); and since a torso leaning back, or with an arm across it,
 *   fits side-on about as well as facing, the fit leans toward facing the
 *   sensor, as people mostly do. While no floor is seen, up is only the
 *   settings' guess: the torso's slope with height (its front farther
 *   from the sensor higher up) is taken as its lean, and the body is
 *   tipped by it about the torso joint, so that a camera on a desk looking
 *   up at a user does not leave the trunk standing upright behind them.
 *   Limbs (tracker-limb.c) are two-segment chains scored against the depth.
 * - users (tracker-users.c): tracks keep their place over time: a person
 *   continues the track whose head was where theirs is, else the nearest
 *   by the centre of their surface. A track is
 *   reported, and given its id, once the sensor does not see through where
 *   its legs would be and the person's own surface is there (or it sees
 *   legs forward, seated), and never while that column shows, at some
 *   height, no more of the person than a pole: a coat stand, a potted
 *   plant or a chair's back is not a user. Someone who walked into view
 *   needs only legs of their own there: striding, side-on, the column is
 *   open between the feet (and a plant does not walk). Judged by its
 *   shape, its torso must fit the torso's stadium over a fraction of a
 *   second (a plant's leaves do not, though one frame may). Where the
 *   sensor has watched its cells for a few frames, a track must also be
 *   lively: some of it came into view, nearer than those cells read
 *   lately (tracker-fresh.c), or it stands where a lively track's body was
 *   a moment ago (and that track is lost, or the body was in front of it,
 *   and the cell does not read what it read before anyone was on it).
 *   What the segmenter takes for a person later on (the sofa someone got
 *   up from) is neither; what is in view from the first frames is judged
 *   by its shape alone. A user is judged again: one whose torso band the
 *   stadium has lain on almost none of for a second, with nothing of it
 *   coming into view, is given up and its id gone (a shelf a track
 *   followed someone onto, and stayed on). A person is one user: a track
 *   whose joints lie where a user seen now stands is not reported (one
 *   held after its person was found again as another track, or a piece
 *   of a body the segmenter split off); one held behind that user, hidden
 *   by them, is. Joints that fall outside the image are reported with
 *   confidence 0, never dragged into view. */
#pragma once

#include <gio/gio.h>

#include "tracker-camera.h"
#include "tracker-types.h"

#define TRACKER_ERROR (tracker_error_quark())
GQuark tracker_error_quark(void);

typedef enum {
	TRACKER_ERROR_SETTINGS, /* a setting is out of range */
	TRACKER_ERROR_TIME,     /* a frame is not later than the one before */
	TRACKER_ERROR_BUSY,     /* the tracker is working on another frame */
} TrackerError;

typedef struct {
	/* The depth camera: image size and pinhole model.
	 * Default: the Kinect v1 (tracker_camera_init_kinect). */
	TrackerCamera camera;
	/* Most users reported at once. Default 6, at most TRACKER_MAX_USERS. */
	guint max_users;
	/* Fewer depth pixels than this on a person and they are not reported.
	 * Default 1500 (a third of an adult at 4 m). */
	guint min_user_pixels;
	/* A head lower than this above the floor is not a person's (when the
	 * floor is in view, or camera_height_mm puts it). Default 900 mm: a
	 * 1.15 m child counts, a chair's back does not. */
	double min_user_height_mm;
	/* Readings farther than this are ignored. Default 6000 mm. */
	double max_depth_mm;
	/* One Euro filtering of every joint coordinate. Default TRUE. */
	gboolean smoothing;
	/* The filter's cutoff at rest: lower is steadier. Default 1.0 Hz. */
	double min_cutoff_hz;
	/* How fast the cutoff rises with speed: higher lags less. Default
	 * 0.007 per mm/s. */
	double beta;
	/* Cutoff for the speed estimate. Default 1.0 Hz. */
	double d_cutoff_hz;
	/* A joint not found is carried at its last place for this long with
	 * a confidence fading to 0. Default 300000 us. */
	gint64 joint_hold_us;
	/* A user not seen for this long is dropped and their id retired; one
	 * who comes back sooner keeps their id. Default 1000000 us. */
	gint64 user_timeout_us;
	/* The camera pose, for rooms where the floor is not in view (a sensor
	 * high up looking across, or at eye height). Whenever the floor is
	 * seen, the pose measured from it wins; these only say where to look
	 * for it (within 30 degrees of the up they give) and stand in while it
	 * is out of view. */
	/* The sensor's height above the floor: with it, a floor out of view is
	 * taken to be there, and heights above the floor are known. Default 0:
	 * not given, heights are from the sensor until a floor is seen. 0 or
	 * 200 to 4000 mm. */
	double camera_height_mm;
	/* How far the sensor looks down: positive tilted down, negative up.
	 * Default 0, level. -60 to 60 degrees. */
	double camera_tilt_deg;
	/* How far the sensor is turned about its viewing axis: positive
	 * counter-clockwise as seen from behind it, so that upright people
	 * lean toward the image's right. Default 0. -45 to 45 degrees. */
	double camera_roll_deg;
} TrackerSettings;

/* What the camera pose is taken from (tracker_get_camera_pose()). */
typedef enum {
	TRACKER_FLOOR_UNKNOWN, /* no floor seen, no height given: tilt and roll as set */
	TRACKER_FLOOR_ASSUMED, /* no floor seen: the pose as set, the floor assumed there */
	TRACKER_FLOOR_SEEN,    /* the floor in view: the pose measured from it */
} TrackerFloorState;

typedef struct {
	TrackerFloorState floor;
	double height_mm; /* the sensor above the floor; 0 when unknown */
	double tilt_deg;  /* positive: looking down */
	double roll_deg;  /* positive: counter-clockwise as seen from behind */
} TrackerCameraPose;

typedef struct _Tracker Tracker;

/** tracker_settings_init: fills @settings with the defaults above. */
void tracker_settings_init(TrackerSettings *settings);

/**
 * tracker_settings_check:
 * Fails with TRACKER_ERROR_SETTINGS, naming the setting and its range, when
 * one is out of range.
 */
gboolean tracker_settings_check(const TrackerSettings *settings, GError **error);

/**
 * tracker_new:
 * A tracker with @settings (NULL for the defaults). Fails with
 * TRACKER_ERROR_SETTINGS when a setting is out of range.
 */
Tracker *tracker_new(const TrackerSettings *settings, GError **error);
void tracker_free(Tracker *tracker);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Tracker, tracker_free)

/** tracker_get_settings: the settings the tracker runs with. */
const TrackerSettings *tracker_get_settings(const Tracker *tracker);

/**
 * tracker_get_camera_pose:
 * The camera pose as of the last frame tracker_process() or
 * tracker_process_finish() gave: measured from the floor when it is in
 * view, else the settings' (before the first frame too).
 */
void tracker_get_camera_pose(const Tracker *tracker, TrackerCameraPose *pose);

/**
 * tracker_camera_pose_to_room:
 * @p (camera space, mm) in room space: millimetres from the floor below
 * the sensor, x to the image's right along the floor, y up, z along the
 * floor away from the sensor. FALSE when @pose knows no floor
 * (TRACKER_FLOOR_UNKNOWN).
 */
gboolean tracker_camera_pose_to_room(const TrackerCameraPose *pose, TrackerVec3 p,
                                     TrackerVec3 *room);

/**
 * tracker_camera_pose_height:
 * How high @p (camera space, mm) lies above the floor of @pose, in mm;
 * NaN when @pose knows no floor (TRACKER_FLOOR_UNKNOWN).
 */
double tracker_camera_pose_height(const TrackerCameraPose *pose, TrackerVec3 p);

/**
 * tracker_process:
 * Tracks one frame: @depth_mm holds camera width x height millimetres,
 * row-major, 0 for no reading. @frame is the source's frame number,
 * @time_us the frame's time, which must grow from frame to frame.
 * Fills @out. Fails with TRACKER_ERROR_TIME when @time_us is not later
 * than the last frame's, and TRACKER_ERROR_BUSY during an asynchronous
 * call.
 */
gboolean tracker_process(Tracker *tracker, const guint16 *depth_mm, guint64 frame, gint64 time_us,
                         TrackerFrame *out, GError **error);

/**
 * tracker_process_async:
 * As tracker_process(), on a worker thread; @depth_mm is copied before
 * this returns. @callback runs on the thread-default main context of the
 * caller; it calls tracker_process_finish(). One call at a time: another
 * one before the callback fails with TRACKER_ERROR_BUSY.
 */
void tracker_process_async(Tracker *tracker, const guint16 *depth_mm, guint64 frame, gint64 time_us,
                           GCancellable *cancellable, GAsyncReadyCallback callback,
                           gpointer user_data);

/** tracker_process_finish: the result of tracker_process_async() into @out. */
gboolean tracker_process_finish(Tracker *tracker, GAsyncResult *result, TrackerFrame *out,
                                GError **error);

/** tracker_get_labels: what the tracker made of each pixel of the last frame it
 * processed (synchronously, or the one whose result tracker_process_finish() returned):
 * TRACKER_LABEL_* from tracker-types.h, user pixels TRACKER_LABEL_USER + the user's index
 * in that frame's TrackerFrame.users. Fills @labels, 640x480 bytes, row-major.
 * Returns FALSE (and leaves @labels alone) before the first frame.
 *
 * The tracker works on blocks of 4x4 pixels: every pixel of a block has
 * the block's label (camera width x height bytes for another camera). */
gboolean tracker_get_labels(const Tracker *tracker, guint8 *labels);

/**
 * tracker_reset:
 * Starts a new sequence (unrelated stills, a source that started over):
 * forgets the users, the floor and the last frame's time. Ids go on
 * counting: a tracker never gives one out twice.
 */
void tracker_reset(Tracker *tracker);
