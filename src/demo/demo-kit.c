#include "demo-kit.h"

#include <math.h>

/* An item being built: its own frame in world space and its size. Local
 * coordinates: x across the front (to the right as the sensor sees it at
 * yaw 0), y up from its base, z from its front (-d/2) to its back. */
typedef struct {
	TrackerVec3 origin, ex, ez;
	double w, h, d;
	DemoMaterial material;
	DemoKitParts *parts;
} Kit;

/* Usual sizes (width, height, depth), mm. */
static const double kit_sizes[DEMO_N_KITS][3] = {
	[DEMO_KIT_BOX] = { 500, 500, 500 },           [DEMO_KIT_DESK] = { 1400, 740, 700 },
	[DEMO_KIT_TABLE] = { 1200, 740, 800 },        [DEMO_KIT_CHAIR] = { 440, 880, 460 },
	[DEMO_KIT_OFFICE_CHAIR] = { 560, 1150, 560 }, [DEMO_KIT_SOFA] = { 2000, 850, 900 },
	[DEMO_KIT_MONITOR] = { 560, 500, 220 },       [DEMO_KIT_SHELF] = { 800, 1800, 320 },
	[DEMO_KIT_CABINET] = { 900, 1000, 450 },      [DEMO_KIT_WALL] = { 3000, 2500, 100 },
	[DEMO_KIT_DOORWAY] = { 3000, 2500, 120 },     [DEMO_KIT_COAT_STAND] = { 600, 1800, 600 },
	[DEMO_KIT_PLANT] = { 700, 1750, 700 },
};

#define CHAIR_SEAT        DEMO_KIT_CHAIR_SEAT
#define OFFICE_CHAIR_SEAT DEMO_KIT_OFFICE_CHAIR_SEAT
#define SOFA_SEAT         DEMO_KIT_SOFA_SEAT

/* A doorway's opening. */
#define DOOR_WIDTH  900.0
#define DOOR_HEIGHT 2050.0

static TrackerVec3
kit_point(const Kit *k, double x, double y, double z)
{
	TrackerVec3 p = tracker_vec3_mad(k->origin, k->ex, x);

	p.y += y;
	return tracker_vec3_mad(p, k->ez, z);
}

static void
kit_block(Kit *k, double x0, double y0, double z0, double x1, double y1, double z1, guint8 label,
          DemoMaterial material)
{
	DemoBlock *b;

	if (k->parts->n_blocks == DEMO_KIT_MAX_BLOCKS)
		return;
	b = &k->parts->blocks[k->parts->n_blocks++];
	b->centre = kit_point(k, (x0 + x1) / 2.0, (y0 + y1) / 2.0, (z0 + z1) / 2.0);
	b->axis[0] = k->ex;
	b->axis[1] = tracker_vec3(0.0, 1.0, 0.0);
	b->axis[2] = k->ez;
	b->half[0] = fabs(x1 - x0) / 2.0;
	b->half[1] = fabs(y1 - y0) / 2.0;
	b->half[2] = fabs(z1 - z0) / 2.0;
	b->label = label;
	b->material = material;
}

/* A part of the item's own material, labelled a prop. */
static void
kit_part(Kit *k, double x0, double y0, double z0, double x1, double y1, double z1)
{
	kit_block(k, x0, y0, z0, x1, y1, z1, DEMO_LABEL_PROP, k->material);
}

static void
kit_capsule(Kit *k, TrackerVec3 a, TrackerVec3 b, double r, DemoMaterial material)
{
	DemoCapsule *c;

	if (k->parts->n_capsules == DEMO_KIT_MAX_CAPSULES)
		return;
	c = &k->parts->capsules[k->parts->n_capsules++];
	c->a = kit_point(k, a.x, a.y, a.z);
	c->b = kit_point(k, b.x, b.y, b.z);
	c->r = r;
	c->label = DEMO_LABEL_PROP;
	c->material = material;
}

/* Four square legs of @side mm under a top at @top, inset by @inset. */
static void
kit_legs(Kit *k, double side, double top, double inset)
{
	for (int q = 0; q < 4; q++) {
		double x = (q & 1 ? 1 : -1) * (k->w / 2.0 - inset - side / 2.0);
		double z = (q & 2 ? 1 : -1) * (k->d / 2.0 - inset - side / 2.0);

		kit_part(k, x - side / 2.0, 0.0, z - side / 2.0, x + side / 2.0, top,
		         z + side / 2.0);
	}
}

static void
kit_box_whole(Kit *k)
{
	kit_part(k, -k->w / 2.0, 0.0, -k->d / 2.0, k->w / 2.0, k->h, k->d / 2.0);
}

static void
kit_desk(Kit *k)
{
	double w = k->w / 2.0, d = k->d / 2.0, top = k->h - 30.0;

	kit_part(k, -w, top, -d, w, k->h, d);
	kit_part(k, -w + 20.0, 0.0, -d + 30.0, -w + 45.0, top, d - 30.0);
	kit_part(k, w - 45.0, 0.0, -d + 30.0, w - 20.0, top, d - 30.0);
	/* The modesty panel faces the front: whoever sits at the back has
	 * their legs hidden from there. */
	kit_part(k, -w + 45.0, 200.0, -d + 60.0, w - 45.0, top, -d + 80.0);
}

static void
kit_table(Kit *k)
{
	kit_part(k, -k->w / 2.0, k->h - 35.0, -k->d / 2.0, k->w / 2.0, k->h, k->d / 2.0);
	kit_legs(k, 55.0, k->h - 35.0, 60.0);
}

static void
kit_chair(Kit *k)
{
	double w = k->w / 2.0, d = k->d / 2.0;

	kit_part(k, -w, CHAIR_SEAT - 40.0, -d, w, CHAIR_SEAT, d);
	kit_part(k, -w, CHAIR_SEAT, d - 35.0, w, k->h, d);
	kit_legs(k, 35.0, CHAIR_SEAT - 40.0, 0.0);
}

static void
kit_office_chair(Kit *k)
{
	double w = k->w / 2.0, d = k->d / 2.0, seat = OFFICE_CHAIR_SEAT;

	kit_part(k, -w + 20.0, seat - 70.0, -d + 20.0, w - 20.0, seat, d - 70.0);
	kit_part(k, -w + 40.0, seat + 70.0, d - 90.0, w - 40.0, k->h, d - 20.0);
	kit_part(k, -30.0, seat - 70.0, d - 80.0, 30.0, seat + 70.0, d - 50.0);
	kit_capsule(k, tracker_vec3(0, 90, 0), tracker_vec3(0, seat - 80.0, 0), 28.0, k->material);
	for (int leg = 0; leg < 5; leg++) {
		double a = leg * 2.0 * G_PI / 5.0;

		kit_capsule(k, tracker_vec3(0, 80, 0),
		            tracker_vec3(w * 0.95 * sin(a), 22.0, -w * 0.95 * cos(a)), 22.0,
		            k->material);
	}
}

static void
kit_sofa(Kit *k)
{
	double w = k->w / 2.0, d = k->d / 2.0, arm = 170.0, back = 210.0;

	kit_part(k, -w, 80.0, -d, w, SOFA_SEAT - 110.0, d);
	kit_part(k, -w + arm, SOFA_SEAT - 110.0, -d + 10.0, 0.0 - 5.0, SOFA_SEAT, d - back);
	kit_part(k, 5.0, SOFA_SEAT - 110.0, -d + 10.0, w - arm, SOFA_SEAT, d - back);
	kit_part(k, -w + arm, SOFA_SEAT - 110.0, d - back, w - arm, k->h, d);
	kit_part(k, -w, SOFA_SEAT - 110.0, -d, -w + arm, 620.0, d);
	kit_part(k, w - arm, SOFA_SEAT - 110.0, -d, w, 620.0, d);
	kit_legs(k, 50.0, 80.0, 40.0);
}

static void
kit_monitor(Kit *k)
{
	double w = k->w / 2.0, d = k->d / 2.0, screen = k->w * 0.58;

	kit_block(k, -w, k->h - screen, -d + 40.0, w, k->h, -d + 65.0, DEMO_LABEL_PROP,
	          DEMO_MATERIAL_BLACK);
	kit_part(k, -w + 80.0, k->h - screen + 60.0, -d + 65.0, w - 80.0, k->h - 60.0, -d + 110.0);
	kit_part(k, -30.0, 15.0, -d + 110.0, 30.0, k->h - screen + 80.0, -d + 135.0);
	kit_part(k, -120.0, 0.0, -d, 120.0, 15.0, d);
}

/* Books of varied height and depth stand on a shelf from @y. */
static void
kit_books(Kit *k, double y, double room, int shelf)
{
	double x = -k->w / 2.0 + 30.0, end = k->w / 2.0 - 40.0;

	for (int b = 0; x < end - 60.0 && b < 3; b++) {
		int pattern = (shelf * 7 + b * 5) % 9;
		double run = MIN(end - x, 120.0 + 45.0 * pattern);
		double tall = MIN(room - 20.0, 170.0 + 18.0 * pattern);

		kit_part(k, x, y, -k->d / 2.0 + 30.0 + 8.0 * (pattern % 3), x + run, y + tall,
		         k->d / 2.0 - 15.0);
		x += run + 60.0 + 25.0 * (pattern % 4);
	}
}

static void
kit_shelf(Kit *k)
{
	double w = k->w / 2.0, d = k->d / 2.0;
	int n = MAX(2, (int)(k->h / 360.0));
	double step = (k->h - 40.0) / n;

	kit_part(k, -w, 0.0, -d, -w + 20.0, k->h, d);
	kit_part(k, w - 20.0, 0.0, -d, w, k->h, d);
	kit_part(k, -w + 20.0, 0.0, d - 10.0, w - 20.0, k->h, d);
	for (int s = 0; s <= n; s++) {
		double y = 20.0 + s * step;

		kit_part(k, -w + 20.0, y - 20.0, -d, w - 20.0, y, d - 10.0);
		if (s < n)
			kit_books(k, y, step - 20.0, s);
	}
}

static void
kit_cabinet(Kit *k)
{
	kit_part(k, -k->w / 2.0, 60.0, -k->d / 2.0, k->w / 2.0, k->h - 25.0, k->d / 2.0);
	kit_part(k, -k->w / 2.0 - 15.0, k->h - 25.0, -k->d / 2.0 - 20.0, k->w / 2.0 + 15.0, k->h,
	         k->d / 2.0);
	kit_part(k, -k->w / 2.0 + 30.0, 0.0, -k->d / 2.0 + 40.0, k->w / 2.0 - 30.0, 60.0,
	         k->d / 2.0 - 20.0);
}

static void
kit_wall(Kit *k)
{
	kit_block(k, -k->w / 2.0, 0.0, -k->d / 2.0, k->w / 2.0, k->h, k->d / 2.0, DEMO_LABEL_WALL,
	          k->material);
}

static void
kit_doorway(Kit *k)
{
	double w = k->w / 2.0, d = k->d / 2.0, door = DOOR_WIDTH / 2.0, casing = 70.0;

	kit_block(k, -w, 0.0, -d, -door, k->h, d, DEMO_LABEL_WALL, k->material);
	kit_block(k, door, 0.0, -d, w, k->h, d, DEMO_LABEL_WALL, k->material);
	kit_block(k, -door, DOOR_HEIGHT, -d, door, k->h, d, DEMO_LABEL_WALL, k->material);
	/* The frame: linings inside the opening and casings proud of the wall. */
	kit_part(k, -door, 0.0, -d, -door + 20.0, DOOR_HEIGHT, d);
	kit_part(k, door - 20.0, 0.0, -d, door, DOOR_HEIGHT, d);
	kit_part(k, -door, DOOR_HEIGHT - 20.0, -d, door, DOOR_HEIGHT, d);
	kit_part(k, -door - casing, 0.0, -d - 18.0, -door, DOOR_HEIGHT + casing, -d);
	kit_part(k, door, 0.0, -d - 18.0, door + casing, DOOR_HEIGHT + casing, -d);
	kit_part(k, -door, DOOR_HEIGHT, -d - 18.0, door, DOOR_HEIGHT + casing, -d);
}

/* Coats on hooks make a body's bulk and a hat a head, on a thin pole. */
static void
kit_coat_stand(Kit *k)
{
	double top = k->h, foot = k->w / 2.0;
	DemoMaterial coat = k->material == DEMO_MATERIAL_MATTE ? DEMO_MATERIAL_DARK : k->material;

	for (int leg = 0; leg < 3; leg++) {
		double a = leg * 2.0 * G_PI / 3.0 + 0.5;

		kit_capsule(k, tracker_vec3(0, 60, 0),
		            tracker_vec3(foot * sin(a), 15.0, foot * cos(a)), 15.0,
		            DEMO_MATERIAL_MATTE);
	}
	kit_capsule(k, tracker_vec3(0, 18, 0), tracker_vec3(0, top - 60.0, 0), 18.0,
	            DEMO_MATERIAL_MATTE);
	kit_capsule(k, tracker_vec3(0, top + 40.0, 0), tracker_vec3(0, top + 40.0, 0), 105.0,
	            DEMO_MATERIAL_MATTE);
	kit_capsule(k, tracker_vec3(-60, top - 170.0, -90), tracker_vec3(-90, top - 850.0, -150),
	            140.0, coat);
	kit_capsule(k, tracker_vec3(90, top - 190.0, 40), tracker_vec3(150, top - 1000.0, 60),
	            120.0, k->material);
	kit_capsule(k, tracker_vec3(-20, top - 200.0, 110), tracker_vec3(-30, top - 700.0, 170),
	            110.0, coat);
}

/* Leaves in clumps around a stem, from about half height to the top. */
static void
kit_plant(Kit *k)
{
	static const double clumps[][4] = {
		/* x, y, z as shares of (w/2, h, d/2); radius as a share of w/2 */
		{ 0.05, 0.95, 0.00, 0.42 },   { -0.45, 0.80, 0.10, 0.45 },
		{ 0.45, 0.72, -0.15, 0.42 },  { 0.10, 0.66, 0.45, 0.40 },
		{ -0.20, 0.58, -0.40, 0.38 }, { 0.40, 0.90, 0.35, 0.35 },
		{ -0.35, 1.00, -0.30, 0.30 },
	};
	double rw = k->w / 2.0, rd = k->d / 2.0;

	kit_part(k, -160.0, 0.0, -160.0, 160.0, 380.0, 160.0);
	kit_capsule(k, tracker_vec3(0, 380, 0), tracker_vec3(0, k->h * 0.8, 0), 22.0,
	            DEMO_MATERIAL_MATTE);
	for (guint c = 0; c < G_N_ELEMENTS(clumps); c++) {
		TrackerVec3 p =
		        tracker_vec3(clumps[c][0] * rw, clumps[c][1] * k->h - clumps[c][3] * rw,
		                     clumps[c][2] * rd);

		kit_capsule(k, p, tracker_vec3(p.x * 0.8, p.y - 0.08 * k->h, p.z * 0.8),
		            clumps[c][3] * rw, k->material);
	}
}

typedef void (*KitBuilder)(Kit *k);

void
demo_kit_build(const DemoItem *item, double x, double z, double yaw_deg, DemoKitParts *parts)
{
	static const KitBuilder builders[DEMO_N_KITS] = {
		[DEMO_KIT_BOX] = kit_box_whole,
		[DEMO_KIT_DESK] = kit_desk,
		[DEMO_KIT_TABLE] = kit_table,
		[DEMO_KIT_CHAIR] = kit_chair,
		[DEMO_KIT_OFFICE_CHAIR] = kit_office_chair,
		[DEMO_KIT_SOFA] = kit_sofa,
		[DEMO_KIT_MONITOR] = kit_monitor,
		[DEMO_KIT_SHELF] = kit_shelf,
		[DEMO_KIT_CABINET] = kit_cabinet,
		[DEMO_KIT_WALL] = kit_wall,
		[DEMO_KIT_DOORWAY] = kit_doorway,
		[DEMO_KIT_COAT_STAND] = kit_coat_stand,
		[DEMO_KIT_PLANT] = kit_plant,
	};
	double yaw = yaw_deg * G_PI / 180.0;
	Kit k;

	g_return_if_fail(item->kind < DEMO_N_KITS);
	k = (Kit){
		.origin = tracker_vec3(x, item->y, z),
		.ex = tracker_vec3(cos(yaw), 0.0, -sin(yaw)),
		.ez = tracker_vec3(sin(yaw), 0.0, cos(yaw)),
		.w = item->w > 0.0 ? item->w : kit_sizes[item->kind][0],
		.h = item->h > 0.0 ? item->h : kit_sizes[item->kind][1],
		.d = item->d > 0.0 ? item->d : kit_sizes[item->kind][2],
		.material = item->material,
		.parts = parts,
	};
	builders[item->kind](&k);
}

double
demo_kit_seat_height(const DemoItem *item)
{
	switch (item->kind) {
	case DEMO_KIT_CHAIR:
		return item->y + CHAIR_SEAT;
	case DEMO_KIT_OFFICE_CHAIR:
		return item->y + OFFICE_CHAIR_SEAT;
	case DEMO_KIT_SOFA:
		return item->y + SOFA_SEAT;
	default:
		return 0.0;
	}
}
