#include "demo-scene.h"

#include <math.h>
#include <string.h>

#include "demo-hands.h"
#include "demo-rooms.h"
#include "demo-views.h"

/* The formatter would space the quark's name out as a subtraction. */
/* clang-format off */
G_DEFINE_QUARK(skelbridge-demo-scene-error-quark, demo_scene_error)
/* clang-format on */

/* A hand's surface is this near in front of the hand joint (a fist's is
 * 35 mm), give or take the sensor's noise at 3 m. */
#define TRUTH_HAND_FRONT_MM  90.0
#define TRUTH_HAND_BEHIND_MM 40.0

#define MAX_CAPSULES (DEMO_MAX_PEOPLE * DEMO_BODY_MAX_CAPSULES)

struct _DemoScene {
	const DemoScript *script;
	guint view;
	guint64 seed; /* the view's own */
	guint64 n_frames;
	DemoRenderer *renderer;
	DemoBody bodies[DEMO_MAX_PEOPLE];
	DemoCapsule capsules[MAX_CAPSULES];
	/* What moves besides people: carried folders, moved furniture. */
	GArray *blocks, *capsules_moving;
	guint8 *labels;
	DemoTruth truth;
};

/* ---- the library of scripts ---- */

#define RELAXED_HANDS                                                                              \
	{                                                                                          \
		DEMO_HAND_RELAXED, DEMO_HAND_RELAXED                                               \
	}
#define K(t, x, z, yaw, l, r, legs)                                                                \
	{                                                                                          \
		t, x, z, yaw, DEMO_ARM_##l, DEMO_ARM_##r, DEMO_LEGS_##legs, 0.0, 0.0,              \
		        RELAXED_HANDS                                                              \
	}

#define ACTOR(h, keys_)                                                                            \
	{                                                                                          \
		.height = h, .keys = keys_, .n_keys = G_N_ELEMENTS(keys_)                          \
	}

/* A room like a living room or a small gallery: the sensor 1 m up and
 * tilted 1 degree down, a back wall 4.8 m away. */
#define ROOM                                                                                       \
	{                                                                                          \
		.camera_height = 1000.0, .pitch = 1.0 * G_PI / 180.0, .wall_z = 4800.0,            \
		.noise = TRUE                                                                      \
	}

/* The routine performs every gesture the recognisers know; routine_gestures
 * below says which happens when. */
static const DemoKey routine_main[] = {
	K(0.0, 0, 3000, 0, DOWN, DOWN, STAND),
	K(2.5, 0, 3000, 0, DOWN, DOWN, STAND),
	/* raise both arms and hold them up */
	K(4.0, 0, 3000, 0, UP, UP, STAND),
	K(5.5, 0, 3000, 0, UP, UP, STAND),
	K(7.0, 0, 3000, 0, DOWN, DOWN, STAND),
	/* wave the right hand at head height */
	K(8.0, 0, 3000, 0, DOWN, WAVE, STAND),
	K(12.0, 0, 3000, 0, DOWN, WAVE, STAND),
	K(13.0, 0, 3000, 0, DOWN, DOWN, STAND),
	/* push the left hand toward the sensor, quickly */
	K(14.0, 0, 3000, 0, READY, DOWN, STAND),
	K(14.3, 0, 3000, 0, PUSH, DOWN, STAND),
	K(15.6, 0, 3000, 0, PUSH, DOWN, STAND),
	K(16.4, 0, 3000, 0, CHEST, DOWN, STAND),
	K(17.2, 0, 3000, 0, DOWN, DOWN, STAND),
	/* hands on hips */
	K(18.2, 0, 3000, 0, HIP, HIP, STAND),
	K(21.0, 0, 3000, 0, HIP, HIP, STAND),
	K(22.0, 0, 3000, 0, DOWN, DOWN, STAND),
	/* walk across the room and back */
	K(22.6, 0, 3000, 35, SWING, SWING, WALK),
	K(25.6, -1300, 3200, 35, SWING, SWING, WALK),
	K(26.4, -1300, 3200, -35, SWING, SWING, WALK),
	K(32.4, 1300, 3200, -35, SWING, SWING, WALK),
	K(33.2, 1300, 3200, 35, SWING, SWING, WALK),
	K(36.2, 0, 3000, 0, SWING, SWING, WALK),
	K(37.0, 0, 3000, 0, DOWN, DOWN, STAND),
	/* cross the arms while the visitor is there */
	K(41.0, 0, 3000, 0, CROSS, CROSS, STAND),
	K(44.0, 0, 3000, 0, CROSS, CROSS, STAND),
	K(45.0, 0, 3000, 0, DOWN, DOWN, STAND),
	K(52.0, 0, 3000, 0, DOWN, DOWN, STAND),
	/* the right hand swipes to the left across the chest, then back */
	K(53.2, 0, 3000, 0, DOWN, FRONT_OUT, STAND),
	K(54.0, 0, 3000, 0, DOWN, FRONT_OUT, STAND),
	K(54.35, 0, 3000, 0, DOWN, FRONT_ACROSS, STAND),
	K(55.5, 0, 3000, 0, DOWN, FRONT_ACROSS, STAND),
	K(55.85, 0, 3000, 0, DOWN, FRONT_OUT, STAND),
	K(56.6, 0, 3000, 0, DOWN, FRONT_OUT, STAND),
	K(57.8, 0, 3000, 0, DOWN, DOWN, STAND),
	/* the left hand swipes up, then down */
	K(59.0, 0, 3000, 0, FRONT_LOW, DOWN, STAND),
	K(59.5, 0, 3000, 0, FRONT_LOW, DOWN, STAND),
	K(59.85, 0, 3000, 0, FRONT_HIGH, DOWN, STAND),
	K(60.5, 0, 3000, 0, FRONT_HIGH, DOWN, STAND),
	K(60.85, 0, 3000, 0, FRONT_LOW, DOWN, STAND),
	K(61.5, 0, 3000, 0, FRONT_LOW, DOWN, STAND),
	K(62.7, 0, 3000, 0, DOWN, DOWN, STAND),
	/* a clap */
	K(63.9, 0, 3000, 0, APART, APART, STAND),
	K(64.5, 0, 3000, 0, APART, APART, STAND),
	K(64.75, 0, 3000, 0, CLAP, CLAP, STAND),
	K(65.3, 0, 3000, 0, CLAP, CLAP, STAND),
	K(66.5, 0, 3000, 0, DOWN, DOWN, STAND),
	/* arms held out to the sides, still */
	K(67.7, 0, 3000, 0, OUT, OUT, STAND),
	K(70.0, 0, 3000, 0, OUT, OUT, STAND),
	K(71.2, 0, 3000, 0, DOWN, DOWN, STAND),
	K(72.5, 0, 3000, 0, DOWN, DOWN, STAND),
};

/* A second, smaller person enters from the right, waves and leaves. */
static const DemoKey routine_visitor[] = {
	K(37.5, 3000, 3500, 50, SWING, SWING, WALK),  K(40.5, 1000, 3500, 50, SWING, SWING, WALK),
	K(41.3, 1000, 3500, 0, DOWN, DOWN, STAND),    K(42.5, 1000, 3500, 0, WAVE, DOWN, STAND),
	K(45.5, 1000, 3500, 0, WAVE, DOWN, STAND),    K(46.5, 1000, 3500, 0, DOWN, DOWN, STAND),
	K(47.3, 1000, 3500, -50, SWING, SWING, WALK), K(50.5, 3000, 3500, -50, SWING, SWING, WALK),
};

static const DemoActor routine_actors[] = {
	ACTOR(1750.0, routine_main),
	ACTOR(1450.0, routine_visitor),
};

/* What the routine performs. A window opens when the gesture's movement
 * starts and closes a little after it ends; holds close once held long
 * enough and some. Raising both arms is a raised hand for each. */
static const DemoGesture routine_gestures[] = {
	{ "raise_hand", 1, "left", 2.5, 7.0 },     { "raise_hand", 1, "right", 2.5, 7.0 },
	{ "wave", 1, "right", 7.0, 13.0 },         { "push", 1, "left", 14.0, 15.0 },
	{ "wave", 2, "left", 41.3, 46.5 },         { "swipe_left", 1, "right", 54.0, 54.9 },
	{ "swipe_right", 1, "right", 55.5, 56.4 }, { "swipe_up", 1, "left", 59.5, 60.4 },
	{ "swipe_down", 1, "left", 60.5, 61.4 },   { "clap", 1, "both", 64.5, 65.3 },
	{ "arms_out", 1, "both", 67.7, 70.0 },
};

/* Every pose held in turn by one person. */
#define POSES_AT(x, z, yaw)                                                                        \
	K(0.0, x, z, yaw, DOWN, DOWN, STAND), K(1.5, x, z, yaw, DOWN, DOWN, STAND),                \
	        K(2.2, x, z, yaw, UP, UP, STAND), K(3.7, x, z, yaw, UP, UP, STAND),                \
	        K(4.4, x, z, yaw, OUT, OUT, STAND), K(5.9, x, z, yaw, OUT, OUT, STAND),            \
	        K(6.6, x, z, yaw, DOWN, WAVE, STAND), K(8.6, x, z, yaw, DOWN, WAVE, STAND),        \
	        K(9.3, x, z, yaw, WAVE, DOWN, STAND), K(11.3, x, z, yaw, WAVE, DOWN, STAND),       \
	        K(12.0, x, z, yaw, DOWN, CHEST, STAND), K(12.7, x, z, yaw, DOWN, PUSH, STAND),     \
	        K(14.2, x, z, yaw, DOWN, PUSH, STAND), K(14.9, x, z, yaw, PUSH, PUSH, STAND),      \
	        K(16.4, x, z, yaw, PUSH, PUSH, STAND), K(17.1, x, z, yaw, HIP, HIP, STAND),        \
	        K(18.6, x, z, yaw, HIP, HIP, STAND), K(19.3, x, z, yaw, CROSS, CROSS, STAND),      \
	        K(20.8, x, z, yaw, CROSS, CROSS, STAND), K(21.5, x, z, yaw, DOWN, POINT, STAND),   \
	        K(23.0, x, z, yaw, DOWN, POINT, STAND), K(23.7, x, z, yaw, POINT, DOWN, STAND),    \
	        K(25.2, x, z, yaw, POINT, DOWN, STAND), K(26.0, x, z, yaw, DOWN, DOWN, STAND)

static const DemoKey poses_adult[] = { POSES_AT(0, 3000, 0) };
static const DemoKey poses_tall[] = { POSES_AT(-200, 3400, 0) };
static const DemoKey poses_near[] = { POSES_AT(0, 1300, 0) };
static const DemoKey poses_far[] = { POSES_AT(300, 4000, 0) };
static const DemoKey poses_child[] = { POSES_AT(-200, 2500, 0) };
static const DemoKey poses_left45[] = { POSES_AT(-300, 3000, 45) };
static const DemoKey poses_right45[] = { POSES_AT(300, 3000, -45) };

static const DemoActor poses_actors[] = { ACTOR(1750.0, poses_adult) };
static const DemoActor near_actors[] = { ACTOR(1750.0, poses_near) };
static const DemoActor far_actors[] = { ACTOR(1800.0, poses_far) };
static const DemoActor child_actors[] = { ACTOR(1150.0, poses_child) };
static const DemoActor tall_actors[] = { ACTOR(1950.0, poses_tall) };
static const DemoActor turned_actors[] = {
	ACTOR(1700.0, poses_left45),
	ACTOR(1700.0, poses_right45),
};

/* Three people: two standing shoulder to shoulder, one by the back wall. */
static const DemoKey crowd_a[] = {
	K(0.0, -550, 2800, 0, DOWN, DOWN, STAND),  K(3.0, -550, 2800, 0, UP, DOWN, STAND),
	K(6.0, -550, 2800, 0, HIP, HIP, STAND),    K(9.0, -550, 2800, 0, DOWN, WAVE, STAND),
	K(12.0, -550, 2800, 0, DOWN, DOWN, STAND),
};
static const DemoKey crowd_b[] = {
	K(0.0, -80, 2850, 0, DOWN, DOWN, STAND),   K(3.0, -80, 2850, 0, DOWN, UP, STAND),
	K(6.0, -80, 2850, 0, CROSS, CROSS, STAND), K(9.0, -80, 2850, 0, PUSH, DOWN, STAND),
	K(12.0, -80, 2850, 0, DOWN, DOWN, STAND),
};
static const DemoKey crowd_c[] = {
	K(0.0, 900, 4400, 0, DOWN, DOWN, STAND),     K(3.0, 900, 4400, 0, OUT, OUT, STAND),
	K(6.0, 900, 4400, 0, DOWN, DOWN, STAND),     K(9.0, 900, 4400, -20, SWING, SWING, WALK),
	K(12.0, 300, 4400, -20, SWING, SWING, WALK),
};
static const DemoActor crowd_actors[] = {
	ACTOR(1600.0, crowd_a),
	ACTOR(1850.0, crowd_b),
	ACTOR(1300.0, crowd_c),
};

/* Walking across the whole view and back. */
static const DemoKey walk_keys[] = {
	K(0.0, -2200, 3000, -40, SWING, SWING, WALK),
	K(8.0, 2200, 3000, -40, SWING, SWING, WALK),
	K(8.8, 2200, 3000, 40, SWING, SWING, WALK),
	K(16.8, -2200, 3000, 40, SWING, SWING, WALK),
};
static const DemoActor walk_actors[] = { ACTOR(1750.0, walk_keys) };

/* A chair and a box: furniture, never a user. */
static const DemoBox furniture[] = {
	/* chair: seat, back, four legs */
	{ { -1400, 420, 3000 }, { -950, 470, 3450 }, DEMO_LABEL_PROP },
	{ { -1400, 470, 3400 }, { -950, 920, 3450 }, DEMO_LABEL_PROP },
	{ { -1400, 0, 3000 }, { -1360, 420, 3040 }, DEMO_LABEL_PROP },
	{ { -990, 0, 3000 }, { -950, 420, 3040 }, DEMO_LABEL_PROP },
	{ { -1400, 0, 3410 }, { -1360, 420, 3450 }, DEMO_LABEL_PROP },
	{ { -990, 0, 3410 }, { -950, 420, 3450 }, DEMO_LABEL_PROP },
	/* a box */
	{ { 800, 0, 2600 }, { 1300, 500, 3100 }, DEMO_LABEL_PROP },
	/* a tall cabinet by the wall */
	{ { 1500, 0, 4300 }, { 2100, 1800, 4750 }, DEMO_LABEL_PROP },
};
static const DemoKey furniture_keys[] = {
	K(3.0, 200, 3800, 20, SWING, SWING, WALK), K(6.0, -300, 2700, 20, SWING, SWING, WALK),
	K(6.8, -300, 2700, 0, DOWN, DOWN, STAND),  K(8.0, -300, 2700, 0, DOWN, WAVE, STAND),
	K(10.0, -300, 2700, 0, HIP, HIP, STAND),   K(12.0, -300, 2700, 0, DOWN, DOWN, STAND),
};
static const DemoActor furniture_actors[] = {
	ACTOR(1700.0, furniture_keys),
};

/* Ordinary movement, for counting false gestures: what people do in front
 * of an installation when they are not gesturing. A minute of it, mostly
 * with the right hand; the other minute mostly with the left. A hand held
 * high comes down through the front, as people lower it: blending its
 * directions straight down would flick the forearm over in a blink. */
#define ORDINARY_A(t, x, z)                                                                        \
	K(t + 0.0, x, z, 0, DOWN, DOWN, STAND), K(t + 3.0, x + 120, z, 0, DOWN, DOWN, STAND),      \
	        K(t + 6.0, x - 60, z, 0, DOWN, DOWN, STAND),                                       \
	        K(t + 7.0, x, z, 0, DOWN, DOWN, STAND), /* hands on hips */                        \
	        K(t + 8.2, x, z, 0, HIP, HIP, STAND), K(t + 12.0, x, z, 0, HIP, HIP, STAND),       \
	        K(t + 13.2, x, z, 0, DOWN, DOWN, STAND),                                           \
	        K(t + 15.0, x, z, 0, DOWN, DOWN, STAND), /* scratching the head */                 \
	        K(t + 16.2, x, z, 0, DOWN, SCRATCH, STAND),                                        \
	        K(t + 19.0, x, z, 0, DOWN, SCRATCH, STAND),                                        \
	        K(t + 20.2, x, z, 0, DOWN, DOWN, STAND),                                           \
	        K(t + 22.0, x, z, 0, DOWN, DOWN, STAND), /* reaching out slowly, and across */     \
	        K(t + 24.5, x, z, 0, DOWN, FRONT_OUT, STAND),                                      \
	        K(t + 26.0, x, z, 0, DOWN, FRONT_OUT, STAND),                                      \
	        K(t + 28.5, x, z, 0, DOWN, FRONT_ACROSS, STAND),                                   \
	        K(t + 30.0, x, z, 0, DOWN, FRONT_ACROSS, STAND),                                   \
	        K(t + 32.0, x, z, 0, DOWN, DOWN, STAND), /* pointing */                            \
	        K(t + 33.0, x, z, 0, DOWN, DOWN, STAND), K(t + 33.8, x, z, 0, DOWN, POINT, STAND), \
	        K(t + 36.0, x, z, 0, DOWN, POINT, STAND), K(t + 36.9, x, z, 0, DOWN, DOWN, STAND), \
	        K(t + 38.0, x, z, 0, DOWN, DOWN, STAND), /* walking about */                       \
	        K(t + 38.8, x, z, 35, SWING, SWING, WALK),                                         \
	        K(t + 42.3, x - 1200, z + 300, 35, SWING, SWING, WALK),                            \
	        K(t + 43.1, x - 1200, z + 300, -35, SWING, SWING, WALK),                           \
	        K(t + 46.6, x, z, -35, SWING, SWING, WALK),                                        \
	        K(t + 47.4, x, z, 0, DOWN, DOWN, STAND),                                           \
	        K(t + 49.0, x, z, 0, DOWN, DOWN, STAND), /* a stretch, arms out a moment */        \
	        K(t + 50.2, x, z, 0, OUT, OUT, STAND), K(t + 50.7, x, z, 0, OUT, OUT, STAND),      \
	        K(t + 52.0, x, z, 0, DOWN, DOWN, STAND),                                           \
	        K(t + 54.0, x, z, 0, DOWN, DOWN, STAND), /* arms folded */                         \
	        K(t + 56.0, x, z, 0, CROSS, CROSS, STAND),                                         \
	        K(t + 58.5, x, z, 0, CROSS, CROSS, STAND)

#define ORDINARY_B(t, x, z)                                                                        \
	K(t + 0.0, x, z, 0, DOWN, DOWN, STAND), K(t + 2.5, x - 100, z + 80, 0, DOWN, DOWN, STAND), \
	        K(t + 5.0, x, z, 0, DOWN, DOWN, STAND), /* pointing */                             \
	        K(t + 6.0, x, z, 0, DOWN, DOWN, STAND), K(t + 6.9, x, z, 0, POINT, DOWN, STAND),   \
	        K(t + 9.0, x, z, 0, POINT, DOWN, STAND), K(t + 9.9, x, z, 0, DOWN, DOWN, STAND),   \
	        K(t + 11.0, x, z, 0, DOWN, DOWN, STAND), /* scratching the head */                 \
	        K(t + 12.2, x, z, 0, SCRATCH, DOWN, STAND),                                        \
	        K(t + 14.5, x, z, 0, SCRATCH, DOWN, STAND),                                        \
	        K(t + 15.7, x, z, 0, DOWN, DOWN, STAND), /* walking about */                       \
	        K(t + 16.5, x, z, -35, SWING, SWING, WALK),                                        \
	        K(t + 20.0, x + 1100, z - 200, -35, SWING, SWING, WALK),                           \
	        K(t + 20.8, x + 1100, z - 200, 35, SWING, SWING, WALK),                            \
	        K(t + 24.3, x, z, 35, SWING, SWING, WALK),                                         \
	        K(t + 25.1, x, z, 0, DOWN, DOWN, STAND),                                           \
	        K(t + 27.0, x, z, 0, DOWN, DOWN, STAND), /* reaching down, then up, slowly */      \
	        K(t + 29.5, x, z, 0, FRONT_LOW, DOWN, STAND),                                      \
	        K(t + 30.5, x, z, 0, FRONT_LOW, DOWN, STAND),                                      \
	        K(t + 33.5, x, z, 0, FRONT_HIGH, DOWN, STAND),                                     \
	        K(t + 34.5, x, z, 0, FRONT_HIGH, DOWN, STAND),                                     \
	        K(t + 37.5, x, z, 0, FRONT_LOW, DOWN, STAND),                                      \
	        K(t + 38.5, x, z, 0, DOWN, DOWN, STAND), /* a hand on the hip */                   \
	        K(t + 38.8, x, z, 0, DOWN, DOWN, STAND), K(t + 39.8, x, z, 0, HIP, DOWN, STAND),   \
	        K(t + 43.0, x, z, 0, HIP, DOWN, STAND),                                            \
	        K(t + 44.2, x, z, 0, DOWN, DOWN, STAND), /* holding something to the chest */      \
	        K(t + 45.0, x, z, 0, DOWN, DOWN, STAND),                                           \
	        K(t + 46.2, x, z, 0, CHEST, CHEST, STAND),                                         \
	        K(t + 49.0, x, z, 0, CHEST, CHEST, STAND),                                         \
	        K(t + 50.2, x, z, 0, DOWN, DOWN, STAND), /* shifting from foot to foot */          \
	        K(t + 52.0, x, z, 0, DOWN, DOWN, STAND),                                           \
	        K(t + 55.0, x + 150, z, 0, DOWN, DOWN, STAND),                                     \
	        K(t + 58.0, x - 100, z, 0, DOWN, DOWN, STAND),                                     \
	        K(t + 59.5, x, z, 0, DOWN, DOWN, STAND)

static const DemoKey ordinary_adult[] = {
	ORDINARY_A(0.0, -700, 3000),   ORDINARY_B(60.0, -700, 3000),
	ORDINARY_A(120.0, -700, 3000), ORDINARY_B(180.0, -700, 3000),
	ORDINARY_A(240.0, -700, 3000), K(300.0, -700, 3000, 0, DOWN, DOWN, STAND),
};

/* The child walks in, does the same things in another order, and leaves
 * before the end. */
static const DemoKey ordinary_child[] = {
	K(8.0, 2800, 3700, 60, SWING, SWING, WALK),
	K(13.0, 700, 3700, 60, SWING, SWING, WALK),
	ORDINARY_B(14.0, 700, 3700),
	ORDINARY_A(74.0, 700, 3700),
	ORDINARY_B(134.0, 700, 3700),
	ORDINARY_A(194.0, 700, 3700),
	K(254.0, 700, 3700, 0, DOWN, DOWN, STAND),
	K(255.0, 700, 3700, -60, SWING, SWING, WALK),
	K(261.0, 3200, 3700, -60, SWING, SWING, WALK),
};

static const DemoActor ordinary_actors[] = {
	ACTOR(1750.0, ordinary_adult),
	ACTOR(1250.0, ordinary_child),
};

/* Hands as TUIO cursors: a right hand pushes through the touch plane,
 * drags to the user's right while staying pushed, and pulls back. */
static const DemoKey tuio_drag_keys[] = {
	K(0.0, 0, 2600, 0, DOWN, DOWN, STAND),  K(1.0, 0, 2600, 0, DOWN, DOWN, STAND),
	K(1.6, 0, 2600, 0, DOWN, PUSH, STAND),  K(2.2, 0, 2600, 0, DOWN, PUSH, STAND),
	K(3.4, 0, 2600, 0, DOWN, POINT, STAND), K(4.0, 0, 2600, 0, DOWN, POINT, STAND),
	K(4.8, 0, 2600, 0, DOWN, DOWN, STAND),  K(6.0, 0, 2600, 0, DOWN, DOWN, STAND),
};
static const DemoActor tuio_drag_actors[] = {
	ACTOR(1750.0, tuio_drag_keys),
};

/* Two people push both hands at the sensor together: four cursors. */
#define TUIO_TWO_AT(x)                                                                             \
	K(0.0, x, 2900, 0, DOWN, DOWN, STAND), K(1.0, x, 2900, 0, DOWN, DOWN, STAND),              \
	        K(1.6, x, 2900, 0, PUSH, PUSH, STAND), K(3.0, x, 2900, 0, PUSH, PUSH, STAND),      \
	        K(3.8, x, 2900, 0, DOWN, DOWN, STAND), K(5.0, x, 2900, 0, DOWN, DOWN, STAND)
static const DemoKey tuio_two_left[] = { TUIO_TWO_AT(-650) };
static const DemoKey tuio_two_right[] = { TUIO_TWO_AT(650) };
static const DemoActor tuio_two_actors[] = {
	ACTOR(1700.0, tuio_two_left),
	ACTOR(1600.0, tuio_two_right),
};

/* Close up, the sensor sits higher and looks down to see a face. */
#define ROOM_HIGH                                                                                  \
	{                                                                                          \
		.camera_height = 1500.0, .pitch = 8.0 * G_PI / 180.0, .wall_z = 4800.0,            \
		.noise = TRUE                                                                      \
	}

#define SCRIPT_IN(room_, name_, desc, group_, duration_, actors_, props_, n_props_)                \
	{                                                                                          \
		.name = name_, .description = desc, .group = group_, .duration = duration_,        \
		.room = room_, .actors = actors_, .n_actors = G_N_ELEMENTS(actors_),               \
		.props = props_, .n_props = n_props_                                               \
	}
#define SCRIPT(...) SCRIPT_IN(ROOM, __VA_ARGS__)
#define SCRIPT_GESTURES(name_, desc, group_, duration_, actors_, gestures_)                        \
	{                                                                                          \
		.name = name_, .description = desc, .group = group_, .duration = duration_,        \
		.room = ROOM, .actors = actors_, .n_actors = G_N_ELEMENTS(actors_),                \
		.gestures = gestures_, .n_gestures = G_N_ELEMENTS(gestures_)                       \
	}

static const DemoScript library[] = {
	SCRIPT_GESTURES("routine",
	                "the demo: stand, arms up, wave, push, hands on hips, walk; a visitor "
	                "comes and goes; swipes, a clap, arms held out",
	                "routine", 72.5, routine_actors, routine_gestures),
	SCRIPT("poses", "every pose, an adult at 3 m", "standing", 26.0, poses_actors, NULL, 0),
	SCRIPT_IN(ROOM_HIGH, "near", "every pose at 1.3 m, the sensor 1.5 m up: upper body only",
	          "near", 26.0, near_actors, NULL, 0),
	SCRIPT("far", "every pose at 4 m", "far", 26.0, far_actors, NULL, 0),
	SCRIPT("child", "every pose, a 1.15 m child at 2.5 m", "standing", 26.0, child_actors, NULL,
	       0),
	SCRIPT("tall", "every pose, a 1.95 m adult at 3.4 m", "standing", 26.0, tall_actors, NULL,
	       0),
	SCRIPT("turned", "every pose, two people turned 45 degrees", "turned", 26.0, turned_actors,
	       NULL, 0),
	SCRIPT("crowd", "three people, two touching, one by the wall", "crowd", 12.0, crowd_actors,
	       NULL, 0),
	SCRIPT("walk", "walking across the whole view and back", "walk", 16.8, walk_actors, NULL,
	       0),
	SCRIPT("furniture", "a chair, a box and a cabinet; a person comes in", "furniture", 12.0,
	       furniture_actors, furniture, G_N_ELEMENTS(furniture)),
	SCRIPT("ordinary",
	       "five minutes of ordinary movement by an adult and a child, and no gesture",
	       "ordinary", 300.0, ordinary_actors, NULL, 0),
	SCRIPT("tuio-drag", "a hand pushes, drags to the side and pulls back", "tuio", 6.0,
	       tuio_drag_actors, NULL, 0),
	SCRIPT("tuio-two", "two people push both hands at the sensor", "tuio", 5.0, tuio_two_actors,
	       NULL, 0),
	{ .name = "empty",
	  .description = "the room with its furniture and nobody",
	  .group = "empty",
	  .duration = 4.0,
	  .room = ROOM,
	  .props = furniture,
	  .n_props = G_N_ELEMENTS(furniture) },
};

/* The library: the scripts above, then the rooms', the hands' and the
 * views'. */
static const DemoScript *
library_script(guint i)
{
	guint n_rooms, n_hands, n_views;
	const DemoScript *rooms = demo_rooms_scripts(&n_rooms);
	const DemoScript *hands = demo_hands_scripts(&n_hands);
	const DemoScript *views = demo_views_scripts(&n_views);

	if (i < G_N_ELEMENTS(library))
		return &library[i];
	i -= G_N_ELEMENTS(library);
	if (i < n_rooms)
		return &rooms[i];
	i -= n_rooms;
	if (i < n_hands)
		return &hands[i];
	i -= n_hands;
	return i < n_views ? &views[i] : NULL;
}

const char *const *
demo_scene_names(void)
{
	static const char *names[G_N_ELEMENTS(library) + DEMO_ROOMS_MAX_SCRIPTS +
	                         DEMO_HANDS_MAX_SCRIPTS + DEMO_VIEWS_MAX_SCRIPTS + 1];
	const DemoScript *script;
	guint i;

	for (i = 0; (script = library_script(i)) != NULL && i + 1 < G_N_ELEMENTS(names); i++)
		names[i] = script->name;
	names[i] = NULL;
	return names;
}

/* ---- playing a script ---- */

static double
smoothstep(double x)
{
	x = CLAMP(x, 0.0, 1.0);
	return x * x * (3.0 - 2.0 * x);
}

static void
key_limbs(const DemoKey *key, double t, DemoLimbs *limbs)
{
	demo_body_limbs(key->left, key->right, key->legs, t, limbs);
}

/* Sitting down and getting up: how far down onto the seat, and which. */
static void
key_seat(const DemoKey *k0, const DemoKey *k1, double w, DemoBodyState *state)
{
	double s0 = k0->legs == DEMO_LEGS_SIT && k0->seat > 0.0 ? 1.0 : 0.0;
	double s1 = k1->legs == DEMO_LEGS_SIT && k1->seat > 0.0 ? 1.0 : 0.0;

	state->seat = s0 > 0.0 ? k0->seat : s1 > 0.0 ? k1->seat : 0.0;
	state->sit = s0 + (s1 - s0) * w;
}

/* Nobody holds perfectly still. Standing, the body sways as it balances,
 * a centimetre or so each way and slowly; seated, the trunk rocks less.
 * Two sines of unrelated periods, each actor from its own phase, and
 * from the scripted place at the scene's start. */
static double
idle_wave(double t, double period_a, double period_b, double phase)
{
	double a = 2.0 * G_PI * t / period_a + phase, b = 2.0 * G_PI * t / period_b + 2.0 * phase;

	return 0.6 * (sin(a) - sin(phase)) + 0.4 * (sin(b) - sin(2.0 * phase));
}

static void
actor_idle(guint index, double t, DemoBodyState *state)
{
	double phase = 2.399 * (index + 1); /* the golden angle: actors apart */
	double side = idle_wave(t, 6.1, 2.3, phase), front = idle_wave(t, 7.7, 3.1, 3.0 * phase);
	double c = cos(state->yaw), s = sin(state->yaw);
	double sway = 1.0 - state->sit;

	/* Side to side up to 7 mm, back and forth up to 9 mm (the waves
	 * reach 2 at most). */
	state->root.x += sway * 0.5 * (7.0 * side * c - 9.0 * front * s);
	state->root.z += sway * 0.5 * (-7.0 * side * s - 9.0 * front * c);
	/* Seated, up to half a degree: the head moves up to 7 mm. */
	state->lean += state->sit * 0.25 * front * G_PI / 180.0;
}

/* The actor's state at @t; FALSE when it is not in the scene then. */
static gboolean
actor_state(const DemoActor *actor, double t, DemoBodyState *state)
{
	const DemoKey *k0, *k1;
	DemoLimbs l0, l1;
	guint i = 0;
	double w;

	if (actor->n_keys == 0 || t < actor->keys[0].t || t > actor->keys[actor->n_keys - 1].t)
		return FALSE;
	while (i + 1 < actor->n_keys && actor->keys[i + 1].t <= t)
		i++;
	k0 = &actor->keys[i];
	k1 = i + 1 < actor->n_keys ? &actor->keys[i + 1] : k0;
	w = k1->t > k0->t ? (t - k0->t) / (k1->t - k0->t) : 0.0;
	state->root = tracker_vec3(k0->x + (k1->x - k0->x) * w, 0.0, k0->z + (k1->z - k0->z) * w);
	state->yaw = (k0->yaw_deg + (k1->yaw_deg - k0->yaw_deg) * w) * G_PI / 180.0;
	key_limbs(k0, t, &l0);
	key_limbs(k1, t, &l1);
	demo_body_blend(&l0, &l1, smoothstep(w), &state->limbs);
	state->lean = (k0->lean_deg + (k1->lean_deg - k0->lean_deg) * smoothstep(w)) * G_PI / 180.0;
	key_seat(k0, k1, smoothstep(w), state);
	state->hands[DEMO_SIDE_LEFT] = k0->hands[DEMO_SIDE_LEFT];
	state->hands[DEMO_SIDE_RIGHT] = k0->hands[DEMO_SIDE_RIGHT];
	return TRUE;
}

guint
demo_scene_skeletons(const DemoScene *scene, double t, DemoSkeleton *skeletons, guint *ids)
{
	const DemoScript *script = scene->script;
	guint n = 0;

	for (guint i = 0; i < script->n_actors && n < DEMO_MAX_PEOPLE; i++) {
		DemoBodyState state;

		if (!actor_state(&script->actors[i], t, &state))
			continue;
		if (script->sway)
			actor_idle(i, t, &state);
		demo_body_pose(&scene->bodies[i], &state, &skeletons[n]);
		ids[n++] = i + 1;
	}
	return n;
}

static void
truth_person(DemoScene *scene, const DemoSkeleton *sk, guint id, const DepthFrame *frame,
             DemoTruthPerson *p)
{
	const TrackerCamera *cam = demo_renderer_camera(scene->renderer);
	guint8 label = DEMO_LABEL_PERSON(id);

	memset(p, 0, sizeof(*p));
	p->id = id;
	p->height = sk->height;
	for (int j = 0; j < TRACKER_N_JOINTS; j++) {
		TrackerVec3 c = demo_renderer_to_camera(scene->renderer, sk->joints[j]);
		int ui, vi;

		p->joints[j] = c;
		p->world[j] = sk->joints[j];
		if (!tracker_camera_project(cam, c, &p->u[j], &p->v[j]))
			continue;
		ui = (int)floor(p->u[j] + 0.5);
		vi = (int)floor(p->v[j] + 0.5);
		p->in_view[j] = ui >= 0 && ui < DEPTH_WIDTH && vi >= 0 && vi < DEPTH_HEIGHT;
		p->visible[j] = p->in_view[j] && scene->labels[vi * DEPTH_WIDTH + ui] == label;
	}
	for (int i = 0; i < DEPTH_PIXELS; i++)
		p->pixels += scene->labels[i] == label && frame->mm[i] != 0;
}

/* Whether the sensor reads the hand's own surface about the hand joint
 * at @u, @v (camera space @joint): some reading a little in front of the
 * joint, where the hand's surface is, in the few pixels about it. */
static gboolean
truth_hand_seen(const DepthFrame *frame, TrackerVec3 joint, double u, double v)
{
	int u0 = (int)floor(u + 0.5), v0 = (int)floor(v + 0.5);

	for (int dv = -2; dv <= 2; dv++) {
		for (int du = -2; du <= 2; du++) {
			int uu = u0 + du, vv = v0 + dv;
			double z;

			if (uu < 0 || vv < 0 || uu >= DEPTH_WIDTH || vv >= DEPTH_HEIGHT)
				continue;
			z = frame->mm[vv * DEPTH_WIDTH + uu];
			if (z > 0.0 && z > joint.z - TRUTH_HAND_FRONT_MM &&
			    z < joint.z + TRUTH_HAND_BEHIND_MM)
				return TRUE;
		}
	}
	return FALSE;
}

static void
truth_hands(const DemoSkeleton *sk, const DepthFrame *frame, DemoTruthPerson *p)
{
	for (int side = 0; side < 2; side++) {
		int j = TRACKER_JOINT_LEFT_HAND + side;

		p->hands[side] = sk->hands[side];
		p->hand_seen[side] =
		        p->visible[j] && truth_hand_seen(frame, p->joints[j], p->u[j], p->v[j]);
	}
}

static guint64
frame_seed(guint64 seed, guint64 number)
{
	guint64 h = seed ^ (number * 0x9e3779b97f4a7c15ULL);

	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	return h ^ (h >> 33);
}

static void
add_parts(GArray *blocks, GArray *capsules, const DemoKitParts *parts)
{
	g_array_append_vals(blocks, parts->blocks, parts->n_blocks);
	g_array_append_vals(capsules, parts->capsules, parts->n_capsules);
}

/* Where a mover is at @t. */
static DemoPlace
mover_place(const DemoMover *mover, double t)
{
	const DemoPlace *p = mover->places;
	guint i = 0;
	double w;
	DemoPlace at;

	if (mover->n_places == 0 || t <= p[0].t)
		return mover->n_places == 0 ? (DemoPlace){ 0 } : p[0];
	while (i + 1 < mover->n_places && p[i + 1].t <= t)
		i++;
	if (i + 1 == mover->n_places)
		return p[i];
	w = smoothstep((t - p[i].t) / (p[i + 1].t - p[i].t));
	at.t = t;
	at.x = p[i].x + (p[i + 1].x - p[i].x) * w;
	at.z = p[i].z + (p[i + 1].z - p[i].z) * w;
	at.yaw_deg = p[i].yaw_deg + (p[i + 1].yaw_deg - p[i].yaw_deg) * w;
	return at;
}

/* Folders in hands and furniture on the move, into the scene's arrays. */
static void
moving_things(DemoScene *scene, double t, const DemoSkeleton *skeletons, const guint *ids, guint n)
{
	const DemoScript *script = scene->script;

	g_array_set_size(scene->blocks, 0);
	g_array_set_size(scene->capsules_moving, 0);
	for (guint k = 0; k < n; k++) {
		DemoCarry carry = script->actors[ids[k] - 1].carry;
		DemoBlock folder;

		if (carry == DEMO_CARRY_NOTHING)
			continue;
		demo_body_folder(&skeletons[k],
		                 carry == DEMO_CARRY_FOLDER_LEFT ? DEMO_SIDE_LEFT : DEMO_SIDE_RIGHT,
		                 DEMO_LABEL_PROP, &folder);
		g_array_append_val(scene->blocks, folder);
	}
	for (guint m = 0; m < script->n_movers; m++) {
		DemoPlace at = mover_place(&script->movers[m], t);
		DemoKitParts parts = { .n_blocks = 0 };

		demo_kit_build(&script->movers[m].item, at.x, at.z, at.yaw_deg, &parts);
		add_parts(scene->blocks, scene->capsules_moving, &parts);
	}
}

void
demo_scene_render(DemoScene *scene, guint64 number, DepthFrame *frame)
{
	const DemoScript *script = scene->script;
	DemoSkeleton skeletons[DEMO_MAX_PEOPLE];
	guint ids[DEMO_MAX_PEOPLE];
	double t = (double)(number % scene->n_frames) / DEMO_FPS;
	guint n = demo_scene_skeletons(scene, t, skeletons, ids);
	GArray *capsules = scene->capsules_moving;
	DemoShapes shapes = { 0 };
	guint n_capsules = 0;

	moving_things(scene, t, skeletons, ids, n);
	for (guint k = 0; k < n; k++)
		n_capsules += demo_body_capsules(&skeletons[k], DEMO_LABEL_PERSON(ids[k]),
		                                 scene->capsules + n_capsules);
	shapes.boxes = script->props;
	shapes.n_boxes = script->n_props;
	shapes.blocks = (const DemoBlock *)scene->blocks->data;
	shapes.n_blocks = scene->blocks->len;
	/* People last: on a tie in depth the first drawn stays. */
	g_array_append_vals(capsules, scene->capsules, n_capsules);
	shapes.capsules = (const DemoCapsule *)capsules->data;
	shapes.n_capsules = capsules->len;
	demo_renderer_draw(scene->renderer, &shapes, frame_seed(scene->seed, number), frame->raw,
	                   frame->mm, scene->labels);
	scene->truth.n_people = n;
	for (guint k = 0; k < n; k++) {
		truth_person(scene, &skeletons[k], ids[k], frame, &scene->truth.people[k]);
		truth_hands(&skeletons[k], frame, &scene->truth.people[k]);
	}
	frame->number = number;
	frame->time_us = (gint64)(number * G_USEC_PER_SEC / DEMO_FPS);
	/* The device clock is a free-running 32-bit counter; ours counts
	 * microseconds of scene time. */
	frame->timestamp = (guint32)frame->time_us;
	frame->truth = &scene->truth;
}

guint
demo_scene_script_n_views(const DemoScript *script)
{
	return MAX(script->n_views, 1u);
}

/* The script's view @view; without views, the room's own sensor. */
static DemoView
script_view(const DemoScript *script, guint view)
{
	if (script->n_views > 0)
		return script->views[view];
	return (DemoView){ .height = script->room.camera_height,
		           .pitch = script->room.pitch,
		           .roll = script->room.roll };
}

DemoPose
demo_scene_script_pose(const DemoScript *script, guint view)
{
	DemoView v;

	g_return_val_if_fail(view < demo_scene_script_n_views(script), (DemoPose){ 0 });
	v = script_view(script, view);
	return demo_renderer_view_pose(&v);
}

guint
demo_scene_view(const DemoScene *scene)
{
	return scene->view;
}

const DemoTruth *
demo_scene_truth(const DemoScene *scene)
{
	return &scene->truth;
}

/* Furniture that stays put is drawn into the room once. */
static void
furnish(DemoScene *scene)
{
	const DemoScript *script = scene->script;
	g_autoptr(GArray) blocks = g_array_new(FALSE, FALSE, sizeof(DemoBlock));
	g_autoptr(GArray) capsules = g_array_new(FALSE, FALSE, sizeof(DemoCapsule));
	DemoShapes shapes = { 0 };

	if (script->n_items == 0)
		return;
	for (guint i = 0; i < script->n_items; i++) {
		const DemoItem *item = &script->items[i];
		DemoKitParts parts = { .n_blocks = 0 };

		demo_kit_build(item, item->x, item->z, item->yaw_deg, &parts);
		add_parts(blocks, capsules, &parts);
	}
	shapes.blocks = (const DemoBlock *)blocks->data;
	shapes.n_blocks = blocks->len;
	shapes.capsules = (const DemoCapsule *)capsules->data;
	shapes.n_capsules = capsules->len;
	demo_renderer_add_fixtures(scene->renderer, &shapes);
}

static void
cast(DemoScene *scene)
{
	const DemoScript *script = scene->script;

	for (guint i = 0; i < script->n_actors; i++) {
		demo_body_init(&scene->bodies[i], script->actors[i].height,
		               script->actors[i].girth);
		scene->bodies[i].look = script->actors[i].look;
	}
}

/* Each view its own noise: view 0 keeps the seed, as scenes of one
 * sensor always have. */
static guint64
view_seed(guint64 seed, guint view)
{
	return view == 0 ? seed : seed ^ frame_seed(0x5ee5a11d1e5ULL, view);
}

DemoScene *
demo_scene_new_view(const DemoScript *script, guint view, guint64 seed)
{
	DemoScene *scene;
	DemoView v;

	g_return_val_if_fail(script->n_actors <= DEMO_MAX_PEOPLE, NULL);
	g_return_val_if_fail(script->n_views <= DEMO_MAX_VIEWS, NULL);
	g_return_val_if_fail(view < demo_scene_script_n_views(script), NULL);
	scene = g_new0(DemoScene, 1);
	scene->script = script;
	scene->view = view;
	scene->seed = view_seed(seed, view);
	scene->n_frames = MAX((guint64)1, (guint64)llround(script->duration * DEMO_FPS));
	v = script_view(script, view);
	scene->renderer = demo_renderer_new_view(&script->room, &v);
	furnish(scene);
	cast(scene);
	scene->blocks = g_array_new(FALSE, FALSE, sizeof(DemoBlock));
	scene->capsules_moving = g_array_new(FALSE, FALSE, sizeof(DemoCapsule));
	scene->labels = g_new0(guint8, DEPTH_PIXELS);
	scene->truth.labels = scene->labels;
	scene->truth.view = view;
	scene->truth.pose = demo_renderer_pose(scene->renderer);
	return scene;
}

DemoScene *
demo_scene_new(const DemoScript *script, guint64 seed)
{
	return demo_scene_new_view(script, 0, seed);
}

const DemoScript *
demo_scene_find_script(const char *name)
{
	const DemoScript *script;

	for (guint i = 0; (script = library_script(i)) != NULL; i++) {
		if (strcmp(script->name, name) == 0)
			return script;
	}
	return NULL;
}

/* "@VIEW" after a scene's name: one of the script's views. */
static gboolean
named_view(const DemoScript *script, const char *text, guint *view, GError **error)
{
	guint n = demo_scene_script_n_views(script);
	guint64 number = 0;

	if (text == NULL) {
		*view = 0;
		return TRUE;
	}
	if (!g_ascii_string_to_unsigned(text, 10, 0, n - 1, &number, NULL)) {
		if (n == 1)
			g_set_error(error, DEMO_SCENE_ERROR, 0,
			            "demo scene '%s' has one view, 0: no view '%s'", script->name,
			            text);
		else
			g_set_error(error, DEMO_SCENE_ERROR, 0,
			            "demo scene '%s' has views 0 to %u: no view '%s'", script->name,
			            n - 1, text);
		return FALSE;
	}
	*view = (guint)number;
	return TRUE;
}

DemoScene *
demo_scene_new_named(const char *name, guint64 seed, GError **error)
{
	g_autofree char *names = NULL;
	g_autofree char *scene_name = g_strdup(name);
	char *at = strchr(scene_name, '@');
	const DemoScript *script;
	guint view;

	if (at != NULL)
		*at++ = '\0';
	script = demo_scene_find_script(scene_name);
	if (script != NULL)
		return named_view(script, at, &view, error)
		               ? demo_scene_new_view(script, view, seed)
		               : NULL;
	names = g_strjoinv(", ", (char **)demo_scene_names());
	g_set_error(error, DEMO_SCENE_ERROR, 0, "no demo scene called '%s'; scenes are: %s",
	            scene_name, names);
	return NULL;
}

void
demo_scene_free(DemoScene *scene)
{
	if (scene == NULL)
		return;
	demo_renderer_free(scene->renderer);
	g_array_unref(scene->blocks);
	g_array_unref(scene->capsules_moving);
	g_free(scene->labels);
	g_free(scene);
}

const DemoGesture *
demo_scene_gestures(const DemoScene *scene, guint *n)
{
	*n = scene->script->n_gestures;
	return scene->script->gestures;
}

const DemoScript *
demo_scene_script(const DemoScene *scene)
{
	return scene->script;
}

guint64
demo_scene_n_frames(const DemoScene *scene)
{
	return scene->n_frames;
}
