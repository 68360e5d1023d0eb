/* End to end: the skelbridge binary sends to a liblo server inside the
 * test. Every expected message arrives with the right values; dead targets
 * do not stop the bridge; a TCP receiver that comes back is reconnected;
 * a mapping file edited while running is reloaded, or kept when the edit
 * is broken. */
#include <errno.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <math.h>
#include <pty.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <stdio.h>
#include <string.h>

#include "childproc.h"
#include "mapping/mapping-file.h"
#include "mapping/mapping.h"
#include "oscsink.h"
#include "testutil.h"

#define WAIT_MS 10000

/* ---- what should arrive ---- */

typedef struct {
	char *path;
	char *types;
	char *string;   /* the 's' argument, if any */
	GArray *values; /* double: every 'i' and 'f' argument in order */
} Expected;

static void
expected_free(gpointer data)
{
	Expected *e = data;

	g_free(e->path);
	g_free(e->types);
	g_free(e->string);
	g_array_unref(e->values);
	g_free(e);
}

/* Adds a message; @types says how many doubles (or one string) follow. */
static void
expect(GPtrArray *list, const char *path, const char *types, ...)
{
	Expected *e = g_new0(Expected, 1);
	va_list args;

	e->path = g_strdup(path);
	e->types = g_strdup(types);
	e->values = g_array_new(FALSE, FALSE, sizeof(double));
	va_start(args, types);
	for (const char *t = types; *t != '\0'; t++) {
		double value;

		if (*t == 's') {
			e->string = g_strdup(va_arg(args, const char *));
			continue;
		}
		value = va_arg(args, double);
		g_array_append_val(e->values, value);
	}
	va_end(args);
	g_ptr_array_add(list, e);
}

static gboolean
expected_matches(const Expected *e, const OscSinkMessage *m)
{
	guint v = 0;

	if (strcmp(e->path, m->path) != 0 || strcmp(e->types, m->types) != 0)
		return FALSE;
	for (guint k = 0; k < m->n_args; k++) {
		const OscSinkArg *arg = &m->args[k];
		double want;

		if (arg->type == 's') {
			if (g_strcmp0(arg->s, e->string) != 0)
				return FALSE;
			continue;
		}
		want = g_array_index(e->values, double, v++);
		if (fabs((arg->type == 'i' ? arg->i : arg->f) - want) > 1e-5)
			return FALSE;
	}
	return TRUE;
}

/* Every expected message arrived, and nothing else. */
static void
assert_received(GPtrArray *expected, GPtrArray *received)
{
	g_autofree gboolean *used = g_new0(gboolean, received->len + 1);

	for (guint i = 0; i < expected->len; i++) {
		const Expected *e = g_ptr_array_index(expected, i);
		guint k = 0;

		while (k < received->len &&
		       (used[k] || !expected_matches(e, g_ptr_array_index(received, k))))
			k++;
		if (k == received->len)
			g_error("expected %s ,%s %s%s%g... did not arrive", e->path, e->types,
			        e->string ? e->string : "", e->string ? " " : "",
			        e->values->len ? g_array_index(e->values, double, 0) : 0.0);
		used[k] = TRUE;
	}
	g_assert_cmpuint(received->len, ==, expected->len);
}

static gboolean
ids_have(const GArray *ids, guint id)
{
	for (guint i = 0; i < ids->len; i++) {
		if (g_array_index(ids, guint, i) == id)
			return TRUE;
	}
	return FALSE;
}

/* Users who come and go, as @prefix/new_user ID and @prefix/lost_user ID. */
static void
expect_arrivals(GPtrArray *list, const char *prefix, const TrackerFrame *frame, GArray *known)
{
	g_autofree char *new_user = g_strconcat(prefix, "/new_user", NULL);
	g_autofree char *lost_user = g_strconcat(prefix, "/lost_user", NULL);

	for (guint u = 0; u < frame->n_users; u++) {
		if (!ids_have(known, frame->users[u].id))
			expect(list, new_user, "i", (double)frame->users[u].id);
	}
	for (guint i = 0; i < known->len; i++) {
		if (tracker_frame_find_user(frame, g_array_index(known, guint, i)) == NULL)
			expect(list, lost_user, "i", (double)g_array_index(known, guint, i));
	}
	g_array_set_size(known, 0);
	for (guint u = 0; u < frame->n_users; u++)
		g_array_append_val(known, frame->users[u].id);
}

/* ---- running the bridge ---- */

static GPtrArray *
run_to_sink(const char *scene, guint frames, const char *mapping, guint n_expected)
{
	g_autoptr(OscSink) sink = osc_sink_new(FALSE, 0);
	g_autofree char *url = osc_sink_url(sink);
	g_autofree char *source = g_strconcat("demo:", scene, NULL);
	g_autofree char *n = g_strdup_printf("%u", frames);
	const char *args[] = { "run",      "--skeletons", "truth", "--source",  source,
		               "--fast",   "--frames",    n,       "--mapping", mapping,
		               "--target", url,           NULL };
	g_autoptr(ChildProc) proc = child_proc_start(args);

	g_assert_cmpint(child_proc_wait(proc, 60000), ==, 0);
	osc_sink_wait_count(sink, n_expected, WAIT_MS);
	/* Anything more would be a mistake: give it the time to show. */
	g_usleep(200000);
	return osc_sink_take(sink);
}

/* OSCeleton's messages for the crowd scene, as OSCeleton would send them. */
static void
test_osceleton_end_to_end(void)
{
	static const char *const names[TRACKER_N_JOINTS] = {
		"head",    "neck",    "torso",  "l_shoulder", "r_shoulder",
		"l_elbow", "r_elbow", "l_hand", "r_hand",     "l_hip",
		"r_hip",   "l_knee",  "r_knee", "l_foot",     "r_foot",
	};
	const guint n = 30;
	g_autofree TrackerFrame *frames = testutil_scene_frames("crowd", n);
	g_autoptr(GPtrArray) expected = g_ptr_array_new_with_free_func(expected_free);
	g_autoptr(GArray) known = g_array_new(FALSE, FALSE, sizeof(guint));
	g_autoptr(GArray) skeletons = g_array_new(FALSE, FALSE, sizeof(guint));
	g_autoptr(GPtrArray) received = NULL;

	for (guint k = 0; k < n; k++) {
		expect_arrivals(expected, "", &frames[k], known);
		for (guint u = 0; u < frames[k].n_users; u++) {
			const TrackerUser *user = &frames[k].users[u];

			if (!ids_have(skeletons, user->id) && testutil_user_complete(user)) {
				expect(expected, "/new_skel", "i", (double)user->id);
				g_array_append_val(skeletons, user->id);
			}
			for (guint j = 0; j < TRACKER_N_JOINTS; j++) {
				const TrackerVec3 *p = &user->joints[j].position;

				if (testutil_joint_found(&user->joints[j]))
					expect(expected, "/joint", "sifff", names[j],
					       (double)user->id, (1280 - p->x) / 2560,
					       (960 - p->y) / 1920, p->z / 1280);
			}
		}
	}
	g_assert_cmpuint(expected->len, >, n * 2 * TRACKER_N_JOINTS);
	received = run_to_sink("crowd", n, "osceleton", expected->len);
	assert_received(expected, received);
}

/* The default mapping's count: on a change, and at least every second. */
static void
expect_count(GPtrArray *list, const TrackerFrame *frame, gint *last_count, gint64 *last_us)
{
	if ((gint)frame->n_users == *last_count && frame->time_us - *last_us < G_USEC_PER_SEC)
		return;
	expect(list, "/skel/users", "i", (double)frame->n_users);
	*last_count = (gint)frame->n_users;
	*last_us = frame->time_us;
}

static void
expect_default_user(GPtrArray *list, const TrackerUser *user)
{
	double all[3 * TRACKER_N_JOINTS];

	for (guint j = 0; j < TRACKER_N_JOINTS; j++) {
		const TrackerJoint *joint = &user->joints[j];
		g_autofree char *path =
		        g_strdup_printf("/skel/user%u/%s", user->id, tracker_joint_name(j));

		all[3 * j] = -joint->position.x / 1000;
		all[3 * j + 1] = joint->position.y / 1000;
		all[3 * j + 2] = joint->position.z / 1000;
		if (testutil_joint_found(joint))
			expect(list, path, "ffff", all[3 * j], all[3 * j + 1], all[3 * j + 2],
			       joint->confidence);
	}
	if (!testutil_user_complete(user))
		return;
	/* 1 id and 45 floats: spelt out, as va_args needs them. */
	expect(list, "/skel/skeleton", "ifffffffffffffffffffffffffffffffffffffffffffff",
	       (double)user->id, all[0], all[1], all[2], all[3], all[4], all[5], all[6], all[7],
	       all[8], all[9], all[10], all[11], all[12], all[13], all[14], all[15], all[16],
	       all[17], all[18], all[19], all[20], all[21], all[22], all[23], all[24], all[25],
	       all[26], all[27], all[28], all[29], all[30], all[31], all[32], all[33], all[34],
	       all[35], all[36], all[37], all[38], all[39], all[40], all[41], all[42], all[43],
	       all[44]);
}

/* The default mapping for people walking across the view and out of it. */
static void
test_default_end_to_end(void)
{
	/* Nobody, then someone walking in, in full view from frame 42 on. */
	const guint n = 60;
	g_autofree TrackerFrame *frames = testutil_scene_frames("walk", n);
	g_autoptr(GPtrArray) expected = g_ptr_array_new_with_free_func(expected_free);
	g_autoptr(GArray) known = g_array_new(FALSE, FALSE, sizeof(guint));
	g_autoptr(GPtrArray) received = NULL;
	gint last_count = -1;
	gint64 last_us = 0;

	for (guint k = 0; k < n; k++) {
		expect_arrivals(expected, "/skel", &frames[k], known);
		expect_count(expected, &frames[k], &last_count, &last_us);
		for (guint u = 0; u < frames[k].n_users; u++)
			expect_default_user(expected, &frames[k].users[u]);
	}
	g_assert_cmpuint(expected->len, >, 400);
	received = run_to_sink("walk", n, "default", expected->len);
	assert_received(expected, received);
}

/* What the tracker's walker sends through @mapping: the ids of
 * /skel/new_user and /skel/lost_user, and the user{N} of every
 * /skel/userN/JOINT, in order, as "new 1 lost 1 new 2 user 1 user 2". */
static char *
walker_ids(const char *mapping)
{
	g_autoptr(OscSink) sink = osc_sink_new(FALSE, 0);
	g_autofree char *url = osc_sink_url(sink);
	const char *args[] = { "run",       "--source", "demo:walk", "--fast", "--frames", "320",
		               "--mapping", mapping,    "--target",  url,      NULL };
	g_autoptr(ChildProc) proc = child_proc_start(args);
	g_autoptr(GPtrArray) received = NULL;
	g_autoptr(GString) events = g_string_new(NULL);
	g_autoptr(GString) users = g_string_new(NULL);
	guint last_user = 0;

	g_assert_cmpint(child_proc_wait(proc, 60000), ==, 0);
	g_usleep(200000);
	received = osc_sink_take(sink);
	for (guint i = 0; i < received->len; i++) {
		OscSinkMessage *m = g_ptr_array_index(received, i);
		guint user = 0;

		if (strcmp(m->path, "/skel/new_user") == 0 ||
		    strcmp(m->path, "/skel/lost_user") == 0)
			g_string_append_printf(events, "%s %d ", m->path[6] == 'n' ? "new" : "lost",
			                       m->args[0].i);
		else if (sscanf(m->path, "/skel/user%u/", &user) == 1 && user != last_user)
			g_string_append_printf(users, "user %u ", user);
		last_user = user != 0 ? user : last_user;
	}
	g_string_append(events, users->str);
	if (events->len > 0)
		g_string_truncate(events, events->len - 1);
	return g_strdup(events->str);
}

/* The walk's walker leaves and comes back after the tracker's timeout,
 * with a new tracker id: the default mapping numbers users by slot, so
 * they are user1 again and a patch routing user1 hears them; the same
 * mapping with user_ids = unique shows the new id. */
static void
test_default_walker_back_is_user1(void)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *shipped = mapping_file_locate("default", &error);
	g_autofree char *text = NULL;
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *unique = g_build_filename(dir, "unique.map", NULL);
	g_autofree char *with_slots = walker_ids("default");
	g_autofree char *with_ids = NULL;
	g_autofree char *edited = NULL;
	g_auto(GStrv) parts = NULL;

	g_assert_no_error(error);
	g_assert_true(g_file_get_contents(shipped, &text, NULL, &error));
	parts = g_strsplit(text, "user_ids = slot\n", -1);
	g_assert_cmpuint(g_strv_length(parts), ==, 2);
	edited = g_strjoinv("user_ids = unique\n", parts);
	testutil_write_file(unique, edited, strlen(edited));
	with_ids = walker_ids(unique);
	g_assert_cmpstr(with_slots, ==, "new 1 lost 1 new 1 user 1");
	g_assert_cmpstr(with_ids, ==, "new 1 lost 1 new 2 user 1 user 2");
	testutil_rmdir(dir);
}

/* The user a "user = first" rule speaks of: the lowest id in view. */
static const TrackerUser *
first_user(const TrackerFrame *frame)
{
	const TrackerUser *first = NULL;

	for (guint u = 0; u < frame->n_users; u++) {
		if (first == NULL || frame->users[u].id < first->id)
			first = &frame->users[u];
	}
	return first;
}

/* Adds a message of @n floats. */
static void
expect_floats(GPtrArray *list, const char *path, const double *values, guint n)
{
	Expected *e = g_new0(Expected, 1);

	e->path = g_strdup(path);
	e->types = g_strnfill(n, 'f');
	e->values = g_array_new(FALSE, FALSE, sizeof(double));
	g_array_append_vals(e->values, values, n);
	g_ptr_array_add(list, e);
}

/* pd-simple: the first user's joints, 0..1 as in a mirror, y up. */
static void
test_pd_simple_end_to_end(void)
{
	const guint n = 40;
	g_autofree TrackerFrame *frames = testutil_scene_frames("crowd", n);
	g_autoptr(GPtrArray) expected = g_ptr_array_new_with_free_func(expected_free);
	g_autoptr(GPtrArray) received = NULL;

	for (guint k = 0; k < n; k++) {
		const TrackerUser *user = first_user(&frames[k]);

		for (guint j = 0; user != NULL && j < TRACKER_N_JOINTS; j++) {
			const TrackerJoint *joint = &user->joints[j];
			g_autofree char *path = g_strconcat("/", tracker_joint_name(j), NULL);
			double xyz[3] = { CLAMP(1 - joint->u / 640, 0, 1),
				          CLAMP(1 - joint->v / 480, 0, 1),
				          CLAMP((joint->position.z - 500) / 4000, 0, 1) };

			if (testutil_joint_found(joint))
				expect_floats(expected, path, xyz, 3);
		}
	}
	g_assert_cmpuint(expected->len, >, 300);
	received = run_to_sink("crowd", n, "pd-simple", expected->len);
	assert_received(expected, received);
}

/* omni: the first user's 45 numbers in shoulder widths from the torso, the
 * width following its measurements by a tenth each frame. */
static void
test_omni_end_to_end(void)
{
	const guint n = 40;
	g_autofree TrackerFrame *frames = testutil_scene_frames("crowd", n);
	g_autoptr(GPtrArray) expected = g_ptr_array_new_with_free_func(expected_free);
	GHashTable *widths = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	g_autoptr(GPtrArray) received = NULL;

	for (guint k = 0; k < n; k++) {
		const TrackerUser *first = first_user(&frames[k]);
		g_autoptr(GHashTable) seen = g_hash_table_new_full(NULL, NULL, NULL, g_free);

		for (guint u = 0; u < frames[k].n_users; u++) {
			const TrackerUser *user = &frames[k].users[u];
			const TrackerJoint *ls = &user->joints[TRACKER_JOINT_LEFT_SHOULDER];
			const TrackerJoint *rs = &user->joints[TRACKER_JOINT_RIGHT_SHOULDER];
			double *was = g_hash_table_lookup(widths, GUINT_TO_POINTER(user->id));
			double *w = g_new0(double, 1);

			*w = was ? *was : 0;
			if (ls->confidence > 0 && rs->confidence > 0) {
				double m = tracker_vec3_distance(ls->position, rs->position);

				*w = *w > 0 ? *w + 0.1 * (m - *w) : m;
			}
			g_hash_table_insert(seen, GUINT_TO_POINTER(user->id), w);
		}
		/* Widths live while their user stays in view. */
		g_hash_table_unref(widths);
		widths = g_steal_pointer(&seen);
		if (first != NULL) {
			const TrackerVec3 torso = first->joints[TRACKER_JOINT_TORSO].position;
			double w =
			        *(double *)g_hash_table_lookup(widths, GUINT_TO_POINTER(first->id));
			double all[3 * TRACKER_N_JOINTS];
			gboolean complete = w > 0;

			for (guint j = 0; j < TRACKER_N_JOINTS; j++) {
				const TrackerJoint *joint = &first->joints[j];

				complete &= joint->confidence > 0 && joint->confidence >= 0.3;
				all[3 * j] = (joint->position.x - torso.x) / w;
				all[3 * j + 1] = (joint->position.y - torso.y) / w;
				all[3 * j + 2] = (joint->position.z - torso.z) / w;
			}
			if (complete)
				expect_floats(expected, "/wek/inputs", all, 3 * TRACKER_N_JOINTS);
		}
	}
	g_hash_table_unref(widths);
	g_assert_cmpuint(expected->len, >, 20);
	received = run_to_sink("crowd", n, "omni", expected->len);
	assert_received(expected, received);
}

/* A recording carries no truth: the tracker finds the crowd's three people
 * in it, and every one of them is announced and sends a head. */
static void
test_replay_through_tracker(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *dump = g_build_filename(dir, "dump", NULL);
	g_autofree char *source = g_strconcat("replay:", dump, NULL);
	g_autofree char *summary = g_strdup_printf("skelbridge: %s: 20 frames in", source);
	const char *record[] = { "record",   "--source", "demo:crowd", "--fast",
		                 "--frames", "20",       dump,         NULL };
	g_autoptr(OscSink) sink = osc_sink_new(FALSE, 0);
	g_autofree char *url = osc_sink_url(sink);
	const char *run[] = { "run", "--source", source, "--fast", "--target", url, NULL };
	g_autoptr(ChildProc) recording = child_proc_start(record);
	g_autoptr(ChildProc) proc = NULL;
	g_autoptr(GPtrArray) received = NULL;
	g_autofree char *log = NULL;
	guint announced = 0, heads = 0;

	g_assert_cmpint(child_proc_wait(recording, 60000), ==, 0);
	proc = child_proc_start(run);
	g_assert_cmpint(child_proc_wait(proc, 60000), ==, 0);
	log = child_proc_log(proc);
	g_assert_nonnull(strstr(log, summary));
	g_assert_true(osc_sink_wait_path(sink, "/skel/new_user", WAIT_MS));
	g_usleep(200000);
	received = osc_sink_take(sink);
	for (guint i = 0; i < received->len; i++) {
		OscSinkMessage *m = g_ptr_array_index(received, i);

		announced += strcmp(m->path, "/skel/new_user") == 0;
		if (g_str_has_suffix(m->path, "/head")) {
			heads++;
			/* metres away from the sensor: the crowd stands 2.8 to 4.4 m away */
			g_assert_cmpfloat(m->args[2].f, >, 2.5);
			g_assert_cmpfloat(m->args[2].f, <, 4.8);
		}
	}
	g_assert_cmpuint(announced, ==, 3);
	g_assert_cmpuint(heads, >=, 3 * 15);
	testutil_rmdir(dir);
}

/* ---- targets that are not there ---- */

static char *
write_mapping(const char *dir, const char *text)
{
	char *path = g_build_filename(dir, "live.map", NULL);

	testutil_write_file(path, text, strlen(text));
	return path;
}

/* ---- Pure Data ---- */

/* Routes /skel/user1/head and /skel/users as a Pd user would, prints what
 * arrives, and quits a second after the last head (or after 20 s). */
static const char pd_patch[] = "#N canvas 0 0 600 400 12;\n"
                               "#X obj 20 20 netreceive -u -b %d;\n"
                               "#X obj 20 50 oscparse;\n"
                               "#X obj 20 80 list trim;\n"
                               "#X obj 20 110 route skel;\n"
                               "#X obj 20 140 route user1 users;\n"
                               "#X obj 20 170 route head;\n"
                               "#X obj 20 200 print HEAD;\n"
                               "#X obj 200 200 print USERS;\n"
                               "#X obj 300 20 loadbang;\n"
                               "#X obj 300 50 print READY;\n"
                               "#X obj 300 80 delay 20000;\n"
                               "#X obj 20 230 t b;\n"
                               "#X obj 20 260 delay 1000;\n"
                               "#X msg 300 290 \\; pd quit;\n"
                               "#X connect 0 0 1 0;\n"
                               "#X connect 1 0 2 0;\n"
                               "#X connect 2 0 3 0;\n"
                               "#X connect 3 0 4 0;\n"
                               "#X connect 4 0 5 0;\n"
                               "#X connect 4 1 7 0;\n"
                               "#X connect 5 0 6 0;\n"
                               "#X connect 5 0 11 0;\n"
                               "#X connect 11 0 12 0;\n"
                               "#X connect 12 0 13 0;\n"
                               "#X connect 8 0 9 0;\n"
                               "#X connect 8 0 10 0;\n"
                               "#X connect 10 0 13 0;\n";

/* "HEAD: 0.55 0.549954 2.77482 1" against user 1's head in @frame. */
static void
assert_pd_head(const char *line, const TrackerFrame *frame)
{
	const TrackerJoint *head = &tracker_frame_find_user(frame, 1)->joints[TRACKER_JOINT_HEAD];
	double want[4] = { -head->position.x / 1000, head->position.y / 1000,
		           head->position.z / 1000, head->confidence };
	g_auto(GStrv) words = g_strsplit(line, " ", -1);

	g_assert_cmpuint(g_strv_length(words), ==, 5);
	/* Pd prints six significant digits. */
	for (guint k = 0; k < 4; k++)
		g_assert_cmpfloat_with_epsilon(g_ascii_strtod(words[k + 1], NULL), want[k],
		                               1e-5 * MAX(1, fabs(want[k])));
}

/* The default mapping in Pd 0.53: [oscparse] takes every message, and
 * [route] finds users and joints by name. */
static void
test_pure_data(void)
{
	const guint n = 5;
	g_autofree TrackerFrame *frames = testutil_scene_frames("crowd", n);
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *patch = g_build_filename(dir, "receive.pd", NULL);
	int port = testutil_free_port(G_SOCKET_TYPE_DATAGRAM);
	g_autofree char *text = g_strdup_printf(pd_patch, port);
	g_autofree char *url = g_strdup_printf("osc.udp://127.0.0.1:%d", port);
	const char *pd_args[] = { "pd",      "-nrt",  "-nogui", "-noaudio", "-nomidi",
		                  "-stderr", "-open", patch,    NULL };
	const char *args[] = { "run",      "--skeletons", "truth",    "--source", "demo:crowd",
		               "--frames", "5",           "--target", url,        NULL };
	g_autoptr(ChildProc) pd = NULL;
	g_autoptr(ChildProc) bridge = NULL;
	g_autofree char *log = NULL;
	g_auto(GStrv) lines = NULL;
	g_autofree char *pd_path = g_find_program_in_path("pd");
	guint heads = 0;

	/* A test of Pd that does not run Pd has not passed. */
	if (pd_path == NULL) {
		g_test_fail_printf("Pure Data (pd) is not installed; tools/setup installs it");
		return;
	}
	testutil_write_file(patch, text, strlen(text));
	pd = child_proc_spawn(pd_args);
	g_assert_true(child_proc_wait_log(pd, "READY: bang", WAIT_MS));
	bridge = child_proc_start(args);
	g_assert_cmpint(child_proc_wait(bridge, 60000), ==, 0);
	g_assert_cmpint(child_proc_wait(pd, 30000), ==, 0);
	log = child_proc_log(pd);
	g_assert_nonnull(strstr(log, "USERS: 3\n"));
	lines = g_strsplit(log, "\n", -1);
	for (guint i = 0; lines[i] != NULL; i++) {
		g_assert_null(strstr(lines[i], "error"));
		if (!g_str_has_prefix(lines[i], "HEAD: "))
			continue;
		g_assert_cmpuint(heads, <, n);
		assert_pd_head(lines[i], &frames[heads++]);
	}
	g_assert_cmpuint(heads, ==, n);
	testutil_rmdir(dir);
}

/* pd-simple's first lesson: route the head, print it, quit a second after
 * the last one (or after 20 s). */
static const char pd_simple_patch[] = "#N canvas 0 0 600 400 12;\n"
                                      "#X obj 20 20 netreceive -u -b %d;\n"
                                      "#X obj 20 50 oscparse;\n"
                                      "#X obj 20 80 list trim;\n"
                                      "#X obj 20 110 route head;\n"
                                      "#X obj 20 140 print HEAD;\n"
                                      "#X obj 300 20 loadbang;\n"
                                      "#X obj 300 50 print READY;\n"
                                      "#X obj 300 80 delay 20000;\n"
                                      "#X obj 20 170 t b;\n"
                                      "#X obj 20 200 delay 1000;\n"
                                      "#X msg 300 230 \\; pd quit;\n"
                                      "#X connect 0 0 1 0;\n"
                                      "#X connect 1 0 2 0;\n"
                                      "#X connect 2 0 3 0;\n"
                                      "#X connect 3 0 4 0;\n"
                                      "#X connect 3 0 8 0;\n"
                                      "#X connect 8 0 9 0;\n"
                                      "#X connect 9 0 10 0;\n"
                                      "#X connect 5 0 6 0;\n"
                                      "#X connect 5 0 7 0;\n"
                                      "#X connect 7 0 10 0;\n";

/* "HEAD: 0.55 0.549954 0.69" against the first user's head in @frame. */
static void
assert_pd_simple_head(const char *line, const TrackerFrame *frame)
{
	const TrackerJoint *head = &first_user(frame)->joints[TRACKER_JOINT_HEAD];
	double want[3] = { CLAMP(1 - head->u / 640, 0, 1), CLAMP(1 - head->v / 480, 0, 1),
		           CLAMP((head->position.z - 500) / 4000, 0, 1) };
	g_auto(GStrv) words = g_strsplit(line, " ", -1);

	g_assert_true(testutil_joint_found(head));
	g_assert_cmpuint(g_strv_length(words), ==, 4);
	for (guint k = 0; k < 3; k++)
		g_assert_cmpfloat_with_epsilon(g_ascii_strtod(words[k + 1], NULL), want[k], 1e-5);
}

/* pd-simple in Pd 0.53: one [route] finds a joint of the first user. */
static void
test_pure_data_pd_simple(void)
{
	const guint n = 5;
	g_autofree TrackerFrame *frames = testutil_scene_frames("crowd", n);
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *patch = g_build_filename(dir, "simple.pd", NULL);
	int port = testutil_free_port(G_SOCKET_TYPE_DATAGRAM);
	g_autofree char *text = g_strdup_printf(pd_simple_patch, port);
	g_autofree char *url = g_strdup_printf("osc.udp://127.0.0.1:%d", port);
	const char *pd_args[] = { "pd",      "-nrt",  "-nogui", "-noaudio", "-nomidi",
		                  "-stderr", "-open", patch,    NULL };
	const char *args[] = { "run",        "--skeletons", "truth", "--source",
		               "demo:crowd", "--frames",    "5",     "--mapping",
		               "pd-simple",  "--target",    url,     NULL };
	g_autoptr(ChildProc) pd = NULL;
	g_autoptr(ChildProc) bridge = NULL;
	g_autofree char *log = NULL;
	g_auto(GStrv) lines = NULL;
	g_autofree char *pd_path = g_find_program_in_path("pd");
	guint heads = 0;

	if (pd_path == NULL) {
		g_test_fail_printf("Pure Data (pd) is not installed; tools/setup installs it");
		return;
	}
	testutil_write_file(patch, text, strlen(text));
	pd = child_proc_spawn(pd_args);
	g_assert_true(child_proc_wait_log(pd, "READY: bang", WAIT_MS));
	bridge = child_proc_start(args);
	g_assert_cmpint(child_proc_wait(bridge, 60000), ==, 0);
	g_assert_cmpint(child_proc_wait(pd, 30000), ==, 0);
	log = child_proc_log(pd);
	lines = g_strsplit(log, "\n", -1);
	for (guint i = 0; lines[i] != NULL; i++) {
		g_assert_null(strstr(lines[i], "error"));
		if (!g_str_has_prefix(lines[i], "HEAD: "))
			continue;
		g_assert_cmpuint(heads, <, n);
		assert_pd_simple_head(lines[i], &frames[heads++]);
	}
	g_assert_cmpuint(heads, ==, n);
	testutil_rmdir(dir);
}

#define FRAME_RULE(name, output, address)                                                          \
	"[rule " name "]\noutput = " output "\nfor = frame\naddress = " address "\n"               \
	"args = frame\n"

static void
test_dead_targets(void)
{
	g_autoptr(OscSink) sink = osc_sink_new(FALSE, 0);
	g_autofree char *dir = testutil_tmpdir();
	int udp = testutil_free_port(G_SOCKET_TYPE_DATAGRAM),
	    tcp = testutil_free_port(G_SOCKET_TYPE_STREAM);
	g_autofree char *text = g_strdup_printf(
	        "[mapping]\nformat = 1\n"
	        "[output live]\nkind = osc\ntarget = osc.udp://127.0.0.1:%d\nbundle = none\n"
	        "[output udpdead]\nkind = osc\ntarget = osc.udp://127.0.0.1:%d\n"
	        "[output tcpdead]\nkind = osc\ntarget = osc.tcp://127.0.0.1:%d\n"
	        "[output nohost]\nkind = osc\ntarget = osc.udp://nonexistent.invalid:%d\n"
	        "[output noiface]\nkind = osc\ntarget = osc.udp://239.255.0.9:%d\n"
	        "interface = nosuch0\n" FRAME_RULE("a", "udpdead", "/a")
	                FRAME_RULE("b", "tcpdead", "/b") FRAME_RULE("c", "nohost", "/c")
	                        FRAME_RULE("e", "noiface", "/e") FRAME_RULE("d", "live", "/tick"),
	        osc_sink_port(sink), udp, tcp, udp, udp);
	g_autofree char *path = write_mapping(dir, text);
	const char *args[] = { "run",      "--skeletons", "truth",     "--source", "demo:crowd",
		               "--frames", "30",          "--mapping", path,       NULL };
	g_autoptr(ChildProc) proc = child_proc_start(args);
	g_autoptr(GPtrArray) received = NULL;
	g_autofree char *log = NULL;

	g_assert_cmpint(child_proc_wait(proc, 60000), ==, 0);
	g_assert_true(osc_sink_wait_count(sink, 30, WAIT_MS));
	received = osc_sink_take(sink);
	/* Every frame went out to the live target, in order. */
	g_assert_cmpuint(received->len, ==, 30);
	for (guint k = 0; k < received->len; k++)
		g_assert_cmpint(((OscSinkMessage *)g_ptr_array_index(received, k))->args[0].i, ==,
		                k);
	log = child_proc_log(proc);
	g_assert_nonnull(strstr(log, "Connection refused"));
	g_assert_nonnull(strstr(log, "no network interface 'nosuch0'"));
	/* ...which a UDP output retries as UDP, not by connecting. */
	g_assert_null(strstr(log, "Could not connect to 239.255.0.9"));
	g_assert_nonnull(strstr(log, "skelbridge: demo:crowd: 30 frames in"));
	testutil_rmdir(dir);
}

/* Multicast reaches a receiver on this machine that joined the group. */
static void
test_multicast(void)
{
	g_autoptr(OscSink) sink = osc_sink_new_multicast("239.255.42.42");
	g_autofree char *url = NULL;
	const char *args[] = { "run",        "--skeletons", "truth", "--source",
		               "demo:crowd", "--frames",    "3",     "--mapping",
		               "osceleton",  "--target",    NULL,    NULL };
	g_autoptr(ChildProc) proc = NULL;

	if (sink == NULL) {
		g_test_skip("this system cannot join a multicast group");
		return;
	}
	url = osc_sink_url(sink);
	args[G_N_ELEMENTS(args) - 2] = url;
	proc = child_proc_start(args);
	g_assert_cmpint(child_proc_wait(proc, 60000), ==, 0);
	g_assert_true(osc_sink_wait_path(sink, "/joint", WAIT_MS));
}

/* A TCP receiver that goes away and comes back on the same port. */
static void
test_tcp_reconnects(void)
{
	OscSink *sink = osc_sink_new(TRUE, 0);
	int port = osc_sink_port(sink);
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *text = g_strdup_printf(
	        "[mapping]\nformat = 1\n[output t]\nkind = osc\n"
	        "target = osc.tcp://127.0.0.1:%d\n" FRAME_RULE("tick", "t", "/tick"),
	        port);
	g_autofree char *path = write_mapping(dir, text);
	const char *args[] = { "run",    "--skeletons", "truth", "--source", "demo:empty",
		               "--loop", "--mapping",   path,    NULL };
	g_autoptr(ChildProc) proc = child_proc_start(args);
	g_autofree char *log = NULL;

	g_assert_true(osc_sink_wait_path(sink, "/tick", WAIT_MS));
	/* Receivers never talk back: a connection stays up past the 2 s
	 * connect timeout however quiet the receiver is. */
	g_usleep(2500000);
	log = child_proc_log(proc);
	g_assert_null(strstr(log, "connection lost"));
	osc_sink_free(sink);
	g_assert_true(child_proc_wait_log(proc, "connection lost", WAIT_MS));
	sink = osc_sink_new(TRUE, port);
	g_assert_true(osc_sink_wait_path(sink, "/tick", WAIT_MS));
	g_assert_true(child_proc_wait_log(proc, ": connected\n", WAIT_MS));
	child_proc_signal(proc, SIGTERM);
	g_assert_cmpint(child_proc_wait(proc, WAIT_MS), ==, 0);
	osc_sink_free(sink);
	testutil_rmdir(dir);
}

/* ---- exit statuses: distinct for each kind of failure ---- */

static void
exit_expect(const char *const *args, int status, const char *needle)
{
	g_autoptr(ChildProc) proc = child_proc_start(args);
	g_autofree char *log = NULL;

	g_assert_cmpint(child_proc_wait(proc, WAIT_MS), ==, status);
	log = child_proc_log(proc);
	if (strstr(log, needle) == NULL)
		g_error("expected \"%s\" in:\n%s", needle, log);
}

/* ---- reloading ---- */

static char *
live_mapping(int port, const char *address)
{
	return g_strdup_printf("[mapping]\nformat = 1\n[output o]\nkind = osc\n"
	                       "target = osc.udp://127.0.0.1:%d\nbundle = none\n"
	                       "[rule tick]\noutput = o\nfor = frame\naddress = %s\nargs = frame\n",
	                       port, address);
}

/* Waits for @path, then checks that only @path arrives from then on. */
static void
assert_only(OscSink *sink, const char *path)
{
	g_autoptr(GPtrArray) stale = NULL;
	g_autoptr(GPtrArray) fresh = NULL;

	g_assert_true(osc_sink_wait_path(sink, path, WAIT_MS));
	stale = osc_sink_take(sink);
	g_assert_true(osc_sink_wait_count(sink, 5, WAIT_MS));
	fresh = osc_sink_take(sink);
	for (guint i = 0; i < fresh->len; i++)
		g_assert_cmpstr(((OscSinkMessage *)g_ptr_array_index(fresh, i))->path, ==, path);
}

/* Overwrites @path in place, as an editor that does not rename would. */
static void
overwrite(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	g_assert_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void
test_reload_on_edit(void)
{
	g_autoptr(OscSink) sink = osc_sink_new(FALSE, 0);
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *a = live_mapping(osc_sink_port(sink), "/a");
	g_autofree char *b = live_mapping(osc_sink_port(sink), "/b");
	g_autofree char *path = write_mapping(dir, a);
	g_autofree char *rejected =
	        g_strdup_printf("skelbridge: %s:4: junk after the section "
	                        "header: ' output'; the mapping in force stays\n",
	                        path);
	g_autofree char *reloaded = g_strdup_printf("skelbridge: %s: reloaded: 1 rule", path);
	const char *args[] = { "run",    "--skeletons", "truth", "--source", "demo:empty",
		               "--loop", "--mapping",   path,    NULL };
	g_autoptr(ChildProc) proc = child_proc_start(args);
	g_autoptr(GError) error = NULL;

	assert_only(sink, "/a");
	overwrite(path, "[mapping]\nformat = 1\n\n[rule] output\n");
	g_assert_true(child_proc_wait_log(proc, rejected, WAIT_MS));
	assert_only(sink, "/a");
	/* g_file_set_contents() writes a new file and renames it over the old. */
	g_file_set_contents(path, b, -1, &error);
	g_assert_no_error(error);
	g_assert_true(child_proc_wait_log(proc, reloaded, WAIT_MS));
	assert_only(sink, "/b");
	/* Ctrl-C interrupts: 128 + SIGINT, as a shell reports it. */
	child_proc_signal(proc, SIGINT);
	g_assert_cmpint(child_proc_wait(proc, WAIT_MS), ==, 130);
	testutil_rmdir(dir);
}

/* A mapping file replaced by a named pipe: reading it would wait for a
 * writer for ever, and SIGTERM with it. It is refused at once, the mapping
 * in force stays, and the bridge still stops when asked. */
static void
test_reload_fifo(void)
{
	g_autoptr(OscSink) sink = osc_sink_new(FALSE, 0);
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *a = live_mapping(osc_sink_port(sink), "/a");
	g_autofree char *path = write_mapping(dir, a);
	g_autofree char *refused = g_strdup_printf("%s: not a file but a named pipe", path);
	const char *args[] = { "run",    "--skeletons", "truth", "--source", "demo:empty",
		               "--loop", "--mapping",   path,    NULL };
	g_autoptr(ChildProc) proc = child_proc_start(args);

	assert_only(sink, "/a");
	g_assert_cmpint(g_unlink(path), ==, 0);
	g_assert_cmpint(mkfifo(path, 0600), ==, 0);
	child_proc_signal(proc, SIGHUP);
	g_assert_true(child_proc_wait_log(proc, refused, WAIT_MS));
	assert_only(sink, "/a");
	child_proc_signal(proc, SIGTERM);
	g_assert_cmpint(child_proc_wait(proc, WAIT_MS), ==, 0);
	testutil_rmdir(dir);
}

/* skelbridge check on what is not a regular file, or is far too large:
 * an answer at once, never a wait or a read without end. */
static void
test_check_not_a_file(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *fifo = g_build_filename(dir, "fifo.map", NULL);
	g_autofree char *big = g_build_filename(dir, "big.map", NULL);
	g_autofree char *text = g_strnfill(MAPPING_MAX_BYTES + 1, '#');
	const char *on_fifo[] = { "check", fifo, NULL };
	const char *on_zero[] = { "check", "/dev/zero", NULL };
	const char *on_big[] = { "check", big, NULL };

	g_assert_cmpint(mkfifo(fifo, 0600), ==, 0);
	testutil_write_file(big, text, MAPPING_MAX_BYTES + 1);
	exit_expect(on_fifo, 3, "fifo.map: not a file but a named pipe");
	exit_expect(on_zero, 3, "/dev/zero: not a file but a character device");
	exit_expect(on_big, 3, "big.map: larger than 1 MiB");
	testutil_rmdir(dir);
}

static void
test_reload_on_sighup(void)
{
	g_autoptr(OscSink) sink = osc_sink_new(FALSE, 0);
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *a = live_mapping(osc_sink_port(sink), "/a");
	g_autofree char *b = live_mapping(osc_sink_port(sink), "/b");
	g_autofree char *path = write_mapping(dir, a);
	const char *args[] = { "run",    "--skeletons", "truth",     "--source", "demo:empty",
		               "--loop", "--no-watch",  "--mapping", path,       NULL };
	g_autoptr(ChildProc) proc = child_proc_start(args);

	assert_only(sink, "/a");
	overwrite(path, b);
	/* Not watched: the edit waits for SIGHUP. */
	assert_only(sink, "/a");
	child_proc_signal(proc, SIGHUP);
	g_assert_true(child_proc_wait_log(proc, "SIGHUP: reloading the mappings", WAIT_MS));
	assert_only(sink, "/b");
	child_proc_signal(proc, SIGTERM);
	g_assert_cmpint(child_proc_wait(proc, WAIT_MS), ==, 0);
	testutil_rmdir(dir);
}

/* Closing the terminal a bridge runs in stops it, although SIGHUP from
 * anyone else reloads. */
static void
test_terminal_hangup_stops(void)
{
	int terminal, status = 0;
	gint64 end = g_get_monotonic_time() + WAIT_MS * 1000;
	char buffer[4096];
	ssize_t n;
	pid_t pid = forkpty(&terminal, NULL, NULL, NULL);

	g_assert_cmpint(pid, >=, 0);
	if (pid == 0) {
		execl(testutil_binary(), "skelbridge", "run", "--skeletons", "truth", "--source",
		      "demo:empty", "--loop", "--target", "osc.udp://127.0.0.1:9", NULL);
		_exit(127);
	}
	/* The status line shows the bridge running in its terminal. */
	while ((n = read(terminal, buffer, sizeof(buffer))) > 0 && !g_strstr_len(buffer, n, "fps"))
		;
	close(terminal);
	while (waitpid(pid, &status, WNOHANG) == 0 && g_get_monotonic_time() < end)
		g_usleep(10000);
	if (waitpid(pid, &status, WNOHANG) == 0) {
		kill(pid, SIGKILL);
		g_error("the bridge ran on after its terminal closed");
	}
	g_assert_true(WIFEXITED(status));
	g_assert_cmpint(WEXITSTATUS(status), ==, 0);
}

/* ---- refusing to start ---- */

static void
run_expect_error(const char *const *args, int status, const char *message)
{
	g_autoptr(ChildProc) proc = child_proc_start(args);
	g_autofree char *log = NULL;

	g_assert_cmpint(child_proc_wait(proc, WAIT_MS), ==, status);
	log = child_proc_log(proc);
	g_assert_cmpstr(log, ==, message);
}

static void
test_run_unknown_mapping(void)
{
	const char *args[] = { "run", "--mapping", "pd", NULL };

	run_expect_error(
	        args, 3,
	        "skelbridge: no mapping called 'pd' (shipped mappings: avatar, default, "
	        "omni, osceleton, pd-simple, stage, tuio-hands, web); give a path to use a "
	        "file of your own\n");
}

static void
test_run_broken_mapping(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *path = write_mapping(dir, "[mapping]\nformat = 2\n");
	g_autofree char *message = g_strdup_printf(
	        "skelbridge: %s:2: [mapping] format: this skelbridge reads format 1; the file is "
	        "format 2\n",
	        path);
	const char *args[] = { "run", "--mapping", path, NULL };

	run_expect_error(args, 3, message);
	testutil_rmdir(dir);
}

static void
test_run_bad_target(void)
{
	const char *args[] = { "run", "--target", "localhost:7000", NULL };

	run_expect_error(args, 2,
	                 "skelbridge: --target localhost:7000: expected osc.udp://HOST:PORT, "
	                 "osc.tcp://HOST:PORT or ws://ADDRESS:PORT/PATH, got 'localhost:7000'\n");
}

/* A WebSocket output listens and an OSC output sends: neither takes the other's URL. */
static void
test_run_target_wrong_kind(void)
{
	const char *args[] = { "run", "--target", "ws://127.0.0.1:7180/osc", NULL };

	run_expect_error(args, 2,
	                 "skelbridge: --target ws://127.0.0.1:7180/osc: output 'default' sends "
	                 "OSC to a receiver: give osc.udp://HOST:PORT or osc.tcp://HOST:PORT\n");
}

static void
test_run_target_names_nothing(void)
{
	const char *args[] = { "run", "--target", "pd=osc.udp://127.0.0.1:9000", NULL };

	run_expect_error(args, 2,
	                 "skelbridge: --target pd=osc.udp://127.0.0.1:9000: no mapping has "
	                 "an output called 'pd'\n");
}

static void
test_run_unknown_skeletons(void)
{
	const char *args[] = { "run", "--skeletons", "kinect", NULL };

	run_expect_error(args, 2,
	                 "skelbridge: unknown skeletons 'kinect'; they are:\n"
	                 "  tracker the skeleton tracker, on any source (the default)\n"
	                 "  truth   the demo scene's true skeletons (other sources: no users)\n");
}

/* A bridge's name goes into OSC addresses as it is. */
static void
test_run_bad_bridge_name(void)
{
	const char *args[] = { "run", "--bridge", "stage/left", NULL };

	run_expect_error(args, 2,
	                 "skelbridge: --bridge: 'stage/left': a bridge's name is letters, digits, "
	                 "'-', '_' or '.', as it goes into OSC addresses\n");
}

static void
test_check_reports_line(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *path = write_mapping(dir, "[mapping]\nformat = 1\n[rule r]\nfor = all\n");
	g_autofree char *message = g_strdup_printf(
	        "%s:4: [rule r] for: expected frame, user, joint or event, got 'all'\n", path);
	const char *args[] = { "check", "default", path, NULL };

	run_expect_error(args, 3, message);
	testutil_rmdir(dir);
}

static void
test_exit_usage(void)
{
	const char *command[] = { "dance", NULL };
	const char *option[] = { "track", "--fastest", NULL };
	const char *source[] = { "run", "--source", "webcam", NULL };

	exit_expect(command, 2, "unknown command 'dance'");
	exit_expect(option, 2, "--fastest");
	exit_expect(source, 2, "webcam");
}

/* What would be taken silently otherwise: a negative --frames reads as no
 * limit (record fills the disk), and words after the options as nothing. */
static void
test_exit_usage_taken_silently(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *dump = g_build_filename(dir, "dump", NULL);
	const char *record[] = { "record", "--frames", "-1", dump, NULL };
	const char *run[] = { "run", "--source", "demo:empty", "extra", "args", NULL };
	const char *track[] = { "track", "fast", NULL };

	exit_expect(record, 2, "--frames -1: give a number of frames from 1 up");
	g_assert_false(g_file_test(dump, G_FILE_TEST_EXISTS));
	exit_expect(run, 2, "run: 'extra' is not an option");
	exit_expect(track, 2, "track: 'fast' is not an option");
	testutil_rmdir(dir);
}

static void
test_exit_no_source(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *missing = g_build_filename(dir, "gone", NULL);
	g_autofree char *replay = g_strconcat("replay:", missing, NULL);
	g_autofree char *raw = g_strconcat("raw:", missing, NULL);
	const char *replay_args[] = { "track", "--source", replay, NULL };
	const char *raw_args[] = { "snapshot", "--source", raw, "out.png", NULL };

	exit_expect(replay_args, 4, missing);
	exit_expect(raw_args, 4, missing);
	testutil_rmdir(dir);
}

static void
test_exit_io(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *still = g_build_filename(dir, "short.raw", NULL);
	g_autofree char *raw = g_strconcat("raw:", still, NULL);
	const char *args[] = { "track", "--source", raw, NULL };
	/* The system's reason, not cairo's "error while writing to output stream". */
	const char *into_folder[] = { "snapshot", "--source", "demo:empty", dir, NULL };
	const char *disk_full[] = { "snapshot", "--source", "demo:empty", "/dev/full", NULL };
	g_autofree char *is_folder =
	        g_strdup_printf("%s: cannot write the picture: %s", dir, g_strerror(EISDIR));
	g_autofree char *no_space =
	        g_strdup_printf("/dev/full: cannot write the picture: %s", g_strerror(ENOSPC));

	testutil_write_file(still, (const guint8 *)"12345678", 8);
	exit_expect(args, 5, still);
	exit_expect(into_folder, 5, is_folder);
	exit_expect(disk_full, 5, no_space);
	testutil_rmdir(dir);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/bridge/osceleton-messages-arrive", test_osceleton_end_to_end);
	g_test_add_func("/bridge/default-messages-arrive", test_default_end_to_end);
	g_test_add_func("/bridge/default-walker-back-is-user1-again",
	                test_default_walker_back_is_user1);
	g_test_add_func("/bridge/pd-simple-messages-arrive", test_pd_simple_end_to_end);
	g_test_add_func("/bridge/omni-messages-arrive", test_omni_end_to_end);
	g_test_add_func("/bridge/replay-through-tracker", test_replay_through_tracker);
	g_test_add_func("/bridge/pure-data-routes-the-default-mapping", test_pure_data);
	g_test_add_func("/bridge/pure-data-routes-pd-simple", test_pure_data_pd_simple);
	g_test_add_func("/bridge/dead-targets-do-not-stop-it", test_dead_targets);
	g_test_add_func("/bridge/multicast-reaches-a-joined-receiver", test_multicast);
	g_test_add_func("/bridge/tcp-receiver-reconnected", test_tcp_reconnects);
	g_test_add_func("/bridge/reload/broken-edit-kept-out-good-edit-taken", test_reload_on_edit);
	g_test_add_func("/bridge/reload/sighup", test_reload_on_sighup);
	g_test_add_func("/bridge/terminal-hangup-stops-it", test_terminal_hangup_stops);
	g_test_add_func("/run/error/unknown-mapping", test_run_unknown_mapping);
	g_test_add_func("/run/error/broken-mapping", test_run_broken_mapping);
	g_test_add_func("/run/error/bad-target", test_run_bad_target);
	g_test_add_func("/run/error/target-of-the-wrong-kind", test_run_target_wrong_kind);
	g_test_add_func("/run/error/target-names-no-output", test_run_target_names_nothing);
	g_test_add_func("/run/error/unknown-skeletons", test_run_unknown_skeletons);
	g_test_add_func("/run/error/bad-bridge-name", test_run_bad_bridge_name);
	g_test_add_func("/check/reports-path-and-line", test_check_reports_line);
	g_test_add_func("/exit/usage", test_exit_usage);
	g_test_add_func("/exit/usage/taken-silently-before", test_exit_usage_taken_silently);
	g_test_add_func("/exit/no-source", test_exit_no_source);
	g_test_add_func("/exit/io", test_exit_io);
	g_test_add_func("/reload/mapping-becomes-fifo", test_reload_fifo);
	g_test_add_func("/check/not-a-file", test_check_not_a_file);
	return g_test_run();
}
