/* Users numbered by slot: the lowest number from 1 to TRACKER_MAX_USERS
 * that nobody in view holds, as NiTE and OSCeleton numbered people, so that
 * a patch routing `user1` hears from whoever is user 1 now, someone who
 * comes back included (the tracker's own ids are never given again).
 *
 * Pure logic: each frame's users in, each tracker id's slot out. A user
 * takes the lowest free slot when first seen, in the frame's order, keeps
 * it while in the frame, and frees it on leaving. A slot freed in a frame
 * goes to someone new in that frame only when no other is free, so that a
 * frame seldom tells of one slot's user both leaving and arriving. A freed
 * slot still answers for the user who left it, for the messages about
 * their going, until someone else takes it.
 *
 * A plain value: the engine copies it over a reload, so that the users in
 * view keep their slots. */
#pragma once

#include <glib.h>

#include "tracker/tracker-types.h"

#define MAPPING_SLOTS_N TRACKER_MAX_USERS

typedef struct {
	guint ids[MAPPING_SLOTS_N];      /* the tracker id holding slot i + 1, 0 for nobody */
	guint left[MAPPING_SLOTS_N];     /* the tracker id who last left slot i + 1, 0 for none */
	gboolean freed[MAPPING_SLOTS_N]; /* left in the last update */
} MappingSlots;

/** mapping_slots_init: every slot free, as before the first frame. */
void mapping_slots_init(MappingSlots *slots);

/**
 * mapping_slots_update:
 * Moves @slots on to @frame: frees the slots of the users no longer in it,
 * then gives each user of @frame who has none the lowest free one.
 */
void mapping_slots_update(MappingSlots *slots, const TrackerFrame *frame);

/**
 * mapping_slots_get:
 * The slot, 1 to MAPPING_SLOTS_N, of the user with tracker id @id: the one
 * they hold, or the one they left if nobody has taken it since (or it was
 * taken in the last update); 0 for a user without one.
 */
guint mapping_slots_get(const MappingSlots *slots, guint id);
