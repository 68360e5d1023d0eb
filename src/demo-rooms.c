#include "demo-rooms.h"

#define DEG (G_PI / 180.0)

/* ---- the words scripts are written in ---- */

/* A key: time, place on the floor, facing, arms and legs. */
#define K(t, x, z, yaw, l, r, legs)                                                                \
	{                                                                                          \
		t, x, z, yaw, DEMO_ARM_##l, DEMO_ARM_##r, DEMO_LEGS_##legs, 0.0, 0.0               \
	}
/* Sitting on a seat whose top is @seat mm up. */
#define SIT(t, x, z, yaw, l, r, seat)                                                              \
	{                                                                                          \
		t, x, z, yaw, DEMO_ARM_##l, DEMO_ARM_##r, DEMO_LEGS_SIT, seat, 0.0                 \
	}
/* Sitting and leaning back @lean degrees. */
#define SIT_BACK(t, x, z, yaw, l, r, seat, lean)                                                   \
	{                                                                                          \
		t, x, z, yaw, DEMO_ARM_##l, DEMO_ARM_##r, DEMO_LEGS_SIT, seat, lean                \
	}
/* Standing, the upper body leaning back @lean degrees. */
#define LEAN(t, x, z, yaw, l, r, lean)                                                             \
	{                                                                                          \
		t, x, z, yaw, DEMO_ARM_##l, DEMO_ARM_##r, DEMO_LEGS_STAND, 0.0, lean               \
	}

/* What people wear: everyone has hair unless bald. */
#define LOOK(hair, top, legs)                                                                      \
	{                                                                                          \
		DEMO_MATERIAL_##hair, DEMO_MATERIAL_##top, DEMO_MATERIAL_##legs                    \
	}
#define PLAIN     LOOK(HAIR, MATTE, MATTE)
#define DARK_LEGS LOOK(HAIR, MATTE, DARK)
#define DARK_TOP  LOOK(HAIR, DARK, MATTE)
#define ALL_DARK  LOOK(HAIR, DARK, DARK)
#define BALD      LOOK(MATTE, MATTE, MATTE)

#define PERSON(h, g, look_, keys_)                                                                 \
	{                                                                                          \
		.height = h, .girth = g, .look = look_, .keys = keys_,                             \
		.n_keys = G_N_ELEMENTS(keys_)                                                      \
	}
#define CARRYING(h, g, look_, keys_, carry_)                                                       \
	{                                                                                          \
		.height = h, .girth = g, .look = look_, .keys = keys_,                             \
		.n_keys = G_N_ELEMENTS(keys_), .carry = DEMO_CARRY_##carry_                        \
	}

/* Furniture: a kit at (x, z) turned by yaw; sized; made of; standing on. */
#define ITEM(kind_, x_, z_, yaw)                                                                   \
	{                                                                                          \
		.kind = DEMO_KIT_##kind_, .x = x_, .z = z_, .yaw_deg = yaw                         \
	}
#define ITEM_SIZE(kind_, x_, z_, yaw, w_, h_, d_)                                                  \
	{                                                                                          \
		.kind = DEMO_KIT_##kind_, .x = x_, .z = z_, .yaw_deg = yaw, .w = w_, .h = h_,      \
		.d = d_                                                                            \
	}
#define ITEM_MADE(kind_, x_, z_, yaw, material_)                                                   \
	{                                                                                          \
		.kind = DEMO_KIT_##kind_, .x = x_, .z = z_, .yaw_deg = yaw,                        \
		.material = DEMO_MATERIAL_##material_                                              \
	}
#define ITEM_ON(kind_, x_, z_, yaw, y_)                                                            \
	{                                                                                          \
		.kind = DEMO_KIT_##kind_, .x = x_, .z = z_, .yaw_deg = yaw, .y = y_                \
	}

/* The sensor @height mm up, tilted down @pitch degrees, rolled @roll
 * degrees, read as libfreenect delivers a Kinect's depth. */
#define ROOM_AT(height, pitch_deg, roll_deg, wall)                                                 \
	{                                                                                          \
		.camera_height = height, .pitch = (pitch_deg)*DEG, .roll = (roll_deg)*DEG,         \
		.wall_z = wall, .noise = TRUE, .sensor = DEMO_SENSOR_KINECT                        \
	}

#define SCENE(name_, group_, desc, duration_, room_, actors_, items_)                              \
	{                                                                                          \
		.name = name_, .description = desc, .group = group_, .duration = duration_,        \
		.room = room_, .actors = actors_, .n_actors = G_N_ELEMENTS(actors_),               \
		.items = items_, .n_items = G_N_ELEMENTS(items_)                                   \
	}

/* ---- wall: a wall close behind people ---- */

/* A man at 3 m, the wall a quarter metre behind his back: still, then
 * moving; a woman leans against the wall beside him. */
static const DemoKey wall_front[] = {
	K(0.0, -300, 3000, 0, DOWN, DOWN, STAND),  K(5.0, -300, 3000, 0, DOWN, DOWN, STAND),
	K(6.0, -300, 3000, 0, DOWN, WAVE, STAND),  K(8.5, -300, 3000, 0, DOWN, WAVE, STAND),
	K(9.5, -300, 3000, 0, UP, UP, STAND),      K(11.0, -300, 3000, 0, UP, UP, STAND),
	K(12.0, -300, 3000, 0, OUT, OUT, STAND),   K(13.5, -300, 3000, 0, OUT, OUT, STAND),
	K(14.5, -300, 3000, 0, HIP, HIP, STAND),   K(16.0, -300, 3000, 0, HIP, HIP, STAND),
	K(17.0, -300, 3000, 0, DOWN, DOWN, STAND), K(18.0, -300, 3000, 0, DOWN, DOWN, STAND),
};
static const DemoKey wall_leaning[] = {
	LEAN(0.0, 1000, 3170, 0, DOWN, DOWN, 8),    LEAN(7.0, 1000, 3170, 0, CROSS, CROSS, 8),
	LEAN(12.0, 1000, 3170, 0, CROSS, CROSS, 8), LEAN(13.0, 1000, 3170, 0, DOWN, DOWN, 8),
	LEAN(14.5, 1000, 3170, 0, DOWN, POINT, 8),  LEAN(18.0, 1000, 3170, 0, DOWN, POINT, 8),
};
static const DemoActor wall_actors[] = {
	PERSON(1800, 1.1, DARK_LEGS, wall_front),
	PERSON(1620, 0.9, PLAIN, wall_leaning),
};
static const DemoItem wall_items[] = {
	ITEM(CABINET, -1700, 3120, 0),
	ITEM_SIZE(WALL, -2300, 2000, -90, 3000, 2500, 100),
};

/* ---- clutter ---- */

static const DemoItem clutter_items[] = {
	ITEM_SIZE(DOORWAY, 0, 5200, 0, 6000, 2500, 120),
	ITEM_SIZE(WALL, 0, 6800, 0, 2000, 2500, 100),
	ITEM(DESK, -1500, 3300, 0),
	ITEM_ON(MONITOR, -1500, 3350, 0, 740),
	ITEM_MADE(OFFICE_CHAIR, -1450, 2700, 20, DARK),
	ITEM(DESK, 1700, 4200, -90),
	ITEM_ON(MONITOR, 1650, 4200, -90, 740),
	ITEM(CHAIR, 1100, 4000, -100),
	ITEM_MADE(SOFA, 300, 4500, 0, DARK),
	ITEM(SHELF, -2200, 4700, -60),
	ITEM(COAT_STAND, 1200, 2800, 0),
	ITEM(PLANT, -600, 4800, 0),
	ITEM(CHAIR, 300, 2500, 160),
};
static const DemoKey clutter_a[] = {
	K(0.0, -2800, 3800, 80, SWING, SWING, WALK), K(4.0, -200, 3600, 80, SWING, SWING, WALK),
	K(5.0, -200, 3600, 0, DOWN, DOWN, STAND),    K(9.0, -200, 3600, 0, DOWN, WAVE, STAND),
	K(10.0, -200, 3600, 0, DOWN, DOWN, STAND),
};
static const DemoActor clutter_actors[] = {
	PERSON(1750, 1.0, DARK_LEGS, clutter_a),
};

static const DemoScript scripts[] = {
	SCENE("wall", "wall",
	      "a man at 3 m before a wall a quarter metre behind him, still, then moving; a "
	      "woman leans on the wall",
	      18.0, ROOM_AT(1000, 3, 0, 3350), wall_actors, wall_items),
	SCENE("clutter-walk", "clutter",
	      "a furnished office; a person walks in among the furniture", 10.0,
	      ROOM_AT(1100, 5, 0, 0), clutter_actors, clutter_items),
};

const DemoScript *
demo_rooms_scripts(guint *n)
{
	G_STATIC_ASSERT(G_N_ELEMENTS(scripts) <= DEMO_ROOMS_MAX_SCRIPTS);
	*n = G_N_ELEMENTS(scripts);
	return scripts;
}
