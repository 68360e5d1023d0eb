/* Skeletons: where the users and joints of a depth frame come from.
 *
 * Each backend is one skeletons-*.c file exporting a SkeletonsBackend and
 * delivers exactly the tracker's result type, TrackerFrame. The skeleton
 * tracker ("tracker") is the default backend; the demo scene's truth
 * ("truth") is the other, for tests and for comparing against. */
#pragma once

#include <glib.h>

#include "base/depth.h"
#include "tracker/tracker.h"

#define SKELETONS_ERROR (skeletons_error_quark())
GQuark skeletons_error_quark(void);

typedef enum {
	SKELETONS_ERROR_UNKNOWN, /* no backend by that name */
	SKELETONS_ERROR_FAILED,  /* the backend could not start */
} SkeletonsError;

typedef struct {
	const char *name;
	const char *usage; /* one line: "truth   the demo scene's ..." */
	/* @settings: the tracker's, for backends that track; never NULL. */
	gpointer (*open)(const TrackerSettings *settings, GError **error);
	/* Fills @out for @depth: frame number, time and users; FALSE with
	 * @error when the frame could not be taken (@out then has no users). */
	gboolean (*process)(gpointer data, const DepthFrame *depth, TrackerFrame *out,
	                    GError **error);
	/* Optional: forget the past (the source jumped, the device came back). */
	void (*reset)(gpointer data);
	/* Optional: what each pixel of @depth, just processed into @frame, was
	 * taken for; FALSE when the backend cannot tell. */
	gboolean (*labels)(gpointer data, const DepthFrame *depth, const TrackerFrame *frame,
	                   guint8 *labels);
	/* Optional: the camera pose as of the last frame processed. */
	void (*camera_pose)(gpointer data, TrackerCameraPose *pose);
	void (*free)(gpointer data);
} SkeletonsBackend;

typedef struct _Skeletons Skeletons;

/** skeletons_open: the backend called @name; one that tracks does so with the defaults. */
Skeletons *skeletons_open(const char *name, GError **error);

/**
 * skeletons_open_full:
 * The backend called @name; one that tracks does so with @settings (NULL:
 * the defaults). Fails on an unknown name or settings out of range.
 */
Skeletons *skeletons_open_full(const char *name, const TrackerSettings *settings, GError **error);
void skeletons_free(Skeletons *skeletons);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Skeletons, skeletons_free)

/**
 * skeletons_process:
 * The users in @depth, into @out. FALSE with @error set when the frame
 * could not be taken: @out then holds its number and time and no users,
 * and the caller says so as it reports.
 */
gboolean skeletons_process(Skeletons *skeletons, const DepthFrame *depth, TrackerFrame *out,
                           GError **error);

const char *skeletons_name(const Skeletons *skeletons);

/**
 * skeletons_get_labels:
 * What each pixel of @depth was taken for, as DEPTH_PIXELS TRACKER_LABEL_*
 * bytes into @labels (user pixels: TRACKER_LABEL_USER plus the user's index
 * in @frame). Call it right after skeletons_process() filled @frame from
 * @depth. FALSE, with @labels untouched, when the backend cannot tell.
 */
gboolean skeletons_get_labels(Skeletons *skeletons, const DepthFrame *depth,
                              const TrackerFrame *frame, guint8 *labels);

/**
 * skeletons_get_camera_pose:
 * The camera pose as the last frame processed showed it (see
 * tracker_get_camera_pose()). FALSE, with @pose untouched, when the backend
 * does not know it.
 */
gboolean skeletons_get_camera_pose(Skeletons *skeletons, TrackerCameraPose *pose);

/** skeletons_reset: frames from now on do not follow the ones before. */
void skeletons_reset(Skeletons *skeletons);
/** skeletons_usage: one line per backend, for --help; newly allocated. */
char *skeletons_usage(void);

/* The truth backend reports a person of the demo scene once this many
 * depth pixels show them, as a tracker needs some body to work with. */
#define SKELETONS_TRUTH_MIN_PIXELS 1000

extern const SkeletonsBackend skeletons_truth_backend;
extern const SkeletonsBackend skeletons_tracker_backend;
