/* Benchmark: how well the gesture recognisers do on the demo scene. Replays
 * the routine, which performs every gesture, and prints precision and
 * recall per gesture; then replays five minutes of ordinary movement and
 * prints the false events. Skeletons come from the bridge's two backends:
 * the demo's truth (and the truth again, several times, with the joints
 * jittered), then the skeleton tracker on the rendered depth, noise and
 * all. Prints figures; asserts nothing.
 * Run with: meson test -C build --benchmark --verbose gesture */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "demo/demo-scene.h"
#include "gesture/gesture.h"
#include "skeletons/skeletons.h"

/* A user is the actor whose torso is this close to the user's centre. */
#define MAX_ACTOR_DISTANCE_MM 600.0
/* The jitter of the second pass: a standard deviation per axis, mm; each
 * run draws it afresh. */
#define JITTER_MM   10.0
#define JITTER_RUNS 5

/* One frame's skeletons, and which actor each user is. */
typedef struct {
	TrackerFrame frame;
	guint actors[TRACKER_MAX_USERS];
} Recorded;

typedef struct {
	GestureEvent event;
	guint actor; /* 0: nobody the script knows */
} Detection;

/* The actor a user is: ids from a real tracker are its own, so go by where
 * the user stands. */
static guint
actor_of_user(const DemoTruth *truth, const TrackerUser *user)
{
	double best = MAX_ACTOR_DISTANCE_MM;
	guint actor = 0;

	for (guint i = 0; i < truth->n_people; i++) {
		const DemoTruthPerson *p = &truth->people[i];
		double d = tracker_vec3_distance(user->centre, p->joints[TRACKER_JOINT_TORSO]);

		if (d < best) {
			best = d;
			actor = p->id;
		}
	}
	return actor;
}

/* The skeletons backends scored, as the bridge runs them. */
static const char *const backends[] = { "truth", "tracker" };
#define N_BACKENDS G_N_ELEMENTS(backends)

/* Renders one pass of @scene and turns each frame into skeletons by every
 * backend: done once, replayed through the recognisers as often as needed. */
static void
record_scene(DemoScene *scene, GArray *recorded[N_BACKENDS])
{
	g_autoptr(DepthFrame) depth = depth_frame_new();
	guint64 n = demo_scene_n_frames(scene);
	Skeletons *skeletons[N_BACKENDS];

	for (guint b = 0; b < N_BACKENDS; b++) {
		skeletons[b] = skeletons_open(backends[b], NULL);
		g_assert_nonnull(skeletons[b]);
		recorded[b] = g_array_sized_new(FALSE, TRUE, sizeof(Recorded), n);
		g_array_set_size(recorded[b], n);
	}
	for (guint64 k = 0; k < n; k++) {
		demo_scene_render(scene, k, depth);
		for (guint b = 0; b < N_BACKENDS; b++) {
			Recorded *r = &g_array_index(recorded[b], Recorded, k);

			skeletons_process(skeletons[b], depth, &r->frame, NULL);
			for (guint u = 0; u < r->frame.n_users; u++)
				r->actors[u] = actor_of_user(depth->truth, &r->frame.users[u]);
		}
	}
	for (guint b = 0; b < N_BACKENDS; b++)
		skeletons_free(skeletons[b]);
}

/* Normal noise (sum of uniforms), deterministic for a given @rand. */
static double
jitter_sample(GRand *rand, double sigma)
{
	double sum = 0.0;

	for (int i = 0; i < 12; i++)
		sum += g_rand_double(rand);
	return (sum - 6.0) * sigma;
}

static void
jitter_frame(TrackerFrame *frame, GRand *rand, double sigma)
{
	for (guint u = 0; u < frame->n_users; u++) {
		for (int j = 0; j < TRACKER_N_JOINTS; j++) {
			TrackerVec3 *p = &frame->users[u].joints[j].position;

			p->x += jitter_sample(rand, sigma);
			p->y += jitter_sample(rand, sigma);
			p->z += jitter_sample(rand, sigma);
		}
	}
}

/* Nanoseconds: a recogniser's frame takes about a microsecond. */
static double
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void
keep_events(const Recorded *r, const TrackerFrame *frame, const GestureEvent *events, guint n,
            GArray *detections)
{
	for (guint i = 0; i < n; i++) {
		Detection d = { events[i], 0 };

		for (guint u = 0; u < frame->n_users; u++) {
			if (frame->users[u].id == events[i].user)
				d.actor = r->actors[u];
		}
		g_array_append_val(detections, d);
	}
}

/* Every recorded frame through a fresh recogniser with the defaults, the
 * joints jittered by @sigma mm drawn from @seed; the microseconds it took
 * are added to @us. */
static GArray *
recognise(GArray *recorded, double sigma, guint32 seed, double *us)
{
	g_autoptr(GestureRecognizer) recognizer = gesture_recognizer_new(NULL);
	g_autoptr(GRand) rand = g_rand_new_with_seed(seed);
	GArray *detections = g_array_new(FALSE, FALSE, sizeof(Detection));

	for (guint k = 0; k < recorded->len; k++) {
		const Recorded *r = &g_array_index(recorded, Recorded, k);
		GestureEvent events[GESTURE_MAX_EVENTS];
		TrackerFrame frame = r->frame;
		double t0;
		guint n;

		if (sigma > 0.0)
			jitter_frame(&frame, rand, sigma);
		t0 = now_us();
		n = gesture_recognizer_process(recognizer, &frame, frame.time_us, events);
		*us += now_us() - t0;
		keep_events(r, &frame, events, n, detections);
	}
	return detections;
}

static gboolean
detection_matches(const Detection *d, const DemoGesture *g)
{
	double t = d->event.time_us / (double)G_USEC_PER_SEC;

	return strcmp(gesture_kind_to_str(d->event.kind), g->gesture) == 0 &&
	       d->actor == g->actor && strcmp(gesture_hand_to_str(d->event.hand), g->hand) == 0 &&
	       t >= g->start && t <= g->end;
}

typedef struct {
	guint expected, found, detected;
} Score;

static void
print_detection(const char *what, const Detection *d)
{
	printf("  %s: %s by actor %u (user %u), %s hand, at %.2f s\n", what,
	       gesture_kind_to_str(d->event.kind), d->actor, d->event.user,
	       gesture_hand_to_str(d->event.hand), d->event.time_us / (double)G_USEC_PER_SEC);
}

/* The detection that stands for scripted gesture @g, or -1. */
static int
find_match(GArray *detections, const gboolean *used, const DemoGesture *g)
{
	for (guint i = 0; i < detections->len; i++) {
		if (!used[i] && detection_matches(&g_array_index(detections, Detection, i), g))
			return (int)i;
	}
	return -1;
}

/* Pairs each scripted gesture with at most one detection; the rest of the
 * detections are false. */
static void
score(const DemoGesture *gestures, guint n, GArray *detections, Score scores[GESTURE_N_KINDS])
{
	g_autofree gboolean *used = g_new0(gboolean, detections->len + 1);

	for (guint i = 0; i < detections->len; i++)
		scores[g_array_index(detections, Detection, i).event.kind].detected++;
	for (guint k = 0; k < n; k++) {
		GestureKind kind;
		int i = find_match(detections, used, &gestures[k]);

		g_assert_true(gesture_kind_from_str(gestures[k].gesture, &kind));
		scores[kind].expected++;
		if (i < 0) {
			printf("  missed: %s by actor %u, %s hand, between %.2f and %.2f s\n",
			       gestures[k].gesture, gestures[k].actor, gestures[k].hand,
			       gestures[k].start, gestures[k].end);
			continue;
		}
		used[i] = TRUE;
		scores[kind].found++;
	}
	for (guint i = 0; i < detections->len; i++) {
		if (!used[i])
			print_detection("false", &g_array_index(detections, Detection, i));
	}
}

static void
print_ratio(guint num, guint den)
{
	if (den == 0)
		printf(" %9s", "-");
	else
		printf(" %9.2f", (double)num / den);
}

static void
print_scores(const Score scores[GESTURE_N_KINDS])
{
	Score all = { 0, 0, 0 };

	printf("  %-12s %8s %6s %6s %9s %9s\n", "gesture", "expected", "found", "false",
	       "precision", "recall");
	for (guint k = 0; k <= GESTURE_N_KINDS; k++) {
		const Score *s = k < GESTURE_N_KINDS ? &scores[k] : &all;

		printf("  %-12s %8u %6u %6u", k < GESTURE_N_KINDS ? gesture_kind_to_str(k) : "all",
		       s->expected, s->found, s->detected - s->found);
		print_ratio(s->found, s->detected);
		print_ratio(s->found, s->expected);
		printf("\n");
		all.expected += s->expected;
		all.found += s->found;
		all.detected += s->detected;
	}
}

/* With no gesture scripted, every detection is false. */
static void
print_false_events(const Score scores[GESTURE_N_KINDS], double seconds)
{
	guint total = 0;

	printf("  false events:");
	for (guint k = 0; k < GESTURE_N_KINDS; k++) {
		printf(" %s %u%s", gesture_kind_to_str(k), scores[k].detected,
		       k + 1 < GESTURE_N_KINDS ? "," : "\n");
		total += scores[k].detected;
	}
	printf("  total: %u false events in %.0f s\n", total, seconds);
}

/* Scores @runs passes of @scene, its skeletons @recorded by @backend,
 * jittered by @sigma (a new draw each run). */
static void
bench_scene(DemoScene *scene, const char *backend, GArray *recorded, double sigma, guint runs)
{
	const DemoScript *script = demo_scene_script(scene);
	Score scores[GESTURE_N_KINDS] = { { 0, 0, 0 } };
	double seconds = recorded->len / (double)DEMO_FPS, us = 0.0;
	const DemoGesture *gestures;
	guint n;

	gestures = demo_scene_gestures(scene, &n);
	printf("%s: %.1f s, %u frames, %u people; skeletons from %s", script->name, seconds,
	       recorded->len, script->n_actors,
	       strcmp(backend, "truth") == 0 ? "the demo's truth" : "the tracker");
	if (sigma > 0.0)
		printf(", every joint jittered by %.0f mm (standard deviation per axis); "
		       "%u runs added up",
		       sigma, runs);
	printf("\n");
	for (guint run = 0; run < runs; run++) {
		g_autoptr(GArray) detections = recognise(recorded, sigma, run + 1, &us);

		score(gestures, n, detections, scores);
	}
	if (n > 0)
		print_scores(scores);
	else
		print_false_events(scores, seconds * runs);
	printf("  recogniser: %.1f us/frame\n", us / recorded->len / runs);
}

static void
bench(const char *name)
{
	g_autoptr(DemoScene) scene = demo_scene_new_named(name, 1, NULL);
	GArray *recorded[N_BACKENDS];

	record_scene(scene, recorded);
	bench_scene(scene, "truth", recorded[0], 0.0, 1);
	bench_scene(scene, "truth", recorded[0], JITTER_MM, JITTER_RUNS);
	bench_scene(scene, "tracker", recorded[1], 0.0, 1);
	for (guint b = 0; b < N_BACKENDS; b++)
		g_array_unref(recorded[b]);
}

int
main(void)
{
	bench("routine");
	bench("ordinary");
	return 0;
}
