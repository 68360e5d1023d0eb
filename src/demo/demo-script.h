/* What a demo scene plays: a script of actors with keyframes (time,
 * position on the floor, facing, pose), furniture that stays or is moved,
 * and the gestures performed. Types only: demo-rooms.c and demo-scene.c
 * write scripts, demo-scene.c plays them. */
#pragma once

#include <glib.h>

#include "demo-body.h"
#include "demo-kit.h"
#include "demo-render.h"

/* Sensors a scene can be seen by at once. */
#define DEMO_MAX_VIEWS 3

typedef struct {
	double t;       /* seconds from the start of the script */
	double x, z;    /* position on the floor, mm */
	double yaw_deg; /* 0 faces the sensor, positive turns toward -x */
	DemoArm left, right;
	DemoLegs legs;
	/* With DEMO_LEGS_SIT: the height of the seat's top, mm, for the pelvis
	 * to sit on (demo_kit_seat_height()); 0 lets the legs decide. A blend
	 * between sitting and standing keys gets up or sits down. */
	double seat;
	double lean_deg; /* the upper body leans back (positive) or forward */
	/* DEMO_SIDE_LEFT, DEMO_SIDE_RIGHT: held from this key to the next,
	 * so that a hand opens or closes at a key's time. */
	DemoHand hands[2];
} DemoKey;

typedef enum {
	DEMO_CARRY_NOTHING = 0,
	DEMO_CARRY_FOLDER_LEFT,  /* a folder held at the side in the left hand */
	DEMO_CARRY_FOLDER_RIGHT, /* ...in the right hand */
} DemoCarry;

typedef struct {
	double height; /* mm */
	const DemoKey *keys;
	guint n_keys;
	double girth; /* 1 (or 0) for the usual build; 0.85 thin to 1.3 broad */
	DemoLook look;
	DemoCarry carry; /* labelled a prop, not the person */
} DemoActor;

/* Where a movable item is at a time; between two places it moves in a
 * straight line, starting and stopping gently; before the first and after
 * the last it stays. */
typedef struct {
	double t;
	double x, z;
	double yaw_deg;
} DemoPlace;

typedef struct {
	DemoItem item; /* its place is ignored */
	const DemoPlace *places;
	guint n_places;
} DemoMover;

/* A gesture a script performs, as the gesture recognisers name it: what a
 * perfect recogniser reports, and when. */
typedef struct {
	const char *gesture; /* the event's name: "swipe_left", "clap", ... */
	guint actor;         /* who makes it: the actor's number in the script, from 1 */
	const char *hand;    /* "left", "right", or "both" for two-handed gestures */
	double start, end;   /* seconds: the event belongs in this window */
} DemoGesture;

typedef struct {
	const char *name;
	const char *description;
	/* What the scene tests, for the tracker's benchmark to total by:
	 * scenes of one group are one case the tracker must handle. */
	const char *group;
	double duration; /* seconds in one pass */
	DemoRoom room;
	const DemoActor *actors;
	guint n_actors;
	const DemoBox *props; /* axis-aligned boxes, drawn every frame */
	guint n_props;
	const DemoItem *items; /* furniture that stays where it is */
	guint n_items;
	const DemoMover *movers; /* furniture that people move */
	guint n_movers;
	/* Every gesture performed, in time order; a script that lists none
	 * performs none (movement in it is ordinary). */
	const DemoGesture *gestures;
	guint n_gestures;
	/* People hold still as people do, swaying a little as they balance;
	 * without it, one who holds still is a statue. */
	gboolean sway;
	/* The sensors that see the room, each played on its own with its own
	 * noise; the room's noise and sensor model hold for all of them. A
	 * script that lists none is seen by the room's sensor alone, at the
	 * origin; one that lists some does not use the room's camera height,
	 * pitch and roll. At most DEMO_MAX_VIEWS. */
	const DemoView *views;
	guint n_views;
} DemoScript;
