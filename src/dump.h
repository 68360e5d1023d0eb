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

typedef struct {
	char *name;        /* file name as listed */
	guint line;        /* line in INDEX.txt, from 1 */
	double walltime;   /* seconds, as recorded */
	guint32 timestamp; /* the device's timestamp */
} DumpEntry;

typedef struct _DumpReader DumpReader;

/**
 * dump_reader_open:
 * Reads @dir/INDEX.txt and checks every depth entry: its name, that the file
 * exists and has the right size. Errors read "DIR/INDEX.txt:LINE: what".
 */
DumpReader *dump_reader_open(const char *dir, GError **error);
void dump_reader_free(DumpReader *reader);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(DumpReader, dump_reader_free)

guint dump_reader_n_frames(const DumpReader *reader);
const DumpEntry *dump_reader_entry(const DumpReader *reader, guint index);

/**
 * dump_reader_read:
 * Reads depth frame @index into @raw (DEPTH_PIXELS values), checking its
 * header and length.
 */
gboolean dump_reader_read(DumpReader *reader, guint index, guint16 *raw, GError **error);

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
