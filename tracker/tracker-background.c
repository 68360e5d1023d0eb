#include "tracker-background.h"

#include <math.h>
#include <string.h>

/* Readings farther than the room at more than this share of its learned
 * cells, frames in a row: the sensor moved (tilted, bumped, carried). */
#define MOVED_SHARE  0.3
#define MOVED_FRAMES 5
#define FOLLOW_RATE  0.05f /* how fast the room's depth follows a cell's readings */

typedef struct {
	float z;          /* mm; 0 for nothing yet */
	gboolean learned; /* read again once held for the learn time */
	gint64 since_us;  /* held since */
} Held;

struct _TrackerBackground {
	int n;
	Held *room;      /* the room's depth per cell */
	Held *candidate; /* another depth held where the room's was */
	guint8 *mask;
	guint moved; /* frames in a row that said the sensor moved */
};

TrackerBackground *
tracker_background_new(const TrackerGrid *grid)
{
	TrackerBackground *bg = g_new0(TrackerBackground, 1);

	bg->n = grid->n;
	bg->room = g_new0(Held, grid->n);
	bg->candidate = g_new0(Held, grid->n);
	bg->mask = g_new0(guint8, grid->n);
	return bg;
}

void
tracker_background_free(TrackerBackground *bg)
{
	if (bg == NULL)
		return;
	g_free(bg->room);
	g_free(bg->candidate);
	g_free(bg->mask);
	g_free(bg);
}

void
tracker_background_reset(TrackerBackground *bg)
{
	memset(bg->room, 0, bg->n * sizeof(Held));
	memset(bg->candidate, 0, bg->n * sizeof(Held));
	memset(bg->mask, 0, bg->n);
	bg->moved = 0;
}

/* The room's depth at a cell is read again, @z, at @now_us: it is
 * learned once it has held for the learn time. Time it was not read (a
 * person passing in front, no reading) counts, but only a reading learns
 * it: a depth the sensor stopped seeing before then never is. */
static inline void
tracker_background_follow(Held *room, float z, gint64 now_us)
{
	room->z += FOLLOW_RATE * (z - room->z);
	room->learned |= now_us - room->since_us >= TRACKER_BACKGROUND_LEARN_US;
}

/* The room's depth at a cell is @z from @now_us on, not yet learned. */
static inline void
tracker_background_start(Held *room, float z, gint64 now_us)
{
	*room = (Held){ .z = z, .since_us = now_us };
}

const guint8 *
tracker_background_mask(TrackerBackground *bg, const TrackerGrid *grid)
{
	for (int k = 0; k < bg->n; k++) {
		const Held *room = &bg->room[k];
		float z = grid->z[k];

		bg->mask[k] = z > 0.0f && room->learned && tracker_grid_same_depth(z, room->z);
	}
	return bg->mask;
}

/* Another depth held at a cell: it becomes the room's once held for
 * @hold_us. */
static void
tracker_background_hold(Held *room, Held *candidate, float z, gint64 now_us, gint64 hold_us)
{
	if (candidate->z <= 0.0f || !tracker_grid_same_depth(z, candidate->z)) {
		candidate->z = z;
		candidate->since_us = now_us;
		return;
	}
	if (now_us - candidate->since_us < hold_us)
		return;
	*room = *candidate;
	room->learned = TRUE;
	candidate->z = 0.0f;
}

/* A cell person @p is on or about reads @z. The room's depth there is
 * the person's, and forgotten, unless it was learned or held from before
 * they were first seen: then it follows the readings of that depth, and
 * waits while the person is in front. */
static void
tracker_background_person(Held *room, Held *candidate, float z, const TrackerBackgroundPerson *p,
                          gint64 now_us)
{
	gboolean before =
	        room->z > 0.0f && room->since_us < p->seen_us - TRACKER_BACKGROUND_SEEN_US;

	candidate->z = 0.0f;
	if (!before && !room->learned)
		tracker_background_start(room, 0.0f, now_us);
	else if (before && z > 0.0f && tracker_grid_same_depth(z, room->z))
		tracker_background_follow(room, z, now_us);
}

/* One cell's reading @z at @now_us. Returns whether it says the sensor
 * moved: the room, learned, is seen past. */
static gboolean
tracker_background_cell(Held *room, Held *candidate, float z, gint64 now_us)
{
	gboolean learned = room->learned;
	gboolean past = learned && z > room->z + tracker_grid_depth_error(z);

	if (room->z > 0.0f && tracker_grid_same_depth(z, room->z)) {
		tracker_background_follow(room, z, now_us);
		candidate->z = 0.0f;
	} else if (!learned && (room->z <= 0.0f || z > room->z)) {
		tracker_background_start(room, z, now_us);
	} else if (!learned) {
		tracker_background_hold(room, candidate, z, now_us, TRACKER_BACKGROUND_LEARN_US);
	} else {
		tracker_background_hold(room, candidate, z, now_us,
		                        past ? TRACKER_BACKGROUND_LEARN_US
		                             : TRACKER_BACKGROUND_ABSORB_US);
	}
	return past;
}

void
tracker_background_learn(TrackerBackground *bg, const TrackerGrid *grid,
                         const TrackerBackgroundPerson *people, gint64 time_us)
{
	guint learned = 0, past = 0;

	for (int k = 0; k < bg->n; k++) {
		float z = grid->z[k];

		if (people[k].seen_us != TRACKER_BACKGROUND_NO_ONE && !(z > people[k].far_mm)) {
			tracker_background_person(&bg->room[k], &bg->candidate[k], z, &people[k],
			                          time_us);
			continue;
		}
		if (z <= 0.0f)
			continue;
		learned += bg->room[k].learned;
		past += tracker_background_cell(&bg->room[k], &bg->candidate[k], z, time_us);
	}
	bg->moved = past > MOVED_SHARE * learned && learned > 0 ? bg->moved + 1 : 0;
	if (bg->moved >= MOVED_FRAMES)
		tracker_background_reset(bg);
}
