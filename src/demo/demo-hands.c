#include "demo-hands.h"

#define DEG (G_PI / 180.0)

/* A key with the hands' states: time, place, facing, arms, legs, and
 * what the left and right hands do from then on. */
#define KH(t, x, z, yaw, l, r, legs, hl, hr)                                                       \
	{                                                                                          \
		t, x, z, yaw, DEMO_ARM_##l, DEMO_ARM_##r, DEMO_LEGS_##legs, 0.0, 0.0,              \
		{                                                                                  \
			DEMO_HAND_##hl, DEMO_HAND_##hr                                             \
		}                                                                                  \
	}
/* Standing at (@x, @z) facing @yaw. */
#define AT(t, x, z, yaw, l, r, hl, hr) KH(t, x, z, yaw, l, r, STAND, hl, hr)

/* Walking in from @from_x (facing the way one walks) to (@x, @z), then
 * turning to face @yaw: 2 s. */
#define WALK_IN(t, from_x, x, z, yaw)                                                              \
	KH(t, from_x, z, (from_x) < (x) ? -60 : 60, SWING, SWING, WALK, RELAXED, RELAXED),         \
	        KH(t + 1.6, x, z, (from_x) < (x) ? -60 : 60, SWING, SWING, WALK, RELAXED,          \
	           RELAXED),                                                                       \
	        AT(t + 2.0, x, z, yaw, DOWN, DOWN, RELAXED, RELAXED)
/* ...and out to @to_x, from standing: 2 s. */
#define WALK_OUT(t, x, to_x, z)                                                                    \
	KH(t, x, z, (to_x) < (x) ? 60 : -60, SWING, SWING, WALK, RELAXED, RELAXED),                \
	        KH(t + 2.0, to_x, z, (to_x) < (x) ? 60 : -60, SWING, SWING, WALK, RELAXED,         \
	           RELAXED)

/* Raising the arms @l and @r (SHOW or DOWN) in 0.7 s; the hands are
 * @lo and @ro (OPEN when raised, RELAXED when not), then change about
 * every second: the left hand @la, @lb, @la while the right one does
 * @ra, @rb, @ra; they are @lo and @ro again and the arms come down. A
 * hand has its state once it is up, and is relaxed while it moves up or
 * down. 5.9 s. */
#define GRIP(t, x, z, yaw, l, r, lo, la, lb, ro, ra, rb)                                           \
	AT(t, x, z, yaw, DOWN, DOWN, RELAXED, RELAXED), AT(t + 0.7, x, z, yaw, l, r, lo, ro),      \
	        AT(t + 1.5, x, z, yaw, l, r, la, ra), AT(t + 2.5, x, z, yaw, l, r, lb, rb),        \
	        AT(t + 3.4, x, z, yaw, l, r, la, ra), AT(t + 4.4, x, z, yaw, l, r, lo, ro),        \
	        AT(t + 5.2, x, z, yaw, l, r, RELAXED, RELAXED),                                    \
	        AT(t + 5.9, x, z, yaw, DOWN, DOWN, RELAXED, RELAXED)
#define BOTH_TOGETHER SHOW, SHOW, OPEN, CLOSED, OPEN, OPEN, CLOSED, OPEN
#define BOTH_APART    SHOW, SHOW, OPEN, OPEN, CLOSED, OPEN, CLOSED, OPEN
#define LEFT_ONLY     SHOW, DOWN, OPEN, CLOSED, OPEN, RELAXED, RELAXED, RELAXED
#define RIGHT_ONLY    DOWN, SHOW, RELAXED, RELAXED, RELAXED, OPEN, CLOSED, OPEN

/* One visit of 16.2 s from @t: in from the side at @from_x, both hands
 * in one way (@both), then one hand (@one), and out the other side. */
#define GRIP_VISIT(t, from_x, x, z, yaw, both, one)                                                \
	WALK_IN(t, from_x, x, z, yaw), GRIP(t + 2.2, x, z, yaw, both),                             \
	        GRIP(t + 8.2, x, z, yaw, one), WALK_OUT(t + 14.2, x, -(from_x), z)

/* Three people in turn @z mm off, coming in from @side mm beside the
 * middle: a small woman, a man of middling size and a tall broad man,
 * each a little off the middle and turned a little. */
#define GRIP_CAST(name, z, side)                                                                   \
	static const DemoKey name##_small[] = { GRIP_VISIT(0.0, -(side), -120, z, 8,               \
		                                           BOTH_TOGETHER, RIGHT_ONLY) };           \
	static const DemoKey name##_middle[] = { GRIP_VISIT(16.5, side, 80, z, -5, BOTH_APART,     \
		                                            LEFT_ONLY) };                          \
	static const DemoKey name##_tall[] = { GRIP_VISIT(33.0, -(side), 0, z, 0, BOTH_TOGETHER,   \
		                                          RIGHT_ONLY) };                           \
	static const DemoActor name##_actors[] = {                                                 \
		{ .height = 1580,                                                                  \
		  .girth = 0.9,                                                                    \
		  .look = PLAIN,                                                                   \
		  .keys = name##_small,                                                            \
		  .n_keys = G_N_ELEMENTS(name##_small) },                                          \
		{ .height = 1750,                                                                  \
		  .girth = 1.0,                                                                    \
		  .look = DARK_TOP,                                                                \
		  .keys = name##_middle,                                                           \
		  .n_keys = G_N_ELEMENTS(name##_middle) },                                         \
		{ .height = 1900,                                                                  \
		  .girth = 1.15,                                                                   \
		  .look = PLAIN,                                                                   \
		  .keys = name##_tall,                                                             \
		  .n_keys = G_N_ELEMENTS(name##_tall) },                                           \
	}

#define PLAIN                                                                                      \
	{                                                                                          \
		DEMO_MATERIAL_HAIR, DEMO_MATERIAL_MATTE, DEMO_MATERIAL_MATTE, DEMO_HEAD_OVAL       \
	}
#define DARK_TOP                                                                                   \
	{                                                                                          \
		DEMO_MATERIAL_HAIR, DEMO_MATERIAL_DARK, DEMO_MATERIAL_MATTE, DEMO_HEAD_OVAL        \
	}

/* The people come in from beyond the side of the picture. */
GRIP_CAST(grip_1m, 1000, 1300);
GRIP_CAST(grip_15m, 1500, 1600);
GRIP_CAST(grip_2m, 2000, 1900);
GRIP_CAST(grip_3m, 3000, 2500);

/* One person walks in to the middle 2 m off, raises the right hand in
 * front of the shoulder, makes a fist for 2 s, opens the hand for 1 s,
 * makes a fist for 1 s, opens it, lowers it and walks out. */
static const DemoKey zone_grip_keys[] = {
	WALK_IN(0.0, -2400, 0, 2000, 0),
	AT(2.6, 0, 2000, 0, DOWN, DOWN, RELAXED, RELAXED),
	AT(3.3, 0, 2000, 0, DOWN, SHOW, RELAXED, OPEN),
	AT(4.0, 0, 2000, 0, DOWN, SHOW, RELAXED, CLOSED),
	AT(6.0, 0, 2000, 0, DOWN, SHOW, RELAXED, OPEN),
	AT(7.0, 0, 2000, 0, DOWN, SHOW, RELAXED, CLOSED),
	AT(8.0, 0, 2000, 0, DOWN, SHOW, RELAXED, OPEN),
	AT(9.0, 0, 2000, 0, DOWN, SHOW, RELAXED, RELAXED),
	AT(9.7, 0, 2000, 0, DOWN, DOWN, RELAXED, RELAXED),
	WALK_OUT(10.0, 0, 2400, 2000),
};
static const DemoActor zone_grip_actors[] = {
	{ .height = 1750,
	  .girth = 1.0,
	  .look = PLAIN,
	  .keys = zone_grip_keys,
	  .n_keys = G_N_ELEMENTS(zone_grip_keys) },
};

/* The sensor 1.5 m up, tilted down 5 degrees, as libfreenect reads a
 * Kinect: high enough to see hands held up at 0.7 m. */
#define HANDS_ROOM                                                                                 \
	{                                                                                          \
		.camera_height = 1500.0, .pitch = 5.0 * DEG, .wall_z = 4800.0, .noise = TRUE,      \
		.sensor = DEMO_SENSOR_KINECT                                                       \
	}

#define GRIP_SCENE(name_, desc, actors_)                                                           \
	{                                                                                          \
		.name = name_, .description = desc, .group = "grip", .duration = 49.5,             \
		.room = HANDS_ROOM, .actors = actors_, .n_actors = G_N_ELEMENTS(actors_),          \
		.sway = TRUE                                                                       \
	}

static const DemoScript scripts[] = {
	GRIP_SCENE("grip-1m",
	           "three people in turn 1 m off open and close their hands, held up in front",
	           grip_1m_actors),
	GRIP_SCENE("grip-1.5m", "the same 1.5 m off", grip_15m_actors),
	GRIP_SCENE("grip-2m", "the same 2 m off", grip_2m_actors),
	GRIP_SCENE("grip-3m", "the same 3 m off", grip_3m_actors),
	{ .name = "zone-grip",
	  .description = "one person walks in to the middle 2 m off, makes a fist with the right "
	                 "hand for 2 s, opens it, makes a fist again, and walks out",
	  .group = "grip",
	  .duration = 12.0,
	  .room = HANDS_ROOM,
	  .actors = zone_grip_actors,
	  .n_actors = G_N_ELEMENTS(zone_grip_actors),
	  .sway = TRUE },
};

const DemoScript *
demo_hands_scripts(guint *n)
{
	G_STATIC_ASSERT(G_N_ELEMENTS(scripts) <= DEMO_HANDS_MAX_SCRIPTS);
	*n = G_N_ELEMENTS(scripts);
	return scripts;
}
