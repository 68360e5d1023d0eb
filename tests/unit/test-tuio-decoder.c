/* The strict TUIO decoder the TUIO tests rely on: it accepts what the
 * specification allows and rejects each kind of mistake. Datagrams are
 * built byte by byte here. */
#include <string.h>

#include "tuio-decoder.h"

typedef struct {
	GByteArray *bytes;
} Osc;

static void
osc_pad(GByteArray *b)
{
	static const guint8 zero[4];

	g_byte_array_append(b, zero, (4 - b->len % 4) % 4);
}

static void
osc_string(GByteArray *b, const char *s)
{
	g_byte_array_append(b, (const guint8 *)s, strlen(s) + 1);
	osc_pad(b);
}

static void
osc_u32(GByteArray *b, guint32 v)
{
	guint8 be[4] = { v >> 24, v >> 16, v >> 8, v };

	g_byte_array_append(b, be, 4);
}

static void
osc_float(GByteArray *b, float f)
{
	guint32 v;

	memcpy(&v, &f, 4);
	osc_u32(b, v);
}

/* A message from a type-tag string and its values: strings for 's',
 * numbers for 'i' and 'f' (as doubles). */
static GByteArray *
message(const char *address, const char *tags, ...)
{
	GByteArray *b = g_byte_array_new();
	va_list args;

	osc_string(b, address);
	osc_string(b, tags);
	va_start(args, tags);
	for (const char *t = tags + 1; *t; t++) {
		if (*t == 's')
			osc_string(b, va_arg(args, const char *));
		else if (*t == 'i')
			osc_u32(b, (guint32)va_arg(args, int));
		else
			osc_float(b, (float)va_arg(args, double));
	}
	va_end(args);
	return b;
}

/* A bundle of the given messages (consumed), NULL-terminated. */
static GByteArray *
bundle(GByteArray *first, ...)
{
	GByteArray *b = g_byte_array_new();
	va_list args;

	osc_string(b, "#bundle");
	osc_u32(b, 0);
	osc_u32(b, 1);
	va_start(args, first);
	for (GByteArray *m = first; m != NULL; m = va_arg(args, GByteArray *)) {
		osc_u32(b, m->len);
		g_byte_array_append(b, m->data, m->len);
		g_byte_array_unref(m);
	}
	va_end(args);
	return b;
}

#define CUR "/tuio/2Dcur"

static GByteArray *
alive0(void)
{
	return message(CUR, ",s", "alive");
}

static GByteArray *
alive1(int a)
{
	return message(CUR, ",si", "alive", a);
}

static GByteArray *
set(int id, double x, double y)
{
	return message(CUR, ",sifffff", "set", id, x, y, 0.0, 0.0, 0.0);
}

static GByteArray *
fseq(int n)
{
	return message(CUR, ",si", "fseq", n);
}

static gboolean
feed(TuioDecoder *d, GByteArray *datagram, GError **error)
{
	gboolean ok = tuio_decoder_feed(d, datagram->data, datagram->len, error);

	g_byte_array_unref(datagram);
	return ok;
}

static void
expect_ok(TuioDecoder *d, GByteArray *datagram)
{
	g_autoptr(GError) error = NULL;

	feed(d, datagram, &error);
	g_assert_no_error(error);
}

static void
expect_error(TuioDecoder *d, GByteArray *datagram, const char *message_text)
{
	g_autoptr(GError) error = NULL;

	g_assert_false(feed(d, datagram, &error));
	g_assert_nonnull(error);
	g_assert_cmpstr(error->message, ==, message_text);
}

static void
test_add_update_remove(void)
{
	g_autoptr(TuioDecoder) d = tuio_decoder_new("2Dcur", 1472);
	const GArray *events;

	expect_ok(d, bundle(message(CUR, ",ss", "source", "skelbridge@here"), alive0(), fseq(10),
	                    NULL));
	expect_ok(d, bundle(alive1(5), set(5, 0.5, 0.5), fseq(11), NULL));
	expect_ok(d, bundle(alive1(5), set(5, 0.6, 0.5), fseq(12), NULL));
	expect_ok(d, bundle(alive0(), fseq(13), NULL));
	events = tuio_decoder_events(d);
	g_assert_cmpuint(events->len, ==, 3);
	g_assert_cmpuint(g_array_index(events, TuioEvent, 0).kind, ==, TUIO_EVENT_ADD);
	g_assert_cmpuint(g_array_index(events, TuioEvent, 1).kind, ==, TUIO_EVENT_UPDATE);
	g_assert_cmpfloat(g_array_index(events, TuioEvent, 1).x, ==, 0.6f);
	g_assert_cmpuint(g_array_index(events, TuioEvent, 2).kind, ==, TUIO_EVENT_REMOVE);
	g_assert_cmpint(g_array_index(events, TuioEvent, 2).session, ==, 5);
	g_assert_cmpstr(tuio_decoder_source(d), ==, "skelbridge@here");
	g_assert_cmpuint(tuio_decoder_n_alive(d), ==, 0);
	g_assert_cmpint(tuio_decoder_last_fseq(d), ==, 13);
}

/* A frame too big for one datagram: each part repeats alive and fseq. */
static void
test_split_frame(void)
{
	g_autoptr(TuioDecoder) d = tuio_decoder_new("2Dcur", 1472);
	g_autoptr(GError) error = NULL;

	expect_ok(d, bundle(message(CUR, ",sii", "alive", 1, 2), set(1, 0.1, 0.1), fseq(20), NULL));
	expect_ok(d, bundle(message(CUR, ",sii", "alive", 1, 2), set(2, 0.2, 0.2), fseq(20), NULL));
	g_assert_true(tuio_decoder_finish(d, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(tuio_decoder_events(d)->len, ==, 2);
	expect_error(d, bundle(alive1(1), fseq(20), NULL),
	             "fseq 20 repeated with a different alive list");
}

static void
test_redundant_frame(void)
{
	g_autoptr(TuioDecoder) d = tuio_decoder_new("2Dcur", 1472);

	expect_ok(d, bundle(alive1(1), set(1, 0.1, 0.1), fseq(30), NULL));
	expect_ok(d, bundle(alive0(), fseq(-1), NULL));
	expect_ok(d, bundle(alive0(), fseq(-1), NULL));
	expect_ok(d, bundle(alive0(), fseq(31), NULL));
	g_assert_cmpuint(tuio_decoder_events(d)->len, ==, 2);
}

static void
test_3dcur(void)
{
	g_autoptr(TuioDecoder) d = tuio_decoder_new("3Dcur", 1472);

	expect_ok(d, bundle(message("/tuio/3Dcur", ",si", "alive", 4),
	                    message("/tuio/3Dcur", ",sifffffff", "set", 4, 0.1, 0.2, 0.3, 0.0, 0.0,
	                            0.0, 0.0),
	                    message("/tuio/3Dcur", ",si", "fseq", 1), NULL));
	g_assert_cmpfloat(g_array_index(tuio_decoder_events(d), TuioEvent, 0).z, ==, 0.3f);
}

static void
test_errors(void)
{
	g_autoptr(TuioDecoder) d = tuio_decoder_new("2Dcur", 200);
	g_autoptr(GByteArray) big = g_byte_array_new();
	GByteArray *plain = message(CUR, ",s", "alive");

	expect_error(d, plain, "not an OSC bundle");
	expect_error(d, bundle(alive0(), NULL), "bundle without fseq");
	expect_error(d, bundle(fseq(1), NULL), "fseq before alive");
	expect_error(d, bundle(set(1, 0.5, 0.5), alive1(1), fseq(1), NULL), "set before alive");
	expect_error(d, bundle(alive0(), fseq(1), alive0(), NULL), "'alive' after fseq");
	expect_error(d, bundle(alive0(), alive0(), fseq(1), NULL),
	             "two alive messages in one bundle");
	expect_error(
	        d, bundle(alive0(), message(CUR, ",si", "fseq", 1), message(CUR, ",s", "x"), NULL),
	        "'x' after fseq");
	expect_error(d, bundle(alive0(), message(CUR, ",s", "frobnicate"), fseq(1), NULL),
	             "unknown command 'frobnicate'");
	expect_error(d, bundle(message("/tuio/3Dcur", ",s", "alive"), fseq(1), NULL),
	             "address '/tuio/3Dcur', expected '/tuio/2Dcur'");
	expect_error(d,
	             bundle(alive1(1), message(CUR, ",sidffff", "set", 1, 0.5, 0.5, 0, 0, 0),
	                    fseq(1), NULL),
	             "type tag 'd' is not allowed in TUIO");
	expect_error(d,
	             bundle(alive1(1), message(CUR, ",siffff", "set", 1, 0.5, 0.5, 0.0, 0.0),
	                    fseq(1), NULL),
	             "'set' has type tags ',siffff', expected ',sifffff'");
	expect_error(d, bundle(alive1(1), set(1, 1.5, 0.5), fseq(1), NULL),
	             "set 1: value 0 is 1.5, out of range");
	expect_error(d, bundle(alive1(1), set(2, 0.5, 0.5), fseq(1), NULL),
	             "set for session 2, which is not alive");
	expect_error(d, bundle(message(CUR, ",sii", "alive", 3, 3), fseq(1), NULL),
	             "session 3 twice in alive");
	expect_error(d, bundle(alive0(), message(CUR, ",ss", "source", "a@b"), fseq(1), NULL),
	             "source is not the first message");
	expect_error(d, bundle(message(CUR, ",ss", "source", "nohost"), alive0(), fseq(1), NULL),
	             "source 'nohost' is not name@host");
	expect_ok(d, bundle(alive1(7), set(7, 0.5, 0.5), fseq(50), NULL));
	expect_error(d, bundle(alive1(7), fseq(49), NULL), "fseq went backwards: 49 after 50");
	expect_ok(d, bundle(alive0(), fseq(51), NULL));
	expect_error(d, bundle(alive1(7), set(7, 0.5, 0.5), fseq(52), NULL),
	             "session 7 reused after its removal");
	expect_ok(d, bundle(alive1(8), fseq(53), NULL));
	expect_error(d, bundle(alive0(), fseq(54), NULL),
	             "session 8 alive in frame 53 but never set");
	for (int i = 0; i < 30; i++)
		osc_string(big, "padding-padding");
	expect_error(d, bundle(g_byte_array_ref(big), NULL),
	             "datagram of 500 bytes, more than 200");
}

static void
test_bad_padding(void)
{
	g_autoptr(TuioDecoder) d = tuio_decoder_new("2Dcur", 1472);
	GByteArray *b = bundle(alive0(), fseq(1), NULL);

	/* "alive" starts after the bundle header (16), the element size (4),
	 * the address (12) and the type tags (4); its two padding bytes
	 * follow its terminating zero. */
	b->data[16 + 4 + 12 + 4 + 6] = 'x';
	expect_error(d, b, "OSC string padded with non-zero bytes");
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/tuio-decoder/add-update-remove", test_add_update_remove);
	g_test_add_func("/tuio-decoder/split-frame", test_split_frame);
	g_test_add_func("/tuio-decoder/redundant-frame", test_redundant_frame);
	g_test_add_func("/tuio-decoder/3dcur", test_3dcur);
	g_test_add_func("/tuio-decoder/errors", test_errors);
	g_test_add_func("/tuio-decoder/bad-padding", test_bad_padding);
	return g_test_run();
}
