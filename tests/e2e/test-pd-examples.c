/* End to end in Pure Data: each patch of examples/pd runs in a real,
 * headless Pd inside a harness patch that prints what the example derived,
 * while skelbridge plays a demo scene into it on the port the example
 * listens on; the printed values are checked against the scene's truth.
 *
 * The examples listen on their mappings' fixed ports, so these tests run
 * alone (is_parallel: false in meson). */
#include <gio/gio.h>
#include <math.h>
#include <string.h>

#include "childproc.h"
#include "outputs/osc-encode.h"
#include "pdharness.h"
#include "testutil.h"
#include "outputs/tuio-pack.h"
#include "mapping/tuio.h"

#define RUN_MS 120000

/* Pd prints six significant digits; values travel as float32. */
#define TOLERANCE 1e-5

static const char *const examples[] = {
	"skeleton-monitor", "hands-theremin", "tuio-cursors", "osceleton-compat", "grip-stage",
};

/* ---- the scenes' truth ---- */

#define POSES_FRAMES 780 /* the whole of "poses": every pose held in turn */
#define WALK_FRAMES  504 /* the whole of "walk": in, out, in again, out */

typedef struct {
	const char *scene;
	guint n_frames;
	TrackerFrame *frames;
} SceneTruth;

/* The skeletons of the first @n_frames frames of @scene: rendering them
 * takes seconds, so each scene is rendered once per run. */
static const TrackerFrame *
scene_truth(const char *scene, guint n_frames)
{
	static SceneTruth cache[6];

	for (guint i = 0; i < G_N_ELEMENTS(cache); i++) {
		SceneTruth *c = &cache[i];

		if (c->scene != NULL && strcmp(c->scene, scene) != 0)
			continue;
		if (c->n_frames < n_frames) {
			g_free(c->frames);
			c->scene = scene;
			c->n_frames = n_frames;
			c->frames = testutil_scene_frames(scene, n_frames);
		}
		return c->frames;
	}
	g_assert_not_reached();
}

/* @user is there and the mappings send its @joint. */
static gboolean
joint_found(const TrackerUser *user, guint joint)
{
	return user != NULL && testutil_joint_found(&user->joints[joint]);
}

/* ---- expected values ---- */

/* name -> GArray of double: what the example should print under each name. */
static GHashTable *
expected_new(void)
{
	return g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
	                             (GDestroyNotify)g_array_unref);
}

static void
expect_value(GHashTable *expected, const char *name, double value)
{
	GArray *values = g_hash_table_lookup(expected, name);

	if (values == NULL) {
		values = g_array_new(FALSE, FALSE, sizeof(double));
		g_hash_table_insert(expected, g_strdup(name), values);
	}
	g_array_append_val(values, value);
}

static guint
expected_total(GHashTable *expected)
{
	GHashTableIter iter;
	gpointer values;
	guint n = 0;

	g_hash_table_iter_init(&iter, expected);
	while (g_hash_table_iter_next(&iter, NULL, &values))
		n += ((GArray *)values)->len;
	return n;
}

static gboolean
close_enough(double got, double want)
{
	return fabs(got - want) <= TOLERANCE * MAX(1.0, fabs(want));
}

/* @got, in order, is @want, value by value. */
static gboolean
check_values(const char *name, const GArray *got, const GArray *want)
{
	if (got->len != want->len) {
		g_test_fail_printf("%s: Pd printed %u values, the scene gives %u", name, got->len,
		                   want->len);
		return FALSE;
	}
	for (guint i = 0; i < got->len; i++) {
		double g = g_array_index(got, double, i), w = g_array_index(want, double, i);

		if (!close_enough(g, w)) {
			g_test_fail_printf("%s: value %u is %g, the scene gives %g", name, i, g, w);
			return FALSE;
		}
	}
	return TRUE;
}

/* Everything printed under the names of @expected is what they expect. */
static void
check_printed(const GPtrArray *printed, GHashTable *expected)
{
	GHashTableIter iter;
	gpointer name, want;

	g_hash_table_iter_init(&iter, expected);
	while (g_hash_table_iter_next(&iter, &name, &want)) {
		g_autoptr(GArray) got = pd_printed_values(printed, name, 0);

		if (!check_values(name, got, want))
			return;
	}
}

static void
print_expected(PdHarness *pd, GHashTable *expected)
{
	GHashTableIter iter;
	gpointer name;

	g_hash_table_iter_init(&iter, expected);
	while (g_hash_table_iter_next(&iter, &name, NULL))
		pd_harness_print(pd, name);
}

/* Runs @argv (skelbridge's or another program's) to its end. */
static void
run_to_end(const char *const *argv)
{
	g_autoptr(ChildProc) proc = child_proc_spawn(argv);

	g_assert_cmpint(child_proc_wait(proc, RUN_MS), ==, 0);
}

/* Pd quits once @n messages are printed; what it printed, or NULL on failure.
 */
static GPtrArray *
pd_run(PdHarness *pd, const char *const *argv, guint n)
{
	g_autofree char *log = NULL;

	if (!pd_harness_start(pd))
		return NULL;
	run_to_end(argv);
	if (!pd_harness_wait_printed(pd, n) || (log = pd_harness_quit(pd)) == NULL)
		return NULL;
	return pd_printed_parse(log);
}

/* ---- every example loads in vanilla Pd ---- */

static void
test_examples_load(void)
{
	g_autofree char *dir = pd_examples_dir();

	for (guint i = 0; i < G_N_ELEMENTS(examples); i++) {
		g_autofree char *file = g_strconcat(examples[i], ".pd", NULL);
		g_autofree char *path = g_build_filename(dir, file, NULL);

		if (!pd_load_cleanly(path))
			return;
	}
}

/* ---- skeleton-monitor ---- */

#define MONITOR_SCENE  "crowd"
#define MONITOR_FRAMES 60

static void
expect_monitor_user(GHashTable *expected, const TrackerFrame *frames, guint n, guint id)
{
	for (guint k = 0; k < n; k++) {
		const TrackerUser *user = tracker_frame_find_user(&frames[k], id);

		for (guint j = 0; j < TRACKER_N_JOINTS && user != NULL; j++) {
			const TrackerVec3 *p = &user->joints[j].position;
			double xyz[3] = { -p->x / 1000, p->y / 1000, p->z / 1000 };

			if (!joint_found(user, j))
				continue;
			for (guint a = 0; a < 3; a++) {
				g_autofree char *name = g_strdup_printf(
				        "skel-user%u-%s-%c", id, tracker_joint_name(j), "xyz"[a]);

				expect_value(expected, name, xyz[a]);
			}
		}
	}
}

/* On quitting, the harness reads user @id's figure: fig-userID-FIELD. */
static void
read_figure(PdHarness *pd, guint id)
{
	g_autoptr(GString) fields = g_string_new("shown");
	guint r = pd_harness_obj(pd, "r " PD_HARNESS_QUITTING);
	guint next = pd_harness_msg(pd, "traverse pd-skel-user%u-figure \\, next", id);
	guint pointer = pd_harness_obj(pd, "pointer");
	guint get;

	for (guint j = 0; j < TRACKER_N_JOINTS; j++)
		g_string_append_printf(fields, " %s_x %s_y", tracker_joint_name(j),
		                       tracker_joint_name(j));
	get = pd_harness_obj(pd, "get skeleton-figure %s", fields->str);
	pd_harness_connect(pd, r, 0, next, 0);
	pd_harness_connect(pd, next, 0, pointer, 0);
	pd_harness_connect(pd, pointer, 0, get, 0);
	pd_harness_connect(pd, get, 0, pd_harness_obj(pd, "print fig-user%u-shown", id), 0);
	for (guint j = 0; j < TRACKER_N_JOINTS; j++) {
		for (guint a = 0; a < 2; a++) {
			guint print = pd_harness_obj(pd, "print fig-user%u-%s_%c", id,
			                             tracker_joint_name(j), "xy"[a]);

			pd_harness_connect(pd, get, 1 + 2 * j + a, print, 0);
		}
	}
}

/* The figure shows each joint where it was last found. */
static void
check_figure(const GPtrArray *printed, const TrackerFrame *frames, guint n, guint id)
{
	g_autofree char *shown_name = g_strdup_printf("fig-user%u-shown", id);
	g_autoptr(GArray) shown = pd_printed_values(printed, shown_name, 0);

	g_assert_cmpuint(shown->len, ==, 1);
	g_assert_cmpfloat(g_array_index(shown, double, 0), ==, 1.0);
	for (guint j = 0; j < TRACKER_N_JOINTS; j++) {
		const TrackerUser *last = NULL;

		for (guint k = 0; k < n; k++) {
			const TrackerUser *user = tracker_frame_find_user(&frames[k], id);

			if (joint_found(user, j))
				last = user;
		}
		g_assert_nonnull(last);
		for (guint a = 0; a < 2; a++) {
			g_autofree char *name = g_strdup_printf("fig-user%u-%s_%c", id,
			                                        tracker_joint_name(j), "xy"[a]);
			g_autoptr(GArray) got = pd_printed_values(printed, name, 0);
			g_autoptr(GArray) want = g_array_new(FALSE, FALSE, sizeof(double));
			double v = a == 0 ? -last->joints[j].position.x / 1000
			                  : last->joints[j].position.y / 1000;

			g_array_append_val(want, v);
			if (!check_values(name, got, want))
				return;
		}
	}
}

/* The count of users in view shows how many there are. */
static void
check_users(const GPtrArray *printed, const TrackerFrame *frames, guint n)
{
	g_autoptr(GArray) users = pd_printed_values(printed, "skel-users", 0);

	g_assert_cmpuint(users->len, >, 0);
	for (guint i = 0; i < users->len; i++) {
		gboolean seen = FALSE;

		for (guint k = 0; k < n; k++)
			seen |= g_array_index(users, double, i) == frames[k].n_users;
		g_assert_true(seen);
	}
	g_assert_cmpfloat(g_array_index(users, double, users->len - 1), ==, frames[n - 1].n_users);
}

/* Users 1 and 2 of the crowd, in number boxes and figures, from the
 * default mapping on its own port; the third person stays out of both. */
static void
test_skeleton_monitor(void)
{
	const TrackerFrame *frames = scene_truth(MONITOR_SCENE, MONITOR_FRAMES);
	g_autoptr(PdHarness) pd = pd_harness_new("skeleton-monitor");
	g_autoptr(GHashTable) expected = expected_new();
	g_autofree char *n = g_strdup_printf("%u", MONITOR_FRAMES);
	const char *argv[] = { testutil_binary(), "run",      "--source", "demo:" MONITOR_SCENE,
		               "--fast",          "--frames", n,          "--skeletons",
		               "truth",           NULL };
	g_autoptr(GPtrArray) printed = NULL;

	for (guint id = 1; id <= 2; id++) {
		expect_monitor_user(expected, frames, MONITOR_FRAMES, id);
		read_figure(pd, id);
	}
	print_expected(pd, expected);
	g_assert_cmpuint(g_hash_table_size(expected), ==, 2 * 3 * TRACKER_N_JOINTS);
	pd_harness_print(pd, "skel-users");
	printed = pd_run(pd, argv, expected_total(expected));
	if (printed == NULL)
		return;
	check_printed(printed, expected);
	for (guint id = 1; id <= 2; id++)
		check_figure(printed, frames, MONITOR_FRAMES, id);
	check_users(printed, frames, MONITOR_FRAMES);
}

/* ---- hands-theremin ---- */

/* What the patch plays, in the order it plays it. */
typedef struct {
	const char *name; /* theremin-pitch, theremin-amp or theremin-note */
	double value;
} ThereminEvent;

typedef struct {
	GArray *events; /* ThereminEvent */
	/* what the patch holds between messages */
	double torso_y, shoulder_z[2], pitch;
	gboolean pushed[2];
} Theremin;

static void
theremin_play(Theremin *t, const char *name, double value)
{
	ThereminEvent e = { name, value };

	g_array_append_val(t->events, e);
}

/* A push: the hand 45 cm in front of its shoulder after having been back
 * within 30 cm; it plays a note at the pitch of the moment. */
static void
theremin_depth(Theremin *t, guint side, double depth)
{
	gboolean pushed = depth < 0.3 ? FALSE : depth >= 0.45 ? TRUE : t->pushed[side];

	if (pushed && !t->pushed[side])
		theremin_play(t, "theremin-note", t->pitch);
	t->pushed[side] = pushed;
}

/* The right hand's height over the torso: C3 at -0.4 m to C6 at +0.8 m. */
static double
theremin_pitch(double height)
{
	double note = CLAMP(48 + (height + 0.4) * 30, 48, 84);

	return 440 * pow(2, (note - 69) / 12);
}

/* One user's frame, joint by joint as the default mapping sends them (its
 * metres, float32); each hand's depth before its height, as [unpack] gives
 * z before y. */
static void
theremin_frame(Theremin *t, const TrackerUser *user)
{
	for (guint j = 0; j < TRACKER_N_JOINTS; j++) {
		const TrackerVec3 *p = &user->joints[j].position;
		double y = (float)(p->y / 1000), z = (float)(p->z / 1000);

		if (!joint_found(user, j))
			continue;
		if (j == TRACKER_JOINT_TORSO)
			t->torso_y = y;
		if (j == TRACKER_JOINT_LEFT_SHOULDER || j == TRACKER_JOINT_RIGHT_SHOULDER)
			t->shoulder_z[j - TRACKER_JOINT_LEFT_SHOULDER] = z;
		if (j == TRACKER_JOINT_LEFT_HAND) {
			theremin_depth(t, 0, t->shoulder_z[0] - z);
			theremin_play(t, "theremin-amp", CLAMP(y - t->torso_y + 0.3, 0, 1));
		}
		if (j == TRACKER_JOINT_RIGHT_HAND) {
			theremin_depth(t, 1, t->shoulder_z[1] - z);
			t->pitch = theremin_pitch(y - t->torso_y);
			theremin_play(t, "theremin-pitch", t->pitch);
		}
	}
}

static const char *const theremin_names[] = { "theremin-pitch", "theremin-amp", "theremin-note" };

/* The printed events, in order, are the expected ones. */
static void
check_theremin(const GPtrArray *printed, const GArray *want)
{
	guint k = 0;

	for (guint i = 0; i < printed->len; i++) {
		const PdPrinted *p = g_ptr_array_index(printed, i);
		const ThereminEvent *e;

		if (!g_strv_contains(theremin_names, p->name))
			continue;
		if (k == want->len) {
			g_test_fail_printf("%s %g: more than the scene plays", p->name,
			                   p->values[0]);
			return;
		}
		e = &g_array_index(want, ThereminEvent, k++);
		if (strcmp(p->name, e->name) != 0 || !close_enough(p->values[0], e->value)) {
			g_test_fail_printf("event %u is %s %g, the scene plays %s %g", k - 1,
			                   p->name, p->values[0], e->name, e->value);
			return;
		}
	}
	g_assert_cmpuint(k, ==, want->len);
}

/* What the theremin plays for user 1 over the first @n frames; it falls
 * silent when the user is lost. */
static GArray *
theremin_expected(const TrackerFrame *frames, guint n)
{
	GArray *events = g_array_new(FALSE, FALSE, sizeof(ThereminEvent));
	Theremin t = { events, 0, { 0, 0 }, 0, { FALSE, FALSE } };
	gboolean there = FALSE;

	for (guint k = 0; k < n; k++) {
		const TrackerUser *user = tracker_frame_find_user(&frames[k], 1);

		if (user == NULL && there)
			theremin_play(&t, "theremin-amp", 0);
		there = user != NULL;
		if (there)
			theremin_frame(&t, user);
	}
	return events;
}

static guint
theremin_count(const GArray *events, const char *name, double value)
{
	guint n = 0;

	for (guint i = 0; i < events->len; i++) {
		const ThereminEvent *e = &g_array_index(events, ThereminEvent, i);

		n += strcmp(e->name, name) == 0 && (value < 0 || e->value == value);
	}
	return n;
}

static void
run_hands_theremin(const char *scene, const GArray *events)
{
	g_autofree char *source = g_strconcat("demo:", scene, NULL);
	g_autoptr(PdHarness) pd = pd_harness_new("hands-theremin");
	const char *argv[] = { testutil_binary(), "run",         "--source", source,
		               "--fast",          "--skeletons", "truth",    NULL };
	g_autoptr(GPtrArray) printed = NULL;

	for (guint i = 0; i < G_N_ELEMENTS(theremin_names); i++)
		pd_harness_print(pd, theremin_names[i]);
	printed = pd_run(pd, argv, events->len);
	if (printed != NULL)
		check_theremin(printed, events);
}

/* The poses: every pitch and volume the hands set, and a note for each
 * push, in the order the patch plays them. */
static void
test_hands_theremin(void)
{
	const TrackerFrame *frames = scene_truth("poses", POSES_FRAMES);
	g_autoptr(GArray) events = theremin_expected(frames, POSES_FRAMES);

	/* the right hand pushes, then both, then each hand points forward */
	g_assert_cmpuint(theremin_count(events, "theremin-note", -1), ==, 4);
	run_hands_theremin("poses", events);
}

/* Someone walks in, out, in again and out: the theremin plays while they
 * are in view and falls silent each time they go. */
static void
test_hands_theremin_silence(void)
{
	const TrackerFrame *frames = scene_truth("walk", WALK_FRAMES);
	g_autoptr(GArray) events = theremin_expected(frames, WALK_FRAMES);

	g_assert_cmpuint(theremin_count(events, "theremin-amp", 0), >=, 2);
	run_hands_theremin("walk", events);
}

/* ---- tuio-cursors ---- */

#define TUIO_PORT   3333
#define TUIO_FRAMES 600 /* the pushes, then empty frames */

/* The frames the bridge's TUIO parts send for the truth, with the TUIO
 * state's default settings (ids and fseq from @seed), ending with the last,
 * empty frame. */
static GArray *
tuio_expected(const TrackerFrame *frames, guint n, gint32 seed)
{
	GArray *out = g_array_new(FALSE, FALSE, sizeof(TuioFrame));
	g_autoptr(TuioState) state = NULL;
	TuioConfig config;
	TuioFrame frame;

	tuio_config_init(&config);
	state = tuio_state_new(&config, seed);
	for (guint k = 0; k < n; k++) {
		if (tuio_state_update(state, &frames[k], &frame))
			g_array_append_val(out, frame);
	}
	tuio_state_finish(state, frames[n - 1].time_us, &frame);
	g_array_append_val(out, frame);
	return out;
}

/* The harness prints tuio-cursor and tuio-frame with whole ids: Pd prints
 * a float with six digits, and ids and fseq run to 2^24. */
static void
tuio_print(PdHarness *pd, const char *name, guint n_values)
{
	g_autoptr(GString) unpack = g_string_new("unpack");
	g_autoptr(GString) pack = g_string_new("pack s");
	guint r = pd_harness_obj(pd, "r %s", name);
	guint u, whole, p;

	for (guint i = 0; i < n_values; i++)
		g_string_append(unpack, " f");
	for (guint i = 1; i < n_values; i++)
		g_string_append(pack, " f");
	u = pd_harness_obj(pd, "%s", unpack->str);
	whole = pd_harness_obj(pd, "makefilename %%d");
	p = pd_harness_obj(pd, "%s", pack->str);
	pd_harness_connect(pd, r, 0, u, 0);
	pd_harness_connect(pd, u, 0, whole, 0);
	pd_harness_connect(pd, whole, 0, p, 0);
	for (guint i = 1; i < n_values; i++)
		pd_harness_connect(pd, u, i, p, i);
	pd_harness_connect(pd, p, 0, pd_harness_obj(pd, "print %s", name), 0);
}

/* What the patch showed after each frame: the cursors it sent before each
 * tuio-frame; of a frame that came in several bundles, the last. */
static GArray *
tuio_seen(const GPtrArray *printed)
{
	GArray *seen = g_array_new(FALSE, FALSE, sizeof(TuioFrame));
	TuioFrame frame = { 0 };

	for (guint i = 0; i < printed->len; i++) {
		const PdPrinted *p = g_ptr_array_index(printed, i);

		if (strcmp(p->name, "tuio-cursor") == 0 && p->n_values == 3) {
			TuioCursor *c = &frame.cursors[frame.n_cursors++];

			g_assert_cmpuint(frame.n_cursors, <=, TUIO_MAX_CURSORS);
			c->session = (gint32)p->values[0];
			c->x = (float)p->values[1];
			c->y = (float)p->values[2];
		} else if (strcmp(p->name, "tuio-frame") == 0 && p->n_values == 2) {
			frame.fseq = (gint32)p->values[0];
			g_assert_cmpfloat(p->values[1], ==, frame.n_cursors);
			if (seen->len > 0 &&
			    g_array_index(seen, TuioFrame, seen->len - 1).fseq == frame.fseq)
				g_array_index(seen, TuioFrame, seen->len - 1) = frame;
			else
				g_array_append_val(seen, frame);
			frame.n_cursors = 0;
		}
	}
	return seen;
}

static gboolean
tuio_enough_frames(const char *log, gpointer user_data)
{
	g_autoptr(GPtrArray) printed = pd_printed_parse(log);
	g_autoptr(GArray) seen = tuio_seen(printed);

	return seen->len >= GPOINTER_TO_UINT(user_data);
}

/* Seen and expected ids go together, one to one. */
#define SIGN(x) (((x) > 0) - ((x) < 0))

static gboolean
tuio_same_id(GHashTable *ids, GHashTable *back, gint32 want, gint32 got)
{
	gpointer had = g_hash_table_lookup(ids, GINT_TO_POINTER(want));

	if (had == NULL && g_hash_table_lookup(back, GINT_TO_POINTER(got)) == NULL) {
		g_hash_table_insert(ids, GINT_TO_POINTER(want), GINT_TO_POINTER(got));
		g_hash_table_insert(back, GINT_TO_POINTER(got), GINT_TO_POINTER(want));
		return TRUE;
	}
	return GPOINTER_TO_INT(had) == got;
}

/* Frame by frame, the patch showed the cursors the bridge sent: as many,
 * with ids that follow the same hands, in the same places. The sender's
 * ids and fseq start from the clock, and its fseq keeps up with the clock
 * when frames come slower than 30 a second (a bridge starting, a slow
 * machine): only where fseq rises, where it stays (the parts of a split
 * frame) and where it falls is compared. */
static void
check_tuio(const GArray *seen, const GArray *want)
{
	g_autoptr(GHashTable) ids = g_hash_table_new(NULL, NULL);
	g_autoptr(GHashTable) back = g_hash_table_new(NULL, NULL);

	g_assert_cmpuint(seen->len, ==, want->len);
	for (guint i = 0; i < want->len; i++) {
		const TuioFrame *s = &g_array_index(seen, TuioFrame, i);
		const TuioFrame *w = &g_array_index(want, TuioFrame, i);
		const TuioFrame *s_before = &g_array_index(seen, TuioFrame, i ? i - 1 : 0);
		const TuioFrame *w_before = &g_array_index(want, TuioFrame, i ? i - 1 : 0);

		g_assert_cmpint(SIGN(s->fseq - s_before->fseq), ==, SIGN(w->fseq - w_before->fseq));
		g_assert_cmpuint(s->n_cursors, ==, w->n_cursors);
		for (guint c = 0; c < w->n_cursors; c++) {
			const TuioCursor *sc = &s->cursors[c], *wc = &w->cursors[c];

			if (!tuio_same_id(ids, back, wc->session, sc->session) ||
			    !close_enough(sc->x, wc->x) || !close_enough(sc->y, wc->y)) {
				g_test_fail_printf(
				        "frame %u, cursor %u: %d at %g %g, the bridge sent "
				        "%d at %g %g",
				        i, c, sc->session, sc->x, sc->y, wc->session, wc->x, wc->y);
				return;
			}
		}
	}
}

/* The poses' pushes as the bridge sends them with the shipped tuio-hands
 * mapping; with @max_packet, through a mapping that caps bundles at that
 * many bytes, so that frames split. */
static void
run_tuio_cursors(const char *max_packet)
{
	const TrackerFrame *frames = scene_truth("poses", TUIO_FRAMES);
	g_autoptr(GArray) want = tuio_expected(frames, TUIO_FRAMES, 1);
	g_autoptr(PdHarness) pd = pd_harness_new("tuio-cursors");
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *small = g_build_filename(dir, "small.map", NULL);
	g_autofree char *text = g_strdup_printf("[mapping]\nformat = 1\n\n[output tuio]\n"
	                                        "kind = tuio\nmax_packet = %s\n",
	                                        max_packet ? max_packet : "1472");
	const char *argv[] = { testutil_binary(),
		               "run",
		               "--skeletons",
		               "truth",
		               "--mapping",
		               max_packet ? small : "tuio-hands",
		               "--source",
		               "demo:poses",
		               "--fast",
		               "--frames",
		               G_STRINGIFY(TUIO_FRAMES),
		               NULL };
	g_autofree char *log = NULL;
	g_autoptr(GPtrArray) printed = NULL;
	g_autoptr(GArray) seen = NULL;
	guint most = 0;

	testutil_write_file(small, text, strlen(text));
	for (guint i = 0; i < want->len; i++)
		most = MAX(most, g_array_index(want, TuioFrame, i).n_cursors);
	g_assert_cmpuint(most, ==, 2);
	tuio_print(pd, "tuio-cursor", 3);
	tuio_print(pd, "tuio-frame", 2);
	if (pd_harness_start(pd)) {
		run_to_end(argv);
		if (pd_harness_wait_until(pd, tuio_enough_frames, GUINT_TO_POINTER(want->len)) &&
		    (log = pd_harness_quit(pd)) != NULL) {
			printed = pd_printed_parse(log);
			seen = tuio_seen(printed);
			check_tuio(seen, want);
		}
	}
	testutil_rmdir(dir);
}

/* A hand that pushes is a cursor, followed until it lets go; two at once
 * when both push. */
static void
test_tuio_cursors(void)
{
	run_tuio_cursors(NULL);
}

/* A frame in several bundles, each with the whole alive list and one set,
 * shows all its cursors once its last bundle is in. */
static void
test_tuio_split_frames(void)
{
	run_tuio_cursors("200");
}

/* Sends @frame to the example's port as the bridge lays it out. */
static void
tuio_send(GSocket *socket, GSocketAddress *to, const TuioFrame *frame)
{
	g_autoptr(TuioPacked) packed = tuio_packed_new();
	g_autoptr(OscEncodePackets) packets = osc_encode_packets_new();
	g_autoptr(GError) error = NULL;

	tuio_pack(frame, TUIO_PROFILE_2DCUR, "skelbridge@test", 1472, packed);
	osc_encode_bundles((MessageBatch *const *)packed->bundles->pdata, packed->n_bundles,
	                   g_get_real_time(), packets);
	for (guint i = 0; i < packets->spans->len; i++) {
		const OscEncodeSpan *span = &g_array_index(packets->spans, OscEncodeSpan, i);

		g_assert_cmpint(g_socket_send_to(socket, to,
		                                 (const char *)packets->data->data + span->offset,
		                                 span->length, NULL, &error),
		                ==, span->length);
		g_assert_no_error(error);
	}
}

static TuioFrame
tuio_frame(gint32 fseq, guint n, const TuioCursor *cursors)
{
	TuioFrame frame = { 0 };

	frame.fseq = fseq;
	frame.n_cursors = n;
	for (guint i = 0; i < n; i++)
		frame.cursors[i] = cursors[i];
	return frame;
}

/* As TUIO clients do: a bundle numbered below the last one by up to 100
 * came late and is dropped; one further below is a sender that started
 * again; -1 marks a repeat, taken as it comes. */
static void
test_tuio_late_bundles(void)
{
	static const TuioCursor a = { .session = 7, .x = 0.1f, .y = 0.2f };
	static const TuioCursor a2 = { .session = 7, .x = 0.3f, .y = 0.4f };
	static const TuioCursor b = { .session = 8, .x = 0.5f, .y = 0.6f };
	static const TuioCursor b2 = { .session = 8, .x = 0.7f, .y = 0.8f };
	static const TuioCursor b3 = { .session = 8, .x = 0.75f, .y = 0.85f };
	static const TuioCursor c = { .session = 9, .x = 0.9f, .y = 0.9f };
	const TuioCursor both[] = { a2, b };
	const TuioFrame sent[] = {
		tuio_frame(1000, 1, &a),  tuio_frame(1001, 2, both), tuio_frame(990, 1, &c),
		tuio_frame(1002, 1, &b2), tuio_frame(-1, 1, &b3),    tuio_frame(500, 0, NULL),
	};
	const guint shown[] = { 0, 1, 3, 4, 5 };
	g_autoptr(PdHarness) pd = pd_harness_new("tuio-cursors");
	g_autoptr(GSocket) socket =
	        g_socket_new(G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_DATAGRAM, 0, NULL);
	g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback(G_SOCKET_FAMILY_IPV4);
	g_autoptr(GSocketAddress) to = g_inet_socket_address_new(loopback, TUIO_PORT);
	g_autofree char *log = NULL;
	g_autoptr(GPtrArray) printed = NULL;
	g_autoptr(GArray) seen = NULL;
	g_autoptr(GArray) want = g_array_new(FALSE, FALSE, sizeof(TuioFrame));

	for (guint i = 0; i < G_N_ELEMENTS(shown); i++)
		g_array_append_val(want, sent[shown[i]]);
	tuio_print(pd, "tuio-cursor", 3);
	tuio_print(pd, "tuio-frame", 2);
	if (!pd_harness_start(pd))
		return;
	for (guint i = 0; i < G_N_ELEMENTS(sent); i++)
		tuio_send(socket, to, &sent[i]);
	if (!pd_harness_wait_until(pd, tuio_enough_frames, GUINT_TO_POINTER(want->len)) ||
	    (log = pd_harness_quit(pd)) == NULL)
		return;
	printed = pd_printed_parse(log);
	seen = tuio_seen(printed);
	g_assert_cmpuint(seen->len, ==, want->len);
	for (guint i = 0; i < want->len; i++)
		g_assert_cmpint(g_array_index(seen, TuioFrame, i).fseq, ==,
		                g_array_index(want, TuioFrame, i).fseq);
	check_tuio(seen, want);
}

/* ---- osceleton-compat ---- */

static const char *const osceleton_names[TRACKER_N_JOINTS] = {
	"head",   "neck",  "torso", "l_shoulder", "r_shoulder", "l_elbow", "r_elbow", "l_hand",
	"r_hand", "l_hip", "r_hip", "l_knee",     "r_knee",     "l_foot",  "r_foot",
};

/* User 1's joints as OSCeleton scales them: osceleton-JOINT-x, -y, -z. */
static void
expect_osceleton_joints(GHashTable *expected, const TrackerUser *user)
{
	for (guint j = 0; j < TRACKER_N_JOINTS; j++) {
		const TrackerVec3 *p = &user->joints[j].position;
		double xyz[3] = { (1280 - p->x) / 2560, (960 - p->y) / 1920, p->z / 1280 };

		if (!joint_found(user, j))
			continue;
		for (guint a = 0; a < 3; a++) {
			g_autofree char *name =
			        g_strdup_printf("osceleton-%s-%c", osceleton_names[j], "xyz"[a]);

			expect_value(expected, name, xyz[a]);
		}
	}
}

/* Users coming, complete and going, and how many are in view. */
/* @announced holds the users whose new_skel went out. */
static void
expect_osceleton_events(GHashTable *expected, const TrackerFrame *previous,
                        const TrackerFrame *frame, GHashTable *announced, double *users)
{
	for (guint u = 0; u < frame->n_users; u++) {
		const TrackerUser *user = &frame->users[u];

		if (tracker_frame_find_user(previous, user->id) == NULL) {
			expect_value(expected, "osceleton-new_user", user->id);
			expect_value(expected, "osceleton-users", ++*users);
		}
		if (!g_hash_table_contains(announced, GUINT_TO_POINTER(user->id)) &&
		    testutil_user_complete(user)) {
			expect_value(expected, "osceleton-new_skel", user->id);
			g_hash_table_add(announced, GUINT_TO_POINTER(user->id));
		}
	}
	for (guint u = 0; u < previous->n_users; u++) {
		guint id = previous->users[u].id;

		if (tracker_frame_find_user(frame, id) != NULL)
			continue;
		expect_value(expected, "osceleton-lost_user", id);
		expect_value(expected, "osceleton-users", --*users);
		/* a user who comes back is new again, and so is their skeleton */
		g_hash_table_remove(announced, GUINT_TO_POINTER(id));
	}
}

/* A patch written for OSCeleton follows user 1 of the walk, as they come,
 * leave, come back and leave again. */
/* ---- grip-stage ---- */

#define GRIP_SCENE  "zone-grip"
#define GRIP_FRAMES 360 /* the whole scene: in, fists, out */
/* The stage mapping's [zone stage], camera space, and the grip's release. */
#define STAGE_MARGIN    100.0
#define GRIP_RELEASE_US 300000

typedef struct {
	gboolean on_stage;
	gboolean closed[2]; /* as the bridge tells a fist */
	gint64 unsure_us[2];
	gboolean sounding[2];
} GripUser;

static gboolean
stage_within(TrackerVec3 p, double margin)
{
	return fabs(p.x) <= 1000 + margin && fabs(p.y) <= 2000 + margin && p.z >= 1500 - margin &&
	       p.z <= 2600 + margin;
}

/* A fist closes when the scene closes it; it opens when the scene opens it
 * or after GRIP_RELEASE_US of not being seen closed. */
static gboolean
grip_closed(GripUser *g, int side, const TrackerUser *user, gint64 now)
{
	TrackerHandState state = user->hands[side].state;

	if (user->joints[TRACKER_JOINT_LEFT_HAND + side].confidence <= 0)
		state = TRACKER_HAND_UNKNOWN;
	if (state == TRACKER_HAND_CLOSED || state == TRACKER_HAND_OPEN) {
		g->unsure_us[side] = -1;
		return state == TRACKER_HAND_CLOSED;
	}
	if (!g->closed[side])
		return FALSE;
	if (g->unsure_us[side] < 0)
		g->unsure_us[side] = now;
	return now - g->unsure_us[side] < GRIP_RELEASE_US;
}

/* One user's frame: onto or off the stage by the torso, then the fists of
 * a user on it start and stop their notes. */
static void
grip_user(GripUser *g, const TrackerUser *user, gint64 now)
{
	const TrackerJoint *torso = &user->joints[TRACKER_JOINT_TORSO];

	if (torso->confidence > 0)
		g->on_stage = stage_within(torso->position, g->on_stage ? STAGE_MARGIN : 0);
	for (int side = 0; side < 2; side++) {
		gboolean closed = grip_closed(g, side, user, now);

		if (closed != g->closed[side] && g->on_stage)
			g->sounding[side] = closed;
		g->closed[side] = closed;
	}
}

/* The gates grip-left and grip-right that the patch prints, in order. */
static GHashTable *
grip_expected(const TrackerFrame *frames, guint n)
{
	static const char *const names[2] = { "grip-left", "grip-right" };
	GHashTable *expected = expected_new();
	GripUser users[64] = { 0 };
	gboolean gate[2] = { FALSE, FALSE };

	for (guint i = 0; i < G_N_ELEMENTS(users); i++)
		users[i].unsure_us[0] = users[i].unsure_us[1] = -1;
	for (guint k = 0; k < n; k++) {
		guint on_stage = 0;

		for (guint i = 0; i < G_N_ELEMENTS(users); i++) {
			const TrackerUser *user = tracker_frame_find_user(&frames[k], i);

			if (user == NULL)
				users[i] = (GripUser){ .unsure_us = { -1, -1 } };
			else
				grip_user(&users[i], user, frames[k].time_us);
			on_stage += users[i].on_stage;
		}
		for (int side = 0; side < 2; side++) {
			gboolean any = FALSE;

			for (guint i = 0; i < G_N_ELEMENTS(users); i++) {
				users[i].sounding[side] &= on_stage > 0;
				any |= users[i].sounding[side];
			}
			if (any != gate[side])
				expect_value(expected, names[side], any);
			gate[side] = any;
		}
	}
	return expected;
}

/* Someone walks onto the stage and closes the right hand twice: a note for
 * each fist, stopped as it opens; nothing before the stage, nothing after. */
static void
test_grip_stage(void)
{
	const TrackerFrame *frames = scene_truth(GRIP_SCENE, GRIP_FRAMES);
	g_autoptr(GHashTable) expected = grip_expected(frames, GRIP_FRAMES);
	g_autoptr(PdHarness) pd = pd_harness_new("grip-stage");
	const char *argv[] = { testutil_binary(), "run",       "--source", "demo:" GRIP_SCENE,
		               "--fast",          "--mapping", "stage",    "--skeletons",
		               "truth",           NULL };
	GArray *right = g_hash_table_lookup(expected, "grip-right");
	g_autoptr(GPtrArray) printed = NULL;

	g_assert_nonnull(right);
	g_assert_cmpuint(right->len, ==, 4);
	print_expected(pd, expected);
	printed = pd_run(pd, argv, expected_total(expected));
	if (printed != NULL)
		check_printed(printed, expected);
}

static void
test_osceleton_compat(void)
{
	const TrackerFrame *frames = scene_truth("walk", WALK_FRAMES);
	g_autoptr(PdHarness) pd = pd_harness_new("osceleton-compat");
	g_autoptr(GHashTable) expected = expected_new();
	g_autoptr(GHashTable) announced = g_hash_table_new(NULL, NULL);
	const TrackerFrame nobody = { 0 };
	const char *argv[] = { testutil_binary(), "run",       "--source",    "demo:walk", "--fast",
		               "--mapping",       "osceleton", "--skeletons", "truth",     NULL };
	g_autoptr(GPtrArray) printed = NULL;
	GArray *lost;
	double users = 0;

	for (guint k = 0; k < WALK_FRAMES; k++) {
		const TrackerUser *user = tracker_frame_find_user(&frames[k], 1);

		expect_osceleton_events(expected, k > 0 ? &frames[k - 1] : &nobody, &frames[k],
		                        announced, &users);
		if (user != NULL)
			expect_osceleton_joints(expected, user);
	}
	lost = g_hash_table_lookup(expected, "osceleton-lost_user");
	g_assert_nonnull(lost);
	g_assert_cmpuint(lost->len, >=, 2);
	print_expected(pd, expected);
	printed = pd_run(pd, argv, expected_total(expected));
	if (printed != NULL)
		check_printed(printed, expected);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/pd-examples/load-in-vanilla-pd", test_examples_load);
	g_test_add_func("/pd-examples/skeleton-monitor/shows-users-1-and-2", test_skeleton_monitor);
	g_test_add_func("/pd-examples/hands-theremin/plays-the-poses", test_hands_theremin);
	g_test_add_func("/pd-examples/hands-theremin/falls-silent-when-the-user-goes",
	                test_hands_theremin_silence);
	g_test_add_func("/pd-examples/tuio-cursors/follow-the-pushing-hands", test_tuio_cursors);
	g_test_add_func("/pd-examples/tuio-cursors/split-frames", test_tuio_split_frames);
	g_test_add_func("/pd-examples/tuio-cursors/drop-late-bundles", test_tuio_late_bundles);
	g_test_add_func("/pd-examples/grip-stage/a-fist-on-the-stage-plays", test_grip_stage);
	g_test_add_func("/pd-examples/osceleton-compat/old-patches-keep-working",
	                test_osceleton_compat);
	return g_test_run();
}
