/* The context the recognisers' state machines run in: logging their
 * transitions and handing their events on. */
#include "gesture-context.h"

#include "gesture-names.h"

gboolean
gesture_context_logging(const GestureContext *ctx)
{
	return ctx->log != NULL;
}

void
gesture_context_log(GestureContext *ctx, const char *format, ...)
{
	g_autofree char *message = NULL;
	va_list args;

	if (ctx->log == NULL)
		return;
	va_start(args, format);
	message = g_strdup_vprintf(format, args);
	va_end(args);
	ctx->log(message, ctx->log_data);
}

void
gesture_context_transition(GestureContext *ctx, const char *machine, GestureHand hand,
                           const char *from, const char *input, const char *to, const char *why)
{
	gesture_context_log(ctx, "%.3f s: user %u %s %s: %s -> %s on %s%s%s",
	                    ctx->now_us / (double)G_USEC_PER_SEC, ctx->user,
	                    gesture_hand_to_str(hand), machine, from, to, input, why ? ": " : "",
	                    why ? why : "");
}

void
gesture_context_emit(GestureContext *ctx, GestureEvent *event)
{
	event->user = ctx->user;
	event->time_us = ctx->now_us;
	g_assert(ctx->n_events < GESTURE_MAX_EVENTS);
	ctx->events[ctx->n_events++] = *event;
	gesture_context_log(ctx, "%.3f s: user %u %s: %s", ctx->now_us / (double)G_USEC_PER_SEC,
	                    ctx->user, gesture_hand_to_str(event->hand),
	                    gesture_kind_to_str(event->kind));
}
