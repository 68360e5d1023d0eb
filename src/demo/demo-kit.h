/* Furniture and other things in the demo's rooms, built from blocks and
 * capsules: desks, tables, chairs, a sofa, monitors, shelves, cabinets,
 * walls with and without a doorway, and round things at a person's size
 * (a coat stand with coats and a hat, a tall plant) that a tracker must
 * not take for a person.
 *
 * An item stands at (x, z) on the floor, or y above it (a monitor on a
 * desk), turned by yaw about the vertical: at 0 its front faces the
 * sensor, and positive yaw turns it towards -x, as people turn. Its width
 * runs across its front, its depth from front to back. */
#pragma once

#include <glib.h>

#include "demo-render.h"

typedef enum {
	DEMO_KIT_BOX,          /* a plain box */
	DEMO_KIT_DESK,         /* a top on two side panels, a modesty panel at the front */
	DEMO_KIT_TABLE,        /* a top on four legs */
	DEMO_KIT_CHAIR,        /* a dining chair: seat, back, four legs */
	DEMO_KIT_OFFICE_CHAIR, /* seat, tall back, a column on a five-legged base */
	DEMO_KIT_SOFA,         /* base, seat cushions, back, arms */
	DEMO_KIT_MONITOR,      /* a thin panel with a black screen on a stand */
	DEMO_KIT_SHELF,        /* a bookshelf, open at the front, with books */
	DEMO_KIT_CABINET,      /* a closed cabinet */
	DEMO_KIT_WALL,         /* a stretch of wall */
	DEMO_KIT_DOORWAY,      /* a stretch of wall with a framed doorway in its middle */
	DEMO_KIT_COAT_STAND,   /* a pole on feet, coats hanging on it, a hat on top */
	DEMO_KIT_PLANT,        /* a tall plant in a pot */
	DEMO_N_KITS
} DemoKitKind;

typedef struct {
	DemoKitKind kind;
	double x, z;    /* world mm: the middle of its footprint */
	double yaw_deg; /* turned about the vertical, as above */
	double w, h, d; /* width, height, depth, mm; 0 takes the kit's usual size */
	double y;       /* standing this high, mm; 0 on the floor */
	/* What its main surfaces are made of; a monitor's screen is black
	 * whatever this says. */
	DemoMaterial material;
} DemoItem;

/* The tops of the seats, mm above the floor the item stands on. */
#define DEMO_KIT_CHAIR_SEAT        450.0
#define DEMO_KIT_OFFICE_CHAIR_SEAT 480.0
#define DEMO_KIT_SOFA_SEAT         430.0

#define DEMO_KIT_MAX_BLOCKS   32
#define DEMO_KIT_MAX_CAPSULES 12

typedef struct {
	DemoBlock blocks[DEMO_KIT_MAX_BLOCKS];
	guint n_blocks;
	DemoCapsule capsules[DEMO_KIT_MAX_CAPSULES];
	guint n_capsules;
} DemoKitParts;

/**
 * demo_kit_build:
 * Adds @item's parts to @parts, standing at (@x, @z) turned by @yaw_deg
 * instead of where the item says (for an item that is moved about).
 * Parts that would not fit are left out.
 */
void demo_kit_build(const DemoItem *item, double x, double z, double yaw_deg, DemoKitParts *parts);

/**
 * demo_kit_seat_height:
 * The height of the top of @item's seat (chairs and the sofa), mm, for a
 * body to sit on; 0 for a kit without a seat.
 */
double demo_kit_seat_height(const DemoItem *item);
