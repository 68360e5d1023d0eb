#include "mapping-slots.h"

#include <string.h>

void
mapping_slots_init(MappingSlots *slots)
{
	memset(slots, 0, sizeof(*slots));
}

static gboolean
mapping_slots_in_frame(const TrackerFrame *frame, guint id)
{
	for (guint u = 0; u < frame->n_users && u < TRACKER_MAX_USERS; u++) {
		if (frame->users[u].id == id)
			return TRUE;
	}
	return FALSE;
}

/* The slot @id holds, or -1. */
static int
mapping_slots_held(const MappingSlots *slots, guint id)
{
	for (int i = 0; i < MAPPING_SLOTS_N; i++) {
		if (slots->ids[i] == id)
			return i;
	}
	return -1;
}

/* The lowest slot nobody holds, one not freed just now if there is one;
 * -1 when every slot is held. */
static int
mapping_slots_lowest_free(const MappingSlots *slots)
{
	int freed = -1;

	for (int i = 0; i < MAPPING_SLOTS_N; i++) {
		if (slots->ids[i] != 0)
			continue;
		if (!slots->freed[i])
			return i;
		if (freed < 0)
			freed = i;
	}
	return freed;
}

static void
mapping_slots_take(MappingSlots *slots, guint id)
{
	int slot;

	/* (A frame has at most MAPPING_SLOTS_N users, so one is free.) */
	if (id == 0 || mapping_slots_held(slots, id) >= 0 ||
	    (slot = mapping_slots_lowest_free(slots)) < 0)
		return;
	/* Back in view: the slot they left no longer answers for them. */
	for (int i = 0; i < MAPPING_SLOTS_N; i++) {
		if (slots->left[i] == id)
			slots->left[i] = 0;
	}
	slots->ids[slot] = id;
}

void
mapping_slots_update(MappingSlots *slots, const TrackerFrame *frame)
{
	for (int i = 0; i < MAPPING_SLOTS_N; i++) {
		slots->freed[i] =
		        slots->ids[i] != 0 && !mapping_slots_in_frame(frame, slots->ids[i]);
		if (slots->freed[i]) {
			slots->left[i] = slots->ids[i];
			slots->ids[i] = 0;
		}
	}
	for (guint u = 0; u < frame->n_users && u < TRACKER_MAX_USERS; u++)
		mapping_slots_take(slots, frame->users[u].id);
}

guint
mapping_slots_get(const MappingSlots *slots, guint id)
{
	int slot = id != 0 ? mapping_slots_held(slots, id) : -1;

	for (int i = 0; id != 0 && slot < 0 && i < MAPPING_SLOTS_N; i++) {
		if (slots->left[i] == id && (slots->ids[i] == 0 || slots->freed[i]))
			slot = i;
	}
	return slot >= 0 ? (guint)slot + 1 : 0;
}
