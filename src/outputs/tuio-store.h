/* Where a TUIO output's frame sequence stopped, kept across runs.
 *
 * TUIO clients drop a frame whose fseq is up to 100 below the last one
 * they saw. A bridge seeds its sequence from the clock, 30 a second, which
 * a run at the camera's pace never outruns; a --fast run or a replay does,
 * and the run after it would start below where it stopped. So each TUIO
 * output remembers its last fseq in a small file of the user's state
 * directory, one per source name and target, and the next run starts above
 * it.
 *
 * The file is plain text, versioned, and a reader ignores keys it does not
 * know:
 *
 *     # skelbridge: where a TUIO output's frame sequence stopped
 *     format = 1
 *     source = skelbridge@HOST
 *     target = osc.udp://127.0.0.1:3333
 *     fseq = 1234567
 *     time = 1790000000
 *
 * It is written atomically (a new file renamed over the old), at most
 * every TUIO_STORE_INTERVAL_US on a thread of its own so that a slow disk
 * never holds up a frame, and once more when the output stops. Nothing
 * about it stops the bridge: a missing file means a first run, a broken or
 * unwritable one a warning, and the clock seed alone. */
#pragma once

#include <glib.h>

#define TUIO_STORE_ERROR (tuio_store_error_quark())
GQuark tuio_store_error_quark(void);

typedef enum {
	TUIO_STORE_ERROR_INVALID, /* the file's content is wrong */
	TUIO_STORE_ERROR_IO,      /* it could not be read or written */
} TuioStoreError;

#define TUIO_STORE_FORMAT 1
/* How often a running output writes its fseq down. */
#define TUIO_STORE_INTERVAL_US ((gint64)5 * G_USEC_PER_SEC)
/* A file older than this says nothing about today's clock seed: the
 * sequence wraps every six and a half days, so an old fseq could lie
 * anywhere against it. A run ahead of the clock by a day is unheard of. */
#define TUIO_STORE_FRESH_US ((gint64)24 * 3600 * G_USEC_PER_SEC)
/* The largest state file read: a few lines. */
#define TUIO_STORE_MAX_BYTES 4096

/* ---- pure ---- */

/** tuio_store_format: the file's text for @fseq written at @unix_time_us; newly allocated. */
char *tuio_store_format(const char *source, const char *target, gint32 fseq, gint64 unix_time_us);

/**
 * tuio_store_parse:
 * Reads @fseq and the time it was written from the text of the file
 * @path. FALSE with an error, "path:line: what", when it is not a state
 * file of this format.
 */
gboolean tuio_store_parse(const char *path, const char *text, gsize length, gint32 *fseq,
                          gint64 *unix_time_us, GError **error);

/**
 * tuio_store_resume:
 * The fseq a run starting at @now_us must go on above: @fseq when it was
 * written less than TUIO_STORE_FRESH_US ago, otherwise 0 (nothing to go on
 * above: the clock seed is enough).
 */
gint32 tuio_store_resume(gint32 fseq, gint64 written_us, gint64 now_us);

/**
 * tuio_store_file_name:
 * The file's name for an output sending as @source to @target:
 * "tuio-" and 16 hex digits of their hash, so that any name or URL makes a
 * safe file name; newly allocated.
 */
char *tuio_store_file_name(const char *source, const char *target);

/* ---- the file ---- */

typedef struct _TuioStore TuioStore;

/** tuio_store_new: the state of the output sending as @source to @target, in @dir. */
TuioStore *tuio_store_new(const char *dir, const char *source, const char *target);
/** tuio_store_free: waits for a write on its way, then frees. */
void tuio_store_free(TuioStore *store);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(TuioStore, tuio_store_free)

const char *tuio_store_path(const TuioStore *store);

/**
 * tuio_store_load:
 * The fseq to go on above at @now_us (see tuio_store_resume()); 0 and no
 * error when there is no file yet; 0 and an error when it cannot be read
 * or is broken.
 */
gint32 tuio_store_load(TuioStore *store, gint64 now_us, GError **error);

/**
 * tuio_store_remember:
 * Notes @fseq, sent at @now_us; writes it down in the background when the
 * last write is TUIO_STORE_INTERVAL_US old and done. Never waits.
 */
void tuio_store_remember(TuioStore *store, gint32 fseq, gint64 now_us);

/** tuio_store_save: writes @fseq now, once a write on its way is done. */
gboolean tuio_store_save(TuioStore *store, gint32 fseq, gint64 now_us, GError **error);

/**
 * tuio_store_take_error:
 * The error of a background write since the last call, or NULL; newly
 * allocated.
 */
char *tuio_store_take_error(TuioStore *store);
