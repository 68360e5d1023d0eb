/* Names for the kinds of gesture, the hands and an event's fields. */
#include "gesture-names.h"

#include <string.h>

static const char *const kind_names[GESTURE_N_KINDS] = {
	[GESTURE_SWIPE_LEFT] = "swipe_left",
	[GESTURE_SWIPE_RIGHT] = "swipe_right",
	[GESTURE_SWIPE_UP] = "swipe_up",
	[GESTURE_SWIPE_DOWN] = "swipe_down",
	[GESTURE_PUSH] = "push",
	[GESTURE_WAVE] = "wave",
	[GESTURE_RAISE_HAND] = "raise_hand",
	[GESTURE_CLAP] = "clap",
	[GESTURE_ARMS_OUT] = "arms_out",
};

static const char *const hand_names[GESTURE_N_HANDS] = {
	[GESTURE_HAND_LEFT] = "left",
	[GESTURE_HAND_RIGHT] = "right",
	[GESTURE_HAND_BOTH] = "both",
};

static gboolean
name_lookup(const char *const *names, guint n, const char *name, guint *index)
{
	for (guint i = 0; i < n; i++) {
		if (strcmp(names[i], name) == 0) {
			*index = i;
			return TRUE;
		}
	}
	return FALSE;
}

const char *
gesture_kind_to_str(GestureKind kind)
{
	return (guint)kind < GESTURE_N_KINDS ? kind_names[kind] : NULL;
}

gboolean
gesture_kind_from_str(const char *name, GestureKind *kind)
{
	guint i;

	if (!name_lookup(kind_names, GESTURE_N_KINDS, name, &i))
		return FALSE;
	*kind = (GestureKind)i;
	return TRUE;
}

const char *
gesture_hand_to_str(GestureHand hand)
{
	return (guint)hand < GESTURE_N_HANDS ? hand_names[hand] : NULL;
}

gboolean
gesture_hand_from_str(const char *name, GestureHand *hand)
{
	guint i;

	if (!name_lookup(hand_names, GESTURE_N_HANDS, name, &i))
		return FALSE;
	*hand = (GestureHand)i;
	return TRUE;
}

/* ---- events as numbers ---- */

static const char *const event_fields[] = {
	"user", "time", "duration", "speed", "distance", "count", "x", "y", "z", NULL,
};

gboolean
gesture_event_get(const GestureEvent *event, const char *field, double *value)
{
	double values[] = {
		event->user,
		event->time_us / (double)G_USEC_PER_SEC,
		(event->time_us - event->start_us) / (double)G_USEC_PER_SEC,
		event->speed,
		event->distance,
		event->count,
		event->position.x,
		event->position.y,
		event->position.z,
	};
	guint i;

	G_STATIC_ASSERT(G_N_ELEMENTS(values) == G_N_ELEMENTS(event_fields) - 1);
	if (!name_lookup(event_fields, G_N_ELEMENTS(values), field, &i))
		return FALSE;
	*value = values[i];
	return TRUE;
}

const char *const *
gesture_event_fields(void)
{
	return event_fields;
}
