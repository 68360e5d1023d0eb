/* The built-in demo scene: scripted people in a room, rendered as a Kinect
 * would see them, with the true joint positions of everyone in view.
 *
 * A script lists actors, each with a body height and build and keyframes
 * (time, position on the floor, facing, pose); between keyframes an actor
 * moves in a straight line and blends its pose. An actor exists from its
 * first keyframe to its last. The room holds furniture (demo-kit.h), some
 * of which people may move about. Scenes render at 30 frames per second;
 * frame N shows time N/30 s, and the same seed gives the same frames. */
#pragma once

#include <glib.h>

#include "demo-body.h"
#include "demo-kit.h"
#include "demo-render.h"
#include "demo-script.h"
#include "base/depth.h"
#include "tracker/tracker-joint.h"

#define DEMO_FPS        30
#define DEMO_MAX_PEOPLE 6
#define DEMO_MAX_PROPS  16

#define DEMO_SCENE_ERROR (demo_scene_error_quark())
GQuark demo_scene_error_quark(void);

typedef struct {
	guint id;                             /* the actor's number in the script, from 1 */
	double height;                        /* mm */
	TrackerVec3 joints[TRACKER_N_JOINTS]; /* camera space, mm */
	TrackerVec3 world[TRACKER_N_JOINTS];  /* world (room) space, mm */
	double u[TRACKER_N_JOINTS], v[TRACKER_N_JOINTS];
	gboolean in_view[TRACKER_N_JOINTS]; /* projects inside the image */
	gboolean visible[TRACKER_N_JOINTS]; /* ...onto this person's own surface */
	guint pixels;                       /* depth readings on this person */
	DemoHand hands[2];                  /* DEMO_SIDE_LEFT, DEMO_SIDE_RIGHT */
	/* The hand is in view and the sensor reads its surface at the hand
	 * joint: not hidden behind something nearer. */
	gboolean hand_seen[2];
} DemoTruthPerson;

typedef struct _DemoTruth {
	guint n_people; /* actors that exist now, in view or not */
	DemoTruthPerson people[DEMO_MAX_PEOPLE];
	const guint8 *labels; /* per pixel, DEMO_LABEL_*: what the pixel shows */
	guint view;           /* which of the script's views this is, from 0 */
	DemoPose pose;        /* the view's sensor: camera space to world space */
} DemoTruth;

typedef struct _DemoScene DemoScene;

/** demo_scene_new: a scene playing @script, which must outlive it, seen by its first view. */
DemoScene *demo_scene_new(const DemoScript *script, guint64 seed);

/**
 * demo_scene_new_view:
 * @script seen by its view @view (below demo_scene_script_n_views()).
 * Each view draws its noise from a seed stream of its own; view 0's is
 * demo_scene_new()'s.
 */
DemoScene *demo_scene_new_view(const DemoScript *script, guint view, guint64 seed);

/**
 * demo_scene_new_named:
 * A scene from the built-in library: "routine" (the demo) and the scenes
 * that the tracker's tests and benchmark use. See demo_scene_names().
 * "NAME@VIEW" picks a view of a scene seen by several sensors; NAME alone
 * is view 0.
 */
DemoScene *demo_scene_new_named(const char *name, guint64 seed, GError **error);
void demo_scene_free(DemoScene *scene);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(DemoScene, demo_scene_free)

/**
 * demo_scene_find_script:
 * The library's script called @name, or NULL when there is none.
 */
const DemoScript *demo_scene_find_script(const char *name);

/** demo_scene_names: the library's scene names, NULL-terminated. */
const char *const *demo_scene_names(void);
const DemoScript *demo_scene_script(const DemoScene *scene);

/** demo_scene_script_n_views: how many sensors see @script, at least 1. */
guint demo_scene_script_n_views(const DemoScript *script);

/**
 * demo_scene_script_pose:
 * The true pose of @script's view @view (camera space to world space),
 * for scoring a calibration of one sensor against another.
 */
DemoPose demo_scene_script_pose(const DemoScript *script, guint view);

/** demo_scene_view: which of its script's views @scene shows. */
guint demo_scene_view(const DemoScene *scene);

/**
 * demo_scene_gestures:
 * The gestures one pass of the script performs, in time order; sets @n.
 */
const DemoGesture *demo_scene_gestures(const DemoScene *scene, guint *n);

/** demo_scene_n_frames: frames in one pass of the script. */
guint64 demo_scene_n_frames(const DemoScene *scene);

/**
 * demo_scene_render:
 * Renders frame @number (wrapping around the script) into @frame and sets
 * frame->truth to the scene's truth for it, valid until the next render.
 */
void demo_scene_render(DemoScene *scene, guint64 number, DepthFrame *frame);
const DemoTruth *demo_scene_truth(const DemoScene *scene);

/**
 * demo_scene_skeletons:
 * The posed skeletons (world space) of the actors present at time @t;
 * returns how many, at most DEMO_MAX_PEOPLE, with their ids in @ids.
 */
guint demo_scene_skeletons(const DemoScene *scene, double t, DemoSkeleton *skeletons, guint *ids);
