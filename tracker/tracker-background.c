#include "tracker-background.h"

#include <math.h>
#include <string.h>

/* Readings farther than the room at more than this share of its learned
 * cells, frames in a row: the sensor moved (tilted, bumped, carried). */
#define MOVED_SHARE  0.3
#define MOVED_FRAMES 5
#define FOLLOW_RATE  0.05f /* how fast the room's depth follows a cell's readings */

typedef struct {
	float z;         /* mm; 0 for nothing yet */
	gint64 since_us; /* held since */
} Held;

struct _TrackerBackground {
	int n;
	Held *room;      /* the room's depth per cell */
	Held *candidate; /* another depth held where the room's was */
	guint8 *mask;
	guint moved;   /* frames in a row that said the sensor moved */
	gint64 now_us; /* the time of the last frame learned from */
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
	bg->now_us = 0;
}

/* Whether the room's depth at a cell is learned at @now_us. */
static inline gboolean
tracker_background_learned(const Held *room, gint64 now_us)
{
	return room->z > 0.0f && now_us - room->since_us >= TRACKER_BACKGROUND_LEARN_US;
}

const guint8 *
tracker_background_mask(TrackerBackground *bg, const TrackerGrid *grid)
{
	for (int k = 0; k < bg->n; k++) {
		const Held *room = &bg->room[k];
		float z = grid->z[k];

		bg->mask[k] = z > 0.0f && tracker_background_learned(room, bg->now_us) &&
		              fabsf(z - room->z) < tracker_grid_depth_error(z);
	}
	return bg->mask;
}

/* Another depth held at a cell: it becomes the room's once held for
 * @hold_us. */
static void
tracker_background_hold(Held *room, Held *candidate, float z, gint64 now_us, gint64 hold_us)
{
	if (candidate->z <= 0.0f || fabsf(z - candidate->z) >= tracker_grid_depth_error(z)) {
		candidate->z = z;
		candidate->since_us = now_us;
		return;
	}
	if (now_us - candidate->since_us < hold_us)
		return;
	*room = *candidate;
	candidate->z = 0.0f;
}

/* A cell a person is on: what it held is a person's, not the room's,
 * unless the room was learned before they came. */
static inline void
tracker_background_forget(Held *room, Held *candidate, gint64 now_us)
{
	if (!tracker_background_learned(room, now_us))
		room->z = 0.0f;
	candidate->z = 0.0f;
}

/* One cell's reading @z at @now_us. Returns whether it says the sensor
 * moved: the room, learned, is seen past. */
static gboolean
tracker_background_cell(Held *room, Held *candidate, float z, gint64 now_us)
{
	gboolean learned = tracker_background_learned(room, now_us);
	gboolean past = learned && z > room->z + tracker_grid_depth_error(z);

	if (room->z > 0.0f && fabsf(z - room->z) < tracker_grid_depth_error(z)) {
		room->z += FOLLOW_RATE * (z - room->z);
		candidate->z = 0.0f;
	} else if (!learned) {
		room->z = z;
		room->since_us = now_us;
	} else {
		tracker_background_hold(room, candidate, z, now_us,
		                        past ? TRACKER_BACKGROUND_LEARN_US
		                             : TRACKER_BACKGROUND_ABSORB_US);
	}
	return past;
}

void
tracker_background_learn(TrackerBackground *bg, const TrackerGrid *grid, const guint8 *people,
                         gint64 time_us)
{
	guint learned = 0, past = 0;

	bg->now_us = time_us;
	for (int k = 0; k < bg->n; k++) {
		if (people[k])
			tracker_background_forget(&bg->room[k], &bg->candidate[k], time_us);
		if (grid->z[k] <= 0.0f || people[k])
			continue;
		learned += tracker_background_learned(&bg->room[k], time_us);
		past += tracker_background_cell(&bg->room[k], &bg->candidate[k], grid->z[k],
		                                time_us);
	}
	bg->moved = past > MOVED_SHARE * learned && learned > 0 ? bg->moved + 1 : 0;
	if (bg->moved >= MOVED_FRAMES)
		tracker_background_reset(bg);
}
