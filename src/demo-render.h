/* Renders the demo scene into a Kinect v1 depth image.
 *
 * Scene objects are capsules (sphere-swept segments, for people) and boxes
 * (props) in a room with a floor and optionally a back wall and side walls.
 * The image goes through the Kinect's noise model: disparity noise and
 * 11-bit quantisation through libfreenect's table, the band in the
 * projector's shadow beside foreground edges (the projector sits 75 mm to
 * the camera's +x, so the band falls on the image-left side of objects), and
 * dropouts where a surface is seen at a grazing angle. Deterministic for a
 * given seed. */
#pragma once

#include <glib.h>

#include "tracker/tracker-camera.h"
#include "tracker/tracker-vec.h"

/* What each pixel shows, in the label image. */
#define DEMO_LABEL_NONE         0
#define DEMO_LABEL_FLOOR        1
#define DEMO_LABEL_WALL         2
#define DEMO_LABEL_PROP         3
#define DEMO_LABEL_PERSON(id)   ((guint8)(10 + (id)))
#define DEMO_LABEL_IS_PERSON(l) ((l) >= 10)
#define DEMO_LABEL_PERSON_ID(l) ((guint)(l)-10)

#define DEMO_PROJECTOR_BASELINE_MM 75.0

typedef struct {
	TrackerVec3 a, b; /* world mm */
	double r;
	guint8 label;
} DemoCapsule;

typedef struct {
	TrackerVec3 min, max; /* world mm, axis-aligned */
	guint8 label;
} DemoBox;

/* World space: mm, origin on the floor below the sensor, x to the sensor's
 * right, y up, z along the floor away from the sensor. */
typedef struct {
	double camera_height; /* mm above the floor */
	double pitch;         /* radians; positive tilts the sensor down */
	double wall_z;        /* back wall at this z; 0 for none */
	double side_wall_x;   /* side walls at x = +-this; 0 for none */
	gboolean noise;       /* disparity noise, shadow band, dropouts */
} DemoRoom;

typedef struct _DemoRenderer DemoRenderer;

DemoRenderer *demo_renderer_new(const DemoRoom *room);
void demo_renderer_free(DemoRenderer *renderer);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(DemoRenderer, demo_renderer_free)

const TrackerCamera *demo_renderer_camera(const DemoRenderer *renderer);

/** demo_renderer_to_camera: a world point in camera space. */
TrackerVec3 demo_renderer_to_camera(const DemoRenderer *renderer, TrackerVec3 world);

/**
 * demo_renderer_draw:
 * Draws the room, @boxes and @capsules. Fills @raw (11-bit, 2047 for no
 * reading), @mm (0 for no reading) and @labels (what the pixel shows before
 * noise), each DEPTH_PIXELS long. @seed picks the noise.
 */
void demo_renderer_draw(DemoRenderer *renderer, const DemoCapsule *capsules, guint n_capsules,
                        const DemoBox *boxes, guint n_boxes, guint64 seed, guint16 *raw,
                        guint16 *mm, guint8 *labels);
