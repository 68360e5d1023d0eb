/* The room file: the model, its strict parser and its writer, and the
 * sensor-to-room transform.
 *
 * The parser reads line by line, one section at a time, and checks each
 * value as it comes, so that every error carries the line that holds what
 * is wrong. Line numbers start at 1. The mapping parser is not reused:
 * its sections and keys are the mapping's, and a room file is small. */
#include "room.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "base/datafile.h"

/* The formatter would space the quark's name out as a subtraction. */
/* clang-format off */
G_DEFINE_QUARK(skelbridge-room-error-quark, room_error)
/* clang-format on */

struct _Room {
	RoomSensor sensors[ROOM_MAX_SENSORS];
	guint n_sensors;
};

/* The numeric keys of [sensor NAME], in the order they are written. */
typedef struct {
	const char *key;
	glong offset; /* of the double in RoomSensor */
	double min, max;
	gboolean required;
	const char *format; /* for writing: mm to 0.1, degrees to 0.01 */
} RoomNumber;

static const RoomNumber room_numbers[] = {
	{ "x", G_STRUCT_OFFSET(RoomSensor, x_mm), -ROOM_MAX_FLOOR_MM, ROOM_MAX_FLOOR_MM, FALSE,
	  "%.1f" },
	{ "z", G_STRUCT_OFFSET(RoomSensor, z_mm), -ROOM_MAX_FLOOR_MM, ROOM_MAX_FLOOR_MM, FALSE,
	  "%.1f" },
	{ "height", G_STRUCT_OFFSET(RoomSensor, height_mm), 200.0, 4000.0, TRUE, "%.1f" },
	{ "yaw", G_STRUCT_OFFSET(RoomSensor, yaw_deg), -180.0, 180.0, FALSE, "%.2f" },
	{ "tilt", G_STRUCT_OFFSET(RoomSensor, tilt_deg), -60.0, 60.0, TRUE, "%.2f" },
	{ "roll", G_STRUCT_OFFSET(RoomSensor, roll_deg), -45.0, 45.0, TRUE, "%.2f" },
};

#define N_ROOM_NUMBERS G_N_ELEMENTS(room_numbers)
#define ROOM_KEY_LIST  "source, x, z, height, yaw, tilt and roll"
#define ROOM_HEADER    "# skelbridge room: where each sensor stands\n"

static double *
room_number_at(RoomSensor *s, const RoomNumber *k)
{
	return &G_STRUCT_MEMBER(double, s, k->offset);
}

static double
room_number_get(const RoomSensor *s, const RoomNumber *k)
{
	return G_STRUCT_MEMBER(double, s, k->offset);
}

/* ---- the model ---- */

Room *
room_new(void)
{
	return g_new0(Room, 1);
}

void
room_free(Room *room)
{
	if (room == NULL)
		return;
	for (guint i = 0; i < room->n_sensors; i++) {
		g_free(room->sensors[i].name);
		g_free(room->sensors[i].source);
	}
	g_free(room);
}

static gboolean
room_name_valid(const char *name)
{
	if (name == NULL || *name == '\0')
		return FALSE;
	for (const char *c = name; *c != '\0'; c++) {
		if (!g_ascii_isalnum(*c) && *c != '-' && *c != '_')
			return FALSE;
	}
	return TRUE;
}

/* A source must come back the same from the file: no line breaks, nothing
 * the parser would trim. */
static gboolean
room_source_valid(const char *source)
{
	gsize len = source ? strlen(source) : 0;

	if (len == 0 || g_ascii_isspace(source[0]) || g_ascii_isspace(source[len - 1]))
		return FALSE;
	for (gsize i = 0; i < len; i++) {
		if (g_ascii_iscntrl(source[i]))
			return FALSE;
	}
	return TRUE;
}

/* Numbers in messages are written the same whatever the locale. */
static const char *
room_number_text(char buf[G_ASCII_DTOSTR_BUF_SIZE], double value)
{
	return g_ascii_formatd(buf, G_ASCII_DTOSTR_BUF_SIZE, "%g", value);
}

static gboolean
room_check_number(const char *name, const RoomNumber *k, double value, GError **error)
{
	char v[G_ASCII_DTOSTR_BUF_SIZE], lo[G_ASCII_DTOSTR_BUF_SIZE], hi[G_ASCII_DTOSTR_BUF_SIZE];

	if (isfinite(value) && value >= k->min && value <= k->max)
		return TRUE;
	g_set_error(error, ROOM_ERROR, ROOM_ERROR_PARSE,
	            "[sensor %s] %s: %s is out of range: from %s to %s", name, k->key,
	            room_number_text(v, value), room_number_text(lo, k->min),
	            room_number_text(hi, k->max));
	return FALSE;
}

static gboolean
room_check_sensor(const RoomSensor *s, GError **error)
{
	if (!room_name_valid(s->name)) {
		g_set_error(error, ROOM_ERROR, ROOM_ERROR_PARSE,
		            "bad name '%s' in [sensor ...]: use letters, digits, '_' and '-'",
		            s->name ? s->name : "");
		return FALSE;
	}
	if (!room_source_valid(s->source)) {
		g_set_error(
		        error, ROOM_ERROR, ROOM_ERROR_PARSE,
		        "[sensor %s] source: '%s' is no source: one line, nothing blank around it",
		        s->name, s->source ? s->source : "");
		return FALSE;
	}
	for (guint k = 0; k < N_ROOM_NUMBERS; k++) {
		if (!room_check_number(s->name, &room_numbers[k],
		                       room_number_get(s, &room_numbers[k]), error))
			return FALSE;
	}
	return TRUE;
}

static const RoomSensor *
room_find_name(const Room *room, const char *name)
{
	for (guint i = 0; i < room->n_sensors; i++) {
		if (strcmp(room->sensors[i].name, name) == 0)
			return &room->sensors[i];
	}
	return NULL;
}

/* A name is how a section, and a person editing the file, finds one
 * sensor; and one source placed twice would put one view in two places. */
static gboolean
room_check_fits(const Room *room, const RoomSensor *s, GError **error)
{
	const RoomSensor *other;

	if (room->n_sensors == ROOM_MAX_SENSORS) {
		g_set_error(error, ROOM_ERROR, ROOM_ERROR_PARSE,
		            "[sensor %s]: more than %d sensors; a room holds at most %d", s->name,
		            ROOM_MAX_SENSORS, ROOM_MAX_SENSORS);
		return FALSE;
	}
	if (room_find_name(room, s->name) != NULL) {
		g_set_error(error, ROOM_ERROR, ROOM_ERROR_PARSE,
		            "[sensor %s]: the room has a sensor of that name already", s->name);
		return FALSE;
	}
	if ((other = room_find_source(room, s->source)) != NULL) {
		g_set_error(error, ROOM_ERROR, ROOM_ERROR_PARSE,
		            "[sensor %s] source: %s is [sensor %s]'s already", s->name, s->source,
		            other->name);
		return FALSE;
	}
	return TRUE;
}

gboolean
room_add_sensor(Room *room, const RoomSensor *sensor, GError **error)
{
	RoomSensor *s;

	g_return_val_if_fail(room != NULL && sensor != NULL, FALSE);

	if (!room_check_sensor(sensor, error) || !room_check_fits(room, sensor, error))
		return FALSE;
	s = &room->sensors[room->n_sensors++];
	*s = *sensor;
	s->name = g_strdup(sensor->name);
	s->source = g_strdup(sensor->source);
	return TRUE;
}

guint
room_n_sensors(const Room *room)
{
	g_return_val_if_fail(room != NULL, 0);

	return room->n_sensors;
}

const RoomSensor *
room_get_sensor(const Room *room, guint i)
{
	g_return_val_if_fail(room != NULL && i < room->n_sensors, NULL);

	return &room->sensors[i];
}

const RoomSensor *
room_find_source(const Room *room, const char *source)
{
	g_return_val_if_fail(room != NULL && source != NULL, NULL);

	for (guint i = 0; i < room->n_sensors; i++) {
		if (strcmp(room->sensors[i].source, source) == 0)
			return &room->sensors[i];
	}
	return NULL;
}

/* ---- the transform ---- */

void
room_sensor_camera_pose(const RoomSensor *s, TrackerCameraPose *pose)
{
	pose->floor = TRACKER_FLOOR_ASSUMED;
	pose->height_mm = s->height_mm;
	pose->tilt_deg = s->tilt_deg;
	pose->roll_deg = s->roll_deg;
}

/* Camera space to the sensor's floor frame, by the tracker's own rule, so
 * that a room point and the tracker's floor heights never disagree. */
static TrackerVec3
room_sensor_to_floor(const RoomSensor *s, TrackerVec3 camera)
{
	TrackerCameraPose pose;
	TrackerVec3 floor;

	room_sensor_camera_pose(s, &pose);
	tracker_camera_pose_to_room(&pose, camera, &floor);
	return floor;
}

TrackerVec3
room_sensor_to_room(const RoomSensor *s, TrackerVec3 camera)
{
	TrackerVec3 f = room_sensor_to_floor(s, camera);
	double yaw = s->yaw_deg * G_PI / 180.0, c = cos(yaw), n = sin(yaw);

	/* The floor frame's x (the sensor's right) turns to (cos, -sin) in
	 * (x, z), its z (the view) to (sin, cos). */
	return tracker_vec3(s->x_mm + f.x * c + f.z * n, f.y, s->z_mm - f.x * n + f.z * c);
}

/* The floor frame is the camera's turned and lifted: the images of the
 * camera's axes, less the lift, are the rotation's columns, and its
 * inverse is its transpose. */
TrackerVec3
room_sensor_to_camera(const RoomSensor *s, TrackerVec3 room)
{
	double yaw = s->yaw_deg * G_PI / 180.0, c = cos(yaw), n = sin(yaw);
	double dx = room.x - s->x_mm, dz = room.z - s->z_mm;
	TrackerVec3 lift = room_sensor_to_floor(s, tracker_vec3(0, 0, 0));
	TrackerVec3 f =
	        tracker_vec3_sub(tracker_vec3(dx * c - dz * n, room.y, dx * n + dz * c), lift);
	TrackerVec3 ax = tracker_vec3_sub(room_sensor_to_floor(s, tracker_vec3(1, 0, 0)), lift);
	TrackerVec3 ay = tracker_vec3_sub(room_sensor_to_floor(s, tracker_vec3(0, 1, 0)), lift);
	TrackerVec3 az = tracker_vec3_sub(room_sensor_to_floor(s, tracker_vec3(0, 0, 1)), lift);

	return tracker_vec3(tracker_vec3_dot(ax, f), tracker_vec3_dot(ay, f),
	                    tracker_vec3_dot(az, f));
}

/* ---- the parser ---- */

typedef enum {
	ROOM_SECTION_NONE,
	ROOM_SECTION_ROOM,
	ROOM_SECTION_SENSOR,
} RoomSectionType;

typedef struct {
	const char *path;
	Room *room;
	RoomSectionType section; /* the one being read */
	guint room_line, format_line;
	/* The sensor being read, with the line of each key (0: not yet):
	 * source's first, then room_numbers' */
	RoomSensor sensor;
	guint sensor_line;
	guint key_lines[1 + N_ROOM_NUMBERS];
	/* For messages about the sensors read: their sections' and sources' lines */
	guint sensor_lines[ROOM_MAX_SENSORS], source_lines[ROOM_MAX_SENSORS];
} RoomParser;

static gboolean room_parser_fail(const RoomParser *p, guint line, GError **error,
                                 const char *format, ...) G_GNUC_PRINTF(4, 5);

/* Returns FALSE, for "return room_parser_fail(...)". */
static gboolean
room_parser_fail(const RoomParser *p, guint line, GError **error, const char *format, ...)
{
	g_autofree char *what = NULL;
	va_list args;

	va_start(args, format);
	what = g_strdup_vprintf(format, args);
	va_end(args);
	g_set_error(error, ROOM_ERROR, ROOM_ERROR_PARSE, "%s:%u: %s", p->path, line, what);
	return FALSE;
}

/* For the checks the model makes: their message, at @line. */
static gboolean
room_parser_at(const RoomParser *p, guint line, GError **error)
{
	g_prefix_error(error, "%s:%u: ", p->path, line);
	return FALSE;
}

static void
room_parser_clear_sensor(RoomParser *p)
{
	g_clear_pointer(&p->sensor.name, g_free);
	g_clear_pointer(&p->sensor.source, g_free);
	memset(&p->sensor, 0, sizeof(p->sensor));
	memset(p->key_lines, 0, sizeof(p->key_lines));
}

static gboolean
room_parser_end_room(RoomParser *p, GError **error)
{
	if (p->format_line == 0)
		return room_parser_fail(p, p->room_line, error, "[room]: missing key 'format'");
	return TRUE;
}

static gboolean
room_parser_end_sensor(RoomParser *p, GError **error)
{
	guint n = p->room->n_sensors;

	if (p->key_lines[0] == 0)
		return room_parser_fail(p, p->sensor_line, error,
		                        "[sensor %s]: missing key 'source'", p->sensor.name);
	for (guint k = 0; k < N_ROOM_NUMBERS; k++) {
		if (room_numbers[k].required && p->key_lines[1 + k] == 0)
			return room_parser_fail(p, p->sensor_line, error,
			                        "[sensor %s]: missing key '%s'", p->sensor.name,
			                        room_numbers[k].key);
	}
	if (!room_add_sensor(p->room, &p->sensor, error))
		return room_parser_at(p, p->sensor_line, error);
	p->sensor_lines[n] = p->sensor_line;
	p->source_lines[n] = p->key_lines[0];
	room_parser_clear_sensor(p);
	return TRUE;
}

/* The section read so far is whole: its required keys are there. */
static gboolean
room_parser_end_section(RoomParser *p, GError **error)
{
	switch (p->section) {
	case ROOM_SECTION_NONE:
		return TRUE;
	case ROOM_SECTION_ROOM:
		return room_parser_end_room(p, error);
	case ROOM_SECTION_SENSOR:
		return room_parser_end_sensor(p, error);
	}
	g_assert_not_reached();
}

static gboolean
room_parser_start_room(RoomParser *p, guint line, GError **error)
{
	if (p->room_line != 0)
		return room_parser_fail(p, line, error,
		                        "duplicate section [room] (first at line %u)",
		                        p->room_line);
	p->section = ROOM_SECTION_ROOM;
	p->room_line = line;
	return TRUE;
}

static gboolean
room_parser_start_sensor(RoomParser *p, guint line, const char *name, GError **error)
{
	const RoomSensor *first;

	if (!room_name_valid(name))
		return room_parser_fail(
		        p, line, error,
		        "bad name '%s' in [sensor ...]: use letters, digits, '_' and '-'", name);
	if ((first = room_find_name(p->room, name)) != NULL)
		return room_parser_fail(p, line, error,
		                        "duplicate section [sensor %s] (first at line %u)", name,
		                        p->sensor_lines[first - p->room->sensors]);
	if (p->room->n_sensors == ROOM_MAX_SENSORS)
		return room_parser_fail(
		        p, line, error,
		        "[sensor %s]: more than %d sensors; a room holds at most %d", name,
		        ROOM_MAX_SENSORS, ROOM_MAX_SENSORS);
	p->section = ROOM_SECTION_SENSOR;
	p->sensor_line = line;
	p->sensor.name = g_strdup(name);
	return TRUE;
}

/* "[room]" or "[sensor NAME]", after the section before it is checked. */
static gboolean
room_parser_section(RoomParser *p, guint line, const char *text, GError **error)
{
	gsize len = strlen(text);
	g_autofree char *inside = NULL;

	if (text[len - 1] != ']')
		return room_parser_fail(p, line, error, "'%s': a section header ends with ']'",
		                        text);
	inside = g_strndup(text + 1, len - 2);
	if (!room_parser_end_section(p, error))
		return FALSE;
	if (strcmp(inside, "room") == 0)
		return room_parser_start_room(p, line, error);
	if (g_str_has_prefix(inside, "room "))
		return room_parser_fail(p, line, error, "[room] takes no name");
	if (p->room_line == 0)
		return room_parser_fail(p, line, error, "a room file starts with a [room] section");
	if (g_str_has_prefix(inside, "sensor "))
		return room_parser_start_sensor(p, line, inside + strlen("sensor "), error);
	if (strcmp(inside, "sensor") == 0)
		return room_parser_fail(p, line, error, "[sensor] needs a name: [sensor NAME]");
	return room_parser_fail(p, line, error,
	                        "unknown section [%s]; sections are [room] and [sensor NAME]",
	                        inside);
}

static gboolean
room_parser_format(RoomParser *p, guint line, const char *key, const char *value, GError **error)
{
	if (strcmp(key, "format") != 0)
		return room_parser_fail(p, line, error, "[room] %s: unknown key; keys are format",
		                        key);
	if (p->format_line != 0)
		return room_parser_fail(p, line, error,
		                        "[room] format: duplicate key (first at line %u)",
		                        p->format_line);
	if (strcmp(value, "1") != 0)
		return room_parser_fail(p, line, error,
		                        "[room] format: expected 1, got '%s' (a newer skelbridge's "
		                        "room?)",
		                        value);
	p->format_line = line;
	return TRUE;
}

static gboolean
room_parser_source(RoomParser *p, guint line, const char *value, GError **error)
{
	const RoomSensor *other = room_find_source(p->room, value);

	if (!room_source_valid(value))
		return room_parser_fail(p, line, error,
		                        "[sensor %s] source: '%s' is no source: one line without "
		                        "control characters",
		                        p->sensor.name, value);
	if (other != NULL)
		return room_parser_fail(p, line, error,
		                        "[sensor %s] source: %s is [sensor %s]'s already (line %u)",
		                        p->sensor.name, value, other->name,
		                        p->source_lines[other - p->room->sensors]);
	p->sensor.source = g_strdup(value);
	return TRUE;
}

/* The whole value a finite number, in the key's range. */
static gboolean
room_parser_number(RoomParser *p, guint line, const RoomNumber *k, const char *value,
                   GError **error)
{
	char *end;
	double number = g_ascii_strtod(value, &end);

	if (*end != '\0' || end == value || !isfinite(number))
		return room_parser_fail(p, line, error,
		                        "[sensor %s] %s: expected a number, got '%s'",
		                        p->sensor.name, k->key, value);
	if (!room_check_number(p->sensor.name, k, number, error))
		return room_parser_at(p, line, error);
	*room_number_at(&p->sensor, k) = number;
	return TRUE;
}

/* Index into key_lines: 0 for source, 1 + the number's; -1 if unknown. */
static int
room_parser_sensor_key(const char *key)
{
	if (strcmp(key, "source") == 0)
		return 0;
	for (guint k = 0; k < N_ROOM_NUMBERS; k++) {
		if (strcmp(key, room_numbers[k].key) == 0)
			return 1 + (int)k;
	}
	return -1;
}

static gboolean
room_parser_sensor_entry(RoomParser *p, guint line, const char *key, const char *value,
                         GError **error)
{
	int k = room_parser_sensor_key(key);
	gboolean ok;

	if (k < 0)
		return room_parser_fail(p, line, error, "[sensor %s] %s: unknown key; keys are %s",
		                        p->sensor.name, key, ROOM_KEY_LIST);
	if (p->key_lines[k] != 0)
		return room_parser_fail(p, line, error,
		                        "[sensor %s] %s: duplicate key (first at line %u)",
		                        p->sensor.name, key, p->key_lines[k]);
	ok = k == 0 ? room_parser_source(p, line, value, error)
	            : room_parser_number(p, line, &room_numbers[k - 1], value, error);
	if (ok)
		p->key_lines[k] = line;
	return ok;
}

static gboolean
room_parser_key_valid(const char *key)
{
	if (*key == '\0')
		return FALSE;
	for (const char *c = key; *c != '\0'; c++) {
		if (!g_ascii_islower(*c) && !g_ascii_isdigit(*c) && *c != '_')
			return FALSE;
	}
	return TRUE;
}

/* "[room]" or "[sensor NAME]", for messages. */
static char *
room_parser_title(const RoomParser *p)
{
	if (p->section == ROOM_SECTION_ROOM)
		return g_strdup("[room]");
	return g_strdup_printf("[sensor %s]", p->sensor.name);
}

/* "key = value", spaces around either trimmed. */
static gboolean
room_parser_entry(RoomParser *p, guint line, const char *text, GError **error)
{
	const char *eq = strchr(text, '=');
	g_autofree char *key = NULL;
	g_autofree char *value = NULL;

	if (eq != NULL) {
		key = g_strstrip(g_strndup(text, eq - text));
		value = g_strstrip(g_strdup(eq + 1));
	}
	if (key == NULL || !room_parser_key_valid(key))
		return room_parser_fail(p, line, error,
		                        "expected [SECTION], 'key = value', a # comment or a blank "
		                        "line, got '%s'",
		                        text);
	if (p->section == ROOM_SECTION_NONE)
		return room_parser_fail(p, line, error, "a room file starts with a [room] section");
	if (*value == '\0') {
		g_autofree char *title = room_parser_title(p);

		return room_parser_fail(p, line, error, "%s %s: no value", title, key);
	}
	if (p->section == ROOM_SECTION_ROOM)
		return room_parser_format(p, line, key, value, error);
	return room_parser_sensor_entry(p, line, key, value, error);
}

static gboolean
room_parser_line(RoomParser *p, guint line, char *text, GError **error)
{
	g_strstrip(text);
	if (*text == '\0' || *text == '#')
		return TRUE;
	if (*text == '[')
		return room_parser_section(p, line, text, error);
	return room_parser_entry(p, line, text, error);
}

static guint
room_parser_line_at(const char *text, const char *at)
{
	guint line = 1;

	for (const char *c = text; c < at; c++)
		line += *c == '\n';
	return line;
}

/* A NUL would end the line early and hide what follows it. */
static gboolean
room_parser_check_text(RoomParser *p, const char *text, gsize length, GError **error)
{
	const char *nul = memchr(text, '\0', length);
	const char *bad;

	if (nul != NULL)
		return room_parser_fail(p, room_parser_line_at(text, nul), error,
		                        "a NUL byte: not a text file");
	if (!g_utf8_validate_len(text, length, &bad))
		return room_parser_fail(p, room_parser_line_at(text, bad), error,
		                        "not UTF-8 text (a binary file, or another encoding?)");
	return TRUE;
}

static gboolean
room_parser_lines(RoomParser *p, const char *text, gsize length, GError **error)
{
	const char *end = text + length;
	guint line = 1;

	for (const char *start = text; start < end; line++) {
		const char *nl = memchr(start, '\n', end - start);
		g_autofree char *content = g_strndup(start, (nl ? nl : end) - start);

		if (!room_parser_line(p, line, content, error))
			return FALSE;
		start = nl ? nl + 1 : end;
	}
	return TRUE;
}

/* What only the end of the file shows. */
static gboolean
room_parser_finish(RoomParser *p, GError **error)
{
	if (p->room_line == 0)
		return room_parser_fail(p, 1, error, "a room file starts with a [room] section");
	if (!room_parser_end_section(p, error))
		return FALSE;
	if (p->room->n_sensors == 0)
		return room_parser_fail(p, p->room_line, error,
		                        "no [sensor NAME] section: the room places no sensor");
	return TRUE;
}

Room *
room_parse(const char *path, const char *text, gsize length, GError **error)
{
	g_autoptr(Room) room = room_new();
	RoomParser p = { 0 };
	gboolean ok;

	g_return_val_if_fail(path != NULL && (text != NULL || length == 0), NULL);

	p.path = path;
	p.room = room;
	ok = room_parser_check_text(&p, text, length, error) &&
	     room_parser_lines(&p, text, length, error) && room_parser_finish(&p, error);
	room_parser_clear_sensor(&p);
	return ok ? g_steal_pointer(&room) : NULL;
}

Room *
room_load(const char *path, GError **error)
{
	g_autoptr(GError) local = NULL;
	g_autofree char *text = NULL;
	gsize length;

	if (!datafile_read(path, ROOM_MAX_BYTES, &text, &length, &local)) {
		g_set_error(error, ROOM_ERROR, ROOM_ERROR_READ, "%s", local->message);
		return NULL;
	}
	return room_parse(path, text, length, error);
}

/* ---- the writer ---- */

static void
room_write_comment(GString *out, const char *comment)
{
	g_auto(GStrv) lines = NULL;

	if (comment == NULL)
		return;
	lines = g_strsplit(comment, "\n", -1);
	for (guint i = 0; lines[i] != NULL; i++) {
		/* "text\n" is one line, not one and an empty one. */
		if (lines[i + 1] == NULL && *lines[i] == '\0')
			break;
		g_string_append_printf(out, *lines[i] ? "# %s\n" : "#%s\n", lines[i]);
	}
}

static void
room_write_sensor(GString *out, const RoomSensor *s)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];

	g_string_append_printf(out, "\n[sensor %s]\nsource = %s\n", s->name, s->source);
	for (guint k = 0; k < N_ROOM_NUMBERS; k++) {
		const RoomNumber *n = &room_numbers[k];

		g_string_append_printf(
		        out, "%s = %s\n", n->key,
		        g_ascii_formatd(buf, sizeof(buf), n->format, room_number_get(s, n)));
	}
}

char *
room_to_string(const Room *room, const char *comment)
{
	GString *out;

	g_return_val_if_fail(room != NULL, NULL);

	out = g_string_new(ROOM_HEADER);
	room_write_comment(out, comment);
	g_string_append(out, "[room]\nformat = 1\n");
	for (guint i = 0; i < room->n_sensors; i++)
		room_write_sensor(out, &room->sensors[i]);
	return g_string_free(out, FALSE);
}

gboolean
room_save(const Room *room, const char *path, const char *comment, GError **error)
{
	g_autofree char *text = room_to_string(room, comment);
	g_autoptr(GError) local = NULL;

	if (g_file_set_contents(path, text, -1, &local))
		return TRUE;
	g_set_error(error, ROOM_ERROR, ROOM_ERROR_WRITE, "%s: cannot save the room: %s", path,
	            local->message);
	return FALSE;
}
