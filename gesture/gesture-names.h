/* Names for everything a mapping file or a log shows: the kinds of gesture,
 * the hands, and an event's fields as numbers. */
#pragma once

#include "gesture-types.h"

/** gesture_kind_to_str: the event's name ("swipe_left"), NULL when out of range. */
const char *gesture_kind_to_str(GestureKind kind);

/** gesture_kind_from_str: looks an event name up; FALSE when unknown. */
gboolean gesture_kind_from_str(const char *name, GestureKind *kind);

/** gesture_hand_to_str: "left", "right" or "both"; NULL when out of range. */
const char *gesture_hand_to_str(GestureHand hand);

/** gesture_hand_from_str: looks a hand's name up; FALSE when unknown. */
gboolean gesture_hand_from_str(const char *name, GestureHand *hand);

/**
 * gesture_event_get:
 * The event's field @field as a number, for a mapping to send: "user",
 * "time" and "duration" (s), "speed" (mm/s), "distance" (mm), "count",
 * "x", "y", "z" (camera mm). FALSE for any other name.
 */
gboolean gesture_event_get(const GestureEvent *event, const char *field, double *value);

/** gesture_event_fields: the names gesture_event_get() knows, NULL-terminated. */
const char *const *gesture_event_fields(void);
