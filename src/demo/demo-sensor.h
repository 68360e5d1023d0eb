/* What a Kinect v1 makes of the demo scene: the depth the renderer drew
 * goes in, 11-bit readings and millimetres come out.
 *
 * The plain model has disparity noise, 11-bit quantisation through
 * libfreenect's table, the band in the projector's shadow beside
 * foreground edges (the projector sits 75 mm to the camera's +x, so the
 * band falls on the image-left side of objects), and dropouts where a
 * surface is seen at a grazing angle.
 *
 * The Kinect model adds what real frames show beside it: no readings in
 * the 8 columns at the image's right edge (libfreenect's depth image is
 * 632 columns wide in a 640 one), readings thinning out beyond 4.5 m,
 * ragged silhouettes and shadow outlines where the correlation window
 * straddles an edge (the near surface bleeds out, the far one breaks up,
 * a few flying pixels read in between), holes in patchy blobs on hair, on
 * dark or shiny materials and at grazing angles, and disparity noise that
 * is correlated over a few pixels, so flat surfaces show patches of one
 * value. The registered
 * model is the Kinect model as OpenNI delivers depth registered to the
 * colour camera: no readings in borders on all four sides, and bands
 * without readings on both sides of things (the colour camera sits
 * between the infrared camera and the projector).
 *
 * Deterministic for a given seed. */
#pragma once

#include <glib.h>

typedef enum {
	DEMO_SENSOR_PLAIN = 0,
	DEMO_SENSOR_KINECT,
	DEMO_SENSOR_REGISTERED,
} DemoSensorModel;

/* Columns without readings at the image's right edge in libfreenect's
 * depth, and the borders of depth registered to the colour camera. */
#define DEMO_SENSOR_RIGHT_BAND        8
#define DEMO_SENSOR_REGISTERED_LEFT   16
#define DEMO_SENSOR_REGISTERED_RIGHT  28
#define DEMO_SENSOR_REGISTERED_TOP    28
#define DEMO_SENSOR_REGISTERED_BOTTOM 6 /* ragged: a share of readings */

#define DEMO_PROJECTOR_BASELINE_MM 75.0
/* The colour camera sits between the infrared camera and the projector,
 * 50 mm from the projector. The band where the infrared camera cannot see
 * what the colour camera does is narrower in real registered frames than
 * its 25 mm would make it: registration fills part of it. */
#define DEMO_SENSOR_RGB_TO_PROJECTOR_MM 50.0
#define DEMO_SENSOR_RGB_TO_CAMERA_MM    10.0

/* One frame as drawn, before the sensor reads it. Every array is
 * DEPTH_PIXELS long. */
typedef struct {
	float *z;              /* camera-space depth, mm, INFINITY for nothing; overwritten */
	const float *cosine;   /* |cos| between the ray and the surface normal */
	const float *loss;     /* share of readings the surface's material loses */
	const float *room_z;   /* the room without anything that moves, and... */
	const float *room_raw; /* ...its exact disparity, worked out once */
} DemoSensorView;

typedef struct _DemoSensor DemoSensor;

/**
 * demo_sensor_new:
 * A sensor reading frames as @model does, with focal length @fx pixels.
 * Without @noise only the range and the quantisation apply, whatever the
 * model.
 */
DemoSensor *demo_sensor_new(DemoSensorModel model, gboolean noise, double fx);
void demo_sensor_free(DemoSensor *sensor);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(DemoSensor, demo_sensor_free)

/**
 * demo_sensor_read:
 * Reads @view: fills @raw (11-bit, DEPTH_RAW_NONE for no reading) and @mm
 * (0 for no reading); changes view->z on the way. @seed picks the noise.
 */
void demo_sensor_read(DemoSensor *sensor, DemoSensorView *view, guint64 seed, guint16 *raw,
                      guint16 *mm);
