/* Gesture recognition over the tracker's skeletons: swipes, pushes, waves,
 * a raised hand, claps and holding still with the arms out, per user and
 * per hand, as events.
 *
 * Pure logic: one TrackerFrame and its time in, the events of that frame
 * out. No clock, no I/O, no printing; transitions go to an optional log
 * function. Thresholds are in body units, so that a child and a tall adult
 * trigger the same gestures: one body unit is the user's shoulder width
 * (the distance between the two shoulder joints, smoothed over time).
 * Directions are the user's own: swipe_left moves the hand toward the
 * user's left, which is the image's right when the user faces the sensor.
 *
 * Every setting has a name (gesture_config_set()) so that a mapping file
 * can tune it, and every event kind and field has a name so that a mapping
 * file can route it. */
#pragma once

#include "gesture-config.h"
#include "gesture-names.h"
#include "gesture-types.h"

typedef struct _GestureRecognizer GestureRecognizer;

/** gesture_recognizer_new: a recogniser with a copy of @config (NULL: the defaults). */
GestureRecognizer *gesture_recognizer_new(const GestureConfig *config);
void gesture_recognizer_free(GestureRecognizer *recognizer);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(GestureRecognizer, gesture_recognizer_free)

/**
 * gesture_recognizer_reset:
 * Forgets every user, with whatever they were doing, and the time line:
 * the next frame starts afresh (the source jumped, a still came).
 */
void gesture_recognizer_reset(GestureRecognizer *recognizer);

/** gesture_recognizer_set_config: new thresholds, from the next frame on. */
void gesture_recognizer_set_config(GestureRecognizer *recognizer, const GestureConfig *config);
const GestureConfig *gesture_recognizer_get_config(const GestureRecognizer *recognizer);

/** gesture_recognizer_set_log_func: @func gets every transition; NULL for none. */
void gesture_recognizer_set_log_func(GestureRecognizer *recognizer, GestureLogFunc func,
                                     gpointer user_data);

/**
 * gesture_recognizer_process:
 * Feeds one frame seen at @time_us (any clock, microseconds, increasing)
 * and writes the gestures it completes to @events; returns how many.
 * Users missing from @frame are forgotten, with whatever they were doing.
 * A frame at the same time as the previous one is ignored; an earlier one
 * starts a new timeline (a replay that began again) and forgets everyone.
 */
guint gesture_recognizer_process(GestureRecognizer *recognizer, const TrackerFrame *frame,
                                 gint64 time_us, GestureEvent events[GESTURE_MAX_EVENTS]);
