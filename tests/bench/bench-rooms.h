/* The tracker benchmark on the real frames with the room left in
 * ($SKELBRIDGE_REAL_ROOMS) against the people marked on them
 * (tests/data/real-rooms.csv): the users on a fresh tracker's first frame
 * and after the same still fed ten times, and for each user the person it
 * is on or why it is on none (room-check.h). */
#pragma once

#include <glib.h>

#define BENCH_ROOMS_STILLS 10 /* the still fed again as frames 0..9 */

typedef struct {
	gboolean ran;  /* FALSE: no frames, or no marks */
	guint frames;  /* files */
	guint passed;  /* ...right on the first frame and the last */
	char *summary; /* users found of people marked on the first frame, per file */
} BenchRooms;

/** bench_rooms_run: prints the figures per frame, into @result. */
void bench_rooms_run(BenchRooms *result);
void bench_rooms_clear(BenchRooms *result);
