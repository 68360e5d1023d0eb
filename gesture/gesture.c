/* The gesture recogniser: users coming and going, each with a body history
 * and one state machine per gesture family and hand; events out. */
#include "gesture.h"

#include "gesture-body.h"
#include "gesture-clap.h"
#include "gesture-context.h"
#include "gesture-hold.h"
#include "gesture-stroke.h"
#include "gesture-wave.h"

#include <string.h>

typedef struct {
	guint id; /* 0: a free slot */
	GestureBodyHistory history;
	GestureStroke swipe[2], push[2];
	GestureWave wave[2];
	GestureHold raise[2];
	GestureHold arms_out;
	GestureClap clap;
} GestureUser;

struct _GestureRecognizer {
	GestureConfig config;
	GestureLogFunc log;
	gpointer log_data;
	gboolean started;
	gint64 last_us;
	GestureUser users[TRACKER_MAX_USERS];
};

/* ---- users ---- */

static void
user_init(GestureUser *user, guint id)
{
	memset(user, 0, sizeof(*user));
	user->id = id;
	gesture_body_history_init(&user->history);
	for (int side = 0; side < 2; side++) {
		gesture_stroke_init(&user->swipe[side], GESTURE_STROKE_SWIPE, side);
		gesture_stroke_init(&user->push[side], GESTURE_STROKE_PUSH, side);
		gesture_wave_init(&user->wave[side], side);
		gesture_hold_init(&user->raise[side], GESTURE_HOLD_RAISE, side);
	}
	gesture_hold_init(&user->arms_out, GESTURE_HOLD_ARMS_OUT, GESTURE_HAND_BOTH);
	gesture_clap_init(&user->clap);
}

static void
user_update(GestureUser *user, const TrackerUser *tracked, GestureContext *ctx)
{
	GestureBody body;

	gesture_body_update(&user->history, tracked, ctx->now_us, ctx->config, &body);
	for (int side = 0; side < 2; side++) {
		gesture_stroke_update(&user->swipe[side], &body, ctx);
		gesture_stroke_update(&user->push[side], &body, ctx);
		gesture_wave_update(&user->wave[side], &body, ctx);
		gesture_hold_update(&user->raise[side], &body, ctx);
	}
	gesture_clap_update(&user->clap, &body, ctx);
	gesture_hold_update(&user->arms_out, &body, ctx);
}

static GestureUser *
recognizer_find_user(GestureRecognizer *r, guint id)
{
	for (guint i = 0; i < TRACKER_MAX_USERS; i++) {
		if (r->users[i].id == id)
			return &r->users[i];
	}
	return NULL;
}

/* Forgets the users that are not in @frame, with what they were doing. */
static void
recognizer_drop_users(GestureRecognizer *r, const TrackerFrame *frame, GestureContext *ctx)
{
	for (guint i = 0; i < TRACKER_MAX_USERS; i++) {
		GestureUser *user = &r->users[i];

		if (user->id == 0 || tracker_frame_find_user(frame, user->id) != NULL)
			continue;
		gesture_context_log(ctx, "%.3f s: user %u left",
		                    ctx->now_us / (double)G_USEC_PER_SEC, user->id);
		user->id = 0;
	}
}

static GestureUser *
recognizer_add_user(GestureRecognizer *r, guint id, GestureContext *ctx)
{
	GestureUser *user = recognizer_find_user(r, 0);

	/* There is a free slot: the frame holds at most TRACKER_MAX_USERS
	 * and the absent ones were just dropped. */
	g_assert(user != NULL);
	user_init(user, id);
	gesture_context_log(ctx, "%.3f s: user %u appeared", ctx->now_us / (double)G_USEC_PER_SEC,
	                    id);
	return user;
}

static void
recognizer_forget_all(GestureRecognizer *r)
{
	for (guint i = 0; i < TRACKER_MAX_USERS; i++)
		r->users[i].id = 0;
}

/* FALSE when the frame must be skipped: time did not move on. */
static gboolean
recognizer_advance_time(GestureRecognizer *r, gint64 time_us, GestureContext *ctx)
{
	if (r->started && time_us == r->last_us)
		return FALSE;
	if (r->started && time_us < r->last_us) {
		gesture_context_log(
		        ctx, "%.3f s: time went back from %.3f s: forgetting every user",
		        time_us / (double)G_USEC_PER_SEC, r->last_us / (double)G_USEC_PER_SEC);
		recognizer_forget_all(r);
	}
	r->started = TRUE;
	r->last_us = time_us;
	return TRUE;
}

guint
gesture_recognizer_process(GestureRecognizer *r, const TrackerFrame *frame, gint64 time_us,
                           GestureEvent events[GESTURE_MAX_EVENTS])
{
	GestureContext ctx = { &r->config, 0, time_us, r->log, r->log_data, events, 0 };

	g_return_val_if_fail(frame->n_users <= TRACKER_MAX_USERS, 0);
	if (!recognizer_advance_time(r, time_us, &ctx))
		return 0;
	recognizer_drop_users(r, frame, &ctx);
	for (guint i = 0; i < frame->n_users; i++) {
		const TrackerUser *tracked = &frame->users[i];
		GestureUser *user;

		/* Id 0 is never a user; a repeated id is a tracker bug. */
		if (tracked->id == 0 || tracker_frame_find_user(frame, tracked->id) != tracked)
			continue;
		user = recognizer_find_user(r, tracked->id);
		ctx.user = tracked->id;
		if (user == NULL)
			user = recognizer_add_user(r, tracked->id, &ctx);
		user_update(user, tracked, &ctx);
	}
	return ctx.n_events;
}

/* ---- life cycle ---- */

GestureRecognizer *
gesture_recognizer_new(const GestureConfig *config)
{
	GestureRecognizer *r = g_new0(GestureRecognizer, 1);

	if (config != NULL)
		r->config = *config;
	else
		gesture_config_init(&r->config);
	return r;
}

void
gesture_recognizer_free(GestureRecognizer *r)
{
	g_free(r);
}

void
gesture_recognizer_reset(GestureRecognizer *r)
{
	recognizer_forget_all(r);
	r->started = FALSE;
}

void
gesture_recognizer_set_config(GestureRecognizer *r, const GestureConfig *config)
{
	r->config = *config;
}

const GestureConfig *
gesture_recognizer_get_config(const GestureRecognizer *r)
{
	return &r->config;
}

void
gesture_recognizer_set_log_func(GestureRecognizer *r, GestureLogFunc func, gpointer user_data)
{
	r->log = func;
	r->log_data = user_data;
}
