#include "source.h"

#include <string.h>

/* The formatter would space the quark's name out as a subtraction. */
/* clang-format off */
G_DEFINE_QUARK(skelbridge-source-error-quark, source_error)
/* clang-format on */

static const SourceBackend *const backends[] = {
	&source_demo_backend,
	&source_replay_backend,
	&source_freenect_backend,
	&source_raw_backend,
};

struct _Source {
	const SourceBackend *backend;
	gpointer data;
	char *spec;
	SourceOptions options;
	SourceCallbacks callbacks;
	gpointer user_data;
	DepthFrame *frame; /* pulled backends fill this */
	GSource *pacer;    /* pulled backends: the next delivery */
	gboolean pending;  /* source->frame holds a frame not yet delivered */
	gboolean paused;   /* source_pause(): read no further frame */
	gboolean waiting;  /* paused with the next read not yet scheduled */
	gboolean started;
	gboolean have_first;
	gint64 first_frame_us; /* pace: frame time of the first frame */
	gint64 first_mono_us;  /* pace: when it was delivered */
};

static const SourceBackend *
source_find_backend(const char *spec, const char **arg)
{
	for (guint i = 0; i < G_N_ELEMENTS(backends); i++) {
		gsize len = strlen(backends[i]->name);

		if (strncmp(spec, backends[i]->name, len) != 0)
			continue;
		if (spec[len] == '\0') {
			*arg = NULL;
			return backends[i];
		}
		if (spec[len] == ':') {
			*arg = spec + len + 1;
			return backends[i];
		}
	}
	return NULL;
}

const char *
source_usage(void)
{
	static gsize usage;

	if (g_once_init_enter(&usage)) {
		GString *s = g_string_new(NULL);

		for (guint i = 0; i < G_N_ELEMENTS(backends); i++)
			g_string_append_printf(s, "  %s\n", backends[i]->usage);
		g_once_init_leave(&usage, (gsize)g_string_free(s, FALSE));
	}
	return (const char *)usage;
}

Source *
source_open(const char *spec, const SourceOptions *options, GError **error)
{
	static const SourceOptions defaults = { 0 };
	const SourceBackend *backend;
	const char *arg = NULL;
	g_autoptr(Source) source = NULL;

	backend = source_find_backend(spec, &arg);
	if (backend == NULL) {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_SPEC,
		            "unknown source '%s'; sources are:\n%s", spec, source_usage());
		return NULL;
	}
	source = g_new0(Source, 1);
	source->backend = backend;
	source->spec = g_strdup(spec);
	source->options = options ? *options : defaults;
	source->data = backend->open(arg, &source->options, error);
	if (source->data == NULL)
		return NULL;
	if (backend->read != NULL)
		source->frame = depth_frame_new();
	return g_steal_pointer(&source);
}

void
source_free(Source *source)
{
	if (source == NULL)
		return;
	source_stop(source);
	if (source->data != NULL)
		source->backend->free(source->data);
	depth_frame_free(source->frame);
	g_free(source->spec);
	g_free(source);
}

const char *
source_spec(const Source *source)
{
	return source->spec;
}

void
source_emit_frame(Source *source, const DepthFrame *frame)
{
	if (source->callbacks.frame != NULL)
		source->callbacks.frame(source, frame, source->user_data);
}

void
source_emit_event(Source *source, SourceEvent event, const GError *error)
{
	if (source->callbacks.event != NULL)
		source->callbacks.event(source, event, error, source->user_data);
}

const DepthFrame *
source_read(Source *source, GError **error)
{
	SourceReadResult result;

	g_return_val_if_fail(source->backend->read != NULL, NULL);
	/* (A skipped frame is left out here without a word.) */
	while ((result = source->backend->read(source->data, source->frame, error)) ==
	       SOURCE_READ_SKIPPED)
		g_clear_error(error);
	return result == SOURCE_READ_FRAME ? source->frame : NULL;
}

/* Pacing starts afresh from the frame now in source->frame, due @now. */
static void
source_anchor(Source *source, gint64 now)
{
	source->have_first = TRUE;
	source->first_frame_us = source->frame->time_us;
	source->first_mono_us = now;
}

/* When the frame now in source->frame is due, on the monotonic clock. */
static gint64
source_due_time(Source *source)
{
	gint64 now = g_get_monotonic_time(), due, gap;

	if (source->options.fast)
		return 0;
	/* First frame, or time went backwards (a loop restarting a
	 * recording's clock): start pacing afresh. */
	if (!source->have_first || source->frame->time_us < source->first_frame_us) {
		source_anchor(source, now);
		return now;
	}
	due = source->first_mono_us + (source->frame->time_us - source->first_frame_us);
	gap = due - now;
	/* A frame far ahead of the last (a recording paused for hours, or a
	 * broken walltime) would leave the bridge silent: it plays a frame
	 * later instead. */
	if (gap > SOURCE_MAX_GAP_US) {
		g_autoptr(GError) warning =
		        g_error_new(SOURCE_ERROR, SOURCE_ERROR_DATA,
		                    "%s: the next frame is %.1f s ahead; playing it in %.0f ms",
		                    source->spec, gap / 1e6, SOURCE_GAP_PLAYED_US / 1e3);

		source_anchor(source, now + SOURCE_GAP_PLAYED_US);
		source_emit_event(source, SOURCE_EVENT_WARNING, warning);
		return now + SOURCE_GAP_PLAYED_US;
	}
	/* Behind after a stall (the machine suspended, a long reload): a
	 * camera would have dropped the frames; sending them all at once
	 * would flood the receivers with stale ones. Play on from now. */
	if (-gap > SOURCE_MAX_LATE_US) {
		source_anchor(source, now);
		return now;
	}
	return due;
}

static gboolean source_pace_dispatch(gpointer user_data);

static void
source_schedule(Source *source, gint64 due)
{
	source->pacer = g_timeout_source_new(0);
	g_source_set_ready_time(source->pacer, due);
	g_source_set_callback(source->pacer, source_pace_dispatch, source, NULL);
	g_source_set_name(source->pacer, "skelbridge source pacer");
	g_source_attach(source->pacer, g_main_context_get_thread_default());
}

/* Reads the next frame and schedules its delivery; FALSE at the end. */
static gboolean
source_pull_next(Source *source)
{
	for (;;) {
		g_autoptr(GError) error = NULL;

		switch (source->backend->read(source->data, source->frame, &error)) {
		case SOURCE_READ_FRAME:
			source->pending = TRUE;
			source_schedule(source, source_due_time(source));
			return TRUE;
		case SOURCE_READ_END:
			source_emit_event(source, SOURCE_EVENT_END, NULL);
			return FALSE;
		case SOURCE_READ_ERROR:
			source_emit_event(source, SOURCE_EVENT_ERROR, error);
			return FALSE;
		case SOURCE_READ_SKIPPED:
			/* The callback may stop the source; then no more reads. */
			source_emit_event(source, SOURCE_EVENT_WARNING, error);
			if (!source->started)
				return FALSE;
			break;
		}
	}
}

static gboolean
source_pace_dispatch(gpointer user_data)
{
	Source *source = user_data;

	g_source_unref(source->pacer);
	source->pacer = NULL;
	if (source->pending) {
		source->pending = FALSE;
		source_emit_frame(source, source->frame);
		/* The frame callback may have stopped us. */
		if (!source->started)
			return G_SOURCE_REMOVE;
	}
	if (source->paused)
		source->waiting = TRUE;
	else
		source_pull_next(source);
	return G_SOURCE_REMOVE;
}

gboolean
source_start(Source *source, const SourceCallbacks *callbacks, gpointer user_data, GError **error)
{
	g_return_val_if_fail(!source->started, FALSE);

	source->callbacks = *callbacks;
	source->user_data = user_data;
	if (source->backend->read == NULL) {
		if (!source->backend->start(source->data, source, error))
			return FALSE;
		source->started = TRUE;
		return TRUE;
	}
	source->started = TRUE;
	source->have_first = FALSE;
	source->pending = FALSE;
	source->paused = FALSE;
	source->waiting = FALSE;
	/* The first read happens in the loop, so that an immediate end or
	 * error reaches a caller that is already running it. */
	source_schedule(source, 0);
	return TRUE;
}

void
source_stop(Source *source)
{
	if (!source->started)
		return;
	source->started = FALSE;
	source->pending = FALSE;
	source->waiting = FALSE;
	if (source->pacer != NULL) {
		g_source_destroy(source->pacer);
		g_source_unref(source->pacer);
		source->pacer = NULL;
	}
	if (source->backend->stop != NULL)
		source->backend->stop(source->data);
}

void
source_pause(Source *source)
{
	source->paused = TRUE;
}

void
source_resume(Source *source)
{
	source->paused = FALSE;
	if (source->waiting && source->started) {
		source->waiting = FALSE;
		source_schedule(source, 0);
	}
}
