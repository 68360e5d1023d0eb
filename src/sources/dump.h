/* fakenect dumps: the recording format of libfreenect's fakenect-record.
 *
 * A dump is a folder with INDEX.txt, one file name per line in play order.
 * Depth files are named d-<walltime>-<timestamp>.pgm and hold the one-line
 * header "P5 640 480 65535" and a newline, then 640x480 little-endian 11-bit
 * raw values (not PGM's big-endian). r- (colour) and a- (accelerometer)
 * lines are skipped. */
#pragma once

#include <gio/gio.h>

#define DUMP_ERROR (dump_error_quark())
GQuark dump_error_quark(void);

typedef enum {
	DUMP_ERROR_INDEX,      /* INDEX.txt missing or unreadable */
	DUMP_ERROR_BLANK_LINE, /* a blank line in INDEX.txt */
	DUMP_ERROR_BAD_NAME,   /* a line that is not a fakenect file name */
	DUMP_ERROR_NO_FRAMES,  /* no depth file listed */
	DUMP_ERROR_MISSING,    /* a listed file cannot be opened: missing, not a regular file */
	DUMP_ERROR_BAD_HEADER, /* a depth file's header is not P5 640 480 65535 */
	DUMP_ERROR_SHORT,      /* a depth file with fewer than 614400 data bytes */
	DUMP_ERROR_EXISTS,     /* recording into a folder that already has a dump */
	DUMP_ERROR_WRITE,      /* writing failed (full disk, permissions) */
	DUMP_ERROR_NOT_FOUND,  /* no INDEX.txt there: no such folder, or not a dump */
} DumpError;

#define DUMP_DEPTH_HEADER "P5 640 480 65535\n"
/* The latest walltime a file name may carry, in seconds since 1970 (some
 * 30,000 years): later ones are refused as they are read. */
#define DUMP_MAX_WALLTIME 1e12
/* The largest INDEX.txt read: some 8 MiB an hour of depth, colour and
 * motion at 30 fps, so a day and more. */
#define DUMP_MAX_INDEX_BYTES (256 * 1024 * 1024)

/* The longest line INDEX.txt may have: fakenect's names are some 30 bytes. */
#define DUMP_MAX_LINE 1024

typedef struct {
	const char *name;  /* file name as listed */
	guint line;        /* line in INDEX.txt, from 1 */
	double walltime;   /* seconds, as recorded */
	guint32 timestamp; /* the device's timestamp */
} DumpEntry;

typedef enum {
	DUMP_READ_FRAME, /* a frame was read */
	DUMP_READ_END,   /* the end of INDEX.txt: dump_reader_rewind() plays it again */
	DUMP_READ_ERROR, /* this frame cannot be read; the next call goes on after it */
} DumpReadResult;

typedef struct _DumpReader DumpReader;

/**
 * dump_reader_open:
 * Reads @dir/INDEX.txt through once, checking every line's name, and checks
 * the first depth file's header and size. INDEX.txt is kept open and read
 * again as frames are played, and the other depth files are opened only
 * then, so a long recording costs neither memory nor time before its first
 * frame. Errors read "DIR/INDEX.txt:LINE: what".
 */
DumpReader *dump_reader_open(const char *dir, GError **error);
void dump_reader_free(DumpReader *reader);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(DumpReader, dump_reader_free)

/** dump_reader_n_frames: the number of depth frames INDEX.txt lists. */
guint dump_reader_n_frames(const DumpReader *reader);

/** dump_reader_span: seconds from the first depth frame to the last. */
double dump_reader_span(const DumpReader *reader);

/**
 * dump_reader_next:
 * Reads the next depth frame in play order into @raw (DEPTH_PIXELS values),
 * checking its header and length, and points @entry at its listing (valid
 * until the next call; also set on DUMP_READ_ERROR when the line could be
 * read). A frame's time is its walltime less the first frame's, which
 * dump_reader_first_walltime() gives.
 */
DumpReadResult dump_reader_next(DumpReader *reader, guint16 *raw, const DumpEntry **entry,
                                GError **error);

/** dump_reader_first_walltime: the walltime of the first depth frame. */
double dump_reader_first_walltime(const DumpReader *reader);

/** dump_reader_rewind: plays from the first frame again. */
gboolean dump_reader_rewind(DumpReader *reader, GError **error);

typedef struct _DumpWriter DumpWriter;

/**
 * dump_writer_new:
 * Starts a dump in @dir, creating it when missing. A folder that already
 * holds an INDEX.txt is refused rather than mixed into.
 */
DumpWriter *dump_writer_new(const char *dir, GError **error);

/**
 * dump_writer_add:
 * Writes one depth frame and lists it in INDEX.txt. A frame is listed only
 * once its file is complete, so a failed write leaves a playable dump of
 * the frames before it.
 */
gboolean dump_writer_add(DumpWriter *writer, double walltime, guint32 timestamp, const guint16 *raw,
                         GError **error);
guint dump_writer_n_frames(const DumpWriter *writer);

/** dump_writer_close: flushes and closes INDEX.txt, then frees @writer. */
gboolean dump_writer_close(DumpWriter *writer, GError **error);
void dump_writer_free(DumpWriter *writer);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(DumpWriter, dump_writer_free)
