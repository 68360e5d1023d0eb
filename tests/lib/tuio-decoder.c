#include "tuio-decoder.h"

#include <math.h>
#include <string.h>

#define DECODER_ERROR (g_quark_from_static_string("tuio-decoder"))

typedef struct {
	const guint8 *p;
	gsize len, pos;
} Reader;

typedef struct {
	char *command;
	GArray *ints;   /* gint32 */
	GArray *floats; /* float */
	char *text;     /* second string argument (source) */
	const char *tags;
} Message;

struct _TuioDecoder {
	char *address;
	char *set_tags;
	gboolean depth;
	gsize max_datagram;
	GArray *events;
	GHashTable *alive;   /* session -> TRUE, after the last frame */
	GHashTable *retired; /* sessions removed once: never to come back */
	GArray *frame_alive; /* the alive list of the frame being received */
	gint32 fseq;
	gboolean have_fseq;
	guint n_bundles;
	char *source;
};

TuioDecoder *
tuio_decoder_new(const char *profile, gsize max_datagram)
{
	TuioDecoder *d = g_new0(TuioDecoder, 1);

	d->address = g_strconcat("/tuio/", profile, NULL);
	d->depth = strcmp(profile, "2Dcur") != 0;
	d->set_tags = g_strdup(d->depth ? ",sifffffff" : ",sifffff");
	d->max_datagram = max_datagram;
	d->events = g_array_new(FALSE, FALSE, sizeof(TuioEvent));
	d->alive = g_hash_table_new(NULL, NULL);
	d->retired = g_hash_table_new(NULL, NULL);
	d->frame_alive = g_array_new(FALSE, FALSE, sizeof(gint32));
	return d;
}

void
tuio_decoder_free(TuioDecoder *d)
{
	if (d == NULL)
		return;
	g_free(d->address);
	g_free(d->set_tags);
	g_array_unref(d->events);
	g_hash_table_unref(d->alive);
	g_hash_table_unref(d->retired);
	g_array_unref(d->frame_alive);
	g_free(d->source);
	g_free(d);
}

/* ---- OSC framing ---- */

static gboolean
read_string(Reader *r, const char **out, GError **error)
{
	const guint8 *start = r->p + r->pos;
	const guint8 *nul = memchr(start, '\0', r->len - r->pos);
	gsize padded;

	if (nul == NULL) {
		g_set_error(error, DECODER_ERROR, 0, "unterminated OSC string at byte %zu", r->pos);
		return FALSE;
	}
	padded = ((gsize)(nul - start) + 4) & ~(gsize)3;
	if (r->pos + padded > r->len) {
		g_set_error(error, DECODER_ERROR, 0, "OSC string padding runs past the end");
		return FALSE;
	}
	for (gsize i = (gsize)(nul - start); i < padded; i++) {
		if (start[i] != '\0') {
			g_set_error(error, DECODER_ERROR, 0,
			            "OSC string padded with non-zero bytes");
			return FALSE;
		}
	}
	*out = (const char *)start;
	r->pos += padded;
	return TRUE;
}

static gboolean
read_u32(Reader *r, guint32 *out, GError **error)
{
	if (r->pos + 4 > r->len) {
		g_set_error(error, DECODER_ERROR, 0, "truncated: 4 bytes wanted at byte %zu",
		            r->pos);
		return FALSE;
	}
	*out = (guint32)r->p[r->pos] << 24 | (guint32)r->p[r->pos + 1] << 16 |
	       (guint32)r->p[r->pos + 2] << 8 | r->p[r->pos + 3];
	r->pos += 4;
	return TRUE;
}

static void
message_clear(Message *m)
{
	g_free(m->command);
	g_free(m->text);
	if (m->ints)
		g_array_unref(m->ints);
	if (m->floats)
		g_array_unref(m->floats);
}

static gboolean
read_argument(Reader *r, char tag, Message *m, GError **error)
{
	const char *s;
	guint32 u;
	float f;

	switch (tag) {
	case 's':
		if (!read_string(r, &s, error))
			return FALSE;
		if (m->command == NULL)
			m->command = g_strdup(s);
		else
			m->text = g_strdup(s);
		return TRUE;
	case 'i':
		if (!read_u32(r, &u, error))
			return FALSE;
		g_array_append_val(m->ints, u);
		return TRUE;
	case 'f':
		if (!read_u32(r, &u, error))
			return FALSE;
		memcpy(&f, &u, sizeof(f));
		g_array_append_val(m->floats, f);
		return TRUE;
	default:
		g_set_error(error, DECODER_ERROR, 0, "type tag '%c' is not allowed in TUIO", tag);
		return FALSE;
	}
}

static gboolean
read_message(TuioDecoder *d, Reader *r, Message *m, GError **error)
{
	const char *address, *tags;

	m->ints = g_array_new(FALSE, FALSE, sizeof(gint32));
	m->floats = g_array_new(FALSE, FALSE, sizeof(float));
	if (!read_string(r, &address, error) || !read_string(r, &tags, error))
		return FALSE;
	if (strcmp(address, d->address) != 0) {
		g_set_error(error, DECODER_ERROR, 0, "address '%s', expected '%s'", address,
		            d->address);
		return FALSE;
	}
	if (tags[0] != ',' || tags[1] != 's') {
		g_set_error(error, DECODER_ERROR, 0, "type tags '%s' do not start with ',s'", tags);
		return FALSE;
	}
	m->tags = tags;
	for (const char *t = tags + 1; *t; t++) {
		if (!read_argument(r, *t, m, error))
			return FALSE;
	}
	if (r->pos != r->len) {
		g_set_error(error, DECODER_ERROR, 0, "%zu bytes after the arguments of '%s'",
		            r->len - r->pos, m->command);
		return FALSE;
	}
	return TRUE;
}

/* ---- TUIO semantics ---- */

static gboolean
check_tags(const Message *m, const char *want, GError **error)
{
	if (strcmp(m->tags, want) == 0)
		return TRUE;
	g_set_error(error, DECODER_ERROR, 0, "'%s' has type tags '%s', expected '%s'", m->command,
	            m->tags, want);
	return FALSE;
}

static gboolean
check_alive(TuioDecoder *d, const Message *m, GError **error)
{
	for (const char *t = m->tags + 2; *t; t++) {
		if (*t != 'i') {
			g_set_error(error, DECODER_ERROR, 0, "alive has type tags '%s'", m->tags);
			return FALSE;
		}
	}
	for (guint i = 0; i < m->ints->len; i++) {
		gint32 id = g_array_index(m->ints, gint32, i);

		if (g_hash_table_contains(d->retired, GINT_TO_POINTER(id))) {
			g_set_error(error, DECODER_ERROR, 0, "session %d reused after its removal",
			            id);
			return FALSE;
		}
		for (guint k = 0; k < i; k++) {
			if (g_array_index(m->ints, gint32, k) == id) {
				g_set_error(error, DECODER_ERROR, 0, "session %d twice in alive",
				            id);
				return FALSE;
			}
		}
	}
	return TRUE;
}

static gboolean
in_list(const GArray *list, gint32 id)
{
	for (guint i = 0; i < list->len; i++) {
		if (g_array_index(list, gint32, i) == id)
			return TRUE;
	}
	return FALSE;
}

static gboolean
check_set_values(TuioDecoder *d, const Message *m, GError **error)
{
	guint n_pos = d->depth ? 3 : 2;

	for (guint i = 0; i < m->floats->len; i++) {
		float v = g_array_index(m->floats, float, i);

		if (!isfinite(v) || (i < n_pos && (v < 0.0f || v > 1.0f))) {
			g_set_error(error, DECODER_ERROR, 0, "set %d: value %u is %g, out of range",
			            g_array_index(m->ints, gint32, 0), i, v);
			return FALSE;
		}
	}
	return TRUE;
}

static TuioEvent
set_event(TuioDecoder *d, const Message *m)
{
	const float *f = (const float *)m->floats->data;
	TuioEvent e = { 0 };

	e.session = g_array_index(m->ints, gint32, 0);
	e.x = f[0];
	e.y = f[1];
	if (d->depth) {
		e.z = f[2];
		e.vx = f[3], e.vy = f[4], e.vz = f[5], e.accel = f[6];
	} else {
		e.vx = f[2], e.vy = f[3], e.accel = f[4];
	}
	return e;
}

typedef struct {
	gboolean have_alive;
	GArray *alive; /* this bundle's alive list */
	GArray *sets;  /* TuioEvent, kind unset */
	gboolean have_fseq;
	gint32 fseq;
} Bundle;

static gboolean
apply_message(TuioDecoder *d, Bundle *b, Message *m, guint index, GError **error)
{
	if (b->have_fseq) {
		g_set_error(error, DECODER_ERROR, 0, "'%s' after fseq", m->command);
		return FALSE;
	}
	if (strcmp(m->command, "source") == 0) {
		if (index != 0 || !check_tags(m, ",ss", error)) {
			if (error && !*error)
				g_set_error(error, DECODER_ERROR, 0,
				            "source is not the first message");
			return FALSE;
		}
		if (strchr(m->text, '@') == NULL) {
			g_set_error(error, DECODER_ERROR, 0, "source '%s' is not name@host",
			            m->text);
			return FALSE;
		}
		g_free(d->source);
		d->source = g_strdup(m->text);
		return TRUE;
	}
	if (strcmp(m->command, "alive") == 0) {
		if (b->have_alive) {
			g_set_error(error, DECODER_ERROR, 0, "two alive messages in one bundle");
			return FALSE;
		}
		if (!check_alive(d, m, error))
			return FALSE;
		b->have_alive = TRUE;
		g_array_append_vals(b->alive, m->ints->data, m->ints->len);
		return TRUE;
	}
	if (strcmp(m->command, "set") == 0) {
		TuioEvent e;

		if (!b->have_alive) {
			g_set_error(error, DECODER_ERROR, 0, "set before alive");
			return FALSE;
		}
		if (!check_tags(m, d->set_tags, error) || !check_set_values(d, m, error))
			return FALSE;
		e = set_event(d, m);
		if (!in_list(b->alive, e.session)) {
			g_set_error(error, DECODER_ERROR, 0,
			            "set for session %d, which is not alive", e.session);
			return FALSE;
		}
		g_array_append_val(b->sets, e);
		return TRUE;
	}
	if (strcmp(m->command, "fseq") == 0) {
		if (!b->have_alive) {
			g_set_error(error, DECODER_ERROR, 0, "fseq before alive");
			return FALSE;
		}
		if (!check_tags(m, ",si", error))
			return FALSE;
		b->have_fseq = TRUE;
		b->fseq = g_array_index(m->ints, gint32, 0);
		return TRUE;
	}
	g_set_error(error, DECODER_ERROR, 0, "unknown command '%s'", m->command);
	return FALSE;
}

static gboolean
same_list(const GArray *a, const GArray *b)
{
	return a->len == b->len && memcmp(a->data, b->data, a->len * sizeof(gint32)) == 0;
}

/* A bundle starts a frame, continues a split one (same fseq, same alive
 * list) or repeats the state (fseq -1). */
static gboolean
check_sequence(TuioDecoder *d, const Bundle *b, gboolean *new_frame, GError **error)
{
	*new_frame = TRUE;
	if (b->fseq == -1 || !d->have_fseq || b->fseq > d->fseq)
		return TRUE;
	if (b->fseq == d->fseq) {
		*new_frame = FALSE;
		if (same_list(b->alive, d->frame_alive))
			return TRUE;
		g_set_error(error, DECODER_ERROR, 0, "fseq %d repeated with a different alive list",
		            b->fseq);
		return FALSE;
	}
	g_set_error(error, DECODER_ERROR, 0, "fseq went backwards: %d after %d", b->fseq, d->fseq);
	return FALSE;
}

static void
emit(TuioDecoder *d, TuioEvent e, TuioEventKind kind, gint32 fseq)
{
	e.kind = kind;
	e.fseq = fseq;
	g_array_append_val(d->events, e);
}

static gboolean
check_frame_complete(TuioDecoder *d, GError **error)
{
	for (guint i = 0; i < d->frame_alive->len; i++) {
		gint32 id = g_array_index(d->frame_alive, gint32, i);

		if (!g_hash_table_contains(d->alive, GINT_TO_POINTER(id)) &&
		    !g_hash_table_contains(d->retired, GINT_TO_POINTER(id))) {
			g_set_error(error, DECODER_ERROR, 0,
			            "session %d alive in frame %d but never set", id, d->fseq);
			return FALSE;
		}
	}
	return TRUE;
}

gboolean
tuio_decoder_finish(TuioDecoder *d, GError **error)
{
	return check_frame_complete(d, error);
}

static gboolean
apply_bundle(TuioDecoder *d, Bundle *b, GError **error)
{
	gboolean new_frame;
	GHashTableIter iter;
	gpointer key;

	if (!b->have_fseq) {
		g_set_error(error, DECODER_ERROR, 0, "bundle without fseq");
		return FALSE;
	}
	if (!check_sequence(d, b, &new_frame, error))
		return FALSE;
	/* A split frame may set a new session in a later bundle; by the next
	 * frame every session of the last one must have been set. */
	if (new_frame && !check_frame_complete(d, error))
		return FALSE;
	for (guint i = 0; i < b->sets->len; i++) {
		TuioEvent e = g_array_index(b->sets, TuioEvent, i);
		gboolean known = g_hash_table_contains(d->alive, GINT_TO_POINTER(e.session));

		emit(d, e, known ? TUIO_EVENT_UPDATE : TUIO_EVENT_ADD, b->fseq);
		g_hash_table_add(d->alive, GINT_TO_POINTER(e.session));
	}
	g_hash_table_iter_init(&iter, d->alive);
	while (g_hash_table_iter_next(&iter, &key, NULL)) {
		if (!in_list(b->alive, GPOINTER_TO_INT(key))) {
			TuioEvent e = { .session = GPOINTER_TO_INT(key) };

			emit(d, e, TUIO_EVENT_REMOVE, b->fseq);
			g_hash_table_add(d->retired, key);
			g_hash_table_iter_remove(&iter);
		}
	}
	if (b->fseq != -1) {
		d->fseq = b->fseq;
		d->have_fseq = TRUE;
	}
	if (new_frame) {
		g_array_set_size(d->frame_alive, 0);
		g_array_append_vals(d->frame_alive, b->alive->data, b->alive->len);
	}
	return TRUE;
}

static gboolean
read_elements(TuioDecoder *d, Reader *r, Bundle *b, GError **error)
{
	guint index = 0;

	while (r->pos < r->len) {
		guint32 size;
		Reader inner;
		Message m = { 0 };
		gboolean ok;

		if (!read_u32(r, &size, error))
			return FALSE;
		if (size % 4 != 0 || size > r->len - r->pos) {
			g_set_error(error, DECODER_ERROR, 0, "bundle element of %u bytes", size);
			return FALSE;
		}
		inner = (Reader){ r->p + r->pos, size, 0 };
		r->pos += size;
		ok = read_message(d, &inner, &m, error) && apply_message(d, b, &m, index++, error);
		message_clear(&m);
		if (!ok)
			return FALSE;
	}
	return TRUE;
}

gboolean
tuio_decoder_feed(TuioDecoder *d, const guint8 *data, gsize len, GError **error)
{
	Reader r = { data, len, 0 };
	Bundle b = { 0 };
	const char *tag;
	guint32 timetag[2];
	gboolean ok;

	if (len > d->max_datagram) {
		g_set_error(error, DECODER_ERROR, 0, "datagram of %zu bytes, more than %zu", len,
		            d->max_datagram);
		return FALSE;
	}
	if (len % 4 != 0 || !read_string(&r, &tag, error) || strcmp(tag, "#bundle") != 0) {
		if (error && !*error)
			g_set_error(error, DECODER_ERROR, 0, "not an OSC bundle");
		return FALSE;
	}
	if (!read_u32(&r, &timetag[0], error) || !read_u32(&r, &timetag[1], error))
		return FALSE;
	b.alive = g_array_new(FALSE, FALSE, sizeof(gint32));
	b.sets = g_array_new(FALSE, FALSE, sizeof(TuioEvent));
	ok = read_elements(d, &r, &b, error) && apply_bundle(d, &b, error);
	g_array_unref(b.alive);
	g_array_unref(b.sets);
	d->n_bundles += ok;
	return ok;
}

const GArray *
tuio_decoder_events(const TuioDecoder *d)
{
	return d->events;
}

guint
tuio_decoder_n_bundles(const TuioDecoder *d)
{
	return d->n_bundles;
}

guint
tuio_decoder_n_alive(const TuioDecoder *d)
{
	return g_hash_table_size(d->alive);
}

gint32
tuio_decoder_last_fseq(const TuioDecoder *d)
{
	return d->fseq;
}

const char *
tuio_decoder_source(const TuioDecoder *d)
{
	return d->source;
}

char *
tuio_decoder_peek_source(const guint8 *data, gsize len)
{
	Reader r = { data, len, 0 };
	const char *s = NULL;
	guint32 timetag[2], size = 0;

	if (!read_string(&r, &s, NULL) || strcmp(s, "#bundle") != 0 ||
	    !read_u32(&r, &timetag[0], NULL) || !read_u32(&r, &timetag[1], NULL) ||
	    !read_u32(&r, &size, NULL) || size > r.len - r.pos)
		return NULL;
	r.len = r.pos + size;
	if (!read_string(&r, &s, NULL) || !read_string(&r, &s, NULL) || strcmp(s, ",ss") != 0 ||
	    !read_string(&r, &s, NULL) || strcmp(s, "source") != 0 || !read_string(&r, &s, NULL))
		return NULL;
	return g_strdup(s);
}

/* TUIO11_CPP's TuioClient: a frame is late when its fseq is behind the last
 * one by 100 or less, whatever its source. */
gboolean
tuio_reference_accepts(gint32 *current_frame, gint32 fseq)
{
	if (fseq <= 0)
		return TRUE;
	if (fseq >= *current_frame || *current_frame - fseq > 100) {
		*current_frame = fseq;
		return TRUE;
	}
	return FALSE;
}
