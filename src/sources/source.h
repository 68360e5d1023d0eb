/* Depth sources: where frames come from.
 *
 * A source is opened from a spec ("demo", "replay:DIR", "freenect:1",
 * "raw:FILE,FILE") and delivers 640x480 millimetre frames into the GLib
 * main loop. Each backend is one source-*.c file exporting a SourceBackend.
 *
 * File and synthetic backends are pulled: source.c asks them for the next
 * frame and paces delivery by the frames' own times (or runs as fast as the
 * loop goes with the fast option). Live backends push frames themselves. */
#pragma once

#include <glib.h>

#include "base/depth.h"

#define SOURCE_ERROR (source_error_quark())
GQuark source_error_quark(void);

typedef enum {
	SOURCE_ERROR_SPEC, /* unknown source name or bad argument */
	SOURCE_ERROR_NO_DEVICE,
	SOURCE_ERROR_DEVICE,    /* the device failed */
	SOURCE_ERROR_DATA,      /* a file could not be read */
	SOURCE_ERROR_NOT_FOUND, /* no such file */
} SourceError;

typedef enum {
	SOURCE_EVENT_END,     /* no more frames: the run is over */
	SOURCE_EVENT_LOST,    /* the device went away; the source keeps trying */
	SOURCE_EVENT_RESUMED, /* frames flow again after SOURCE_EVENT_LOST */
	SOURCE_EVENT_ERROR,   /* a fatal error; no more frames follow */
	SOURCE_EVENT_WARNING, /* something ridden out: a frame left out, a gap cut short */
} SourceEvent;

typedef struct {
	gboolean fast; /* ignore recorded pace: deliver as fast as possible */
	gboolean loop; /* start again at the end (recordings and stills) */
	guint64 seed;  /* for synthetic sources */
} SourceOptions;

typedef struct _Source Source;

/* Pacing recordings and scenes (without --fast): a frame due more than
 * SOURCE_MAX_GAP_US after now plays SOURCE_GAP_PLAYED_US from now (with a
 * warning); one more than SOURCE_MAX_LATE_US late, after a stall, plays at
 * once and pacing goes on from it, rather than the missed frames coming in
 * a burst. */
#define SOURCE_MAX_GAP_US    (5 * G_USEC_PER_SEC)
#define SOURCE_GAP_PLAYED_US (G_USEC_PER_SEC / 30)
#define SOURCE_MAX_LATE_US   (G_USEC_PER_SEC / 4)

/* The callbacks may stop the source but must not free it. */
typedef struct {
	/* @frame is valid during the call only. */
	void (*frame)(Source *source, const DepthFrame *frame, gpointer user_data);
	/* @error is set for SOURCE_EVENT_ERROR, SOURCE_EVENT_LOST and SOURCE_EVENT_WARNING. */
	void (*event)(Source *source, SourceEvent event, const GError *error, gpointer user_data);
} SourceCallbacks;

/**
 * source_open:
 * Opens the source named by @spec. Device and file errors are reported here
 * where they can be: a missing camera or a broken recording fails the open.
 */
Source *source_open(const char *spec, const SourceOptions *options, GError **error);
void source_free(Source *source);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Source, source_free)

/** source_start: begins delivering frames on the thread-default main context. */
gboolean source_start(Source *source, const SourceCallbacks *callbacks, gpointer user_data,
                      GError **error);
void source_stop(Source *source);

/**
 * source_pause:
 * A pulled source (a recording, a scene, stills) reads no further frame
 * until source_resume(), so that a caller whose work on a frame outlasts
 * the frame's call (tracking on a thread) keeps every frame, as --fast
 * needs. A live source goes on regardless.
 */
void source_pause(Source *source);
void source_resume(Source *source);

/** source_spec: the spec the source was opened with. */
const char *source_spec(const Source *source);
/** source_usage: one line per backend, for --help. */
const char *source_usage(void);

/**
 * source_read:
 * Pulls the next frame synchronously, for pulled backends only (tests,
 * benchmarks). Returns the frame (owned by the source, valid until the next
 * call), or NULL at the end (error unset) or on error.
 */
const DepthFrame *source_read(Source *source, GError **error);

/* ---- for backends ---- */

typedef enum {
	SOURCE_READ_FRAME,
	SOURCE_READ_END,
	SOURCE_READ_ERROR,
	SOURCE_READ_SKIPPED, /* this frame cannot be read (@error says why); read the next */
} SourceReadResult;

typedef struct {
	const char *name;  /* the spec's prefix */
	const char *usage; /* one line: "replay:DIR   play a fakenect dump" */
	/* @arg is the part after "name:", or NULL when there is none. */
	gpointer (*open)(const char *arg, const SourceOptions *options, GError **error);
	/* Pulled backends: fill @frame (arrays allocated by source.c). */
	SourceReadResult (*read)(gpointer data, DepthFrame *frame, GError **error);
	/* Pushed backends: deliver with source_emit_*() from the main context. */
	gboolean (*start)(gpointer data, Source *source, GError **error);
	void (*stop)(gpointer data);
	void (*free)(gpointer data);
} SourceBackend;

void source_emit_frame(Source *source, const DepthFrame *frame);
void source_emit_event(Source *source, SourceEvent event, const GError *error);

extern const SourceBackend source_demo_backend;
extern const SourceBackend source_replay_backend;
extern const SourceBackend source_freenect_backend;
extern const SourceBackend source_raw_backend;
