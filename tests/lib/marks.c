#include "marks.h"

#include <math.h>
#include <string.h>

#include "tracker/tracker-camera.h"

G_DEFINE_QUARK(skelbridge - marks - error - quark, marks_error)

/* One line of marks, split at its commas. */
typedef struct {
	const char *path;
	guint number; /* from 1 */
	char **columns;
	char **fields;
} MarksLine;

typedef gboolean (*MarksAddFunc)(const MarksLine *line, GPtrArray *out, GError **error);

static void
marks_person_free(MarksPerson *person)
{
	g_free(person->file);
	g_free(person);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC(MarksPerson, marks_person_free)

static void
marks_joint_free(MarksJoint *joint)
{
	g_free(joint->file);
	g_free(joint);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC(MarksJoint, marks_joint_free)

static gboolean marks_fail(const MarksLine *line, GError **error, const char *format, ...)
        G_GNUC_PRINTF(3, 4);

static gboolean
marks_fail(const MarksLine *line, GError **error, const char *format, ...)
{
	g_autofree char *what = NULL;
	va_list args;

	va_start(args, format);
	what = g_strdup_vprintf(format, args);
	va_end(args);
	g_set_error(error, MARKS_ERROR, MARKS_ERROR_PARSE, "%s:%u: %s", line->path, line->number,
	            what);
	return FALSE;
}

static gboolean
marks_int(const MarksLine *line, guint field, int min, int max, int *out, GError **error)
{
	gint64 value;

	*out = min;
	if (!g_ascii_string_to_signed(line->fields[field], 10, min, max, &value, NULL))
		return marks_fail(line, error,
		                  "%s: expected a whole number from %d to %d, got '%s'",
		                  line->columns[field], min, max, line->fields[field]);
	*out = (int)value;
	return TRUE;
}

static gboolean
marks_double(const MarksLine *line, guint field, double min, double max, double *out,
             GError **error)
{
	const char *text = line->fields[field];
	char *end = NULL;
	double value = g_ascii_strtod(text, &end);

	*out = min;
	if (*text == '\0' || *end != '\0' || !isfinite(value) || value < min || value > max)
		return marks_fail(line, error, "%s: expected a number from %g to %g, got '%s'",
		                  line->columns[field], min, max, text);
	*out = value;
	return TRUE;
}

/* The frame's name: a file in the data folder, never a path. */
static gboolean
marks_file(const MarksLine *line, char **out, GError **error)
{
	const char *file = line->fields[0];

	if (*file == '\0' || strchr(file, '/') != NULL)
		return marks_fail(line, error, "%s: expected a file name, got '%s'",
		                  line->columns[0], file);
	*out = g_strdup(file);
	return TRUE;
}

static gboolean
marks_read_line(const MarksLine *line, const char *text, MarksAddFunc add, GPtrArray *out,
                GError **error)
{
	g_auto(GStrv) fields = g_strsplit(text, ",", -1);
	MarksLine split = *line;
	guint want = g_strv_length(line->columns), got = g_strv_length(fields);

	split.fields = fields;
	if (*text == '\0')
		return marks_fail(line, error, "expected %u fields, got an empty line", want);
	if (got != want)
		return marks_fail(line, error, "expected %u fields, got %u", want, got);
	return add(&split, out, error);
}

/* The next line of @lines that is no comment, or NULL at the end; @i is
 * left past it, at its number from 1. */
static const char *
marks_next(char **lines, guint *i)
{
	for (; lines[*i] != NULL; (*i)++) {
		/* the text's last newline ends a line, it starts none */
		if (lines[*i + 1] == NULL && *lines[*i] == '\0')
			return NULL;
		if (lines[*i][0] != '#')
			return lines[(*i)++];
	}
	return NULL;
}

static GPtrArray *
marks_read(const char *path, const char *header, MarksAddFunc add, GDestroyNotify free_func,
           GError **error)
{
	g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func(free_func);
	g_auto(GStrv) columns = g_strsplit(header, ",", -1);
	g_auto(GStrv) lines = NULL;
	g_autofree char *text = NULL;
	MarksLine line = { path, 1, columns, NULL };
	const char *first;
	guint i = 0;

	if (!g_file_get_contents(path, &text, NULL, error))
		return NULL;
	lines = g_strsplit(text, "\n", -1);
	first = marks_next(lines, &i);
	line.number = MAX(i, 1u);
	if (first == NULL || strcmp(first, header) != 0) {
		marks_fail(&line, error, "expected the header '%s', got '%s'", header,
		           first != NULL ? first : "");
		return NULL;
	}
	for (const char *text_line; (text_line = marks_next(lines, &i)) != NULL;) {
		line.number = i;
		if (!marks_read_line(&line, text_line, add, out, error))
			return NULL;
	}
	return g_steal_pointer(&out);
}

/* ---- people ---- */

static gboolean
marks_person_head(const MarksLine *line, MarksPerson *p, GError **error)
{
	gboolean u_empty = *line->fields[6] == '\0', v_empty = *line->fields[7] == '\0';

	if (u_empty && v_empty)
		return TRUE;
	if (u_empty != v_empty)
		return marks_fail(line, error, "head_u, head_v: give both or neither");
	if (!marks_int(line, 6, p->u0, p->u1, &p->head_u, error) ||
	    !marks_int(line, 7, p->v0, p->v1, &p->head_v, error))
		return FALSE;
	p->has_head = TRUE;
	return TRUE;
}

static gboolean
marks_person_box(const MarksLine *line, MarksPerson *p, GError **error)
{
	if (!marks_int(line, 2, 0, TRACKER_DEPTH_WIDTH - 1, &p->u0, error) ||
	    !marks_int(line, 3, 0, TRACKER_DEPTH_HEIGHT - 1, &p->v0, error) ||
	    !marks_int(line, 4, p->u0, TRACKER_DEPTH_WIDTH - 1, &p->u1, error) ||
	    !marks_int(line, 5, p->v0, TRACKER_DEPTH_HEIGHT - 1, &p->v1, error))
		return FALSE;
	return TRUE;
}

static gboolean
marks_add_person(const MarksLine *line, GPtrArray *out, GError **error)
{
	g_autoptr(MarksPerson) p = g_new0(MarksPerson, 1);
	int person;

	if (!marks_file(line, &p->file, error) ||
	    !marks_int(line, 1, 1, MARKS_MAX_PEOPLE, &person, error) ||
	    !marks_person_box(line, p, error) || !marks_person_head(line, p, error))
		return FALSE;
	p->person = (guint)person;
	for (guint i = 0; i < out->len; i++) {
		const MarksPerson *q = g_ptr_array_index(out, i);

		if (q->person == p->person && strcmp(q->file, p->file) == 0)
			return marks_fail(line, error, "person %u of %s is marked twice", p->person,
			                  p->file);
	}
	g_ptr_array_add(out, g_steal_pointer(&p));
	return TRUE;
}

GPtrArray *
marks_read_people(const char *path, GError **error)
{
	return marks_read(path, "file,person,u0,v0,u1,v1,head_u,head_v", marks_add_person,
	                  (GDestroyNotify)marks_person_free, error);
}

guint
marks_people_on(GPtrArray *people, const char *file, const MarksPerson **out)
{
	guint n = 0;

	for (guint i = 0; i < people->len && n < MARKS_MAX_PEOPLE; i++) {
		const MarksPerson *p = g_ptr_array_index(people, i);

		if (strcmp(p->file, file) == 0)
			out[n++] = p;
	}
	return n;
}

/* ---- joints ---- */

static gboolean
marks_joint_name(const MarksLine *line, TrackerJointId *joint, GError **error)
{
	if (!tracker_joint_from_name(line->fields[1], joint))
		return marks_fail(line, error, "%s: expected a joint's name, got '%s'",
		                  line->columns[1], line->fields[1]);
	return TRUE;
}

static gboolean
marks_add_joint(const MarksLine *line, GPtrArray *out, GError **error)
{
	g_autoptr(MarksJoint) m = g_new0(MarksJoint, 1);

	if (!marks_file(line, &m->file, error) || !marks_joint_name(line, &m->joint, error) ||
	    !marks_double(line, 2, 0.0, TRACKER_DEPTH_WIDTH - 1, &m->u, error) ||
	    !marks_double(line, 3, 0.0, TRACKER_DEPTH_HEIGHT - 1, &m->v, error) ||
	    !marks_double(line, 4, 1.0, 10000.0, &m->z_surface_mm, error) ||
	    !marks_double(line, 5, 0.0, TRACKER_DEPTH_WIDTH, &m->uncertainty_px, error))
		return FALSE;
	for (guint i = 0; i < out->len; i++) {
		const MarksJoint *q = g_ptr_array_index(out, i);

		if (q->joint == m->joint && strcmp(q->file, m->file) == 0)
			return marks_fail(line, error, "%s of %s is marked twice",
			                  tracker_joint_name(m->joint), m->file);
	}
	g_ptr_array_add(out, g_steal_pointer(&m));
	return TRUE;
}

GPtrArray *
marks_read_joints(const char *path, GError **error)
{
	return marks_read(path, "file,joint,u,v,z_surface_mm,uncertainty_px", marks_add_joint,
	                  (GDestroyNotify)marks_joint_free, error);
}

TrackerVec3
marks_joint_position(const MarksJoint *mark)
{
	TrackerCamera camera;

	tracker_camera_init_kinect(&camera);
	return tracker_camera_unproject(&camera, mark->u, mark->v,
	                                mark->z_surface_mm + MARKS_JOINT_DEPTH_MM);
}
