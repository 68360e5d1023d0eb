#include "demo-rooms.h"

#define DEG (G_PI / 180.0)

/* ---- the words scripts are written in ---- */

#define RELAXED_HANDS                                                                              \
	{                                                                                          \
		DEMO_HAND_RELAXED, DEMO_HAND_RELAXED                                               \
	}

/* A key: time, place on the floor, facing, arms and legs. */
#define K(t, x, z, yaw, l, r, legs)                                                                \
	{                                                                                          \
		t, x, z, yaw, DEMO_ARM_##l, DEMO_ARM_##r, DEMO_LEGS_##legs, 0.0, 0.0,              \
		        RELAXED_HANDS                                                              \
	}
/* Sitting on a seat whose top is @seat mm up. */
#define SIT(t, x, z, yaw, l, r, seat)                                                              \
	{                                                                                          \
		t, x, z, yaw, DEMO_ARM_##l, DEMO_ARM_##r, DEMO_LEGS_SIT, seat, 0.0, RELAXED_HANDS  \
	}
/* Sitting and leaning back @lean degrees. */
#define SIT_BACK(t, x, z, yaw, l, r, seat, lean)                                                   \
	{                                                                                          \
		t, x, z, yaw, DEMO_ARM_##l, DEMO_ARM_##r, DEMO_LEGS_SIT, seat, lean, RELAXED_HANDS \
	}
/* Standing, the upper body leaning back @lean degrees. */
#define LEAN(t, x, z, yaw, l, r, lean)                                                             \
	{                                                                                          \
		t, x, z, yaw, DEMO_ARM_##l, DEMO_ARM_##r, DEMO_LEGS_STAND, 0.0, lean,              \
		        RELAXED_HANDS                                                              \
	}

/* What people wear: everyone has hair unless bald, and a head of a real
 * head's shape. */
#define LOOK(hair, top, legs)                                                                      \
	{                                                                                          \
		DEMO_MATERIAL_##hair, DEMO_MATERIAL_##top, DEMO_MATERIAL_##legs, DEMO_HEAD_OVAL    \
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
 * degrees, read as libfreenect delivers a Kinect's depth; a back wall at
 * @wall, side walls at +-@sides, a ceiling at @ceiling (0: none). */
#define ROOM_IN(height, pitch_deg, roll_deg, wall, sides, ceiling)                                 \
	{                                                                                          \
		.camera_height = height, .pitch = (pitch_deg)*DEG, .roll = (roll_deg)*DEG,         \
		.wall_z = wall, .side_wall_x = sides, .ceiling_y = ceiling, .noise = TRUE,         \
		.sensor = DEMO_SENSOR_KINECT                                                       \
	}
#define ROOM_AT(height, pitch_deg, roll_deg, wall) ROOM_IN(height, pitch_deg, roll_deg, wall, 0, 0)

#define SCENE(name_, group_, desc, duration_, room_, actors_, items_)                              \
	{                                                                                          \
		.name = name_, .description = desc, .group = group_, .duration = duration_,        \
		.room = room_, .actors = actors_, .n_actors = G_N_ELEMENTS(actors_),               \
		.items = items_, .n_items = G_N_ELEMENTS(items_), .sway = TRUE                     \
	}
#define SCENE_BARE(name_, group_, desc, duration_, room_, actors_)                                 \
	{                                                                                          \
		.name = name_, .description = desc, .group = group_, .duration = duration_,        \
		.room = room_, .actors = actors_, .n_actors = G_N_ELEMENTS(actors_), .sway = TRUE  \
	}

/* Seats, from demo-kit.h: a body sits with its pelvis this far in front
 * of the kit's middle (yaw 0), its back against the backrest. */
#define CHAIR  DEMO_KIT_CHAIR_SEAT
#define OFFICE DEMO_KIT_OFFICE_CHAIR_SEAT
#define SOFA   DEMO_KIT_SOFA_SEAT

/* ---- wall: a wall close behind people ---- */

/* A man at 3 m, the wall a quarter metre behind his back: still, then
 * moving; a woman walks in and leans on the wall beside him. */
static const DemoKey wall_front[] = {
	K(0.0, -300, 3000, 0, DOWN, DOWN, STAND),  K(5.0, -300, 3000, 0, DOWN, DOWN, STAND),
	K(6.0, -300, 3000, 0, DOWN, WAVE, STAND),  K(8.5, -300, 3000, 0, DOWN, WAVE, STAND),
	K(9.5, -300, 3000, 0, UP, UP, STAND),      K(11.0, -300, 3000, 0, UP, UP, STAND),
	K(12.0, -300, 3000, 0, OUT, OUT, STAND),   K(13.5, -300, 3000, 0, OUT, OUT, STAND),
	K(14.5, -300, 3000, 0, HIP, HIP, STAND),   K(16.0, -300, 3000, 0, HIP, HIP, STAND),
	K(17.0, -300, 3000, 0, DOWN, DOWN, STAND), K(18.0, -300, 3000, 0, DOWN, DOWN, STAND),
};
static const DemoKey wall_leaning[] = {
	K(0.0, 2700, 3150, 90, SWING, SWING, WALK), K(1.6, 1000, 3150, 90, SWING, SWING, WALK),
	K(2.4, 1000, 3160, 0, DOWN, DOWN, STAND),   LEAN(3.4, 1000, 3160, 0, DOWN, DOWN, 8),
	LEAN(8.0, 1000, 3160, 0, DOWN, DOWN, 8),    LEAN(9.0, 1000, 3160, 0, CROSS, CROSS, 8),
	LEAN(13.0, 1000, 3160, 0, CROSS, CROSS, 8), LEAN(14.0, 1000, 3160, 0, DOWN, DOWN, 8),
	LEAN(15.0, 1000, 3160, 0, DOWN, POINT, 8),  LEAN(18.0, 1000, 3160, 0, DOWN, POINT, 8),
};
static const DemoActor wall_actors[] = {
	PERSON(1800, 1.1, DARK_LEGS, wall_front),
	PERSON(1620, 0.9, PLAIN, wall_leaning),
};
static const DemoItem wall_items[] = {
	ITEM(CABINET, -1700, 3120, 0),
	ITEM(PLANT, 1750, 3050, 0),
};

/* A broad man walks in along a wall and stops 2 m from the sensor with
 * the wall a fifth of a metre behind him; a child leans on it. */
static const DemoKey wall_near_man[] = {
	K(0.0, -2200, 2000, -90, SWING, SWING, WALK), K(2.2, -300, 2000, -90, SWING, SWING, WALK),
	K(3.0, -300, 2000, 0, DOWN, DOWN, STAND),     K(6.0, -300, 2000, 0, DOWN, DOWN, STAND),
	K(7.0, -300, 2000, 0, OUT, OUT, STAND),       K(8.5, -300, 2000, 0, OUT, OUT, STAND),
	K(9.3, -300, 2000, 0, PUSH, DOWN, STAND),     K(10.5, -300, 2000, 0, PUSH, DOWN, STAND),
	K(11.3, -300, 2000, 0, DOWN, DOWN, STAND),    K(12.0, -300, 2000, 0, DOWN, DOWN, STAND),
};
static const DemoKey wall_near_child[] = {
	LEAN(0.0, 750, 2070, 0, DOWN, DOWN, 6),  LEAN(5.0, 750, 2070, 0, DOWN, DOWN, 6),
	LEAN(6.0, 750, 2070, 0, WAVE, DOWN, 6),  LEAN(9.0, 750, 2070, 0, WAVE, DOWN, 6),
	LEAN(10.0, 750, 2070, 0, DOWN, DOWN, 6), LEAN(12.0, 750, 2070, 0, DOWN, DOWN, 6),
};
static const DemoActor wall_near_actors[] = {
	PERSON(1850, 1.25, ALL_DARK, wall_near_man),
	PERSON(1200, 0.9, PLAIN, wall_near_child),
};
static const DemoItem wall_near_items[] = {
	ITEM_SIZE(SHELF, 1700, 2150, 0, 800, 1800, 300),
};

/* ---- desk: seated at a desk, the sensor on it ---- */

/* The sensor stands on the desk; the person sits across it, 0.7 m away,
 * legs under the desk, and waves, types, leans in, pushes. */
static const DemoKey desk_wave_keys[] = {
	SIT(0.0, 0, 830, 0, FRONT_LOW, FRONT_LOW, OFFICE),
	SIT(3.0, 0, 830, 0, FRONT_LOW, FRONT_LOW, OFFICE),
	SIT(4.0, 0, 830, 0, DOWN, WAVE, OFFICE),
	SIT(7.0, 0, 830, 0, DOWN, WAVE, OFFICE),
	SIT(8.0, 0, 830, 0, DOWN, DOWN, OFFICE),
	SIT(9.0, 0, 830, 0, UP, UP, OFFICE),
	SIT(10.5, 0, 830, 0, UP, UP, OFFICE),
	SIT_BACK(11.5, 0, 830, 0, FRONT_LOW, FRONT_LOW, OFFICE, -12),
	SIT_BACK(12.5, 0, 830, 0, PUSH, FRONT_LOW, OFFICE, -12),
	SIT(14.0, 0, 830, 0, FRONT_LOW, FRONT_LOW, OFFICE),
};
static const DemoActor desk_wave_actors[] = {
	PERSON(1700, 1.05, DARK_LEGS, desk_wave_keys),
};
static const DemoItem desk_items[] = {
	ITEM_SIZE(DESK, 0, 200, 0, 1400, 740, 700),
	ITEM_ON(MONITOR, 430, 260, 160, 740),
	ITEM_MADE(OFFICE_CHAIR, 0, 765, 0, DARK),
	ITEM(SHELF, -1000, 2600, 0),
	/* a colleague's desk at the back, its screen facing the sensor */
	ITEM(DESK, 700, 2300, 0),
	ITEM_ON(MONITOR, 700, 2250, 0, 740),
};

/* Closer still and smaller; a colleague walks by behind. */
static const DemoKey desk_near_keys[] = {
	SIT(0.0, 0, 700, 0, FRONT_LOW, FRONT_LOW, OFFICE),
	SIT(2.5, 0, 700, 0, FRONT_LOW, FRONT_LOW, OFFICE),
	SIT(3.5, 0, 700, 0, WAVE, FRONT_LOW, OFFICE),
	SIT(6.0, 0, 700, 0, WAVE, FRONT_LOW, OFFICE),
	SIT(7.0, 0, 700, 0, SCRATCH, DOWN, OFFICE),
	SIT(9.0, 0, 700, 0, SCRATCH, DOWN, OFFICE),
	SIT(10.0, 0, 700, 0, CROSS, CROSS, OFFICE),
	SIT(12.0, 0, 700, 0, CROSS, CROSS, OFFICE),
};
static const DemoKey desk_near_passer[] = {
	K(3.0, -2600, 2100, -90, SWING, SWING, WALK),
	K(8.0, 2600, 2100, -90, SWING, SWING, WALK),
};
static const DemoActor desk_near_actors[] = {
	PERSON(1550, 0.9, PLAIN, desk_near_keys),
	PERSON(1780, 1.0, DARK_LEGS, desk_near_passer),
};
static const DemoItem desk_near_items[] = {
	ITEM_SIZE(DESK, 0, 150, 0, 1400, 740, 650),
	ITEM_ON(MONITOR, -450, 200, 200, 740),
	ITEM_MADE(OFFICE_CHAIR, 0, 635, 0, DARK),
	ITEM_SIZE(WALL, 0, 2900, 0, 5000, 2600, 100),
};

/* ---- closeup: nearer than a tracker expects a whole body ---- */

/* Head and shoulders at 0.6 m, turned partly aside, before a room that
 * reaches to 3.8 m. */
static const DemoKey closeup_head_keys[] = {
	K(0.0, -60, 730, 35, DOWN, DOWN, STAND), K(3.0, -20, 730, 35, DOWN, DOWN, STAND),
	K(5.0, 0, 740, 5, DOWN, DOWN, STAND),    K(7.0, 40, 730, -30, DOWN, DOWN, STAND),
	K(9.0, 0, 730, 10, DOWN, DOWN, STAND),   K(10.0, 0, 730, 10, DOWN, DOWN, STAND),
};
static const DemoActor closeup_head_actors[] = {
	PERSON(1760, 1.0, PLAIN, closeup_head_keys),
};
static const DemoItem closeup_items[] = {
	ITEM_SIZE(CABINET, 900, 2300, 0, 700, 1800, 500),
	ITEM(SHELF, -900, 3500, 0),
	ITEM_SIZE(DOORWAY, 0, 3800, 0, 5000, 2600, 120),
	ITEM_SIZE(WALL, 0, 5600, 0, 2000, 2600, 100),
};
#define CLOSEUP_ROOM(height, pitch) ROOM_IN(height, pitch, 0, 0, 0, 2600)

/* An upper body at 0.75 m: an open palm raised, a wave, a push. */
static const DemoKey closeup_palm_keys[] = {
	K(0.0, 0, 870, 0, DOWN, DOWN, STAND),       K(1.5, 0, 870, 0, DOWN, DOWN, STAND),
	K(2.5, 0, 870, 0, DOWN, FRONT_HIGH, STAND), K(5.0, 0, 870, 0, DOWN, FRONT_HIGH, STAND),
	K(6.0, 0, 870, 0, WAVE, DOWN, STAND),       K(8.0, 0, 870, 0, WAVE, DOWN, STAND),
	K(8.8, 0, 870, 0, READY, DOWN, STAND),      K(9.2, 0, 870, 0, PUSH, DOWN, STAND),
	K(10.0, 0, 870, 0, PUSH, DOWN, STAND),
};
static const DemoActor closeup_palm_actors[] = {
	PERSON(1680, 0.95, DARK_TOP, closeup_palm_keys),
};

/* So near that the head is above the picture: shoulders and trunk fill
 * it. */
static const DemoKey closeup_torso_keys[] = {
	K(0.0, 0, 930, 0, DOWN, DOWN, STAND),   K(2.5, 0, 930, 0, DOWN, DOWN, STAND),
	K(3.5, 0, 930, 0, HIP, HIP, STAND),     K(5.0, 0, 930, 0, HIP, HIP, STAND),
	K(6.0, 0, 930, 0, CROSS, CROSS, STAND), K(7.5, 0, 930, 0, CROSS, CROSS, STAND),
	K(8.5, 0, 930, 0, DOWN, WAVE, STAND),   K(10.0, 0, 930, 0, DOWN, WAVE, STAND),
};
static const DemoActor closeup_torso_actors[] = {
	PERSON(1820, 1.15, PLAIN, closeup_torso_keys),
};

/* Walking up to the sensor from 3 m to 0.6 m, a wave, and back a step. */
static const DemoKey closeup_approach_keys[] = {
	K(0.0, 200, 3100, 0, DOWN, DOWN, STAND),  K(1.5, 200, 3100, 0, DOWN, DOWN, STAND),
	K(2.0, 200, 3000, 0, SWING, SWING, WALK), K(5.5, 50, 800, 0, SWING, SWING, WALK),
	K(6.2, 50, 720, 0, DOWN, DOWN, STAND),    K(8.5, 50, 720, 0, DOWN, DOWN, STAND),
	K(9.3, 50, 720, 0, DOWN, WAVE, STAND),    K(11.0, 50, 720, 0, DOWN, WAVE, STAND),
	K(11.8, 50, 720, 0, DOWN, DOWN, STAND),   K(13.0, 50, 1500, 0, DOWN, DOWN, STAND),
	K(14.0, 50, 1500, 0, DOWN, DOWN, STAND),
};
static const DemoActor closeup_approach_actors[] = {
	PERSON(1720, 1.0, DARK_LEGS, closeup_approach_keys),
};

/* ---- five: a row of people ---- */

/* Five adults side by side at 1.8 to 2.6 m, touching and hiding one
 * another a little, as in a real frame of five (depth registered to the
 * colour camera); still, then moving a little. */
#define ROW_STILL(x, z, yaw)                                                                       \
	K(0.0, x, z, yaw, DOWN, DOWN, STAND), K(6.0, x, z, yaw, DOWN, DOWN, STAND)
static const DemoKey five_a[] = {
	ROW_STILL(-800, 1950, 10),
	K(8.0, -760, 1950, 10, HIP, DOWN, STAND),
	K(14.0, -760, 1950, 10, HIP, DOWN, STAND),
};
static const DemoKey five_b[] = {
	ROW_STILL(-420, 2550, 0),
	K(7.5, -470, 2550, 0, DOWN, DOWN, STAND),
	K(9.0, -470, 2550, 0, CROSS, CROSS, STAND),
	K(14.0, -470, 2550, 0, CROSS, CROSS, STAND),
};
static const DemoKey five_c[] = {
	ROW_STILL(20, 2650, 0),
	K(7.0, 20, 2650, 0, DOWN, WAVE, STAND),
	K(10.0, 20, 2650, 0, DOWN, WAVE, STAND),
	K(11.0, 20, 2650, 0, DOWN, DOWN, STAND),
	K(14.0, 20, 2650, 0, DOWN, DOWN, STAND),
};
static const DemoKey five_d[] = {
	ROW_STILL(420, 2400, -5),
	K(8.0, 460, 2380, -20, DOWN, DOWN, STAND),
	K(14.0, 460, 2380, -20, DOWN, DOWN, STAND),
};
static const DemoKey five_e[] = {
	ROW_STILL(720, 1900, -10),
	K(7.0, 720, 1900, -10, DOWN, DOWN, STAND),
	K(8.0, 720, 1900, -10, DOWN, POINT, STAND),
	K(11.0, 720, 1900, -10, DOWN, POINT, STAND),
	K(12.0, 720, 1900, -10, DOWN, DOWN, STAND),
	K(14.0, 720, 1900, -10, DOWN, DOWN, STAND),
};
static const DemoActor five_row_actors[] = {
	PERSON(1850, 1.1, DARK_LEGS, five_a), PERSON(1720, 1.0, PLAIN, five_b),
	PERSON(1780, 0.9, ALL_DARK, five_c),  PERSON(1650, 1.15, PLAIN, five_d),
	PERSON(1900, 1.2, DARK_TOP, five_e),
};

/* Five walking about between 2 and 4.5 m, crossing one another. */
static const DemoKey walkers_a[] = {
	K(0.0, -2600, 2300, -90, SWING, SWING, WALK),
	K(4.5, 2600, 2300, -90, SWING, SWING, WALK),
	K(5.3, 2600, 2300, 90, SWING, SWING, WALK),
	K(9.8, -2600, 2300, 90, SWING, SWING, WALK),
};
static const DemoKey walkers_b[] = {
	K(0.0, 2400, 3600, 90, SWING, SWING, WALK),   K(4.0, -600, 3600, 90, SWING, SWING, WALK),
	K(4.8, -600, 3600, 0, DOWN, DOWN, STAND),     K(9.0, -600, 3600, 0, DOWN, DOWN, STAND),
	K(9.8, -600, 3600, -120, SWING, SWING, WALK), K(14.0, 1900, 4400, -120, SWING, SWING, WALK),
};
static const DemoKey walkers_c[] = {
	K(0.0, 600, 4500, 0, SWING, SWING, WALK),   K(3.5, 600, 2600, 0, SWING, SWING, WALK),
	K(4.3, 600, 2600, 0, DOWN, DOWN, STAND),    K(7.0, 600, 2600, 0, DOWN, WAVE, STAND),
	K(8.0, 600, 2600, 180, SWING, SWING, WALK), K(11.5, 600, 4400, 180, SWING, SWING, WALK),
	K(12.3, 600, 4400, 0, DOWN, DOWN, STAND),   K(16.0, 600, 4400, 0, DOWN, DOWN, STAND),
};
static const DemoKey walkers_d[] = {
	K(2.0, -2700, 3000, -70, SWING, SWING, WALK), K(6.0, 600, 3400, -70, SWING, SWING, WALK),
	K(6.8, 600, 3400, 0, DOWN, DOWN, STAND),      K(10.0, 600, 3400, 0, HIP, HIP, STAND),
	K(11.0, 600, 3400, 100, SWING, SWING, WALK),  K(16.0, -2700, 3200, 100, SWING, SWING, WALK),
};
static const DemoKey walkers_e[] = {
	K(0.0, -1400, 4300, 0, DOWN, DOWN, STAND),    K(6.0, -1400, 4300, 0, DOWN, DOWN, STAND),
	K(7.0, -1400, 4300, -60, SWING, SWING, WALK), K(12.0, 1800, 2400, -60, SWING, SWING, WALK),
	K(12.8, 1800, 2400, 0, DOWN, DOWN, STAND),    K(16.0, 1800, 2400, 0, DOWN, DOWN, STAND),
};
static const DemoActor five_walk_actors[] = {
	PERSON(1760, 1.0, DARK_LEGS, walkers_a), PERSON(1620, 0.9, PLAIN, walkers_b),
	PERSON(1880, 1.2, ALL_DARK, walkers_c),  PERSON(1300, 0.95, PLAIN, walkers_d),
	PERSON(1700, 1.1, DARK_TOP, walkers_e),
};

/* ---- sideon: side-on walking before a wall with a doorway ---- */

/* A man walks across side-on with a folder in his right hand (on the
 * sensor's side one way, hidden the other), stops side-on, goes back. */
static const DemoKey sideon_folder_keys[] = {
	K(0.0, -2600, 3000, -90, SWING, SWING, WALK), K(3.5, 0, 3000, -90, SWING, SWING, WALK),
	K(4.0, 100, 3000, -90, DOWN, DOWN, STAND),    K(6.5, 100, 3000, -90, DOWN, DOWN, STAND),
	K(7.0, 200, 3000, -90, SWING, SWING, WALK),   K(9.3, 2500, 3000, -90, SWING, SWING, WALK),
	K(10.1, 2500, 3000, 90, SWING, SWING, WALK),  K(14.0, -1800, 3000, 90, SWING, SWING, WALK),
};
static const DemoActor sideon_folder_actors[] = {
	CARRYING(1840, 1.05, DARK_LEGS, sideon_folder_keys, FOLDER_RIGHT),
};
static const DemoItem sideon_items[] = {
	ITEM_SIZE(DOORWAY, 0, 4000, 0, 2600, 2600, 120),
	ITEM_SIZE(WALL, -2300, 4000, 0, 2000, 2600, 120),
	ITEM_SIZE(WALL, 2300, 4000, 0, 2000, 2600, 120),
	ITEM(SHELF, -1900, 3750, 0),
};

/* Two people cross, one behind the other; a child comes out of the
 * doorway and walks off. */
static const DemoKey sideon_cross_a[] = {
	K(0.0, -2600, 2400, -90, SWING, SWING, WALK),
	K(5.0, 2600, 2400, -90, SWING, SWING, WALK),
	K(6.0, 2600, 2400, 90, SWING, SWING, WALK),
	K(11.0, -2600, 2400, 90, SWING, SWING, WALK),
};
static const DemoKey sideon_cross_b[] = {
	K(0.0, 2800, 3400, 90, SWING, SWING, WALK),
	K(5.5, -2800, 3400, 90, SWING, SWING, WALK),
};
static const DemoKey sideon_cross_child[] = {
	K(4.0, 0, 4700, 0, SWING, SWING, WALK),      K(6.0, 0, 3400, 0, SWING, SWING, WALK),
	K(6.6, 0, 3400, -90, SWING, SWING, WALK),    K(8.0, 1100, 3400, -90, SWING, SWING, WALK),
	K(8.6, 1100, 3400, -90, DOWN, DOWN, STAND),  K(10.0, 1100, 3400, -90, DOWN, DOWN, STAND),
	K(10.6, 1100, 3400, 90, SWING, SWING, WALK), K(12.0, 0, 3400, 90, SWING, SWING, WALK),
};
static const DemoActor sideon_cross_actors[] = {
	PERSON(1750, 1.0, PLAIN, sideon_cross_a),
	PERSON(1680, 1.15, ALL_DARK, sideon_cross_b),
	PERSON(1250, 0.9, PLAIN, sideon_cross_child),
};

/* ---- camera: the sensor elsewhere than on a shelf ---- */

/* The same simple things in every camera scene: walk in, stop, wave,
 * arms up and out, stand. */
#define SIMPLE_AT(x, z)                                                                            \
	K(0.0, x - 2400, z, -90, SWING, SWING, WALK), K(2.0, x, z, -90, SWING, SWING, WALK),       \
	        K(2.8, x, z, 0, DOWN, DOWN, STAND), K(4.0, x, z, 0, DOWN, DOWN, STAND),            \
	        K(4.8, x, z, 0, DOWN, WAVE, STAND), K(6.5, x, z, 0, DOWN, WAVE, STAND),            \
	        K(7.3, x, z, 0, UP, UP, STAND), K(8.3, x, z, 0, OUT, OUT, STAND),                  \
	        K(9.2, x, z, 0, DOWN, DOWN, STAND), K(10.0, x, z, 0, DOWN, DOWN, STAND)

static const DemoKey camera_eye_keys[] = { SIMPLE_AT(0, 2800) };
static const DemoActor camera_eye_actors[] = { PERSON(1760, 1.0, DARK_LEGS, camera_eye_keys) };

static const DemoKey camera_high_keys[] = { SIMPLE_AT(-200, 2300) };
static const DemoKey camera_high_under[] = {
	K(3.0, 2400, 1500, 100, SWING, SWING, WALK),
	K(7.0, -2400, 1800, 100, SWING, SWING, WALK),
};
static const DemoActor camera_high_actors[] = {
	PERSON(1700, 1.05, PLAIN, camera_high_keys),
	PERSON(1820, 0.9, ALL_DARK, camera_high_under),
};

static const DemoKey camera_low_keys[] = { SIMPLE_AT(100, 2600) };
static const DemoActor camera_low_actors[] = { PERSON(1800, 1.1, PLAIN, camera_low_keys) };

static const DemoKey camera_roll_keys[] = { SIMPLE_AT(-400, 2900) };
static const DemoKey camera_roll_other[] = {
	K(0.0, 900, 3400, 0, DOWN, DOWN, STAND),
	K(5.0, 900, 3400, 0, DOWN, DOWN, STAND),
	K(6.0, 900, 3400, 0, HIP, HIP, STAND),
	K(10.0, 900, 3400, 0, HIP, HIP, STAND),
};
static const DemoActor camera_roll_actors[] = {
	PERSON(1740, 1.0, PLAIN, camera_roll_keys),
	PERSON(1450, 0.9, DARK_LEGS, camera_roll_other),
};
static const DemoKey camera_roll_high_keys[] = { SIMPLE_AT(200, 2500) };
static const DemoActor camera_roll_high_actors[] = {
	PERSON(1680, 1.2, ALL_DARK, camera_roll_high_keys),
};
static const DemoItem camera_items[] = {
	ITEM(CABINET, -1600, 4300, 0),
	ITEM(PLANT, 1700, 4200, 0),
	ITEM(CHAIR, 1300, 3800, 20),
};

/* ---- seated: sitting, getting up, sitting down ---- */

/* Two on a sofa, leaning back; one gets up, walks off and comes back to
 * sit again, the other stays. */
static const DemoKey sofa_a[] = {
	SIT_BACK(0.0, -450, 3060, 0, DOWN, DOWN, SOFA, 10),
	SIT_BACK(5.0, -450, 3060, 0, DOWN, DOWN, SOFA, 10),
	SIT_BACK(5.8, -450, 3000, 0, DOWN, DOWN, SOFA, -15),
	K(7.0, -450, 2700, 0, DOWN, DOWN, STAND),
	K(7.6, -450, 2650, -90, SWING, SWING, WALK),
	K(10.0, 1900, 2500, -90, SWING, SWING, WALK),
	K(10.8, 1900, 2500, 90, SWING, SWING, WALK),
	K(13.2, -450, 2650, 90, SWING, SWING, WALK),
	K(14.0, -450, 2700, 0, DOWN, DOWN, STAND),
	SIT_BACK(15.2, -450, 3000, 0, DOWN, DOWN, SOFA, -15),
	SIT_BACK(16.0, -450, 3060, 0, DOWN, DOWN, SOFA, 10),
	SIT_BACK(20.0, -450, 3060, 0, DOWN, DOWN, SOFA, 10),
};
static const DemoKey sofa_b[] = {
	SIT_BACK(0.0, 480, 3060, -10, DOWN, DOWN, SOFA, 10),
	SIT_BACK(8.0, 480, 3060, -10, DOWN, DOWN, SOFA, 10),
	SIT_BACK(9.0, 480, 3060, -10, DOWN, WAVE, SOFA, 5),
	SIT_BACK(11.0, 480, 3060, -10, DOWN, WAVE, SOFA, 5),
	SIT_BACK(12.0, 480, 3060, -10, CROSS, CROSS, SOFA, 10),
	SIT_BACK(20.0, 480, 3060, -10, CROSS, CROSS, SOFA, 10),
};
static const DemoActor sofa_actors[] = {
	PERSON(1740, 1.1, DARK_LEGS, sofa_a),
	PERSON(1600, 0.9, PLAIN, sofa_b),
};
static const DemoItem living_items[] = {
	ITEM_MADE(SOFA, 0, 3000, 0, DARK),
	ITEM(SHELF, -2000, 3700, 30),
	ITEM(PLANT, 1800, 3400, 0),
	ITEM_SIZE(TABLE, 1600, 1900, -90, 500, 450, 500),
};

/* Chairs in a living room: one gets up, one sits down, a child sits
 * throughout. */
static const DemoKey chairs_a[] = {
	SIT(0.0, -876, 2666, 20, DOWN, DOWN, CHAIR),
	SIT(4.0, -876, 2666, 20, DOWN, DOWN, CHAIR),
	SIT_BACK(4.8, -860, 2620, 20, DOWN, DOWN, CHAIR, -15),
	K(6.0, -780, 2380, 20, DOWN, DOWN, STAND),
	K(9.0, -780, 2380, 20, DOWN, DOWN, STAND),
	K(10.0, -780, 2380, 20, HIP, DOWN, STAND),
	K(16.0, -780, 2380, 20, HIP, DOWN, STAND),
};
static const DemoKey chairs_b[] = {
	K(0.0, 2700, 2300, 90, SWING, SWING, WALK),
	K(3.0, 950, 2350, 90, SWING, SWING, WALK),
	K(3.8, 950, 2400, -25, DOWN, DOWN, STAND),
	SIT_BACK(5.0, 920, 2640, -25, DOWN, DOWN, CHAIR, -15),
	SIT(5.8, 930, 2663, -25, DOWN, DOWN, CHAIR),
	SIT(10.0, 930, 2663, -25, DOWN, DOWN, CHAIR),
	SIT(11.0, 930, 2663, -25, DOWN, POINT, CHAIR),
	SIT(16.0, 930, 2663, -25, DOWN, POINT, CHAIR),
};
static const DemoKey chairs_child[] = {
	SIT(0.0, 0, 3370, 0, DOWN, DOWN, CHAIR),
	SIT(6.0, 0, 3370, 0, DOWN, DOWN, CHAIR),
	SIT(7.0, 0, 3370, 0, WAVE, WAVE, CHAIR),
	SIT(10.0, 0, 3370, 0, WAVE, WAVE, CHAIR),
	SIT(11.0, 0, 3370, 0, FRONT_LOW, DOWN, CHAIR),
	SIT(16.0, 0, 3370, 0, FRONT_LOW, DOWN, CHAIR),
};
static const DemoActor chairs_actors[] = {
	PERSON(1780, 1.0, PLAIN, chairs_a),
	PERSON(1650, 1.25, ALL_DARK, chairs_b),
	PERSON(1250, 0.9, PLAIN, chairs_child),
};
static const DemoItem chairs_items[] = {
	ITEM(CHAIR, -900, 2600, 20),   ITEM(CHAIR, 900, 2600, -25),     ITEM(CHAIR, 0, 3300, 0),
	ITEM(CABINET, -1800, 3900, 0), ITEM(COAT_STAND, 2100, 3800, 0),
};

/* A seated person far off, turned, moving the arms; another stands. */
static const DemoKey seated_far_keys[] = {
	SIT(0.0, 359, 2661, -30, DOWN, DOWN, CHAIR), SIT(3.0, 359, 2661, -30, DOWN, DOWN, CHAIR),
	SIT(4.0, 359, 2661, -30, UP, DOWN, CHAIR),   SIT(5.5, 359, 2661, -30, UP, DOWN, CHAIR),
	SIT(6.5, 359, 2661, -30, HIP, HIP, CHAIR),   SIT(8.0, 359, 2661, -30, HIP, HIP, CHAIR),
	SIT(9.0, 359, 2661, -30, DOWN, DOWN, CHAIR), SIT(10.0, 359, 2661, -30, DOWN, DOWN, CHAIR),
};
static const DemoKey seated_far_standing[] = {
	K(0.0, -900, 3000, 15, DOWN, DOWN, STAND),
	K(10.0, -900, 3000, 15, DOWN, DOWN, STAND),
};
static const DemoActor seated_far_actors[] = {
	PERSON(1760, 1.0, DARK_LEGS, seated_far_keys),
	PERSON(1690, 0.95, PLAIN, seated_far_standing),
};
static const DemoItem seated_far_items[] = {
	ITEM(CHAIR, 325, 2600, -30),
	ITEM(SHELF, 1900, 3800, 0),
};

/* ---- lean: upper bodies leaning back and forward ---- */

/* A broad man 2.5 m off leans back as people do while they talk or
 * listen: 12 degrees with his arms crossed, 18 showing both fists; then
 * bows 20 degrees forward to something low in front of him. A woman 3.3 m
 * off leans back 15 degrees, hands on hips, then forward 15, then waves
 * upright. */
static const DemoKey lean_man[] = {
	K(0.0, -400, 2500, 0, DOWN, DOWN, STAND),
	K(1.5, -400, 2500, 0, DOWN, DOWN, STAND),
	LEAN(2.5, -400, 2500, 0, CROSS, CROSS, 12),
	LEAN(5.0, -400, 2500, 0, CROSS, CROSS, 12),
	LEAN(6.0, -400, 2500, 0, SHOW, SHOW, 18),
	LEAN(8.5, -400, 2500, 0, SHOW, SHOW, 18),
	LEAN(9.5, -400, 2500, 0, FRONT_LOW, FRONT_LOW, -20),
	LEAN(12.0, -400, 2500, 0, FRONT_LOW, FRONT_LOW, -20),
	K(13.0, -400, 2500, 0, DOWN, DOWN, STAND),
	K(14.0, -400, 2500, 0, DOWN, DOWN, STAND),
};
static const DemoKey lean_woman[] = {
	LEAN(0.0, 900, 3300, -15, HIP, HIP, 15),    LEAN(6.0, 900, 3300, -15, HIP, HIP, 15),
	LEAN(7.0, 900, 3300, -15, DOWN, DOWN, -15), LEAN(10.5, 900, 3300, -15, DOWN, DOWN, -15),
	K(11.5, 900, 3300, -15, WAVE, DOWN, STAND), K(14.0, 900, 3300, -15, WAVE, DOWN, STAND),
};
static const DemoActor lean_actors[] = {
	PERSON(1850, 1.25, DARK_LEGS, lean_man),
	PERSON(1650, 0.95, PLAIN, lean_woman),
};

/* ---- clutter: a furnished office ---- */

static const DemoItem office_items[] = {
	ITEM_SIZE(DOORWAY, 0, 5200, 0, 6000, 2600, 120),
	ITEM_SIZE(WALL, 0, 6800, 0, 2000, 2600, 100),
	ITEM(DESK, -1500, 3300, 0),
	ITEM_ON(MONITOR, -1500, 3350, 0, 740),
	ITEM_MADE(OFFICE_CHAIR, -1450, 2750, 20, DARK),
	ITEM(DESK, 1750, 4200, -90),
	ITEM_ON(MONITOR, 1700, 4200, -90, 740),
	ITEM(CHAIR, 1150, 3950, -100),
	ITEM_MADE(SOFA, 300, 4600, 0, DARK),
	ITEM(SHELF, -2300, 4700, -60),
	ITEM(COAT_STAND, 1150, 2900, 0),
	ITEM(PLANT, -700, 4700, 0),
	ITEM(CABINET, 2300, 2900, -90),
};
#define OFFICE_ROOM ROOM_IN(1100, 5, 0, 0, 0, 2600)

/* One comes in through the doorway and walks behind the desk, one walks
 * in from the side between the furniture and stands behind a chair. */
static const DemoKey office_a[] = {
	K(0.0, 0, 6000, 0, SWING, SWING, WALK),
	K(2.5, 0, 4000, 0, SWING, SWING, WALK),
	K(3.3, 0, 4000, 70, SWING, SWING, WALK),
	K(6.0, -1500, 3700, 70, SWING, SWING, WALK),
	K(6.8, -1500, 3750, 0, DOWN, DOWN, STAND),
	K(9.0, -1500, 3750, 0, DOWN, DOWN, STAND),
	K(10.0, -1500, 3750, 0, FRONT_LOW, DOWN, STAND),
	K(12.0, -1500, 3750, 0, FRONT_LOW, DOWN, STAND),
	K(12.8, -1500, 3750, -100, SWING, SWING, WALK),
	K(16.0, 400, 4050, -100, SWING, SWING, WALK),
};
static const DemoKey office_b[] = {
	K(1.0, -2800, 2300, -80, SWING, SWING, WALK), K(4.5, 300, 2600, -80, SWING, SWING, WALK),
	K(5.3, 300, 2600, -150, SWING, SWING, WALK),  K(7.0, 1000, 3500, -150, SWING, SWING, WALK),
	K(7.8, 1000, 3500, 0, DOWN, DOWN, STAND),     K(11.0, 1000, 3500, 0, DOWN, DOWN, STAND),
	K(12.0, 1000, 3500, 0, DOWN, WAVE, STAND),    K(14.0, 1000, 3500, 0, DOWN, WAVE, STAND),
	K(15.0, 1000, 3500, 0, DOWN, DOWN, STAND),    K(16.0, 1000, 3500, 0, DOWN, DOWN, STAND),
};
static const DemoActor office_actors[] = {
	PERSON(1750, 1.0, DARK_LEGS, office_a),
	PERSON(1620, 1.2, PLAIN, office_b),
};

/* A chair moved by someone who then leaves it: furniture that was still
 * for a long time moves, and stands still again somewhere else. */
static const DemoItem moved_chair_items[] = {
	ITEM(DESK, -1500, 3300, 0),
	ITEM_ON(MONITOR, -1500, 3350, 0, 740),
	ITEM(SHELF, 1900, 4200, 0),
	ITEM(COAT_STAND, -2300, 2600, 0),
};
static const DemoPlace moved_chair_places[] = {
	{ 5.0, 900, 2700, 0 },
	{ 8.0, -100, 2900, 25 },
};
static const DemoMover moved_chair[] = {
	{ ITEM(CHAIR, 0, 0, 0), moved_chair_places, G_N_ELEMENTS(moved_chair_places) },
};
static const DemoKey chair_mover_keys[] = {
	K(0.0, 2700, 3300, 90, SWING, SWING, WALK),
	K(3.0, 900, 3180, 90, SWING, SWING, WALK),
	K(3.8, 900, 3180, 0, DOWN, DOWN, STAND),
	K(5.0, 900, 3180, 0, FRONT_LOW, FRONT_LOW, STAND),
	K(8.0, -100, 3380, 0, FRONT_LOW, FRONT_LOW, STAND),
	K(9.0, -100, 3380, 0, DOWN, DOWN, STAND),
	K(9.6, -100, 3450, -100, SWING, SWING, WALK),
	K(13.0, 2700, 3700, -100, SWING, SWING, WALK),
};
static const DemoActor chair_mover_actors[] = {
	PERSON(1710, 1.05, DARK_LEGS, chair_mover_keys),
};

/* ---- range: near and far ---- */

/* One person steps back from 0.6 m (head and shoulders) to 4.5 m (small,
 * whole), waving at every stop. */
#define RANGE_STOP(t, z)                                                                           \
	K(t, 0, z, 0, DOWN, DOWN, STAND), K(t + 0.8, 0, z, 0, DOWN, WAVE, STAND),                  \
	        K(t + 2.2, 0, z, 0, DOWN, WAVE, STAND), K(t + 2.8, 0, z, 0, DOWN, DOWN, STAND)
static const DemoKey range_steps_keys[] = {
	RANGE_STOP(0.0, 720),
	RANGE_STOP(3.8, 1100),
	RANGE_STOP(7.6, 1700),
	RANGE_STOP(11.4, 2400),
	RANGE_STOP(15.2, 3300),
	RANGE_STOP(19.6, 4500),
	K(24.0, 0, 4500, 0, DOWN, DOWN, STAND),
};
static const DemoActor range_steps_actors[] = {
	PERSON(1740, 1.0, PLAIN, range_steps_keys),
};

/* Four at once: a child near, adults at 2 and 3.2 m, a tall thin man at
 * 4.5 m. */
static const DemoKey range_near[] = {
	K(0.0, -350, 1000, 10, DOWN, DOWN, STAND), K(4.0, -350, 1000, 10, DOWN, DOWN, STAND),
	K(5.0, -350, 1000, 10, UP, DOWN, STAND),   K(7.0, -350, 1000, 10, UP, DOWN, STAND),
	K(8.0, -350, 1000, 10, DOWN, DOWN, STAND), K(12.0, -350, 1000, 10, DOWN, DOWN, STAND),
};
static const DemoKey range_mid[] = {
	K(0.0, 700, 2000, 0, DOWN, DOWN, STAND),  K(6.0, 700, 2000, 0, DOWN, DOWN, STAND),
	K(7.0, 700, 2000, 0, OUT, OUT, STAND),    K(9.0, 700, 2000, 0, OUT, OUT, STAND),
	K(10.0, 700, 2000, 0, DOWN, DOWN, STAND), K(12.0, 700, 2000, 0, DOWN, DOWN, STAND),
};
static const DemoKey range_back[] = {
	K(0.0, -200, 3300, 0, HIP, HIP, STAND),
	K(12.0, -200, 3300, 0, HIP, HIP, STAND),
};
static const DemoKey range_far[] = {
	K(0.0, 700, 4600, 0, DOWN, DOWN, STAND), K(3.0, 700, 4600, 0, DOWN, DOWN, STAND),
	K(4.0, 700, 4600, 0, DOWN, WAVE, STAND), K(7.0, 700, 4600, 0, DOWN, WAVE, STAND),
	K(8.0, 700, 4600, 0, DOWN, DOWN, STAND), K(12.0, 700, 4600, 0, DOWN, DOWN, STAND),
};
static const DemoActor range_spread_actors[] = {
	PERSON(1200, 0.95, PLAIN, range_near),
	PERSON(1700, 1.1, DARK_LEGS, range_mid),
	PERSON(1600, 1.0, ALL_DARK, range_back),
	PERSON(1980, 0.85, PLAIN, range_far),
};

/* ---- the library ---- */

/* Depth registered to the colour camera, as OpenNI delivers it. */
#define ROOM_REGISTERED(height, pitch_deg, wall)                                                   \
	{                                                                                          \
		.camera_height = height, .pitch = (pitch_deg)*DEG, .wall_z = wall, .noise = TRUE,  \
		.sensor = DEMO_SENSOR_REGISTERED                                                   \
	}

static const DemoScript scripts[] = {
	SCENE("wall", "wall",
	      "a man 3 m off, a wall a quarter metre behind him: still, then moving; a woman "
	      "walks in and leans on the wall",
	      18.0, ROOM_AT(1000, 3, 0, 3350), wall_actors, wall_items),
	SCENE("wall-near", "wall",
	      "a broad man walks in along a wall and stops 2 m off, the wall just behind him; a "
	      "child leans on it",
	      12.0, ROOM_AT(1200, 8, 0, 2330), wall_near_actors, wall_near_items),
	SCENE("desk-wave", "desk",
	      "seated at a desk 0.7 m from the sensor standing on it, legs hidden: typing, "
	      "waving, arms up, leaning in",
	      14.0, ROOM_IN(900, -4, 0, 2800, 0, 2600), desk_wave_actors, desk_items),
	SCENE("desk-near", "desk",
	      "a small woman seated at a desk 0.6 m off waves and scratches her head; a man "
	      "walks by behind",
	      12.0, ROOM_IN(900, -10, 0, 0, 0, 2600), desk_near_actors, desk_near_items),
	SCENE("closeup-head", "closeup", "head and shoulders 0.6 m off, turning, a room behind",
	      10.0, CLOSEUP_ROOM(1550, 0), closeup_head_actors, closeup_items),
	SCENE("closeup-palm", "closeup",
	      "an upper body 0.75 m off: an open palm raised, a wave, a push", 10.0,
	      CLOSEUP_ROOM(1300, -5), closeup_palm_actors, closeup_items),
	SCENE("closeup-torso", "closeup",
	      "so near that the head is above the picture: shoulders and trunk fill it", 10.0,
	      CLOSEUP_ROOM(1200, 0), closeup_torso_actors, closeup_items),
	SCENE("closeup-approach", "closeup", "walking up to the sensor from 3 m to 0.6 m and back",
	      14.0, CLOSEUP_ROOM(1100, 0), closeup_approach_actors, closeup_items),
	SCENE_BARE("five-row", "five",
	           "five adults side by side 1.8 to 2.6 m off, touching and hiding one another, "
	           "depth registered to colour: still, then moving a little",
	           14.0, ROOM_REGISTERED(1200, 8, 5500), five_row_actors),
	SCENE_BARE("five-walk", "five", "five people of all sizes walking about 2 to 4.5 m off",
	           16.0, ROOM_IN(1000, 3, 0, 5200, 3000, 0), five_walk_actors),
	SCENE("sideon-folder", "sideon",
	      "a man walks side-on across a wall with a doorway, a folder in his hand; stops "
	      "side-on; walks back",
	      14.0, ROOM_AT(1000, 2, 0, 6000), sideon_folder_actors, sideon_items),
	SCENE("sideon-cross", "sideon",
	      "two walk across side-on, one behind the other; a child comes out of the doorway",
	      12.0, ROOM_AT(1000, 2, 0, 6000), sideon_cross_actors, sideon_items),
	SCENE("camera-eye", "camera", "the sensor at eye height, level: walk in, wave, arms up",
	      10.0, ROOM_IN(1650, 0, 0, 5000, 2800, 2600), camera_eye_actors, camera_items),
	SCENE("camera-high", "camera",
	      "the sensor 2.2 m up tilted down 28 degrees; someone passes below it", 10.0,
	      ROOM_IN(2200, 28, 0, 5000, 2800, 2600), camera_high_actors, camera_items),
	SCENE("camera-low", "camera", "the sensor 0.4 m up tilted up 12 degrees: a ceiling in view",
	      10.0, ROOM_IN(400, -12, 0, 5000, 2800, 2600), camera_low_actors, camera_items),
	SCENE("camera-roll", "camera",
	      "the sensor rolled 8 degrees: two people lean in the picture", 10.0,
	      ROOM_IN(1000, 3, 8, 5000, 2800, 2600), camera_roll_actors, camera_items),
	SCENE("camera-roll-high", "camera",
	      "the sensor 2.1 m up, tilted down 25 degrees and rolled -6 degrees", 10.0,
	      ROOM_IN(2100, 25, -6, 5000, 2800, 2600), camera_roll_high_actors, camera_items),
	SCENE("seated-sofa", "seated",
	      "two on a sofa, leaning back; one gets up, walks off, comes back and sits down", 20.0,
	      ROOM_IN(1000, 5, 0, 4200, 2600, 0), sofa_actors, living_items),
	SCENE("seated-chairs", "seated",
	      "chairs in a living room: one gets up, one walks in and sits down, a child sits",
	      16.0, ROOM_IN(1000, 5, 0, 4300, 2600, 0), chairs_actors, chairs_items),
	SCENE("seated-far", "seated", "a person seated 2.6 m off, turned, moving the arms", 10.0,
	      ROOM_AT(1000, 3, 0, 4500), seated_far_actors, seated_far_items),
	SCENE("lean-back", "lean",
	      "a broad man 2.5 m off leans back 12 and 18 degrees, arms crossed, fists shown, "
	      "then bows forward; a woman 3.3 m off leans back and forward",
	      14.0, ROOM_AT(1000, 3, 0, 4500), lean_actors, camera_items),
	SCENE("clutter-walk", "clutter",
	      "a furnished office: one comes in through a doorway, one from the side, walking "
	      "among and behind the furniture",
	      16.0, OFFICE_ROOM, office_actors, office_items),
	{ .name = "clutter-empty",
	  .description = "the furnished office with nobody in it",
	  .group = "clutter",
	  .duration = 8.0,
	  .room = OFFICE_ROOM,
	  .items = office_items,
	  .n_items = G_N_ELEMENTS(office_items) },
	{ .name = "clutter-chair",
	  .description = "a person moves a chair a metre and leaves it",
	  .group = "clutter",
	  .duration = 13.0,
	  .room = ROOM_IN(1100, 5, 0, 5000, 2800, 2600),
	  .actors = chair_mover_actors,
	  .n_actors = G_N_ELEMENTS(chair_mover_actors),
	  .items = moved_chair_items,
	  .n_items = G_N_ELEMENTS(moved_chair_items),
	  .movers = moved_chair,
	  .n_movers = G_N_ELEMENTS(moved_chair),
	  .sway = TRUE },
	SCENE_BARE("range-steps", "range",
	           "one person steps back from 0.6 m to 4.5 m, waving at every stop", 24.0,
	           ROOM_IN(1600, 3, 0, 5500, 3000, 2700), range_steps_actors),
	SCENE_BARE("range-spread", "range",
	           "four at once: a child at 1 m, adults at 2 and 3.2 m, a tall man at 4.5 m", 12.0,
	           ROOM_IN(1200, 5, 0, 5500, 3000, 0), range_spread_actors),
};

const DemoScript *
demo_rooms_scripts(guint *n)
{
	G_STATIC_ASSERT(G_N_ELEMENTS(scripts) <= DEMO_ROOMS_MAX_SCRIPTS);
	*n = G_N_ELEMENTS(scripts);
	return scripts;
}
