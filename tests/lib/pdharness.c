#include "pdharness.h"

#include <gio/gio.h>
#include <stdarg.h>
#include <string.h>

#include "childproc.h"
#include "testutil.h"

#define READY_MS   10000
#define PRINTED_MS 60000
#define EXIT_MS    30000

/* Objects every harness has, before the test's own. */
enum {
	FIXED_EXAMPLE,
	FIXED_LOADBANG,
	FIXED_READY,
	FIXED_CONTROL,
	FIXED_PARSE,
	FIXED_TRIM,
	FIXED_ROUTE,
	FIXED_TRIGGER,
	FIXED_QUITTING,
	FIXED_QUIT,
	N_FIXED,
};

#define READY_LINE "harness: bang"

struct _PdHarness {
	char *example;
	char *dir;
	GString *boxes;    /* the test's "#X obj/msg" lines */
	GString *connects; /* the test's "#X connect" lines */
	guint n_boxes;     /* counting the fixed ones */
	GPtrArray *names;  /* printed names */
	int control;       /* UDP port the patch quits on */
	ChildProc *pd;
};

PdHarness *
pd_harness_new(const char *example)
{
	PdHarness *h = g_new0(PdHarness, 1);

	h->example = g_strdup(example);
	h->dir = testutil_tmpdir();
	h->boxes = g_string_new(NULL);
	h->connects = g_string_new(NULL);
	h->n_boxes = N_FIXED;
	h->names = g_ptr_array_new_with_free_func(g_free);
	h->control = testutil_free_port(G_SOCKET_TYPE_DATAGRAM);
	return h;
}

void
pd_harness_free(PdHarness *h)
{
	if (h == NULL)
		return;
	child_proc_free(h->pd);
	testutil_rmdir(h->dir);
	g_free(h->dir);
	g_free(h->example);
	g_string_free(h->boxes, TRUE);
	g_string_free(h->connects, TRUE);
	g_ptr_array_unref(h->names);
	g_free(h);
}

static guint pd_harness_box(PdHarness *h, const char *kind, const char *format, va_list args)
        G_GNUC_PRINTF(3, 0);

static guint
pd_harness_box(PdHarness *h, const char *kind, const char *format, va_list args)
{
	g_autofree char *text = g_strdup_vprintf(format, args);

	/* Where a box sits matters to nobody: one below the other. */
	g_string_append_printf(h->boxes, "#X %s 300 %u %s;\n", kind, 20 * h->n_boxes, text);
	return h->n_boxes++;
}

guint
pd_harness_obj(PdHarness *h, const char *format, ...)
{
	va_list args;
	guint index;

	va_start(args, format);
	index = pd_harness_box(h, "obj", format, args);
	va_end(args);
	return index;
}

guint
pd_harness_msg(PdHarness *h, const char *format, ...)
{
	va_list args;
	guint index;

	va_start(args, format);
	index = pd_harness_box(h, "msg", format, args);
	va_end(args);
	return index;
}

void
pd_harness_connect(PdHarness *h, guint from, guint outlet, guint to, guint inlet)
{
	g_string_append_printf(h->connects, "#X connect %u %u %u %u;\n", from, outlet, to, inlet);
}

void
pd_harness_print(PdHarness *h, const char *name)
{
	guint r = pd_harness_obj(h, "r %s", name);

	pd_harness_connect(h, r, 0, pd_harness_obj(h, "print %s", name), 0);
	g_ptr_array_add(h->names, g_strdup(name));
}

/* The example, a ready line once loaded, and a quit on a UDP message. */
static char *
pd_harness_text(const PdHarness *h)
{
	return g_strdup_printf("#N canvas 0 0 800 600 10;\n"
	                       "#X obj 10 10 %s;\n"
	                       "#X obj 10 40 loadbang;\n"
	                       "#X obj 10 70 print harness;\n"
	                       "#X obj 150 40 netreceive -u -b %d;\n"
	                       "#X obj 150 70 oscparse;\n"
	                       "#X obj 150 100 list trim;\n"
	                       "#X obj 150 130 route quit;\n"
	                       "#X obj 150 160 t b b;\n"
	                       "#X obj 200 190 s " PD_HARNESS_QUITTING ";\n"
	                       "#X msg 150 220 \\; pd quit;\n"
	                       "%s"
	                       "#X connect %d 0 %d 0;\n"
	                       "#X connect %d 0 %d 0;\n"
	                       "#X connect %d 0 %d 0;\n"
	                       "#X connect %d 0 %d 0;\n"
	                       "#X connect %d 0 %d 0;\n"
	                       "#X connect %d 1 %d 0;\n"
	                       "#X connect %d 0 %d 0;\n"
	                       "%s",
	                       h->example, h->control, h->boxes->str, FIXED_LOADBANG, FIXED_READY,
	                       FIXED_CONTROL, FIXED_PARSE, FIXED_PARSE, FIXED_TRIM, FIXED_TRIM,
	                       FIXED_ROUTE, FIXED_ROUTE, FIXED_TRIGGER, FIXED_TRIGGER,
	                       FIXED_QUITTING, FIXED_TRIGGER, FIXED_QUIT, h->connects->str);
}

/* Pd says what went wrong on a line of its own. */
static gboolean
pd_harness_check_log(const char *log)
{
	g_auto(GStrv) lines = g_strsplit(log, "\n", -1);

	for (guint i = 0; lines[i] != NULL; i++) {
		if (strstr(lines[i], "error") != NULL || strstr(lines[i], "warning") != NULL ||
		    strstr(lines[i], "couldn't create") != NULL) {
			g_test_fail_printf("Pd said: %s", lines[i]);
			return FALSE;
		}
	}
	return TRUE;
}

/* A test of an example that never ran the example has not passed. */
static gboolean
pd_harness_find_pd(void)
{
	g_autofree char *pd = g_find_program_in_path("pd");

	if (pd == NULL)
		g_test_fail_printf("Pure Data (pd) is not installed; tools/setup installs it");
	return pd != NULL;
}

char *
pd_examples_dir(void)
{
	const char *root = g_getenv("SKELBRIDGE_SOURCE_ROOT");

	g_assert_nonnull(root);
	return g_build_filename(root, "examples", "pd", NULL);
}

gboolean
pd_load_cleanly(const char *patch)
{
	g_autofree char *name = g_path_get_basename(patch);
	/* A message to the patch's window proves it is open. */
	g_autofree char *send = g_strdup_printf("pd-%s dirty 0; pd quit", name);
	const char *argv[] = { "pd",    "-nrt", "-nogui", "-noaudio", "-nomidi", "-stderr",
		               "-open", patch,  "-send",  send,       NULL };
	g_autoptr(ChildProc) pd = NULL;
	g_autofree char *log = NULL;

	if (!pd_harness_find_pd())
		return FALSE;
	g_assert_true(g_file_test(patch, G_FILE_TEST_IS_REGULAR));
	pd = child_proc_spawn(argv);
	if (child_proc_wait(pd, EXIT_MS) != 0) {
		g_test_fail_printf("Pd did not exit cleanly after loading %s", patch);
		return FALSE;
	}
	log = child_proc_log(pd);
	return pd_harness_check_log(log);
}

gboolean
pd_harness_start(PdHarness *h)
{
	g_autofree char *patch = g_build_filename(h->dir, "harness.pd", NULL);
	g_autofree char *text = pd_harness_text(h);
	g_autofree char *examples = pd_examples_dir();
	const char *argv[] = { "pd",    "-nrt",   "-nogui", "-noaudio", "-nomidi", "-stderr",
		               "-path", examples, "-open",  patch,      NULL };
	g_autofree char *log = NULL;

	if (!pd_harness_find_pd())
		return FALSE;
	testutil_write_file(patch, text, strlen(text));
	h->pd = child_proc_spawn(argv);
	if (!child_proc_wait_log(h->pd, READY_LINE, READY_MS)) {
		log = child_proc_log(h->pd);
		g_test_fail_printf("Pd did not load the harness for %s; it said:\n%s", h->example,
		                   log);
		return FALSE;
	}
	log = child_proc_log(h->pd);
	return pd_harness_check_log(log);
}

static guint
pd_harness_count_printed(const PdHarness *h, const char *log)
{
	g_autoptr(GPtrArray) printed = pd_printed_parse(log);
	guint n = 0;

	for (guint i = 0; i < printed->len; i++) {
		const PdPrinted *p = g_ptr_array_index(printed, i);

		n += g_ptr_array_find_with_equal_func(h->names, p->name, g_str_equal, NULL);
	}
	return n;
}

typedef struct {
	const PdHarness *harness;
	guint n;
} PrintedWait;

static gboolean
pd_harness_printed_enough(const char *log, gpointer user_data)
{
	const PrintedWait *wait = user_data;

	return pd_harness_count_printed(wait->harness, log) >= wait->n;
}

gboolean
pd_harness_wait_until(PdHarness *h, gboolean (*ready)(const char *log, gpointer user_data),
                      gpointer user_data)
{
	if (child_proc_wait_until(h->pd, ready, user_data, PRINTED_MS))
		return TRUE;
	g_test_fail_printf("Pd did not print all that was awaited");
	return FALSE;
}

gboolean
pd_harness_wait_printed(PdHarness *h, guint n)
{
	PrintedWait wait = { h, n };
	g_autofree char *log = NULL;

	if (child_proc_wait_until(h->pd, pd_harness_printed_enough, &wait, PRINTED_MS))
		return TRUE;
	log = child_proc_log(h->pd);
	g_test_fail_printf("Pd printed %u of the %u values awaited",
	                   pd_harness_count_printed(h, log), n);
	return FALSE;
}

/* "/quit" with no arguments, as OSC puts it on the wire. */
static void
pd_harness_send_quit(const PdHarness *h)
{
	static const char quit[12] = "/quit\0\0\0,\0\0";
	g_autoptr(GSocket) socket =
	        g_socket_new(G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_DATAGRAM, 0, NULL);
	g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback(G_SOCKET_FAMILY_IPV4);
	g_autoptr(GSocketAddress) to = g_inet_socket_address_new(loopback, h->control);
	g_autoptr(GError) error = NULL;

	g_assert_cmpint(g_socket_send_to(socket, to, quit, sizeof(quit), NULL, &error), ==,
	                sizeof(quit));
	g_assert_no_error(error);
}

char *
pd_harness_quit(PdHarness *h)
{
	g_autofree char *log = NULL;

	pd_harness_send_quit(h);
	if (child_proc_wait(h->pd, EXIT_MS) != 0) {
		g_test_fail_printf("Pd did not exit cleanly");
		return NULL;
	}
	log = child_proc_log(h->pd);
	return pd_harness_check_log(log) ? g_steal_pointer(&log) : NULL;
}

static void
pd_printed_free(gpointer data)
{
	PdPrinted *p = data;

	g_free(p->name);
	g_free(p->values);
	g_free(p);
}

/* "name: 1 2 3" or "name: list 1 2 3"; NULL for anything else. */
static PdPrinted *
pd_printed_parse_line(const char *line)
{
	const char *colon = strstr(line, ": ");
	g_auto(GStrv) words = NULL;
	PdPrinted *p;
	guint first = 0;

	if (colon == NULL || colon == line)
		return NULL;
	words = g_strsplit(colon + 2, " ", -1);
	if (g_strcmp0(words[0], "list") == 0)
		first = 1;
	p = g_new0(PdPrinted, 1);
	p->name = g_strndup(line, colon - line);
	p->values = g_new0(double, g_strv_length(words));
	for (guint i = first; words[i] != NULL; i++) {
		char *end = NULL;

		p->values[p->n_values++] = g_ascii_strtod(words[i], &end);
		if (end == words[i] || *end != '\0') {
			pd_printed_free(p);
			return NULL;
		}
	}
	return p;
}

GPtrArray *
pd_printed_parse(const char *log)
{
	GPtrArray *printed = g_ptr_array_new_with_free_func(pd_printed_free);
	g_auto(GStrv) lines = g_strsplit(log, "\n", -1);

	for (guint i = 0; lines[i] != NULL; i++) {
		PdPrinted *p = pd_printed_parse_line(lines[i]);

		if (p != NULL && p->n_values > 0)
			g_ptr_array_add(printed, p);
		else if (p != NULL)
			pd_printed_free(p);
	}
	return printed;
}

GArray *
pd_printed_values(const GPtrArray *printed, const char *name, guint index)
{
	GArray *values = g_array_new(FALSE, FALSE, sizeof(double));

	for (guint i = 0; i < printed->len; i++) {
		const PdPrinted *p = g_ptr_array_index(printed, i);

		if (strcmp(p->name, name) == 0 && index < p->n_values)
			g_array_append_val(values, p->values[index]);
	}
	return values;
}
