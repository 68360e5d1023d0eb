/* Pure Data, headless, running a harness patch that the test writes: the
 * patch holds one of examples/pd as an abstraction (found on Pd's -path),
 * prints what the test asks for, and quits when the test tells it to over
 * UDP, after printing any last readings.
 *
 * Pd runs with -nrt -nogui -noaudio -nomidi -stderr and real time, not
 * -batch: in batch mode logical time races ahead and [netreceive] hears
 * nothing. A Pd that is missing or does not start fails the test, and so
 * does any error or warning Pd prints. */
#pragma once

#include <glib.h>

typedef struct _PdHarness PdHarness;

/** pd_harness_new: a harness around the example @example ("skeleton-monitor"). */
PdHarness *pd_harness_new(const char *example);
void pd_harness_free(PdHarness *harness);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(PdHarness, pd_harness_free)

/** pd_harness_obj: adds an object box to the patch; its index. */
guint pd_harness_obj(PdHarness *harness, const char *format, ...) G_GNUC_PRINTF(2, 3);
/** pd_harness_msg: adds a message box; its index. */
guint pd_harness_msg(PdHarness *harness, const char *format, ...) G_GNUC_PRINTF(2, 3);
void pd_harness_connect(PdHarness *harness, guint from, guint outlet, guint to, guint inlet);

/** pd_harness_print: prints every message sent to @name as "@name: ...". */
void pd_harness_print(PdHarness *harness, const char *name);

/* The harness sends a bang to this name as it quits, before Pd goes: last
 * readings hang on a [receive] of it. */
#define PD_HARNESS_QUITTING "harness-quitting"

/**
 * pd_harness_start:
 * Writes the patch, starts Pd and waits until the patch has loaded.
 * Returns FALSE, with the test failed, when Pd cannot start, or the patch
 * does not load cleanly.
 */
gboolean pd_harness_start(PdHarness *harness);

/**
 * pd_harness_wait_until:
 * Waits until @ready says Pd's log holds everything; FALSE, with the test
 * failed, after a minute.
 */
gboolean pd_harness_wait_until(PdHarness *harness,
                               gboolean (*ready)(const char *log, gpointer user_data),
                               gpointer user_data);

/**
 * pd_harness_wait_printed:
 * Waits until Pd has printed @n messages under the names given to
 * pd_harness_print(), all told; FALSE, with the test failed, after a minute.
 */
gboolean pd_harness_wait_printed(PdHarness *harness, guint n);

/**
 * pd_harness_quit:
 * Tells the patch to quit and waits for Pd to exit. Returns everything
 * Pd printed, or NULL, with the test failed, when Pd printed an error or
 * did not exit cleanly.
 */
char *pd_harness_quit(PdHarness *harness);

/** pd_examples_dir: examples/pd in the source tree. */
char *pd_examples_dir(void);

/**
 * pd_load_cleanly:
 * Opens @patch in Pd on its own and quits at once. FALSE, with the test
 * failed, when Pd cannot start or prints an error or a warning, such as an
 * object that cannot be made.
 */
gboolean pd_load_cleanly(const char *patch);

/* One printed message: "name: 1 2 3" (a leading "list" is dropped). */
typedef struct {
	char *name;
	double *values;
	guint n_values;
} PdPrinted;

/** pd_printed_parse: every line of @log that prints numbers under a name, in order. */
GPtrArray *pd_printed_parse(const char *log);

/** pd_printed_values: the values printed under @name, one double per message's value @index. */
GArray *pd_printed_values(const GPtrArray *printed, const char *name, guint index);
