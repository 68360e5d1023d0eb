/* "freenect[:INDEX]": a live Kinect v1 through libfreenect's asynchronous
 * API, on a worker thread.
 *
 * We ask for FREENECT_DEPTH_11BIT and convert to millimetres ourselves with
 * libfreenect's table, so the same code runs under Debian's fakenect
 * wrapper, which serves only 11-bit raw. A device that goes away is
 * reported and reopened every few seconds; under fakenect (FAKENECT_PATH
 * set) the end of the dump is the end of the stream. */
#include <libfreenect.h>
#include <stdlib.h>
#include <string.h>

#include "source.h"

#define RETRY_US (3 * G_USEC_PER_SEC) /* between attempts to reopen */
#define STALL_US (3 * G_USEC_PER_SEC) /* no frames for this long: lost */
#define POLL_US  100000

typedef struct {
	SourceEvent event;
	GError *error;
	gboolean after_frame; /* a frame was waiting when it came */
} PendingEvent;

typedef struct {
	int index;
	gboolean fakenect;
	Source *source;
	GThread *thread;
	gint stopping; /* atomic */
	freenect_context *ctx;
	freenect_device *dev;   /* the worker's while it runs */
	guint16 *device_buffer; /* libfreenect writes depth here */
	GSource *wake;          /* attached to the caller's context */
	/* Shared between the worker and the main context. */
	GMutex lock;
	guint16 *back;
	gboolean back_full;
	guint32 back_timestamp;
	gint64 back_time_us;
	guint64 back_skipped; /* frames replaced in back before it was taken */
	GQueue events;        /* PendingEvent */
	/* The worker's own. */
	gboolean lost;
	gint64 last_frame_us;
	/* The main context's own. */
	DepthFrame *frame;
	guint64 number;
} SourceFreenect;

static void
pending_event_free(gpointer data)
{
	PendingEvent *pending = data;

	g_clear_error(&pending->error);
	g_free(pending);
}

/* Worker: queue an event for the main context. */
static void post_event(SourceFreenect *fn, SourceEvent event, const char *format, ...)
        G_GNUC_PRINTF(3, 4);

static void
post_event(SourceFreenect *fn, SourceEvent event, const char *format, ...)
{
	PendingEvent *pending = g_new0(PendingEvent, 1);

	pending->event = event;
	if (format != NULL) {
		va_list args;

		va_start(args, format);
		pending->error =
		        g_error_new_valist(SOURCE_ERROR, SOURCE_ERROR_DEVICE, format, args);
		va_end(args);
	}
	g_mutex_lock(&fn->lock);
	pending->after_frame = fn->back_full;
	g_queue_push_tail(&fn->events, pending);
	g_mutex_unlock(&fn->lock);
	g_source_set_ready_time(fn->wake, 0);
}

/* Worker (inside freenect_process_events): keep the newest frame. */
static void
depth_callback(freenect_device *dev, void *depth, uint32_t timestamp)
{
	SourceFreenect *fn = freenect_get_user(dev);

	fn->last_frame_us = g_get_monotonic_time();
	if (fn->lost) {
		fn->lost = FALSE;
		post_event(fn, SOURCE_EVENT_RESUMED, NULL);
	}
	g_mutex_lock(&fn->lock);
	memcpy(fn->back, depth, DEPTH_PIXELS * sizeof(guint16));
	if (fn->back_full)
		fn->back_skipped++;
	fn->back_full = TRUE;
	fn->back_timestamp = timestamp;
	fn->back_time_us = fn->last_frame_us;
	g_mutex_unlock(&fn->lock);
	g_source_set_ready_time(fn->wake, 0);
}

static gboolean
device_setup(SourceFreenect *fn, GError **error)
{
	freenect_frame_mode mode =
	        freenect_find_depth_mode(FREENECT_RESOLUTION_MEDIUM, FREENECT_DEPTH_11BIT);

	freenect_set_user(fn->dev, fn);
	freenect_set_depth_callback(fn->dev, depth_callback);
	if (freenect_set_depth_mode(fn->dev, mode) < 0 ||
	    freenect_set_depth_buffer(fn->dev, fn->device_buffer) < 0 ||
	    freenect_start_depth(fn->dev) < 0) {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_DEVICE,
		            "freenect:%d: cannot start the depth stream", fn->index);
		return FALSE;
	}
	return TRUE;
}

static void
device_close(SourceFreenect *fn)
{
	if (fn->dev == NULL)
		return;
	freenect_stop_depth(fn->dev);
	freenect_close_device(fn->dev);
	fn->dev = NULL;
}

static gboolean
device_open(SourceFreenect *fn, GError **error)
{
	int n = freenect_num_devices(fn->ctx);

	if (n <= 0) {
		g_set_error(
		        error, SOURCE_ERROR, SOURCE_ERROR_NO_DEVICE,
		        "freenect:%d: no Kinect found: libfreenect sees no device "
		        "(is it plugged in and powered, and may this user open its USB device?)",
		        fn->index);
		return FALSE;
	}
	if (fn->index >= n) {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_NO_DEVICE,
		            "freenect:%d: no such Kinect: libfreenect sees %d (numbered from 0)",
		            fn->index, n);
		return FALSE;
	}
	if (freenect_open_device(fn->ctx, &fn->dev, fn->index) < 0) {
		fn->dev = NULL;
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_DEVICE,
		            "freenect:%d: cannot open the Kinect (in use by another program, or "
		            "no permission on its USB device?)",
		            fn->index);
		return FALSE;
	}
	if (!device_setup(fn, error)) {
		device_close(fn);
		return FALSE;
	}
	fn->last_frame_us = g_get_monotonic_time();
	return TRUE;
}

static gboolean
worker_sleep(SourceFreenect *fn, gint64 us)
{
	gint64 end = g_get_monotonic_time() + us;

	while (!g_atomic_int_get(&fn->stopping) && g_get_monotonic_time() < end)
		g_usleep(POLL_US);
	return !g_atomic_int_get(&fn->stopping);
}

static void
worker_lost(SourceFreenect *fn, const char *why)
{
	device_close(fn);
	fn->lost = TRUE;
	post_event(fn, SOURCE_EVENT_LOST, "freenect:%d: Kinect lost (%s); retrying every %d s",
	           fn->index, why, (int)(RETRY_US / G_USEC_PER_SEC));
}

/* One round of the worker; FALSE when the stream has ended. */
static gboolean
worker_step(SourceFreenect *fn)
{
	struct timeval tv = { 0, POLL_US };
	int r;

	if (fn->dev == NULL) {
		if (!worker_sleep(fn, RETRY_US))
			return FALSE;
		if (!device_open(fn, NULL))
			return TRUE;
	}
	r = freenect_process_events_timeout(fn->ctx, &tv);
	if (r < 0 && fn->fakenect) {
		post_event(fn, SOURCE_EVENT_END, NULL);
		return FALSE;
	}
	if (r < 0) {
		g_autofree char *why = g_strdup_printf("libfreenect error %d", r);
		worker_lost(fn, why);
	} else if (g_get_monotonic_time() - fn->last_frame_us > STALL_US) {
		worker_lost(fn, "no frames for 3 s");
	}
	return TRUE;
}

static gpointer
worker_main(gpointer data)
{
	SourceFreenect *fn = data;

	while (!g_atomic_int_get(&fn->stopping) && worker_step(fn))
		;
	return NULL;
}

/* ---- the main context's side ---- */

typedef struct {
	GSource base;
	SourceFreenect *fn;
} WakeSource;

static PendingEvent *
pop_event(SourceFreenect *fn)
{
	PendingEvent *pending;

	g_mutex_lock(&fn->lock);
	pending = g_queue_pop_head(&fn->events);
	g_mutex_unlock(&fn->lock);
	return pending;
}

static gboolean
take_frame(SourceFreenect *fn)
{
	gboolean have;

	g_mutex_lock(&fn->lock);
	have = fn->back_full;
	if (have) {
		memcpy(fn->frame->raw, fn->back, DEPTH_PIXELS * sizeof(guint16));
		fn->frame->timestamp = fn->back_timestamp;
		fn->frame->time_us = fn->back_time_us;
		fn->frame->skipped = fn->back_skipped;
		fn->back_full = FALSE;
		fn->back_skipped = 0;
	}
	g_mutex_unlock(&fn->lock);
	return have;
}

/* The waiting frame, if any, to the source's callbacks. */
static void
emit_frame(SourceFreenect *fn)
{
	if (fn->source == NULL || !take_frame(fn))
		return;
	depth_convert_raw_to_mm(fn->frame->raw, fn->frame->mm, DEPTH_PIXELS);
	fn->frame->number = fn->number++;
	source_emit_frame(fn->source, fn->frame);
}

/* Hands queued events and the newest frame on, in the order they came.
 * The callbacks may stop the source (then fn->source is NULL) but must
 * not free it. */
static gboolean
wake_dispatch(GSource *base, GSourceFunc callback G_GNUC_UNUSED, gpointer data G_GNUC_UNUSED)
{
	SourceFreenect *fn = ((WakeSource *)base)->fn;
	PendingEvent *pending;

	g_source_set_ready_time(base, -1);
	while (fn->source != NULL && (pending = pop_event(fn)) != NULL) {
		/* The stream's end or loss came after the waiting frame. */
		if (pending->after_frame)
			emit_frame(fn);
		if (fn->source != NULL)
			source_emit_event(fn->source, pending->event, pending->error);
		pending_event_free(pending);
	}
	emit_frame(fn);
	return G_SOURCE_CONTINUE;
}

static GSourceFuncs wake_funcs = {
	.dispatch = wake_dispatch,
};

/* ---- the backend ---- */

static gboolean
parse_index(const char *arg, int *index, GError **error)
{
	guint64 value = 0;

	if (arg == NULL) {
		*index = 0;
		return TRUE;
	}
	if (!g_ascii_string_to_unsigned(arg, 10, 0, 15, &value, NULL)) {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_SPEC,
		            "freenect:%s: the device index is a number from 0 to 15", arg);
		return FALSE;
	}
	*index = (int)value;
	return TRUE;
}

static void source_freenect_free(gpointer data);

static gpointer
source_freenect_open(const char *arg, const SourceOptions *options G_GNUC_UNUSED, GError **error)
{
	SourceFreenect *fn = g_new0(SourceFreenect, 1);

	g_mutex_init(&fn->lock);
	g_queue_init(&fn->events);
	fn->fakenect = g_getenv("FAKENECT_PATH") != NULL;
	fn->back = g_new0(guint16, DEPTH_PIXELS);
	fn->device_buffer = g_new0(guint16, DEPTH_PIXELS);
	fn->frame = depth_frame_new();
	if (!parse_index(arg, &fn->index, error))
		goto fail;
	if (freenect_init(&fn->ctx, NULL) < 0) {
		fn->ctx = NULL;
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_DEVICE,
		            "freenect:%d: libfreenect failed to start (no USB access?)", fn->index);
		goto fail;
	}
	freenect_set_log_level(fn->ctx, FREENECT_LOG_ERROR);
	freenect_select_subdevices(fn->ctx, FREENECT_DEVICE_CAMERA);
	if (!device_open(fn, error))
		goto fail;
	return fn;
fail:
	source_freenect_free(fn);
	return NULL;
}

static gboolean
source_freenect_start(gpointer data, Source *source, GError **error G_GNUC_UNUSED)
{
	SourceFreenect *fn = data;

	fn->source = source;
	fn->wake = g_source_new(&wake_funcs, sizeof(WakeSource));
	((WakeSource *)fn->wake)->fn = fn;
	g_source_set_name(fn->wake, "skelbridge freenect frames");
	g_source_set_ready_time(fn->wake, -1);
	g_source_attach(fn->wake, g_main_context_get_thread_default());
	g_atomic_int_set(&fn->stopping, 0);
	fn->thread = g_thread_new("skelbridge-freenect", worker_main, fn);
	return TRUE;
}

static void
source_freenect_stop(gpointer data)
{
	SourceFreenect *fn = data;

	fn->source = NULL;
	g_atomic_int_set(&fn->stopping, 1);
	if (fn->thread != NULL)
		g_thread_join(fn->thread);
	fn->thread = NULL;
	if (fn->wake != NULL) {
		g_source_destroy(fn->wake);
		g_source_unref(fn->wake);
		fn->wake = NULL;
	}
}

static void
source_freenect_free(gpointer data)
{
	SourceFreenect *fn = data;

	device_close(fn);
	if (fn->ctx != NULL)
		freenect_shutdown(fn->ctx);
	g_queue_clear_full(&fn->events, pending_event_free);
	g_mutex_clear(&fn->lock);
	depth_frame_free(fn->frame);
	g_free(fn->back);
	g_free(fn->device_buffer);
	g_free(fn);
}

const SourceBackend source_freenect_backend = {
	.name = "freenect",
	.usage = "freenect[:INDEX]     a Kinect v1 through libfreenect (also under fakenect)",
	.open = source_freenect_open,
	.start = source_freenect_start,
	.stop = source_freenect_stop,
	.free = source_freenect_free,
};
