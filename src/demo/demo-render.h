/* Renders the demo scene into a Kinect v1 depth image.
 *
 * Scene objects are capsules (sphere-swept segments, for people and round
 * things), boxes (axis-aligned) and blocks (boxes turned any way) in a
 * room with a floor and optionally a back wall, side walls and a ceiling.
 * What does not move can be drawn into the room once, as fixtures. The
 * sensor (demo-sensor.h) then reads the picture as a Kinect would.
 * Deterministic for a given seed. */
#pragma once

#include <glib.h>

#include "demo-sensor.h"
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

/* What a surface is made of, for the sensor: how many readings it loses.
 * Only the Kinect sensor models look at it. */
typedef enum {
	DEMO_MATERIAL_MATTE = 0, /* skin, light cloth, paint: reads well */
	/* Loses readings where the surface faces up, as hair on top of a head
	 * does; meant for the head. */
	DEMO_MATERIAL_HAIR,
	DEMO_MATERIAL_DARK,  /* dark cloth, dark wood: loses a share */
	DEMO_MATERIAL_BLACK, /* glossy black, as a screen: loses most */
	DEMO_MATERIAL_GLASS, /* reads nothing */
	DEMO_N_MATERIALS
} DemoMaterial;

typedef struct {
	TrackerVec3 a, b; /* world mm */
	double r;
	guint8 label;
	DemoMaterial material;
} DemoCapsule;

typedef struct {
	TrackerVec3 min, max; /* world mm, axis-aligned */
	guint8 label;
} DemoBox;

/* A box turned any way: a centre and three orthonormal axes. */
typedef struct {
	TrackerVec3 centre;  /* world mm */
	TrackerVec3 axis[3]; /* unit, at right angles to one another */
	double half[3];      /* half the size along each axis, mm */
	guint8 label;
	DemoMaterial material;
} DemoBlock;

/* Things to draw. */
typedef struct {
	const DemoBox *boxes;
	guint n_boxes;
	const DemoBlock *blocks;
	guint n_blocks;
	const DemoCapsule *capsules;
	guint n_capsules;
} DemoShapes;

/* World space: mm, origin on the floor below the sensor, x to the sensor's
 * right, y up, z along the floor away from the sensor. A room seen by
 * several sensors has a frame of its own, y up, and places each sensor in
 * it (DemoView).
 *
 * The sensor's pose: level and looking along +z, then pitched about its x
 * axis, then rolled about its viewing axis. Positive roll turns the
 * sensor counter-clockwise as seen from behind it, so that upright people
 * lean towards the image's right: at zero pitch, world up in camera
 * coordinates is (sin roll, cos roll, 0). */
typedef struct {
	double camera_height; /* mm above the floor */
	double pitch;         /* radians; positive tilts the sensor down */
	double wall_z;        /* back wall at this z; 0 for none */
	double side_wall_x;   /* side walls at x = +-this; 0 for none */
	gboolean noise;       /* the sensor's noise, shadow band and dropouts */
	double roll;          /* radians; see above */
	double ceiling_y;     /* a ceiling at this height; 0 for none */
	DemoSensorModel sensor;
} DemoRoom;

/* A sensor placed in the room (world space): at (x, height, z), level and
 * looking along +z, then turned about the vertical by yaw, then pitched
 * and rolled as DemoRoom's sensor is. Positive yaw turns the sensor
 * toward +x, to its own right. */
typedef struct {
	double x, z;   /* on the floor, mm */
	double height; /* mm above the floor */
	double yaw;    /* radians */
	double pitch;  /* radians; positive tilts the sensor down */
	double roll;   /* radians; as DemoRoom's */
} DemoView;

/* A rigid transform from a sensor's camera space to world space:
 * world = origin + c.x axis[0] + c.y axis[1] + c.z axis[2]. The axes are
 * the camera's x, y and z in world space, at right angles and unit. */
typedef struct {
	TrackerVec3 origin;
	TrackerVec3 axis[3];
} DemoPose;

typedef struct _DemoRenderer DemoRenderer;

/** demo_renderer_new: the room seen by its own sensor, at the origin. */
DemoRenderer *demo_renderer_new(const DemoRoom *room);

/**
 * demo_renderer_new_view:
 * The room seen by a sensor at @view; the room's camera height, pitch
 * and roll are not used.
 */
DemoRenderer *demo_renderer_new_view(const DemoRoom *room, const DemoView *view);
void demo_renderer_free(DemoRenderer *renderer);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(DemoRenderer, demo_renderer_free)

const TrackerCamera *demo_renderer_camera(const DemoRenderer *renderer);

/** demo_renderer_to_camera: a world point in camera space. */
TrackerVec3 demo_renderer_to_camera(const DemoRenderer *renderer, TrackerVec3 world);

/** demo_renderer_view_pose: where a sensor at @view is, camera to world. */
DemoPose demo_renderer_view_pose(const DemoView *view);

/** demo_renderer_pose: the sensor's true pose, camera to world. */
DemoPose demo_renderer_pose(const DemoRenderer *renderer);

/** demo_renderer_pose_to_camera: a world point in the camera space of @pose. */
TrackerVec3 demo_renderer_pose_to_camera(const DemoPose *pose, TrackerVec3 world);

/** demo_renderer_pose_to_world: a camera-space point of @pose in world space. */
TrackerVec3 demo_renderer_pose_to_world(const DemoPose *pose, TrackerVec3 camera);

/**
 * demo_renderer_add_fixtures:
 * Draws @shapes into the room itself, once: for what never moves.
 */
void demo_renderer_add_fixtures(DemoRenderer *renderer, const DemoShapes *shapes);

/**
 * demo_renderer_draw:
 * Draws the room and @shapes. Fills @raw (11-bit, 2047 for no reading),
 * @mm (0 for no reading) and @labels (what the pixel shows before noise),
 * each DEPTH_PIXELS long. @seed picks the noise.
 */
void demo_renderer_draw(DemoRenderer *renderer, const DemoShapes *shapes, guint64 seed,
                        guint16 *raw, guint16 *mm, guint8 *labels);
