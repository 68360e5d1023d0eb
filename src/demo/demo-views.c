#include "demo-views.h"

#define DEG (G_PI / 180.0)

#define K(t, x, z, yaw, l, r, legs)                                                                \
	{                                                                                          \
		t, x, z, yaw, DEMO_ARM_##l, DEMO_ARM_##r, DEMO_LEGS_##legs, 0.0, 0.0,              \
		{                                                                                  \
			DEMO_HAND_RELAXED, DEMO_HAND_RELAXED                                       \
		}                                                                                  \
	}

/* A sensor at (@x, @z) on the floor, @height mm up, turned @yaw degrees
 * toward +x, tilted down @pitch and rolled @roll degrees. */
#define VIEW(x_, z_, height_, yaw_deg, pitch_deg, roll_deg)                                        \
	{                                                                                          \
		.x = x_, .z = z_, .height = height_, .yaw = (yaw_deg)*DEG,                         \
		.pitch = (pitch_deg)*DEG, .roll = (roll_deg)*DEG                                   \
	}

/* The room's walls and the sensors' model; the views say where they are. */
#define VIEWS_ROOM(wall, sides)                                                                    \
	{                                                                                          \
		.wall_z = wall, .side_wall_x = sides, .noise = TRUE, .sensor = DEMO_SENSOR_KINECT  \
	}

#define VIEWS_SCENE(name_, desc, duration_, room_, views_, actors_)                                \
	{                                                                                          \
		.name = name_, .description = desc, .group = "multiview", .duration = duration_,   \
		.room = room_, .actors = actors_, .n_actors = G_N_ELEMENTS(actors_),               \
		.views = views_, .n_views = G_N_ELEMENTS(views_), .sway = TRUE                     \
	}

/* ---- two-sensors: two Kinects 3 m apart on one wall ---- */

/* Turned inward, so that 3 m off their views overlap across the middle
 * 3 m: beyond x = +1.6 m only the left one (view 0) sees, beyond
 * x = -1.55 m only the right one (view 1). */
static const DemoView two_sensors_views[] = {
	VIEW(-1500, 0, 1000, 28, 1, 0),
	VIEW(1500, 0, 1200, -27, 3, 1),
};

/* From where only the left sensor sees, through the overlap, stopping in
 * the middle to raise both arms, on to where only the right one sees,
 * and back. */
static const DemoKey two_sensors_walker[] = {
	K(0.0, 2200, 3000, 0, DOWN, DOWN, STAND),
	K(1.5, 2200, 3000, 0, DOWN, DOWN, STAND),
	K(2.3, 2200, 3000, 50, SWING, SWING, WALK),
	K(5.3, 0, 3000, 50, SWING, SWING, WALK),
	K(6.1, 0, 3000, 0, DOWN, DOWN, STAND),
	K(7.5, 0, 3000, 0, UP, UP, STAND),
	K(9.5, 0, 3000, 0, UP, UP, STAND),
	K(11.0, 0, 3000, 0, DOWN, DOWN, STAND),
	K(11.8, 0, 3000, 50, SWING, SWING, WALK),
	K(14.8, -2200, 3000, 50, SWING, SWING, WALK),
	K(15.6, -2200, 3000, -50, SWING, SWING, WALK),
	K(21.6, 2200, 3000, -50, SWING, SWING, WALK),
	K(22.4, 2200, 3000, 0, DOWN, DOWN, STAND),
	K(24.0, 2200, 3000, 0, DOWN, DOWN, STAND),
};

/* Comes in from the right later, stops behind the walker's path where
 * both sensors see, waves. */
static const DemoKey two_sensors_visitor[] = {
	K(13.0, 2900, 3600, 50, SWING, SWING, WALK), K(16.0, 700, 3600, 50, SWING, SWING, WALK),
	K(16.8, 700, 3600, 0, DOWN, DOWN, STAND),    K(18.0, 700, 3600, 0, DOWN, WAVE, STAND),
	K(21.0, 700, 3600, 0, DOWN, WAVE, STAND),    K(22.0, 700, 3600, 0, DOWN, DOWN, STAND),
	K(24.0, 700, 3600, 0, DOWN, DOWN, STAND),
};

static const DemoActor two_sensors_actors[] = {
	{ .height = 1750, .keys = two_sensors_walker, .n_keys = G_N_ELEMENTS(two_sensors_walker) },
	{ .height = 1600,
	  .girth = 0.9,
	  .keys = two_sensors_visitor,
	  .n_keys = G_N_ELEMENTS(two_sensors_visitor) },
};

/* ---- facing-sensors: two Kinects facing each other across 5 m ---- */

/* View 1 stands on the far wall, turned right round. */
static const DemoView facing_sensors_views[] = {
	VIEW(0, 0, 1000, 0, 2, 0),
	VIEW(0, 5000, 1100, 180, 3, 0),
};

/* In the middle, turning round slowly with the arms held out, then back
 * the other way with them down; then, as for calibration, a walk across
 * the middle where both sensors see, and back on a diagonal. */
static const DemoKey facing_sensors_turner[] = {
	K(0.0, 0, 2500, 0, DOWN, DOWN, STAND),         K(1.5, 0, 2500, 0, OUT, OUT, STAND),
	K(7.5, 0, 2500, 180, OUT, OUT, STAND),         K(13.5, 0, 2500, 360, OUT, OUT, STAND),
	K(14.5, 0, 2500, 360, DOWN, DOWN, STAND),      K(20.5, 0, 2500, 180, DOWN, DOWN, STAND),
	K(22.0, 0, 2500, 180, DOWN, DOWN, STAND),      K(22.8, 0, 2500, 60, DOWN, DOWN, STAND),
	K(23.2, 0, 2500, 60, SWING, SWING, WALK),      K(24.0, -1000, 2500, 60, SWING, SWING, WALK),
	K(24.6, -1000, 2500, -60, SWING, SWING, WALK), K(26.2, 1000, 2500, -60, SWING, SWING, WALK),
	K(26.8, 1000, 2500, 45, SWING, SWING, WALK),   K(28.6, -500, 1700, 45, SWING, SWING, WALK),
	K(29.4, -500, 1700, 0, DOWN, DOWN, STAND),     K(31.0, -500, 1700, 0, DOWN, DOWN, STAND),
};

static const DemoActor facing_sensors_actors[] = {
	{ .height = 1750,
	  .keys = facing_sensors_turner,
	  .n_keys = G_N_ELEMENTS(facing_sensors_turner) },
};

static const DemoScript scripts[] = {
	VIEWS_SCENE("two-sensors",
	            "two sensors 3 m apart on one wall, turned inward: one person walks from "
	            "one's view through the overlap into the other's and back, raising the arms "
	            "in the middle; another comes in and waves",
	            24.0, VIEWS_ROOM(5000, 3200), two_sensors_views, two_sensors_actors),
	VIEWS_SCENE("facing-sensors",
	            "two sensors facing each other across a 5 m room: one person in the middle "
	            "turns round, then walks across the middle, where both see, and back on a "
	            "diagonal",
	            31.0, VIEWS_ROOM(5000, 2500), facing_sensors_views, facing_sensors_actors),
};

const DemoScript *
demo_views_scripts(guint *n)
{
	G_STATIC_ASSERT(G_N_ELEMENTS(scripts) <= DEMO_VIEWS_MAX_SCRIPTS);
	*n = G_N_ELEMENTS(scripts);
	return scripts;
}
