/* Where a recogniser runs: the settings, the user and the time of the
 * frame, the log, and the events the frame has made so far. */
#pragma once

#include "gesture-types.h"

typedef struct {
	const GestureConfig *config;
	guint user;
	gint64 now_us;
	GestureLogFunc log;
	gpointer log_data;
	GestureEvent *events;
	guint n_events;
} GestureContext;

/** gesture_context_logging: whether anyone reads the log (to skip formatting). */
gboolean gesture_context_logging(const GestureContext *ctx);

/**
 * gesture_context_transition:
 * Logs one state change of @machine ("swipe"), for @hand, caused by
 * @input, with an optional reason @why.
 */
void gesture_context_transition(GestureContext *ctx, const char *machine, GestureHand hand,
                                const char *from, const char *input, const char *to,
                                const char *why);

/** gesture_context_emit: hands an event to the caller, stamped with the user and time. */
void gesture_context_emit(GestureContext *ctx, GestureEvent *event);

/** gesture_context_log: logs one line (users coming and going), when anyone reads the log. */
void gesture_context_log(GestureContext *ctx, const char *format, ...) G_GNUC_PRINTF(2, 3);
