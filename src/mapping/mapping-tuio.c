#include "mapping-tuio.h"

#include "mapping.h"

#include <math.h>
#include <string.h>

typedef gboolean (*TuioKeyFunc)(TuioConfig *c, MappingTuioSource *source, const char *key,
                                const char *value, char **message);

typedef struct {
	const char *key;
	TuioKeyFunc func;
	double min, max; /* numbers */
	gsize offset;    /* numbers: where in TuioConfig */
} TuioKey;

static gboolean
tuio_key_choice(const char *value, const char *const *names, guint n, guint *out, char **message)
{
	g_autoptr(GString) list = g_string_new(NULL);

	for (guint i = 0; i < n; i++) {
		if (strcmp(value, names[i]) == 0) {
			*out = i;
			return TRUE;
		}
		g_string_append_printf(list, "%s%s",
		                       i == 0       ? ""
		                       : i + 1 == n ? " or "
		                                    : ", ",
		                       names[i]);
	}
	*message = g_strdup_printf("expected %s, got '%s'", list->str, value);
	return FALSE;
}

static gboolean
tuio_key_number(const char *value, double min, double max, double *out, char **message)
{
	char *end = NULL;
	double v = g_ascii_strtod(value, &end);

	if (*value == '\0' || *end != '\0' || !isfinite(v) || v < min || v > max) {
		*message = g_strdup_printf("expected a number from %g to %g, got '%s'", min, max,
		                           value);
		return FALSE;
	}
	*out = v;
	return TRUE;
}

static gboolean
tuio_key_bool(const char *value, gboolean *out, char **message)
{
	static const char *const names[] = { "false", "true" };
	guint v = 0;

	if (!tuio_key_choice(value, names, 2, &v, message))
		return FALSE;
	*out = v == 1;
	return TRUE;
}

static gboolean
tuio_key_profile(TuioConfig *c, MappingTuioSource *source G_GNUC_UNUSED,
                 const char *key G_GNUC_UNUSED, const char *value, char **message)
{
	static const char *const names[] = { "2Dcur", "25Dcur", "3Dcur" };
	guint v = 0;

	if (!tuio_key_choice(value, names, G_N_ELEMENTS(names), &v, message))
		return FALSE;
	c->profile = (TuioProfile)v;
	return TRUE;
}

static gboolean
tuio_key_touch(TuioConfig *c, MappingTuioSource *source G_GNUC_UNUSED,
               const char *key G_GNUC_UNUSED, const char *value, char **message)
{
	static const char *const names[] = { "always", "push", "raised", "grip" };
	guint v = 0;

	if (!tuio_key_choice(value, names, G_N_ELEMENTS(names), &v, message))
		return FALSE;
	c->touch = (TuioTouch)v;
	return TRUE;
}

static gboolean
tuio_key_box(TuioConfig *c, MappingTuioSource *source G_GNUC_UNUSED, const char *key G_GNUC_UNUSED,
             const char *value, char **message)
{
	static const char *const names[] = { "body", "camera" };
	guint v = 0;

	if (!tuio_key_choice(value, names, G_N_ELEMENTS(names), &v, message))
		return FALSE;
	c->box = (TuioBox)v;
	return TRUE;
}

static gboolean
tuio_key_mirror(TuioConfig *c, MappingTuioSource *source G_GNUC_UNUSED,
                const char *key G_GNUC_UNUSED, const char *value, char **message)
{
	return tuio_key_bool(value, &c->mirror, message);
}

gboolean
mapping_tuio_name_check(const char *name, char **message)
{
	gsize length = strlen(name);

	for (const char *c = name; *c != '\0'; c++) {
		if (*c == '@') {
			*message = g_strdup_printf("'%s' has an '@': the name goes before it and "
			                           "the host after it by itself (NAME@HOST)",
			                           name);
			return FALSE;
		}
		if (*c <= ' ' || *c > '~') {
			*message = g_strdup_printf("'%s' has a space, a control or a non-ASCII "
			                           "character; a name is printable ASCII (OSC "
			                           "strings are ASCII)",
			                           name);
			return FALSE;
		}
	}
	if (length == 0 || length > MAPPING_TUIO_MAX_NAME) {
		*message = g_strdup_printf("a name is 1 to %d characters, '%s' has %zu",
		                           MAPPING_TUIO_MAX_NAME, name, length);
		return FALSE;
	}
	return TRUE;
}

/* true, false, or the application's name: true sends the bridge's. */
static gboolean
tuio_key_source(TuioConfig *c G_GNUC_UNUSED, MappingTuioSource *source,
                const char *key G_GNUC_UNUSED, const char *value, char **message)
{
	g_autofree char *why = NULL;

	g_clear_pointer(&source->name, g_free);
	source->send = strcmp(value, "false") != 0;
	if (strcmp(value, "true") == 0 || strcmp(value, "false") == 0)
		return TRUE;
	if (!mapping_tuio_name_check(value, &why)) {
		*message = g_strdup_printf("expected true, false or an application name: %s", why);
		return FALSE;
	}
	source->name = g_strdup(value);
	return TRUE;
}

static gboolean
tuio_key_camera_box(TuioConfig *c, MappingTuioSource *source G_GNUC_UNUSED,
                    const char *key G_GNUC_UNUSED, const char *value, char **message)
{
	return mapping_box_parse(value, &c->camera_min, &c->camera_max, message);
}

static gboolean
tuio_key_double(TuioConfig *c, const char *value, const TuioKey *k, char **message)
{
	return tuio_key_number(value, k->min, k->max, (double *)((char *)c + k->offset), message);
}

static gboolean
tuio_key_repeats(TuioConfig *c, MappingTuioSource *source G_GNUC_UNUSED,
                 const char *key G_GNUC_UNUSED, const char *value, char **message)
{
	double v = 0;

	if (!tuio_key_number(value, 0, 100, &v, message) || v != floor(v)) {
		if (*message == NULL)
			*message = g_strdup_printf(
			        "expected a whole number from 0 to 100, got '%s'", value);
		return FALSE;
	}
	c->empty_repeats = (guint)v;
	return TRUE;
}

static gboolean
tuio_key_keepalive(TuioConfig *c, MappingTuioSource *source G_GNUC_UNUSED,
                   const char *key G_GNUC_UNUSED, const char *value, char **message)
{
	double seconds = 0;

	if (!tuio_key_number(value, 0.1, 60, &seconds, message))
		return FALSE;
	c->keepalive_us = (gint64)(seconds * G_USEC_PER_SEC);
	return TRUE;
}

#define NUMBER(name, lo, hi)                                                                       \
	{                                                                                          \
#name, NULL, lo, hi, G_STRUCT_OFFSET(TuioConfig, name)                             \
	}

static const TuioKey tuio_keys[] = {
	{ "profile", tuio_key_profile, 0, 0, 0 },
	{ "touch", tuio_key_touch, 0, 0, 0 },
	NUMBER(push_depth, 0.0, 2.0),
	NUMBER(push_release, 0.0, 2.0),
	NUMBER(raised_height, -2.0, 2.0),
	NUMBER(raised_release, -2.0, 2.0),
	NUMBER(min_confidence, 0.0, 1.0),
	{ "box", tuio_key_box, 0, 0, 0 },
	NUMBER(body_width, 0.1, 5.0),
	NUMBER(body_height, 0.1, 5.0),
	NUMBER(body_raise, -2.0, 2.0),
	{ "camera_box", tuio_key_camera_box, 0, 0, 0 },
	{ "mirror", tuio_key_mirror, 0, 0, 0 },
	{ "source", tuio_key_source, 0, 0, 0 },
	{ "empty_repeats", tuio_key_repeats, 0, 0, 0 },
	{ "keepalive", tuio_key_keepalive, 0, 0, 0 },
};

static const TuioKey *
tuio_key_find(const char *key)
{
	for (guint i = 0; i < G_N_ELEMENTS(tuio_keys); i++) {
		if (strcmp(tuio_keys[i].key, key) == 0)
			return &tuio_keys[i];
	}
	return NULL;
}

gboolean
mapping_tuio_is_key(const char *key)
{
	return tuio_key_find(key) != NULL;
}

char *
mapping_tuio_keys(void)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < G_N_ELEMENTS(tuio_keys); i++)
		g_string_append_printf(s, "%s%s", i == 0 ? "" : ", ", tuio_keys[i].key);
	return g_string_free(s, FALSE);
}

gboolean
mapping_tuio_set(TuioConfig *config, MappingTuioSource *source, const char *key, const char *value,
                 char **message)
{
	const TuioKey *k = tuio_key_find(key);

	*message = NULL;
	g_return_val_if_fail(k != NULL, FALSE);
	if (k->func == NULL)
		return tuio_key_double(config, value, k, message);
	return k->func(config, source, key, value, message);
}

gboolean
mapping_tuio_check(const TuioConfig *config, const char **key, char **message)
{
	if (config->push_release >= config->push_depth) {
		*key = "push_release";
		*message = g_strdup_printf("must be less than push_depth (%g), or a hand at the "
		                           "plane would touch and let go at once",
		                           config->push_depth);
		return FALSE;
	}
	if (config->raised_release >= config->raised_height) {
		*key = "raised_release";
		*message = g_strdup_printf("must be less than raised_height (%g)",
		                           config->raised_height);
		return FALSE;
	}
	return TRUE;
}
