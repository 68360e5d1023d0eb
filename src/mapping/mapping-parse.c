/* The strict mapping-file parser: text in, Mapping out.
 *
 * Two passes. The first cuts the text into sections of `key = value`
 * entries, each with its line, and rejects anything malformed, duplicated
 * or left over. The second reads every entry through the table of keys its
 * section takes, then resolves references between sections. Line numbers
 * start at 1. Nothing is read from disk here. */
#include "mapping-parse.h"
#include "mapping-tuio.h"
#include "measure.h"

#include <gio/gio.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

typedef enum {
	SECTION_MAPPING,
	SECTION_OUTPUT,
	SECTION_RULE,
	SECTION_NAMES,
	SECTION_GESTURES,
	SECTION_ZONE,
	N_SECTION_TYPES
} SectionType;

static const char *const section_type_names[N_SECTION_TYPES] = {
	"mapping", "output", "rule", "names", "gestures", "zone",
};

typedef struct {
	char *key;
	char *value;
	guint line;
} Entry;

typedef struct {
	SectionType type;
	char *name;  /* NULL for [mapping] and [gestures] */
	char *title; /* "[rule hands]", for messages */
	guint line;
	GArray *entries; /* Entry */
} Section;

typedef struct {
	const char *path;
	GPtrArray *sections; /* Section */
	Section *current;    /* where entries go while cutting */
	Mapping *mapping;
	GPtrArray *rule_sections; /* the Section of each rule */
	/* Lookups by name, so that a file of many sections reads in linear
	 * time: section key (mapping_parser_section_key()) to Section, output
	 * name to its index + 1, names table name to MappingNames, zone name to
	 * its index + 1. */
	GHashTable *section_index, *output_index, *names_index, *zone_index;
	gsize longest_zone; /* bytes: the longest name of any zone */
	/* The first WebSocket output to listen on "PORT HOST", and on "PORT *"
	 * (any address of that port). */
	GHashTable *listeners;
} Parser;

/* A key's handler reads e->value into the object the section builds. */
typedef gboolean (*KeyFunc)(Parser *p, const Section *s, const Entry *e, gpointer object,
                            GError **error);

#define ALL_SCOPES  0xf
#define SCOPE(name) (1u << MAPPING_SCOPE_##name)

typedef struct {
	const char *key;
	KeyFunc func;   /* NULL: read once every section is known */
	guint scopes;   /* rules: the scopes that take the key */
	guint required; /* the scopes that need it */
} KeyDef;

static const char *const scope_names[] = { "frame", "user", "joint", "event" };

/* ---- errors ---- */

static gboolean mapping_parser_fail(const Parser *p, guint line, GError **error, const char *format,
                                    ...) G_GNUC_PRINTF(4, 5);
static gboolean mapping_parser_fail_entry(const Parser *p, const Section *s, const Entry *e,
                                          GError **error, const char *format, ...)
        G_GNUC_PRINTF(5, 6);
static void mapping_parser_warn(const Parser *p, guint line, const char *format, ...)
        G_GNUC_PRINTF(3, 4);

/* Returns FALSE, for "return mapping_parser_fail(...)". */
static gboolean
mapping_parser_fail(const Parser *p, guint line, GError **error, const char *format, ...)
{
	g_autofree char *what = NULL;
	va_list args;

	va_start(args, format);
	what = g_strdup_vprintf(format, args);
	va_end(args);
	g_set_error(error, MAPPING_ERROR, MAPPING_ERROR_INVALID, "%s:%u: %s", p->path, line, what);
	return FALSE;
}

/* "path:line: [rule hands] address: what" */
static gboolean
mapping_parser_fail_entry(const Parser *p, const Section *s, const Entry *e, GError **error,
                          const char *format, ...)
{
	g_autofree char *what = NULL;
	va_list args;

	va_start(args, format);
	what = g_strdup_vprintf(format, args);
	va_end(args);
	return mapping_parser_fail(p, e->line, error, "%s %s: %s", s->title, e->key, what);
}

static void
mapping_parser_warn(const Parser *p, guint line, const char *format, ...)
{
	g_autofree char *what = NULL;
	va_list args;

	va_start(args, format);
	what = g_strdup_vprintf(format, args);
	va_end(args);
	g_ptr_array_add(p->mapping->warnings,
	                g_strdup_printf("%s:%u: warning: %s", p->path, line, what));
}

/* "a, b or c" with @last "or" */
static char *
mapping_parser_join(const char *const *names, guint n, const char *last)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < n; i++) {
		if (i > 0 && i + 1 == n)
			g_string_append_printf(s, " %s ", last);
		else if (i > 0)
			g_string_append(s, ", ");
		g_string_append(s, names[i]);
	}
	return g_string_free(s, FALSE);
}

/* ---- first pass: sections and entries ---- */

static void
mapping_parser_section_free(gpointer data)
{
	Section *s = data;

	for (guint i = 0; i < s->entries->len; i++) {
		g_free(g_array_index(s->entries, Entry, i).key);
		g_free(g_array_index(s->entries, Entry, i).value);
	}
	g_array_unref(s->entries);
	g_free(s->name);
	g_free(s->title);
	g_free(s);
}

static const Entry *
mapping_parser_find(const Section *s, const char *key)
{
	for (guint i = 0; i < s->entries->len; i++) {
		const Entry *e = &g_array_index(s->entries, Entry, i);

		if (strcmp(e->key, key) == 0)
			return e;
	}
	return NULL;
}

/* "2 hands": a section's type and name, as a key. */
static char *
mapping_parser_section_key(SectionType type, const char *name)
{
	return g_strdup_printf("%d %s", (int)type, name ? name : "");
}

static const Section *
mapping_parser_find_section(const Parser *p, SectionType type, const char *name)
{
	g_autofree char *key = mapping_parser_section_key(type, name);

	return g_hash_table_lookup(p->section_index, key);
}

static gboolean
mapping_parser_name_valid(const char *name)
{
	if (*name == '\0')
		return FALSE;
	for (; *name != '\0'; name++) {
		if (!g_ascii_isalnum(*name) && *name != '_' && *name != '-')
			return FALSE;
	}
	return TRUE;
}

static gboolean
mapping_parser_section_type(const char *word, SectionType *type)
{
	for (guint t = 0; t < N_SECTION_TYPES; t++) {
		if (strcmp(word, section_type_names[t]) == 0) {
			*type = (SectionType)t;
			return TRUE;
		}
	}
	return FALSE;
}

/* [mapping] and [gestures] are one per file, without a name. */
static gboolean
mapping_parser_section_named(SectionType type)
{
	return type != SECTION_MAPPING && type != SECTION_GESTURES;
}

/* Checks "type name" between the brackets; @name is NULL when there is none. */
static gboolean
mapping_parser_header(const Parser *p, guint line, const char *type_word, const char *name,
                      SectionType *type, GError **error)
{
	if (!mapping_parser_section_type(type_word, type))
		return mapping_parser_fail(
		        p, line, error,
		        "unknown section [%s]; sections are [mapping], "
		        "[output NAME], [rule NAME], [names NAME], [zone NAME] and [gestures]",
		        type_word);
	if (!mapping_parser_section_named(*type) && name != NULL)
		return mapping_parser_fail(p, line, error, "[%s] takes no name", type_word);
	if (mapping_parser_section_named(*type) && name == NULL)
		return mapping_parser_fail(p, line, error, "[%s] needs a name: [%s NAME]",
		                           type_word, type_word);
	if (name != NULL && !mapping_parser_name_valid(name))
		return mapping_parser_fail(
		        p, line, error,
		        "bad name '%s' in [%s ...]: use letters, digits, '_' and '-'", name,
		        type_word);
	return TRUE;
}

static gboolean
mapping_parser_section(Parser *p, guint line, const char *text, GError **error)
{
	const char *close = strchr(text, ']');
	g_autofree char *inside = NULL;
	const Section *first;
	char *space, *name = NULL;
	SectionType type = SECTION_MAPPING;
	Section *s;

	if (close == NULL)
		return mapping_parser_fail(p, line, error, "'%s': a section header ends with ']'",
		                           text);
	if (close[1] != '\0')
		return mapping_parser_fail(p, line, error, "junk after the section header: '%s'",
		                           close + 1);
	inside = g_strndup(text + 1, close - text - 1);
	if ((space = strchr(inside, ' ')) != NULL) {
		*space = '\0';
		name = space + 1;
	}
	if (!mapping_parser_header(p, line, inside, name, &type, error))
		return FALSE;
	first = mapping_parser_find_section(p, type, name);
	if (first != NULL)
		return mapping_parser_fail(p, line, error,
		                           "duplicate section %s (first at line %u)", first->title,
		                           first->line);
	s = g_new0(Section, 1);
	s->type = type;
	s->name = g_strdup(name);
	s->title =
	        name ? g_strdup_printf("[%s %s]", inside, name) : g_strdup_printf("[%s]", inside);
	s->line = line;
	s->entries = g_array_new(FALSE, FALSE, sizeof(Entry));
	g_ptr_array_add(p->sections, s);
	g_hash_table_insert(p->section_index, mapping_parser_section_key(type, name), s);
	p->current = s;
	return TRUE;
}

/* Checks an entry against its section before it is added. */
static gboolean
mapping_parser_entry_fits(const Parser *p, guint line, const char *key, const char *value,
                          GError **error)
{
	const Entry *first;

	if (p->current == NULL)
		return mapping_parser_fail(p, line, error, "'%s' comes before any section", key);
	first = mapping_parser_find(p->current, key);
	if (first != NULL)
		return mapping_parser_fail(p, line, error,
		                           "%s %s: duplicate key (first at line %u)",
		                           p->current->title, key, first->line);
	if (*value == '\0')
		return mapping_parser_fail(p, line, error, "%s %s: no value", p->current->title,
		                           key);
	return TRUE;
}

static gboolean
mapping_parser_entry(Parser *p, guint line, const char *text, GError **error)
{
	const char *s = text, *value;
	g_autofree char *key = NULL;
	Entry e = { 0 };

	while (g_ascii_islower(*s) || g_ascii_isdigit(*s) || *s == '_')
		s++;
	key = g_strndup(text, s - text);
	while (*s == ' ' || *s == '\t')
		s++;
	if (*key == '\0' || *s != '=')
		return mapping_parser_fail(
		        p, line, error,
		        "expected [SECTION], 'key = value', a # comment or a blank "
		        "line, got '%s'",
		        text);
	for (value = s + 1; *value == ' ' || *value == '\t'; value++)
		;
	if (!mapping_parser_entry_fits(p, line, key, value, error))
		return FALSE;
	e.key = g_steal_pointer(&key);
	e.value = g_strdup(value);
	e.line = line;
	g_array_append_val(p->current->entries, e);
	return TRUE;
}

static gboolean
mapping_parser_line(Parser *p, guint line, const char *text, GError **error)
{
	gsize len = strlen(text);

	if (len > 0 && text[len - 1] == '\r')
		return mapping_parser_fail(p, line, error,
		                           "the line ends in a carriage return: save the file with "
		                           "Unix line endings");
	if (len > 0 && g_ascii_isspace(text[len - 1]))
		return mapping_parser_fail(p, line, error, "trailing whitespace");
	while (*text == ' ' || *text == '\t')
		text++;
	if (*text == '\0' || *text == '#')
		return TRUE;
	if (*text == '[')
		return mapping_parser_section(p, line, text, error);
	return mapping_parser_entry(p, line, text, error);
}

static guint
mapping_parser_line_at(const char *text, const char *at)
{
	guint line = 1;

	for (const char *c = text; c < at; c++)
		line += *c == '\n';
	return line;
}

/* The UTF-8 byte-order mark some editors start a file with. */
#define UTF8_BOM "\xef\xbb\xbf"

static gboolean
mapping_parser_cut(Parser *p, const char *text, gsize length, GError **error)
{
	const char *end = text + length, *bad;
	guint line = 1;

	if (!g_utf8_validate_len(text, length, &bad))
		return mapping_parser_fail(p, mapping_parser_line_at(text, bad), error,
		                           "not UTF-8 text (a binary file, or another encoding?)");
	/* Invisible in an editor, and no part of the first line. */
	if (length >= strlen(UTF8_BOM) && memcmp(text, UTF8_BOM, strlen(UTF8_BOM)) == 0)
		text += strlen(UTF8_BOM);
	for (const char *start = text; start < end; line++) {
		const char *nl = memchr(start, '\n', end - start);
		gsize len = (gsize)((nl ? nl : end) - start);
		g_autofree char *content = NULL;

		/* (Nor is a line that long quoted back, whole, in the error.) */
		if (len > MAPPING_MAX_LINE)
			return mapping_parser_fail(
			        p, line, error,
			        "%zu bytes long; a line of a mapping file holds at "
			        "most %d (is this a mapping file?)",
			        len, MAPPING_MAX_LINE);
		content = g_strndup(start, len);
		if (!mapping_parser_line(p, line, content, error))
			return FALSE;
		start = nl ? nl + 1 : end;
	}
	return TRUE;
}

/* ---- value readers ---- */

static gboolean
mapping_parser_double(const char *text, double *out)
{
	char *end;

	if (*text == '\0' || g_ascii_isspace(*text))
		return FALSE;
	*out = g_ascii_strtod(text, &end);
	return *end == '\0' && isfinite(*out);
}

static gboolean
mapping_parser_enum(const Parser *p, const Section *s, const Entry *e, const char *const *names,
                    guint n, guint *out, GError **error)
{
	g_autofree char *list = NULL;

	for (guint i = 0; i < n; i++) {
		if (strcmp(e->value, names[i]) == 0) {
			*out = i;
			return TRUE;
		}
	}
	list = mapping_parser_join(names, n, "or");
	return mapping_parser_fail_entry(p, s, e, error, "expected %s, got '%s'", list, e->value);
}

static gboolean
mapping_parser_uint(const Parser *p, const Section *s, const Entry *e, guint min, guint max,
                    guint *out, GError **error)
{
	guint64 value;

	if (!g_ascii_string_to_unsigned(e->value, 10, min, max, &value, NULL))
		return mapping_parser_fail_entry(p, s, e, error,
		                                 "expected a whole number from %u to %u, got '%s'",
		                                 min, max, e->value);
	*out = (guint)value;
	return TRUE;
}

static gboolean
mapping_parser_boolean(const Parser *p, const Section *s, const Entry *e, gboolean *out,
                       GError **error)
{
	static const char *const names[] = { "false", "true" };
	guint value = 0;

	if (!mapping_parser_enum(p, s, e, names, G_N_ELEMENTS(names), &value, error))
		return FALSE;
	*out = value == 1;
	return TRUE;
}

/* The space-separated words of a value, without empty ones. */
static GStrv
mapping_parser_words(const char *value)
{
	g_auto(GStrv) parts = g_strsplit_set(value, " \t", -1);
	g_autoptr(GStrvBuilder) words = g_strv_builder_new();

	for (guint i = 0; parts[i] != NULL; i++) {
		if (*parts[i] != '\0')
			g_strv_builder_add(words, parts[i]);
	}
	return g_strv_builder_end(words);
}

/* ---- [mapping] ---- */

static gboolean
mapping_parser_format(Parser *p, const Section *s, const Entry *e, gpointer object G_GNUC_UNUSED,
                      GError **error)
{
	guint64 format;

	if (!g_ascii_string_to_unsigned(e->value, 10, 0, G_MAXUINT, &format, NULL))
		return mapping_parser_fail_entry(p, s, e, error,
		                                 "expected a whole number, got '%s'", e->value);
	if (format != MAPPING_FORMAT)
		return mapping_parser_fail_entry(p, s, e, error,
		                                 "this skelbridge reads format %d; the file is "
		                                 "format %s",
		                                 MAPPING_FORMAT, e->value);
	return TRUE;
}

static gboolean
mapping_parser_description(Parser *p, const Section *s G_GNUC_UNUSED, const Entry *e,
                           gpointer object G_GNUC_UNUSED, GError **error G_GNUC_UNUSED)
{
	g_free(p->mapping->description);
	p->mapping->description = g_strdup(e->value);
	return TRUE;
}

static gboolean
mapping_parser_user_ids(Parser *p, const Section *s, const Entry *e, gpointer object G_GNUC_UNUSED,
                        GError **error)
{
	static const char *const names[] = { "unique", "slot" };
	guint value = 0;

	if (!mapping_parser_enum(p, s, e, names, G_N_ELEMENTS(names), &value, error))
		return FALSE;
	p->mapping->user_ids = (MappingIds)value;
	return TRUE;
}

static const KeyDef mapping_keys[] = {
	{ "format", mapping_parser_format, ALL_SCOPES, ALL_SCOPES },
	{ "description", mapping_parser_description, ALL_SCOPES, 0 },
	{ "user_ids", mapping_parser_user_ids, ALL_SCOPES, 0 },
};

/* ---- reading a section's entries through its keys ---- */

static const KeyDef *
mapping_parser_key(const KeyDef *keys, guint n_keys, const char *key)
{
	for (guint i = 0; i < n_keys; i++) {
		if (strcmp(keys[i].key, key) == 0)
			return &keys[i];
	}
	return NULL;
}

static char *
mapping_parser_key_list(const KeyDef *keys, guint n_keys, guint scope_bit)
{
	const char *names[32];
	guint n = 0;

	for (guint i = 0; i < n_keys && n < G_N_ELEMENTS(names); i++) {
		if (keys[i].scopes & scope_bit)
			names[n++] = keys[i].key;
	}
	return mapping_parser_join(names, n, "and");
}

/* Reads every entry of @s through @keys; @scope_bit picks the keys that apply. */
static gboolean
mapping_parser_apply(Parser *p, const Section *s, const KeyDef *keys, guint n_keys, guint scope_bit,
                     gpointer object, GError **error)
{
	for (guint i = 0; i < s->entries->len; i++) {
		const Entry *e = &g_array_index(s->entries, Entry, i);
		const KeyDef *def = mapping_parser_key(keys, n_keys, e->key);
		g_autofree char *list = NULL;

		if (def == NULL) {
			list = mapping_parser_key_list(keys, n_keys, scope_bit);
			return mapping_parser_fail_entry(p, s, e, error, "unknown key; keys are %s",
			                                 list);
		}
		if (!(def->scopes & scope_bit))
			return mapping_parser_fail_entry(p, s, e, error,
			                                 "not for rules with for = %s",
			                                 scope_names[g_bit_nth_lsf(scope_bit, -1)]);
		if (def->func != NULL && !def->func(p, s, e, object, error))
			return FALSE;
	}
	for (guint k = 0; k < n_keys; k++) {
		if ((keys[k].required & scope_bit) && mapping_parser_find(s, keys[k].key) == NULL)
			return mapping_parser_fail(p, s->line, error, "%s: missing key '%s'",
			                           s->title, keys[k].key);
	}
	return TRUE;
}

/* ---- [output NAME] ---- */

static gboolean
mapping_parser_output_kind(Parser *p, const Section *s, const Entry *e, gpointer object,
                           GError **error)
{
	static const char *const kinds[] = { "osc", "tuio", "websocket" };
	MappingOutput *output = object;
	guint kind = 0;

	if (!mapping_parser_enum(p, s, e, kinds, G_N_ELEMENTS(kinds), &kind, error))
		return FALSE;
	output->kind = (MappingOutputKind)kind;
	return TRUE;
}

static gboolean
mapping_parser_output_target(Parser *p, const Section *s, const Entry *e, gpointer object,
                             GError **error)
{
	MappingOutput *output = object;
	g_autoptr(GError) local = NULL;

	if (!mapping_target_parse(e->value, &output->target, &local))
		return mapping_parser_fail_entry(p, s, e, error, "%s", local->message);
	return TRUE;
}

static gboolean
mapping_parser_output_bundle(Parser *p, const Section *s, const Entry *e, gpointer object,
                             GError **error)
{
	static const char *const bundles[] = { "frame", "user", "none" };
	MappingOutput *output = object;
	guint bundle = 0;

	if (!mapping_parser_enum(p, s, e, bundles, G_N_ELEMENTS(bundles), &bundle, error))
		return FALSE;
	output->bundle = (MappingBundle)bundle;
	return TRUE;
}

static gboolean
mapping_parser_output_max_packet(Parser *p, const Section *s, const Entry *e, gpointer object,
                                 GError **error)
{
	MappingOutput *output = object;

	/* 65507 is the largest UDP payload over IPv4. */
	return mapping_parser_uint(p, s, e, 64, 65507, &output->max_packet, error);
}

static gboolean
mapping_parser_output_ttl(Parser *p, const Section *s, const Entry *e, gpointer object,
                          GError **error)
{
	MappingOutput *output = object;

	return mapping_parser_uint(p, s, e, 0, 255, &output->ttl, error);
}

static gboolean
mapping_parser_output_interface(Parser *p, const Section *s, const Entry *e, gpointer object,
                                GError **error)
{
	MappingOutput *output = object;
	gsize len = strlen(e->value);

	/* Linux interface names: at most 15 characters, no spaces or slashes. */
	for (gsize i = 0; i < len; i++) {
		if (!g_ascii_isalnum(e->value[i]) && !strchr("_.:-", e->value[i]))
			len = 0;
	}
	if (len == 0 || len > 15)
		return mapping_parser_fail_entry(
		        p, s, e, error, "expected a network interface name such as eth0, got '%s'",
		        e->value);
	output->interface = g_strdup(e->value);
	return TRUE;
}

static const KeyDef output_keys[] = {
	{ "kind", mapping_parser_output_kind, ALL_SCOPES, ALL_SCOPES },
	{ "target", mapping_parser_output_target, ALL_SCOPES, ALL_SCOPES },
	{ "bundle", mapping_parser_output_bundle, ALL_SCOPES, 0 },
	{ "max_packet", mapping_parser_output_max_packet, ALL_SCOPES, 0 },
	{ "ttl", mapping_parser_output_ttl, ALL_SCOPES, 0 },
	{ "interface", mapping_parser_output_interface, ALL_SCOPES, 0 },
};

/* ttl and interface only mean something for multicast. A host name may
 * turn out to be a multicast group, so only literal addresses are judged. */
static gboolean
mapping_parser_output_check_multicast(const Parser *p, const Section *s,
                                      const MappingOutput *output, GError **error)
{
	const char *keys[] = { "ttl", "interface" };
	g_autoptr(GInetAddress) address = g_inet_address_new_from_string(output->target.host);

	for (guint i = 0; i < G_N_ELEMENTS(keys); i++) {
		const Entry *e = mapping_parser_find(s, keys[i]);

		if (e == NULL)
			continue;
		if (output->target.transport != MAPPING_TRANSPORT_UDP)
			return mapping_parser_fail_entry(p, s, e, error,
			                                 "only for UDP multicast targets");
		if (address != NULL && !g_inet_address_get_is_multicast(address))
			return mapping_parser_fail_entry(
			        p, s, e, error,
			        "only for multicast targets (224.0.0.0 to 239.255.255.255), "
			        "and %s is not one",
			        output->target.host);
	}
	return TRUE;
}

/* ---- [output NAME] with kind = tuio ---- */

static gboolean
mapping_parser_tuio_entry(Parser *p, const Section *s, const Entry *e, MappingOutput *output,
                          GError **error)
{
	const KeyDef *def = mapping_parser_key(output_keys, G_N_ELEMENTS(output_keys), e->key);
	g_autofree char *message = NULL;
	g_autofree char *tuio_keys = NULL;

	if (strcmp(e->key, "bundle") == 0)
		return mapping_parser_fail_entry(p, s, e, error,
		                                 "TUIO sends one bundle per frame; bundle is for "
		                                 "kind = osc");
	if (def != NULL)
		return def->func(p, s, e, output, error);
	if (mapping_tuio_is_key(e->key)) {
		if (mapping_tuio_set(&output->tuio, &output->tuio_source, e->key, e->value,
		                     &message))
			return TRUE;
		return mapping_parser_fail_entry(p, s, e, error, "%s", message);
	}
	tuio_keys = mapping_tuio_keys();
	return mapping_parser_fail_entry(p, s, e, error,
	                                 "unknown key; keys are kind, target, max_packet, ttl, "
	                                 "interface, %s",
	                                 tuio_keys);
}

static gboolean
mapping_parser_tuio_output(Parser *p, const Section *s, MappingOutput *output, GError **error)
{
	const char *key = NULL;
	g_autofree char *message = NULL;
	const Entry *e;

	for (guint i = 0; i < s->entries->len; i++) {
		if (!mapping_parser_tuio_entry(p, s, &g_array_index(s->entries, Entry, i), output,
		                               error))
			return FALSE;
	}
	if (mapping_parser_find(s, "target") == NULL)
		mapping_target_parse(MAPPING_TUIO_TARGET, &output->target, NULL);
	if (!mapping_tuio_check(&output->tuio, &key, &message)) {
		e = mapping_parser_find(s, key);
		if (e != NULL)
			return mapping_parser_fail_entry(p, s, e, error, "%s", message);
		return mapping_parser_fail(p, s->line, error, "%s %s: %s", s->title, key, message);
	}
	return mapping_parser_output_check_multicast(p, s, output, error);
}

/* ---- [output NAME] with kind = websocket ---- */

static gboolean
mapping_parser_ws_format(Parser *p, const Section *s, const Entry *e, gpointer object,
                         GError **error)
{
	static const char *const formats[] = { "osc", "json" };
	MappingOutput *output = object;
	guint format = 0;

	if (!mapping_parser_enum(p, s, e, formats, G_N_ELEMENTS(formats), &format, error))
		return FALSE;
	output->websocket.format = (MappingWsFormat)format;
	return TRUE;
}

/* "http://host[:port]" or "https://...", as browsers send it: no path. */
static gboolean
mapping_parser_origin_valid(const char *origin)
{
	const char *host;

	if (strcmp(origin, "null") == 0 || strcmp(origin, "file://") == 0 ||
	    strcmp(origin, "*") == 0)
		return TRUE;
	if (g_str_has_prefix(origin, "http://"))
		host = origin + strlen("http://");
	else if (g_str_has_prefix(origin, "https://"))
		host = origin + strlen("https://");
	else
		return FALSE;
	if (*host == '\0')
		return FALSE;
	for (; *host != '\0'; host++) {
		if (!g_ascii_isalnum(*host) && !strchr(".-:[]", *host))
			return FALSE;
	}
	return TRUE;
}

static gboolean
mapping_parser_ws_origins(Parser *p, const Section *s, const Entry *e, gpointer object,
                          GError **error)
{
	MappingOutput *output = object;
	g_auto(GStrv) words = mapping_parser_words(e->value);

	for (guint i = 0; words[i] != NULL; i++) {
		if (!mapping_parser_origin_valid(words[i]))
			return mapping_parser_fail_entry(
			        p, s, e, error,
			        "expected origins such as http://studio.local:8080, file:// or "
			        "null "
			        "(or * for any page), separated by spaces; got '%s'",
			        words[i]);
	}
	output->websocket.allow_origins = g_steal_pointer(&words);
	return TRUE;
}

static gboolean
mapping_parser_ws_max_clients(Parser *p, const Section *s, const Entry *e, gpointer object,
                              GError **error)
{
	MappingOutput *output = object;

	return mapping_parser_uint(p, s, e, 1, 1024, &output->websocket.max_clients, error);
}

static gboolean
mapping_parser_ws_monitor(Parser *p, const Section *s, const Entry *e, gpointer object,
                          GError **error)
{
	MappingOutput *output = object;

	return mapping_parser_boolean(p, s, e, &output->websocket.monitor, error);
}

static const KeyDef ws_output_keys[] = {
	{ "kind", mapping_parser_output_kind, ALL_SCOPES, ALL_SCOPES },
	{ "target", mapping_parser_output_target, ALL_SCOPES, 0 },
	{ "bundle", mapping_parser_output_bundle, ALL_SCOPES, 0 },
	{ "max_packet", mapping_parser_output_max_packet, ALL_SCOPES, 0 },
	{ "format", mapping_parser_ws_format, ALL_SCOPES, 0 },
	{ "allow_origins", mapping_parser_ws_origins, ALL_SCOPES, 0 },
	{ "max_clients", mapping_parser_ws_max_clients, ALL_SCOPES, 0 },
	{ "monitor", mapping_parser_ws_monitor, ALL_SCOPES, 0 },
};

/* The earlier of two outputs, either of which may be NULL. */
static const MappingOutput *
mapping_parser_first_output(const MappingOutput *a, const MappingOutput *b)
{
	if (a == NULL || b == NULL)
		return a ? a : b;
	return a->line <= b->line ? a : b;
}

/* An earlier WebSocket output that listens where @output would (the same
 * port, the same address or either 0.0.0.0: mapping_target_listen_host()),
 * looked up rather than searched for so that a file of thousands of
 * outputs reads in linear time. */
static const MappingOutput *
mapping_parser_ws_listener_taken(Parser *p, const MappingOutput *output)
{
	const char *host = mapping_target_listen_host(&output->target);
	guint port = output->target.port;
	g_autofree char *exact = g_strdup_printf("%u %s", port, host);
	g_autofree char *everywhere = g_strdup_printf("%u 0.0.0.0", port);
	g_autofree char *any = g_strdup_printf("%u *", port);
	const MappingOutput *taken;

	if (strcmp(host, "0.0.0.0") == 0)
		taken = g_hash_table_lookup(p->listeners, any);
	else
		taken = mapping_parser_first_output(g_hash_table_lookup(p->listeners, exact),
		                                    g_hash_table_lookup(p->listeners, everywhere));
	if (!g_hash_table_contains(p->listeners, exact))
		g_hash_table_insert(p->listeners, g_steal_pointer(&exact), (gpointer)output);
	if (!g_hash_table_contains(p->listeners, any))
		g_hash_table_insert(p->listeners, g_steal_pointer(&any), (gpointer)output);
	return taken;
}

/* Two listeners cannot have one port: the second would fail to start. */
static gboolean
mapping_parser_ws_check_listener(Parser *p, const Section *s, const MappingOutput *output,
                                 GError **error)
{
	const Entry *e = mapping_parser_find(s, "target");
	const MappingOutput *other = mapping_parser_ws_listener_taken(p, output);

	if (other == NULL)
		return TRUE;
	return mapping_parser_fail(p, e ? e->line : s->line, error,
	                           "%s target: [output %s] (line %u) listens on port %u already; "
	                           "give each WebSocket output a port of its own",
	                           s->title, other->name, other->line, output->target.port);
}

static gboolean
mapping_parser_ws_output(Parser *p, const Section *s, MappingOutput *output, GError **error)
{
	const Entry *e;

	output->websocket.max_clients = MAPPING_WS_MAX_CLIENTS;
	if (!mapping_parser_apply(p, s, ws_output_keys, G_N_ELEMENTS(ws_output_keys), ALL_SCOPES,
	                          output, error))
		return FALSE;
	e = mapping_parser_find(s, "target");
	if (e == NULL)
		mapping_target_parse(MAPPING_WS_TARGET, &output->target, NULL);
	else if (output->target.transport != MAPPING_TRANSPORT_WS)
		return mapping_parser_fail_entry(p, s, e, error,
		                                 "a WebSocket output listens for clients: "
		                                 "ws://ADDRESS:PORT/PATH, got '%s'",
		                                 e->value);
	e = mapping_parser_find(s, "bundle");
	if (e != NULL && output->websocket.format == MAPPING_WS_JSON)
		return mapping_parser_fail_entry(p, s, e, error,
		                                 "format = json sends each message on its own; "
		                                 "bundle is for format = osc");
	return mapping_parser_ws_check_listener(p, s, output, error);
}

/* Keys of a WebSocket output in another kind's section: say whose they are. */
static gboolean
mapping_parser_check_ws_keys(const Parser *p, const Section *s, const MappingOutput *output,
                             GError **error)
{
	const char *keys[] = { "format", "allow_origins", "max_clients", "monitor" };
	const Entry *target = mapping_parser_find(s, "target");

	for (guint i = 0; i < G_N_ELEMENTS(keys); i++) {
		const Entry *e = mapping_parser_find(s, keys[i]);

		if (e != NULL)
			return mapping_parser_fail_entry(p, s, e, error,
			                                 "only for kind = websocket");
	}
	if (target != NULL && output->target.transport == MAPPING_TRANSPORT_WS)
		return mapping_parser_fail_entry(p, s, target, error,
		                                 "ws:// is for kind = websocket; this output "
		                                 "sends to osc.udp:// or osc.tcp://");
	return TRUE;
}

static gboolean
mapping_parser_output(Parser *p, const Section *s, GError **error)
{
	MappingOutput *output = g_new0(MappingOutput, 1);
	const Entry *kind = mapping_parser_find(s, "kind");

	output->name = g_strdup(s->name);
	output->line = s->line;
	output->bundle = MAPPING_BUNDLE_FRAME;
	/* An Ethernet frame's UDP payload: bundles this size are not fragmented. */
	output->max_packet = 1472;
	output->ttl = 1;
	tuio_config_init(&output->tuio);
	output->tuio_source.send = TRUE;
	g_ptr_array_add(p->mapping->outputs, output);
	g_hash_table_insert(p->output_index, output->name,
	                    GUINT_TO_POINTER(p->mapping->outputs->len));
	if (kind != NULL && strcmp(kind->value, "websocket") == 0)
		return mapping_parser_ws_output(p, s, output, error);
	if (!mapping_parser_check_ws_keys(p, s, output, error))
		return FALSE;
	if (kind != NULL && strcmp(kind->value, "tuio") == 0)
		return mapping_parser_tuio_output(p, s, output, error) &&
		       mapping_parser_check_ws_keys(p, s, output, error);
	return mapping_parser_apply(p, s, output_keys, G_N_ELEMENTS(output_keys), ALL_SCOPES,
	                            output, error) &&
	       mapping_parser_check_ws_keys(p, s, output, error) &&
	       mapping_parser_output_check_multicast(p, s, output, error);
}

/* ---- [names NAME] ---- */

/* Finds @key among the joint names, then the event names; FALSE, with
 * @index past every name, when it is neither. */
static gboolean
mapping_parser_names_index(const char *key, gboolean *is_joint, guint *index)
{
	TrackerJointId joint;

	*index = G_MAXUINT;
	*is_joint = tracker_joint_from_name(key, &joint);
	if (*is_joint) {
		*index = joint;
		return TRUE;
	}
	for (guint e = 0; e < MAPPING_N_EVENTS; e++) {
		if (strcmp(key, mapping_event_name((MappingEvent)e)) == 0) {
			*index = e;
			return TRUE;
		}
	}
	return FALSE;
}

static gboolean
mapping_parser_wire_name_valid(const char *name)
{
	for (const char *c = name; *c != '\0'; c++) {
		if (!g_ascii_isalnum(*c) && !strchr("_-.", *c))
			return FALSE;
	}
	return TRUE;
}

/* The name that @key (a joint or event) has on the wire with @names. */
static const char *
mapping_parser_effective_name(const MappingNames *names, guint index, gboolean is_joint)
{
	if (is_joint)
		return names->joints[index] ? names->joints[index]
		                            : tracker_joint_name((TrackerJointId)index);
	return names->events[index] ? names->events[index]
	                            : mapping_event_name((MappingEvent)index);
}

/* Two joints (or two events) with one wire name could not be told apart. */
static gboolean
mapping_parser_names_clash(const Parser *p, const Section *s, const MappingNames *names,
                           GError **error)
{
	for (guint i = 0; i < s->entries->len; i++) {
		const Entry *e = &g_array_index(s->entries, Entry, i);
		gboolean is_joint;
		guint self, n;

		/* (mapping_parser_names() refused the section otherwise.) */
		if (!mapping_parser_names_index(e->key, &is_joint, &self))
			continue;
		n = is_joint ? TRACKER_N_JOINTS : MAPPING_N_EVENTS;
		for (guint k = 0; k < n; k++) {
			const char *other = is_joint ? tracker_joint_name((TrackerJointId)k)
			                             : mapping_event_name((MappingEvent)k);

			if (k != self && strcmp(mapping_parser_effective_name(names, k, is_joint),
			                        e->value) == 0)
				return mapping_parser_fail_entry(p, s, e, error,
				                                 "'%s' is also the name of %s",
				                                 e->value, other);
		}
	}
	return TRUE;
}

static gboolean
mapping_parser_names(Parser *p, const Section *s, GError **error)
{
	MappingNames *names = g_new0(MappingNames, 1);

	names->name = g_strdup(s->name);
	names->line = s->line;
	g_ptr_array_add(p->mapping->names, names);
	g_hash_table_insert(p->names_index, names->name, names);
	for (guint i = 0; i < s->entries->len; i++) {
		const Entry *e = &g_array_index(s->entries, Entry, i);
		gboolean is_joint;
		guint index;

		if (!mapping_parser_names_index(e->key, &is_joint, &index))
			return mapping_parser_fail_entry(p, s, e, error,
			                                 "not a joint or event name (see "
			                                 "mappings/README.md for the list)");
		if (!mapping_parser_wire_name_valid(e->value))
			return mapping_parser_fail_entry(
			        p, s, e, error,
			        "'%s' cannot be sent: use letters, digits, "
			        "'_', '-' and '.'",
			        e->value);
		if (is_joint)
			names->joints[index] = g_strdup(e->value);
		else
			names->events[index] = g_strdup(e->value);
	}
	return mapping_parser_names_clash(p, s, names, error);
}

/* ---- [rule NAME] ---- */

static const struct {
	const char *name;
	guint scopes; /* the rules that can send it */
} value_defs[MAPPING_N_VALUES] = {
	[MAPPING_VALUE_FRAME] = { "frame", ALL_SCOPES },
	[MAPPING_VALUE_USERS] = { "users", ALL_SCOPES },
	[MAPPING_VALUE_USER] = { "user", SCOPE(USER) | SCOPE(JOINT) | SCOPE(EVENT) },
	[MAPPING_VALUE_EVENT] = { "event", SCOPE(EVENT) },
	[MAPPING_VALUE_HAND] = { "hand", SCOPE(EVENT) },
	[MAPPING_VALUE_ZONE] = { "zone", SCOPE(EVENT) },
	[MAPPING_VALUE_ZONE_USERS] = { "zone_users", ALL_SCOPES },
	[MAPPING_VALUE_CHOSEN] = { "chosen", ALL_SCOPES },
	[MAPPING_VALUE_JOINT] = { "joint", SCOPE(USER) | SCOPE(JOINT) },
	[MAPPING_VALUE_X] = { "x", SCOPE(USER) | SCOPE(JOINT) },
	[MAPPING_VALUE_Y] = { "y", SCOPE(USER) | SCOPE(JOINT) },
	[MAPPING_VALUE_Z] = { "z", SCOPE(USER) | SCOPE(JOINT) },
	[MAPPING_VALUE_U] = { "u", SCOPE(USER) | SCOPE(JOINT) },
	[MAPPING_VALUE_V] = { "v", SCOPE(USER) | SCOPE(JOINT) },
	[MAPPING_VALUE_CONFIDENCE] = { "confidence", SCOPE(USER) | SCOPE(JOINT) },
	[MAPPING_VALUE_ANGLE] = { "angle", SCOPE(USER) | SCOPE(JOINT) },
	[MAPPING_VALUE_DISTANCE] = { "distance", SCOPE(USER) | SCOPE(JOINT) },
	[MAPPING_VALUE_SPEED] = { "speed", SCOPE(USER) | SCOPE(JOINT) },
	[MAPPING_VALUE_HEIGHT] = { "height", SCOPE(USER) | SCOPE(JOINT) },
	[MAPPING_VALUE_QW] = { "qw", SCOPE(USER) | SCOPE(JOINT) },
	[MAPPING_VALUE_QX] = { "qx", SCOPE(USER) | SCOPE(JOINT) },
	[MAPPING_VALUE_QY] = { "qy", SCOPE(USER) | SCOPE(JOINT) },
	[MAPPING_VALUE_QZ] = { "qz", SCOPE(USER) | SCOPE(JOINT) },
	[MAPPING_VALUE_YAW] = { "yaw", SCOPE(USER) | SCOPE(JOINT) },
	[MAPPING_VALUE_PITCH] = { "pitch", SCOPE(USER) | SCOPE(JOINT) },
	[MAPPING_VALUE_ROLL] = { "roll", SCOPE(USER) | SCOPE(JOINT) },
	[MAPPING_VALUE_HAND_STATE] = { "hand_state", SCOPE(USER) | SCOPE(JOINT) },
	[MAPPING_VALUE_HAND_CONFIDENCE] = { "hand_confidence", SCOPE(USER) | SCOPE(JOINT) },
};

static const struct {
	const char *name;
	MappingPartKind kind;
	guint scopes;
} placeholder_defs[] = {
	{ "user", MAPPING_PART_USER, SCOPE(USER) | SCOPE(JOINT) | SCOPE(EVENT) },
	{ "joint", MAPPING_PART_JOINT, SCOPE(JOINT) },
	{ "event", MAPPING_PART_EVENT, SCOPE(EVENT) },
	{ "hand", MAPPING_PART_HAND, SCOPE(EVENT) },
	{ "zone", MAPPING_PART_ZONE, SCOPE(EVENT) },
	{ "bridge", MAPPING_PART_BRIDGE, ALL_SCOPES },
};

/* "for = user, joint or event" */
static char *
mapping_parser_scope_list(guint scopes)
{
	const char *names[G_N_ELEMENTS(scope_names)];
	guint n = 0;

	for (guint i = 0; i < G_N_ELEMENTS(scope_names); i++) {
		if (scopes & (1u << i))
			names[n++] = scope_names[i];
	}
	return mapping_parser_join(names, n, "or");
}

static gboolean
mapping_parser_rule_for(Parser *p, const Section *s, const Entry *e, gpointer object,
                        GError **error)
{
	MappingRule *rule = object;
	guint scope = 0;

	if (!mapping_parser_enum(p, s, e, scope_names, G_N_ELEMENTS(scope_names), &scope, error))
		return FALSE;
	rule->scope = (MappingScope)scope;
	return TRUE;
}

static void
mapping_parser_part_clear(gpointer data)
{
	g_free(((MappingPart *)data)->text);
}

/* Adds the literal text collected so far as a part. */
static void
mapping_parser_flush_text(GArray *parts, GString *text)
{
	MappingPart part = { MAPPING_PART_TEXT, NULL };

	if (text->len == 0)
		return;
	part.text = g_strdup(text->str);
	g_array_append_val(parts, part);
	g_string_truncate(text, 0);
}

/* Reads "{name}" at @at into @parts; returns the character after it or NULL. */
static const char *
mapping_parser_placeholder(Parser *p, const Section *s, const Entry *e, guint scope, const char *at,
                           GArray *parts, GError **error)
{
	const char *close = strchr(at, '}');
	g_autofree char *name = NULL;
	g_autofree char *needs = NULL;

	if (close == NULL) {
		mapping_parser_fail_entry(p, s, e, error, "'{' without '}'");
		return NULL;
	}
	name = g_strndup(at + 1, close - at - 1);
	for (guint i = 0; i < G_N_ELEMENTS(placeholder_defs); i++) {
		MappingPart part = { placeholder_defs[i].kind, NULL };

		if (strcmp(name, placeholder_defs[i].name) != 0)
			continue;
		if (!(placeholder_defs[i].scopes & (1u << scope))) {
			needs = mapping_parser_scope_list(placeholder_defs[i].scopes);
			mapping_parser_fail_entry(p, s, e, error, "{%s} needs for = %s", name,
			                          needs);
			return NULL;
		}
		g_array_append_val(parts, part);
		return close + 1;
	}
	mapping_parser_fail_entry(p, s, e, error,
	                          "unknown placeholder {%s}; placeholders are {user}, {joint}, "
	                          "{event}, {hand}, {zone} and {bridge}",
	                          name);
	return NULL;
}

/* OSC 1.0 reserves these in addresses; spaces and controls are not printable. */
static gboolean
mapping_parser_address_char(Parser *p, const Section *s, const Entry *e, const char *at,
                            GError **error)
{
	if (*at == '}')
		return mapping_parser_fail_entry(p, s, e, error, "'}' without '{'");
	if (*at <= ' ' || *at > '~')
		return mapping_parser_fail_entry(p, s, e, error,
		                                 "only printable ASCII without spaces can be sent "
		                                 "in an OSC address");
	if (strchr("#*,?[]", *at))
		return mapping_parser_fail_entry(p, s, e, error,
		                                 "'%c' is not allowed in an OSC address", *at);
	if (*at == '/' && (at[1] == '/' || at[1] == '\0'))
		return mapping_parser_fail_entry(p, s, e, error,
		                                 "empty address part ('//' or a '/' at the end)");
	return TRUE;
}

static gboolean
mapping_parser_address_parts(Parser *p, const Section *s, const Entry *e, guint scope,
                             GArray *parts, GError **error)
{
	g_autoptr(GString) text = g_string_new(NULL);
	const char *at = e->value;

	if (*at != '/')
		return mapping_parser_fail_entry(p, s, e, error, "an OSC address starts with '/'");
	while (*at != '\0') {
		if (*at == '{') {
			mapping_parser_flush_text(parts, text);
			at = mapping_parser_placeholder(p, s, e, scope, at, parts, error);
			if (at == NULL)
				return FALSE;
			continue;
		}
		if (!mapping_parser_address_char(p, s, e, at, error))
			return FALSE;
		g_string_append_c(text, *at++);
	}
	mapping_parser_flush_text(parts, text);
	return TRUE;
}

/* An address part that is a number ("/skel/{user}/head" gives "/skel/1/head")
 * stays a symbol in Pd's [oscparse], which [route 1] does not match. */
static void
mapping_parser_address_warn_numeric(const Parser *p, const Section *s, const Entry *e)
{
	g_auto(GStrv) parts = g_strsplit(e->value + 1, "/", -1);

	for (guint i = 0; parts[i] != NULL; i++) {
		g_autoptr(GString) rest = g_string_new(parts[i]);

		g_string_replace(rest, "{user}", "", 0);
		for (gsize k = 0; k < rest->len; k++) {
			if (!g_ascii_isdigit(rest->str[k]))
				goto next;
		}
		mapping_parser_warn(p, e->line,
		                    "%s address: the part '%s' is a number, which Pd's [oscparse] "
		                    "keeps as a symbol that [route] cannot match; prefer a name "
		                    "(user{user}) or the id as an argument",
		                    s->title, parts[i]);
	next:;
	}
}

static gboolean
mapping_parser_rule_address(Parser *p, const Section *s, const Entry *e, gpointer object,
                            GError **error)
{
	MappingRule *rule = object;
	g_autoptr(GArray) parts = g_array_new(FALSE, TRUE, sizeof(MappingPart));
	gsize n;

	g_array_set_clear_func(parts, mapping_parser_part_clear);
	if (!mapping_parser_address_parts(p, s, e, rule->scope, parts, error))
		return FALSE;
	mapping_parser_address_warn_numeric(p, s, e);
	rule->address = g_array_steal(parts, &n);
	rule->n_address = (guint)n;
	return TRUE;
}

static gboolean
mapping_parser_value_lookup(const char *word, MappingValue *value)
{
	for (guint v = 0; v < MAPPING_N_VALUES; v++) {
		if (strcmp(word, value_defs[v].name) == 0) {
			*value = (MappingValue)v;
			return TRUE;
		}
	}
	return FALSE;
}

static gboolean
mapping_parser_value(Parser *p, const Section *s, const Entry *e, guint scope, const char *word,
                     MappingValue *value, GError **error)
{
	g_autofree char *list = NULL;
	const char *names[MAPPING_N_VALUES];

	if (!mapping_parser_value_lookup(word, value)) {
		for (guint v = 0; v < MAPPING_N_VALUES; v++)
			names[v] = value_defs[v].name;
		list = mapping_parser_join(names, MAPPING_N_VALUES, "and");
		return mapping_parser_fail_entry(p, s, e, error,
		                                 "unknown value '%s'; values are %s", word, list);
	}
	if (!(value_defs[*value].scopes & (1u << scope))) {
		list = mapping_parser_scope_list(value_defs[*value].scopes);
		return mapping_parser_fail_entry(p, s, e, error, "'%s' needs for = %s", word, list);
	}
	return TRUE;
}

/* In a for = user rule the joint values repeat for every joint, so they
 * must form one group. */
static gboolean
mapping_parser_args_grouped(const Parser *p, const Section *s, const Entry *e,
                            const MappingRule *rule, GError **error)
{
	guint groups = 0;

	for (guint i = 0; i < rule->n_args; i++) {
		gboolean joint = mapping_value_is_joint(rule->args[i]);

		if (joint && (i == 0 || !mapping_value_is_joint(rule->args[i - 1])))
			groups++;
	}
	if (rule->scope == MAPPING_SCOPE_USER && groups > 1)
		return mapping_parser_fail_entry(p, s, e, error,
		                                 "the joint values must stand together: they "
		                                 "repeat for every joint");
	return TRUE;
}

static gboolean
mapping_parser_rule_args(Parser *p, const Section *s, const Entry *e, gpointer object,
                         GError **error)
{
	MappingRule *rule = object;
	g_auto(GStrv) words = mapping_parser_words(e->value);

	if (g_strv_length(words) > MAPPING_MAX_ARGS)
		return mapping_parser_fail_entry(p, s, e, error, "more than %d values",
		                                 MAPPING_MAX_ARGS);
	for (guint i = 0; words[i] != NULL; i++) {
		if (!mapping_parser_value(p, s, e, rule->scope, words[i], &rule->args[i], error))
			return FALSE;
		rule->n_args = i + 1;
	}
	return mapping_parser_args_grouped(p, s, e, rule, error);
}

static gboolean
mapping_parser_rule_events(Parser *p, const Section *s, const Entry *e, gpointer object,
                           GError **error)
{
	const char *names[MAPPING_N_EVENTS];
	MappingRule *rule = object;
	g_auto(GStrv) words = mapping_parser_words(e->value);
	guint seen = 0;

	G_STATIC_ASSERT(MAPPING_N_EVENTS <= 32);
	for (guint ev = 0; ev < MAPPING_N_EVENTS; ev++)
		names[ev] = mapping_event_name((MappingEvent)ev);
	for (guint i = 0; words[i] != NULL; i++) {
		Entry word = *e;
		guint event = 0;

		word.value = words[i];
		if (!mapping_parser_enum(p, s, &word, names, MAPPING_N_EVENTS, &event, error))
			return FALSE;
		if (seen & (1u << event))
			return mapping_parser_fail_entry(p, s, e, error, "'%s' is listed twice",
			                                 words[i]);
		seen |= 1u << event;
		rule->events[rule->n_events++] = (MappingEvent)event;
	}
	return TRUE;
}

/* "*_hand": every joint whose name matches, in joint order, once each. */
static gboolean
mapping_parser_rule_joint_glob(Parser *p, const Section *s, const Entry *e, MappingRule *rule,
                               const char *word, guint *seen, GError **error)
{
	gboolean matched = FALSE;

	for (guint j = 0; j < TRACKER_N_JOINTS; j++) {
		if (!g_pattern_match_simple(word, tracker_joint_name((TrackerJointId)j)))
			continue;
		matched = TRUE;
		if (*seen & (1u << j))
			continue;
		*seen |= 1u << j;
		rule->joints[rule->n_joints++] = (TrackerJointId)j;
	}
	if (!matched)
		return mapping_parser_fail_entry(
		        p, s, e, error, "'%s' matches no joint (see mappings/README.md)", word);
	return TRUE;
}

static gboolean
mapping_parser_rule_joint(Parser *p, const Section *s, const Entry *e, MappingRule *rule,
                          const char *word, guint *seen, GError **error)
{
	TrackerJointId joint;

	if (strcmp(word, "all") == 0)
		return mapping_parser_fail_entry(p, s, e, error,
		                                 "'all' stands alone or not at all");
	if (strpbrk(word, "*?") != NULL)
		return mapping_parser_rule_joint_glob(p, s, e, rule, word, seen, error);
	if (!tracker_joint_from_name(word, &joint))
		return mapping_parser_fail_entry(
		        p, s, e, error, "unknown joint '%s' (see mappings/README.md)", word);
	if (*seen & (1u << joint))
		return mapping_parser_fail_entry(p, s, e, error, "'%s' is listed twice", word);
	*seen |= 1u << joint;
	rule->joints[rule->n_joints++] = joint;
	return TRUE;
}

static gboolean
mapping_parser_rule_joints(Parser *p, const Section *s, const Entry *e, gpointer object,
                           GError **error)
{
	MappingRule *rule = object;
	g_auto(GStrv) words = mapping_parser_words(e->value);
	guint seen = 0;

	if (strcmp(e->value, "all") == 0)
		return TRUE;
	rule->n_joints = 0;
	for (guint i = 0; words[i] != NULL; i++) {
		if (!mapping_parser_rule_joint(p, s, e, rule, words[i], &seen, error))
			return FALSE;
	}
	return TRUE;
}

static gboolean
mapping_parser_rule_min_confidence(Parser *p, const Section *s, const Entry *e, gpointer object,
                                   GError **error)
{
	MappingRule *rule = object;
	double value;

	if (!mapping_parser_double(e->value, &value) || value < 0 || value > 1)
		return mapping_parser_fail_entry(
		        p, s, e, error, "expected a number from 0 to 1, got '%s'", e->value);
	rule->min_confidence = value;
	return TRUE;
}

/* "A:B" */
static gboolean
mapping_parser_span(const char *text, double *a, double *b)
{
	g_auto(GStrv) ends = NULL;
	g_autofree char *trimmed = g_strstrip(g_strdup(text));

	ends = g_strsplit(trimmed, ":", -1);
	return g_strv_length(ends) == 2 && mapping_parser_double(ends[0], a) &&
	       mapping_parser_double(ends[1], b);
}

/* "FROM:TO -> FROM:TO", the words' first three; sets the linear part. */
static gboolean
mapping_parser_range_span(Parser *p, const Section *s, const Entry *e, char **words,
                          MappingRange *range, GError **error)
{
	double in_a, in_b, out_a, out_b;

	if (g_strv_length(words) < 3 || strcmp(words[1], "->") != 0 ||
	    !mapping_parser_span(words[0], &in_a, &in_b) ||
	    !mapping_parser_span(words[2], &out_a, &out_b))
		return mapping_parser_fail_entry(p, s, e, error,
		                                 "expected FROM:TO -> FROM:TO (such as "
		                                 "-1280:1280 -> 0:1), got '%s'",
		                                 e->value);
	if (in_a == in_b)
		return mapping_parser_fail_entry(p, s, e, error,
		                                 "the input range %s is empty: its ends are equal",
		                                 words[0]);
	range->ranged = TRUE;
	range->scale = (out_b - out_a) / (in_b - in_a);
	range->offset = out_a - range->scale * in_a;
	/* Every value a rule scales (millimetres, pixels, body units) lies
	 * within MAPPING_MAX_INPUT of 0; its result must be a float32. */
	if (!(fabs(range->scale) * MAPPING_MAX_INPUT + fabs(range->offset) <= FLT_MAX))
		return mapping_parser_fail_entry(p, s, e, error,
		                                 "%s scales values beyond a 32-bit float's "
		                                 "range (at most %g)",
		                                 e->value, (double)FLT_MAX);
	range->from = out_a;
	range->to = out_b;
	return TRUE;
}

/* The words after a range; the order is the bits of mapping_parser_range_word's @seen. */
static const char *const range_flags[] = { "clamp", "invert", "exp", "int", NULL };
#define N_RANGE_FLAGS 4

/* After the range: clamp, invert, exp K, int. Returns the words it took or 0. */
static guint
mapping_parser_range_word(Parser *p, const Section *s, const Entry *e, char **words,
                          MappingRange *range, guint *seen, GError **error)
{
	guint flag = N_RANGE_FLAGS;

	for (guint i = 0; i < N_RANGE_FLAGS; i++)
		if (strcmp(words[0], range_flags[i]) == 0)
			flag = i;
	if (flag == N_RANGE_FLAGS)
		return mapping_parser_fail_entry(p, s, e, error,
		                                 "unknown word '%s'; after the range come clamp, "
		                                 "invert, exp K and int",
		                                 words[0]);
	if (*seen & (1u << flag))
		return mapping_parser_fail_entry(p, s, e, error, "'%s' is given twice", words[0]);
	*seen |= 1u << flag;
	if ((flag == 0 || flag == 2) && !range->ranged)
		return mapping_parser_fail_entry(p, s, e, error,
		                                 "%s needs a range to work within: FROM:TO -> "
		                                 "FROM:TO %s",
		                                 words[0], words[0]);
	switch (flag) {
	case 0:
		range->clamp = TRUE;
		return 1;
	case 1:
		/* The output range turned around; without a range, the sign. */
		range->scale = -range->scale;
		range->offset =
		        range->ranged ? range->from + range->to - range->offset : -range->offset;
		return 1;
	case 2:
		if (words[1] == NULL || !mapping_parser_double(words[1], &range->curve) ||
		    range->curve == 0 || fabs(range->curve) > 50)
			return mapping_parser_fail_entry(p, s, e, error,
			                                 "exp needs a number other than 0, from "
			                                 "-50 to 50, after it (such as exp 2)");
		return 2;
	default:
		range->as_int = TRUE;
		return 1;
	}
}

/* x = FROM:TO -> FROM:TO [clamp] [invert] [exp K] [int], or the words alone. */
static gboolean
mapping_parser_rule_range(Parser *p, const Section *s, const Entry *e, gpointer object,
                          GError **error)
{
	MappingRule *rule = object;
	g_autoptr(GString) spaced = g_string_new(e->value);
	g_auto(GStrv) words = NULL;
	MappingValue value = MAPPING_VALUE_X;
	MappingRange *range;
	guint at = 0, seen = 0;

	g_string_replace(spaced, "->", " -> ", 0);
	words = mapping_parser_words(spaced->str);
	mapping_parser_value_lookup(e->key, &value);
	range = &rule->ranges[mapping_value_range(value)];
	if (words[0] == NULL || !g_strv_contains(range_flags, words[0])) {
		if (!mapping_parser_range_span(p, s, e, words, range, error))
			return FALSE;
		at = 3;
	}
	while (words[at] != NULL) {
		guint took = mapping_parser_range_word(p, s, e, words + at, range, &seen, error);

		if (took == 0)
			return FALSE;
		at += took;
	}
	range->low = range->ranged ? MIN(range->from, range->to) : -G_MAXDOUBLE;
	range->high = range->ranged ? MAX(range->from, range->to) : G_MAXDOUBLE;
	if (seen & 2) {
		double from = range->from;

		range->from = range->to;
		range->to = from;
	}
	return TRUE;
}

static gboolean
mapping_parser_rule_clamp(Parser *p, const Section *s, const Entry *e, gpointer object,
                          GError **error)
{
	MappingRule *rule = object;

	return mapping_parser_boolean(p, s, e, &rule->clamp, error);
}

static gboolean
mapping_parser_rule_on_change(Parser *p, const Section *s, const Entry *e, gpointer object,
                              GError **error)
{
	MappingRule *rule = object;

	if (!mapping_parser_double(e->value, &rule->change) || rule->change < 0)
		return mapping_parser_fail_entry(
		        p, s, e, error, "expected a number of at least 0, got '%s'", e->value);
	rule->on_change = TRUE;
	return TRUE;
}

static gboolean
mapping_parser_rule_refresh(Parser *p, const Section *s, const Entry *e, gpointer object,
                            GError **error)
{
	MappingRule *rule = object;
	double seconds;

	if (!mapping_parser_double(e->value, &seconds) || seconds <= 0 || seconds > 86400)
		return mapping_parser_fail_entry(p, s, e, error,
		                                 "expected seconds, more than 0 and at most a day, "
		                                 "got '%s'",
		                                 e->value);
	rule->refresh_us = (gint64)(seconds * G_USEC_PER_SEC);
	return TRUE;
}

static gboolean
mapping_parser_rule_space(Parser *p, const Section *s, const Entry *e, gpointer object,
                          GError **error)
{
	static const char *const names[] = { "camera", "screen", "body" };
	MappingRule *rule = object;
	guint value = 0;

	if (!mapping_parser_enum(p, s, e, names, G_N_ELEMENTS(names), &value, error))
		return FALSE;
	rule->space = (MappingSpace)value;
	return TRUE;
}

static gboolean
mapping_parser_rule_distance_to(Parser *p, const Section *s, const Entry *e, gpointer object,
                                GError **error)
{
	MappingRule *rule = object;

	if (!tracker_joint_from_name(e->value, &rule->distance_to))
		return mapping_parser_fail_entry(p, s, e, error,
		                                 "'%s' is not a joint (see mappings/README.md "
		                                 "for the list)",
		                                 e->value);
	return TRUE;
}

static gboolean
mapping_parser_rule_user(Parser *p, const Section *s, const Entry *e, gpointer object,
                         GError **error)
{
	MappingRule *rule = object;
	guint64 id;

	if (strcmp(e->value, "all") == 0)
		rule->users = MAPPING_USERS_ALL;
	else if (strcmp(e->value, "first") == 0)
		rule->users = MAPPING_USERS_FIRST;
	else if (strcmp(e->value, "nearest") == 0)
		rule->users = MAPPING_USERS_NEAREST;
	else if (strcmp(e->value, "raised_hand") == 0)
		rule->users = MAPPING_USERS_RAISED;
	else if (g_str_has_prefix(e->value, "zone:"))
		rule->users = MAPPING_USERS_ZONE; /* the zone is found once all are read */
	else if (g_ascii_string_to_unsigned(e->value, 10, 1, G_MAXINT32, &id, NULL)) {
		/* ([mapping], and so user_ids, is read before every rule.) */
		if (p->mapping->user_ids == MAPPING_IDS_SLOT && id > TRACKER_MAX_USERS)
			return mapping_parser_fail_entry(
			        p, s, e, error,
			        "with user_ids = slot users are numbered 1 to %d, got '%s'",
			        TRACKER_MAX_USERS, e->value);
		rule->users = MAPPING_USERS_ID;
		rule->user_id = (guint)id;
	} else
		return mapping_parser_fail_entry(
		        p, s, e, error,
		        "expected all, first, nearest, raised_hand, zone:NAME or a user "
		        "id (1 or more), got '%s'",
		        e->value);
	return TRUE;
}

static gboolean
mapping_parser_rule_hold(Parser *p, const Section *s, const Entry *e, gpointer object,
                         GError **error)
{
	MappingRule *rule = object;
	double seconds;

	if (!mapping_parser_double(e->value, &seconds) || seconds < 0 || seconds > 60)
		return mapping_parser_fail_entry(
		        p, s, e, error, "expected seconds from 0 to 60, got '%s'", e->value);
	rule->hold_us = (gint64)(seconds * G_USEC_PER_SEC);
	return TRUE;
}

static gboolean
mapping_parser_rule_max_rate(Parser *p, const Section *s, const Entry *e, gpointer object,
                             GError **error)
{
	MappingRule *rule = object;
	double hz;

	if (!mapping_parser_double(e->value, &hz) || hz <= 0 || hz > 1000)
		return mapping_parser_fail_entry(p, s, e, error,
		                                 "expected messages per second, more than 0 and at "
		                                 "most 1000, got '%s'",
		                                 e->value);
	rule->min_interval_us = (gint64)(G_USEC_PER_SEC / hz);
	return TRUE;
}

#define POSITIONAL (SCOPE(USER) | SCOPE(JOINT))
#define PER_USER   (SCOPE(USER) | SCOPE(JOINT) | SCOPE(EVENT))
#define STREAMING  (SCOPE(FRAME) | SCOPE(USER) | SCOPE(JOINT))

static const KeyDef rule_keys[] = {
	{ "output", NULL, ALL_SCOPES, ALL_SCOPES },
	{ "for", mapping_parser_rule_for, ALL_SCOPES, ALL_SCOPES },
	{ "address", mapping_parser_rule_address, ALL_SCOPES, ALL_SCOPES },
	{ "args", mapping_parser_rule_args, ALL_SCOPES, 0 },
	{ "events", mapping_parser_rule_events, SCOPE(EVENT), SCOPE(EVENT) },
	{ "joints", mapping_parser_rule_joints, PER_USER, 0 },
	{ "names", NULL, PER_USER, 0 },
	{ "min_confidence", mapping_parser_rule_min_confidence, PER_USER, 0 },
	{ "x", mapping_parser_rule_range, POSITIONAL, 0 },
	{ "y", mapping_parser_rule_range, POSITIONAL, 0 },
	{ "z", mapping_parser_rule_range, POSITIONAL, 0 },
	{ "u", mapping_parser_rule_range, POSITIONAL, 0 },
	{ "v", mapping_parser_rule_range, POSITIONAL, 0 },
	{ "angle", mapping_parser_rule_range, POSITIONAL, 0 },
	{ "distance", mapping_parser_rule_range, POSITIONAL, 0 },
	{ "speed", mapping_parser_rule_range, POSITIONAL, 0 },
	{ "height", mapping_parser_rule_range, POSITIONAL, 0 },
	{ "distance_to", mapping_parser_rule_distance_to, POSITIONAL, 0 },
	{ "clamp", mapping_parser_rule_clamp, POSITIONAL, 0 },
	{ "space", mapping_parser_rule_space, POSITIONAL, 0 },
	{ "user", mapping_parser_rule_user, ALL_SCOPES, 0 },
	{ "zone", NULL, ALL_SCOPES, 0 },
	{ "hold", mapping_parser_rule_hold, ALL_SCOPES, 0 },
	{ "on_change", mapping_parser_rule_on_change, STREAMING, 0 },
	{ "refresh", mapping_parser_rule_refresh, STREAMING, 0 },
	{ "max_rate", mapping_parser_rule_max_rate, STREAMING, 0 },
};

static MappingRule *
mapping_parser_rule_new(const Section *s)
{
	MappingRule *rule = g_new0(MappingRule, 1);

	rule->name = g_strdup(s->name);
	rule->line = s->line;
	rule->min_confidence = 0.5;
	rule->zone = -1;
	for (guint j = 0; j < TRACKER_N_JOINTS; j++)
		rule->joints[j] = (TrackerJointId)j;
	rule->n_joints = TRACKER_N_JOINTS;
	for (guint r = 0; r < MAPPING_N_RANGES; r++) {
		rule->ranges[r].scale = 1.0;
		rule->ranges[r].low = -G_MAXDOUBLE;
		rule->ranges[r].high = G_MAXDOUBLE;
	}
	return rule;
}

static gboolean
mapping_parser_rule(Parser *p, const Section *s, GError **error)
{
	MappingRule *rule = mapping_parser_rule_new(s);
	const Entry *e = mapping_parser_find(s, "for");

	g_ptr_array_add(p->mapping->rules, rule);
	g_ptr_array_add(p->rule_sections, (gpointer)s);
	/* The other keys depend on what the rule is for. */
	if (e == NULL)
		return mapping_parser_fail(p, s->line, error, "%s: missing key 'for'", s->title);
	if (!mapping_parser_rule_for(p, s, e, rule, error))
		return FALSE;
	return mapping_parser_apply(p, s, rule_keys, G_N_ELEMENTS(rule_keys), 1u << rule->scope,
	                            rule, error);
}

/* ---- [zone NAME] ---- */

static gboolean
mapping_parser_zone_box(Parser *p, const Section *s, const Entry *e, gpointer object,
                        GError **error)
{
	MappingZone *zone = object;
	g_autofree char *message = NULL;

	if (!mapping_box_parse(e->value, &zone->min, &zone->max, &message))
		return mapping_parser_fail_entry(p, s, e, error, "%s", message);
	return TRUE;
}

static gboolean
mapping_parser_zone_space(Parser *p, const Section *s, const Entry *e, gpointer object,
                          GError **error)
{
	static const char *const names[] = { "room", "camera" };
	MappingZone *zone = object;
	guint value = 0;

	if (!mapping_parser_enum(p, s, e, names, G_N_ELEMENTS(names), &value, error))
		return FALSE;
	zone->space = (MappingZoneSpace)value;
	return TRUE;
}

static gboolean
mapping_parser_zone_joint(Parser *p, const Section *s, const Entry *e, gpointer object,
                          GError **error)
{
	MappingZone *zone = object;

	if (!tracker_joint_from_name(e->value, &zone->joint))
		return mapping_parser_fail_entry(p, s, e, error,
		                                 "'%s' is not a joint (see mappings/README.md "
		                                 "for the list)",
		                                 e->value);
	return TRUE;
}

static gboolean
mapping_parser_zone_margin(Parser *p, const Section *s, const Entry *e, gpointer object,
                           GError **error)
{
	MappingZone *zone = object;

	if (!mapping_parser_double(e->value, &zone->margin) || zone->margin < 0 ||
	    zone->margin > 1000)
		return mapping_parser_fail_entry(
		        p, s, e, error, "expected millimetres from 0 to 1000, got '%s'", e->value);
	return TRUE;
}

static const KeyDef zone_keys[] = {
	{ "box", mapping_parser_zone_box, ALL_SCOPES, ALL_SCOPES },
	{ "space", mapping_parser_zone_space, ALL_SCOPES, 0 },
	{ "joint", mapping_parser_zone_joint, ALL_SCOPES, 0 },
	{ "margin", mapping_parser_zone_margin, ALL_SCOPES, 0 },
};

static gboolean
mapping_parser_zone(Parser *p, const Section *s, GError **error)
{
	MappingZone *zone = g_new0(MappingZone, 1);

	zone->name = g_strdup(s->name);
	zone->line = s->line;
	zone->joint = TRACKER_JOINT_TORSO;
	zone->margin = 100.0;
	g_ptr_array_add(p->mapping->zones, zone);
	g_hash_table_insert(p->zone_index, zone->name, GUINT_TO_POINTER(p->mapping->zones->len));
	p->longest_zone = MAX(p->longest_zone, strlen(zone->name));
	return mapping_parser_apply(p, s, zone_keys, G_N_ELEMENTS(zone_keys), ALL_SCOPES, zone,
	                            error);
}

/* ---- [gestures] ---- */

static const GestureConfigKeyInfo *
mapping_parser_gesture_info(const char *key)
{
	const GestureConfigKeyInfo *info;

	for (guint i = 0; (info = gesture_config_key_info(i)) != NULL; i++) {
		if (strcmp(info->key, key) == 0)
			return info;
	}
	return NULL;
}

static char *
mapping_parser_gesture_keys(void)
{
	const GestureConfigKeyInfo *info;
	g_autoptr(GPtrArray) names = g_ptr_array_new();

	for (guint i = 0; (info = gesture_config_key_info(i)) != NULL; i++)
		g_ptr_array_add(names, (gpointer)info->key);
	return mapping_parser_join((const char *const *)names->pdata, names->len, "and");
}

/* One threshold of the gesture recognisers, in its own units and range. */
static gboolean
mapping_parser_gesture_entry(Parser *p, const Section *s, const Entry *e, GError **error)
{
	const GestureConfigKeyInfo *info = mapping_parser_gesture_info(e->key);
	g_autofree char *keys = NULL;

	if (info == NULL) {
		keys = mapping_parser_gesture_keys();
		return mapping_parser_fail_entry(p, s, e, error, "unknown key; keys are %s", keys);
	}
	if (gesture_config_parse(&p->mapping->gestures, e->key, e->value, NULL))
		return TRUE;
	return mapping_parser_fail_entry(p, s, e, error,
	                                 "expected a %s from %g to %g%s%s, got '%s'",
	                                 info->whole ? "whole number" : "number", info->min,
	                                 info->max, *info->unit ? " " : "", info->unit, e->value);
}

static gboolean
mapping_parser_gestures(Parser *p, const Section *s, GError **error)
{
	for (guint i = 0; i < s->entries->len; i++) {
		if (!mapping_parser_gesture_entry(p, s, &g_array_index(s->entries, Entry, i),
		                                  error))
			return FALSE;
	}
	return TRUE;
}

/* ---- references between sections, and the whole file ---- */

static gboolean
mapping_parser_rule_output(Parser *p, const Section *s, MappingRule *rule, GError **error)
{
	const Entry *e = mapping_parser_find(s, "output");
	guint at = GPOINTER_TO_UINT(g_hash_table_lookup(p->output_index, e->value));

	if (at == 0)
		return mapping_parser_fail_entry(p, s, e, error, "no [output %s] in this file",
		                                 e->value);
	if (mapping_get_output(p->mapping, at - 1)->kind == MAPPING_OUTPUT_TUIO)
		return mapping_parser_fail_entry(p, s, e, error,
		                                 "[output %s] is a TUIO output: it sends "
		                                 "hands by itself, rules cannot send to it",
		                                 e->value);
	rule->output = at - 1;
	return TRUE;
}

static MappingNames *
mapping_parser_lookup_names(const Parser *p, const char *name)
{
	return g_hash_table_lookup(p->names_index, name);
}

static gboolean
mapping_parser_rule_names(Parser *p, const Section *s, MappingRule *rule, GError **error)
{
	const Entry *e = mapping_parser_find(s, "names");
	MappingNames *names = NULL;

	if (e != NULL && (names = mapping_parser_lookup_names(p, e->value)) == NULL)
		return mapping_parser_fail_entry(p, s, e, error, "no [names %s] in this file",
		                                 e->value);
	if (names != NULL)
		names->used = TRUE;
	for (guint j = 0; j < TRACKER_N_JOINTS; j++)
		rule->joint_names[j] =
		        names && names->joints[j] ? names->joints[j] : tracker_joint_name(j);
	for (guint ev = 0; ev < MAPPING_N_EVENTS; ev++)
		rule->event_names[ev] =
		        names && names->events[ev] ? names->events[ev] : mapping_event_name(ev);
	return TRUE;
}

/* Only gestures and hand events have a hand: a rule that sends one sends
 * those only. */
static gboolean
mapping_parser_rule_check_hand(const Parser *p, const Section *s, const MappingRule *rule,
                               GError **error)
{
	const char *handless = NULL;

	for (guint i = 0; i < rule->n_events && handless == NULL; i++) {
		if (!mapping_event_has_hand(rule->events[i]))
			handless = mapping_event_name(rule->events[i]);
	}
	if (handless == NULL)
		return TRUE;
	for (guint i = 0; i < rule->n_args; i++) {
		if (rule->args[i] == MAPPING_VALUE_HAND)
			return mapping_parser_fail_entry(
			        p, s, mapping_parser_find(s, "args"), error,
			        "'hand' is only for gesture and hand events, and %s "
			        "has no hand",
			        handless);
	}
	for (guint i = 0; i < rule->n_address; i++) {
		if (rule->address[i].kind == MAPPING_PART_HAND)
			return mapping_parser_fail_entry(
			        p, s, mapping_parser_find(s, "address"), error,
			        "{hand} is only for gesture and hand events, and %s "
			        "has no hand",
			        handless);
	}
	return TRUE;
}

static gboolean
mapping_parser_rule_sends(const MappingRule *rule, MappingValue value)
{
	for (guint i = 0; i < rule->n_args; i++) {
		if (rule->args[i] == value)
			return TRUE;
	}
	return FALSE;
}

/* "neck, left_shoulder, ... and right_knee": the joints with an angle. */
static char *
mapping_parser_angle_joints(void)
{
	const char *names[TRACKER_N_JOINTS];
	TrackerJointId a, b;
	guint n = 0;

	for (guint j = 0; j < TRACKER_N_JOINTS; j++) {
		if (measure_angle_bones((TrackerJointId)j, &a, &b))
			names[n++] = tracker_joint_name((TrackerJointId)j);
	}
	return mapping_parser_join(names, n, "and");
}

/* An angle is sent for joints where two bones meet, and for no other. */
static gboolean
mapping_parser_rule_check_angle(const Parser *p, const Section *s, const MappingRule *rule,
                                GError **error)
{
	const Entry *e = mapping_parser_find(s, "joints");
	g_autofree char *list = NULL;
	TrackerJointId a, b;

	if (!mapping_parser_rule_sends(rule, MAPPING_VALUE_ANGLE))
		return TRUE;
	for (guint j = 0; j < rule->n_joints; j++) {
		if (measure_angle_bones(rule->joints[j], &a, &b))
			continue;
		list = mapping_parser_angle_joints();
		return mapping_parser_fail_entry(
		        p, s, e != NULL ? e : mapping_parser_find(s, "args"), error,
		        "'angle' is the angle between two bones, and two bones do not meet "
		        "at %s; list the joints to send it for in 'joints': %s",
		        tracker_joint_name(rule->joints[j]), list);
	}
	return TRUE;
}

/* A hand's state is sent for left_hand and right_hand, and for no other. */
static gboolean
mapping_parser_rule_check_hand_state(const Parser *p, const Section *s, const MappingRule *rule,
                                     GError **error)
{
	const Entry *e = mapping_parser_find(s, "joints");
	const char *value = mapping_parser_rule_sends(rule, MAPPING_VALUE_HAND_STATE) ? "hand_state"
	                    : mapping_parser_rule_sends(rule, MAPPING_VALUE_HAND_CONFIDENCE)
	                            ? "hand_confidence"
	                            : NULL;

	for (guint j = 0; value != NULL && j < rule->n_joints; j++) {
		if (rule->joints[j] == TRACKER_JOINT_LEFT_HAND ||
		    rule->joints[j] == TRACKER_JOINT_RIGHT_HAND)
			continue;
		return mapping_parser_fail_entry(
		        p, s, e != NULL ? e : mapping_parser_find(s, "args"), error,
		        "'%s' is a hand's, and %s is not a hand; list the joints to send it "
		        "for in 'joints': left_hand and right_hand",
		        value, tracker_joint_name(rule->joints[j]));
	}
	return TRUE;
}

/* distance goes with distance_to; distance, speed and height are lengths,
 * which screen space (fractions of the picture's sides) has none of. */
static gboolean
mapping_parser_rule_check_lengths(const Parser *p, const Section *s, const MappingRule *rule,
                                  GError **error)
{
	static const MappingValue lengths[] = { MAPPING_VALUE_DISTANCE, MAPPING_VALUE_SPEED,
		                                MAPPING_VALUE_HEIGHT };
	const Entry *to = mapping_parser_find(s, "distance_to");
	gboolean distance = mapping_parser_rule_sends(rule, MAPPING_VALUE_DISTANCE);

	if (distance && to == NULL)
		return mapping_parser_fail_entry(p, s, mapping_parser_find(s, "args"), error,
		                                 "'distance' needs distance_to = JOINT, the joint "
		                                 "it is measured to");
	if (!distance && to != NULL)
		return mapping_parser_fail_entry(p, s, to, error,
		                                 "only with 'distance' in args: it names the "
		                                 "joint the distance is measured to");
	if (rule->space != MAPPING_SPACE_SCREEN)
		return TRUE;
	for (guint i = 0; i < G_N_ELEMENTS(lengths); i++) {
		if (mapping_parser_rule_sends(rule, lengths[i]))
			return mapping_parser_fail_entry(
			        p, s, mapping_parser_find(s, "space"), error,
			        "'%s' is a length, in millimetres (space = "
			        "camera) or shoulder widths (space = body), "
			        "not in screen fractions",
			        value_defs[lengths[i]].name);
	}
	return TRUE;
}

/* The zone called @name, marked used; -1 when the file has none so called. */
static int
mapping_parser_lookup_zone(const Parser *p, const char *name)
{
	guint at = GPOINTER_TO_UINT(g_hash_table_lookup(p->zone_index, name));

	if (at == 0)
		return -1;
	((MappingZone *)g_ptr_array_index(p->mapping->zones, at - 1))->used = TRUE;
	return (int)(at - 1);
}

/* The zones the rule names: in `zone` and in `user = zone:NAME`. */
static gboolean
mapping_parser_rule_zone_refs(const Parser *p, const Section *s, MappingRule *rule, GError **error)
{
	const Entry *e = mapping_parser_find(s, "zone");
	const Entry *user = mapping_parser_find(s, "user");
	int z;

	if (e != NULL && (rule->zone = mapping_parser_lookup_zone(p, e->value)) < 0)
		return mapping_parser_fail_entry(p, s, e, error, "no [zone %s] in this file",
		                                 e->value);
	if (rule->users != MAPPING_USERS_ZONE)
		return TRUE;
	z = mapping_parser_lookup_zone(p, user->value + strlen("zone:"));
	if (z < 0)
		return mapping_parser_fail_entry(p, s, user, error, "no [zone %s] in this file",
		                                 user->value + strlen("zone:"));
	rule->user_zone = (guint)z;
	return TRUE;
}

/* The longest name of a zone that the rule's {zone} and zone can be. */
static void
mapping_parser_rule_longest_zone(const Parser *p, MappingRule *rule)
{
	if (rule->zone < 0)
		rule->longest_zone = p->longest_zone;
	else
		rule->longest_zone = strlen(mapping_get_zone(p->mapping, (guint)rule->zone)->name);
}

/* zone_users counts the users of the rule's zone; the zone key is for
 * that and for zone events; the zone value and {zone} are a zone event's. */
static gboolean
mapping_parser_rule_check_zones(const Parser *p, const Section *s, const MappingRule *rule,
                                GError **error)
{
	const char *zoneless = NULL;
	gboolean zone_events = FALSE;

	for (guint i = 0; i < rule->n_events; i++) {
		if (mapping_event_is_zone(rule->events[i]))
			zone_events = TRUE;
		else if (zoneless == NULL)
			zoneless = mapping_event_name(rule->events[i]);
	}
	if (mapping_parser_rule_sends(rule, MAPPING_VALUE_ZONE_USERS) && rule->zone < 0)
		return mapping_parser_fail_entry(p, s, mapping_parser_find(s, "args"), error,
		                                 "'zone_users' needs zone = NAME, the zone whose "
		                                 "users it counts");
	if (rule->zone >= 0 && !zone_events &&
	    !mapping_parser_rule_sends(rule, MAPPING_VALUE_ZONE_USERS))
		return mapping_parser_fail_entry(p, s, mapping_parser_find(s, "zone"), error,
		                                 "only with zone_enter or zone_leave events, or "
		                                 "zone_users in args");
	if (zoneless == NULL)
		return TRUE;
	if (mapping_parser_rule_sends(rule, MAPPING_VALUE_ZONE))
		return mapping_parser_fail_entry(p, s, mapping_parser_find(s, "args"), error,
		                                 "'zone' is only for zone events, and %s has no "
		                                 "zone",
		                                 zoneless);
	for (guint i = 0; i < rule->n_address; i++) {
		if (rule->address[i].kind == MAPPING_PART_ZONE)
			return mapping_parser_fail_entry(p, s, mapping_parser_find(s, "address"),
			                                 error,
			                                 "{zone} is only for zone events, and %s "
			                                 "has no zone",
			                                 zoneless);
	}
	return TRUE;
}

/* hold and chosen are about the one user a rule chooses. */
static gboolean
mapping_parser_rule_check_chosen(const Parser *p, const Section *s, const MappingRule *rule,
                                 GError **error)
{
	const Entry *hold = mapping_parser_find(s, "hold");
	const Entry *user = mapping_parser_find(s, "user");

	if (mapping_rule_chooses(rule))
		return TRUE;
	if (rule->scope == MAPPING_SCOPE_FRAME && user != NULL)
		return mapping_parser_fail_entry(p, s, user, error,
		                                 "a rule for the frame speaks of no user: it takes "
		                                 "first, nearest or raised_hand only, to send the "
		                                 "one chosen with 'chosen'");
	if (hold != NULL)
		return mapping_parser_fail_entry(
		        p, s, hold, error,
		        "only with user = first, nearest or raised_hand: it "
		        "keeps the chosen user's role while they are out "
		        "of view");
	if (mapping_parser_rule_sends(rule, MAPPING_VALUE_CHOSEN))
		return mapping_parser_fail_entry(p, s, mapping_parser_find(s, "args"), error,
		                                 "'chosen' needs user = first, nearest or "
		                                 "raised_hand, the user it tells of");
	return TRUE;
}

/* Cross-key checks, once every key of the rule is read. */
static gboolean
mapping_parser_rule_check(const Parser *p, const Section *s, const MappingRule *rule,
                          GError **error)
{
	const Entry *refresh = mapping_parser_find(s, "refresh");
	guint total = mapping_rule_n_values(rule);

	if (refresh != NULL && !rule->on_change)
		return mapping_parser_fail_entry(p, s, refresh, error,
		                                 "only with on_change: it resends what did not "
		                                 "change");
	if (total > MAPPING_MAX_ARGS)
		return mapping_parser_fail_entry(p, s, mapping_parser_find(s, "args"), error,
		                                 "%u values per message, more than %d", total,
		                                 MAPPING_MAX_ARGS);
	return mapping_parser_rule_check_hand(p, s, rule, error) &&
	       mapping_parser_rule_check_angle(p, s, rule, error) &&
	       mapping_parser_rule_check_hand_state(p, s, rule, error) &&
	       mapping_parser_rule_check_lengths(p, s, rule, error) &&
	       mapping_parser_rule_check_zones(p, s, rule, error) &&
	       mapping_parser_rule_check_chosen(p, s, rule, error);
}

static void
mapping_parser_append_entries(GString *out, const Section *s)
{
	g_string_append_printf(out, "%s\n", s->title);
	for (guint i = 0; i < s->entries->len; i++) {
		const Entry *e = &g_array_index(s->entries, Entry, i);

		g_string_append_printf(out, "%s=%s\n", e->key, e->value);
	}
}

static char *
mapping_parser_fingerprint(const Parser *p, const Section *s)
{
	GString *out = g_string_new(NULL);
	const Entry *e = mapping_parser_find(s, "names");

	mapping_parser_append_entries(out, s);
	if (e != NULL)
		mapping_parser_append_entries(
		        out, mapping_parser_find_section(p, SECTION_NAMES, e->value));
	return g_string_free(out, FALSE);
}

/* A message that cannot fit its output's packets could never be sent:
 * refused here rather than reported for ever, frame after frame. */
static gboolean
mapping_parser_rule_fits(const Parser *p, const Section *s, const MappingRule *rule, GError **error)
{
	const MappingOutput *output = mapping_get_output(p->mapping, rule->output);
	gsize size = mapping_rule_max_message(rule);
	gsize room = output->max_packet;

	if (output->bundle != MAPPING_BUNDLE_NONE)
		room = room > MAPPING_BUNDLE_OVERHEAD ? room - MAPPING_BUNDLE_OVERHEAD : 0;
	if (size <= room)
		return TRUE;
	return mapping_parser_fail(
	        p, s->line, error,
	        "%s: its messages take up to %zu bytes, and [output %s] "
	        "has room for %zu in a packet (max_packet = %u%s)",
	        s->title, size, output->name, room, output->max_packet,
	        output->bundle != MAPPING_BUNDLE_NONE ? ", less what a bundle adds" : "");
}

static gboolean
mapping_parser_resolve(Parser *p, GError **error)
{
	for (guint i = 0; i < p->mapping->rules->len; i++) {
		MappingRule *rule = g_ptr_array_index(p->mapping->rules, i);
		const Section *s = g_ptr_array_index(p->rule_sections, i);

		if (!mapping_parser_rule_output(p, s, rule, error) ||
		    !mapping_parser_rule_names(p, s, rule, error) ||
		    !mapping_parser_rule_zone_refs(p, s, rule, error) ||
		    !mapping_parser_rule_check(p, s, rule, error))
			return FALSE;
		mapping_parser_rule_longest_zone(p, rule);
		if (!mapping_parser_rule_fits(p, s, rule, error))
			return FALSE;
		rule->fingerprint = mapping_parser_fingerprint(p, s);
	}
	return TRUE;
}

static void
mapping_parser_warn_unused_gestures(const Parser *p)
{
	const Section *s = mapping_parser_find_section(p, SECTION_GESTURES, NULL);

	if (s != NULL && !mapping_wants_gestures(p->mapping))
		mapping_parser_warn(p, s->line,
		                    "[gestures] is used by no rule: no rule has gesture events");
}

/* One pass over the rules, then one over the outputs: a file of thousands
 * of each reads in linear time. */
static void
mapping_parser_warn_unused_outputs(const Parser *p)
{
	guint n = p->mapping->outputs->len;
	g_autofree gboolean *used = g_new0(gboolean, n);

	for (guint r = 0; r < p->mapping->rules->len; r++) {
		guint output = mapping_get_rule(p->mapping, r)->output;

		if (output < n)
			used[output] = TRUE;
	}
	for (guint i = 0; i < n; i++) {
		const MappingOutput *output = mapping_get_output(p->mapping, i);

		if (!used[i] && output->kind != MAPPING_OUTPUT_TUIO)
			mapping_parser_warn(p, output->line, "[output %s] is used by no rule",
			                    output->name);
	}
}

static void
mapping_parser_warn_unused(const Parser *p)
{
	mapping_parser_warn_unused_outputs(p);
	for (guint i = 0; i < p->mapping->names->len; i++) {
		const MappingNames *names = g_ptr_array_index(p->mapping->names, i);

		if (!names->used)
			mapping_parser_warn(p, names->line, "[names %s] is used by no rule",
			                    names->name);
	}
	for (guint i = 0; i < p->mapping->zones->len; i++) {
		const MappingZone *zone = mapping_get_zone(p->mapping, i);

		if (!zone->used)
			mapping_parser_warn(p, zone->line, "[zone %s] is used by no rule",
			                    zone->name);
	}
	mapping_parser_warn_unused_gestures(p);
}

static gboolean
mapping_parser_section_read(Parser *p, const Section *s, GError **error)
{
	if (s->entries->len == 0)
		return mapping_parser_fail(p, s->line, error, "%s is empty", s->title);
	switch (s->type) {
	case SECTION_MAPPING:
		return mapping_parser_apply(p, s, mapping_keys, G_N_ELEMENTS(mapping_keys),
		                            ALL_SCOPES, NULL, error);
	case SECTION_OUTPUT:
		return mapping_parser_output(p, s, error);
	case SECTION_RULE:
		return mapping_parser_rule(p, s, error);
	case SECTION_NAMES:
		return mapping_parser_names(p, s, error);
	case SECTION_GESTURES:
		return mapping_parser_gestures(p, s, error);
	case SECTION_ZONE:
		return mapping_parser_zone(p, s, error);
	case N_SECTION_TYPES:
		break;
	}
	g_assert_not_reached();
}

static gboolean
mapping_parser_has_tuio(const Parser *p)
{
	for (guint i = 0; i < p->mapping->outputs->len; i++) {
		if (mapping_get_output(p->mapping, i)->kind == MAPPING_OUTPUT_TUIO)
			return TRUE;
	}
	return FALSE;
}

static gboolean
mapping_parser_read(Parser *p, GError **error)
{
	const Section *first = p->sections->len ? g_ptr_array_index(p->sections, 0) : NULL;

	if (first == NULL || first->type != SECTION_MAPPING)
		return mapping_parser_fail(p, first ? first->line : 1, error,
		                           "a mapping file starts with a [mapping] section");
	for (guint i = 0; i < p->sections->len; i++) {
		if (!mapping_parser_section_read(p, g_ptr_array_index(p->sections, i), error))
			return FALSE;
	}
	if (p->mapping->rules->len == 0 && !mapping_parser_has_tuio(p))
		return mapping_parser_fail(p, first->line, error,
		                           "no [rule NAME] section and no TUIO output: the mapping "
		                           "would send nothing");
	if (!mapping_parser_resolve(p, error))
		return FALSE;
	mapping_parser_warn_unused(p);
	return TRUE;
}

Mapping *
mapping_parse(const char *path, const char *text, gsize length, GError **error)
{
	g_autoptr(Mapping) mapping = mapping_new(path);
	Parser p = { 0 };
	gboolean ok;

	p.path = path;
	p.mapping = mapping;
	p.sections = g_ptr_array_new_with_free_func(mapping_parser_section_free);
	p.rule_sections = g_ptr_array_new();
	p.section_index = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	p.output_index = g_hash_table_new(g_str_hash, g_str_equal);
	p.names_index = g_hash_table_new(g_str_hash, g_str_equal);
	p.listeners = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	p.zone_index = g_hash_table_new(g_str_hash, g_str_equal);
	ok = mapping_parser_cut(&p, text, length, error) && mapping_parser_read(&p, error);
	g_hash_table_unref(p.listeners);
	g_hash_table_unref(p.zone_index);
	g_hash_table_unref(p.names_index);
	g_hash_table_unref(p.output_index);
	g_hash_table_unref(p.section_index);
	g_ptr_array_unref(p.rule_sections);
	g_ptr_array_unref(p.sections);
	return ok ? g_steal_pointer(&mapping) : NULL;
}
