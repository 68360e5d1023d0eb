/* Benchmark: open and closed hands against the demo scenes' truth, at
 * 1, 1.5, 2 and 3 m. For each distance: precision and recall of each
 * state, and the share called unknown, from the tracker as it runs
 * (its joints, its segmentation, the hysteresis) and from the
 * classifier alone on the true hand and elbow and the true pixels of the
 * person; how many frames a change takes to show; what the classifier
 * costs. Prints figures; asserts nothing.
 *
 * A hand is scored on the frames where the scene has it open or closed
 * and it is seen, but for the first GRACE_FRAMES after it changes: a
 * real hand takes that long to close. A truth-open hand called unknown
 * is a miss for recall; precision is the share right of those called
 * that state.
 * Run with: meson test -C build --benchmark --verbose hands
 * or build/tests/bench/bench-hands [--seeds=N,N,...] [--measures] [SCENE...] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-timing.h"
#include "demo/demo-scene.h"
#include "demo/truth.h"
#include "tracker/tracker-hand.h"
#include "tracker/tracker.h"

#define BENCH_DEFAULT_SEEDS "1,2,3"
#define GRACE_FRAMES        4  /* 133 ms at 30 frames a second */
#define LATENCY_CAP         30 /* a change not shown within a second counts as this */
#define MATCH_MM            500.0

static const char *const default_scenes[] = { "grip-1m", "grip-1.5m", "grip-2m", "grip-3m", NULL };

/* Calls against truth: [called][truth], called 0 unknown, 1 open,
 * 2 closed; truth 1 open, 2 closed. */
typedef struct {
	guint calls[3][3];
	guint changes, latency_sum, late; /* changes shown; frames taken; not within the cap */
} HandTally;

typedef struct {
	HandTally tracked, alone;
	double classify_ms; /* the classifier alone, CPU */
	guint classified;
} SceneTally;

/* Per true person and hand: its last scored state and when it changed. */
typedef struct {
	int state;
	guint64 since;
	gboolean waiting; /* a change not yet shown by the tracker */
	guint waited;
} HandTrack;

typedef struct {
	gboolean measures;
	HandTrack tracks[DEMO_MAX_PEOPLE + 1][2];
	guint16 *labels;
} BenchState;

/* ---- scoring ---- */

static void
tally_call(HandTally *t, TrackerHandState called, TrackerHandState truth)
{
	t->calls[called][truth]++;
}

static const TrackerUser *
bench_match(const TrackerFrame *out, const DemoTruthPerson *p)
{
	const TrackerUser *best = NULL;
	double best_d = MATCH_MM;

	for (guint u = 0; u < out->n_users; u++) {
		const TrackerJoint *neck = &out->users[u].joints[TRACKER_JOINT_NECK];
		double d = tracker_vec3_distance(neck->position, p->joints[TRACKER_JOINT_NECK]);

		if (neck->confidence > 0.0 && d < best_d) {
			best_d = d;
			best = &out->users[u];
		}
	}
	return best;
}

/* How many frames the tracker takes to show a change of the truth. */
static void
bench_latency(HandTrack *h, TrackerHandState called, HandTally *t)
{
	if (!h->waiting)
		return;
	if ((int)called == h->state) {
		t->changes++;
		t->latency_sum += h->waited;
		h->waiting = FALSE;
	} else if (++h->waited >= LATENCY_CAP) {
		t->changes++;
		t->late++;
		t->latency_sum += LATENCY_CAP;
		h->waiting = FALSE;
	}
}

/* The truth for hand @side of @p at frame @k: 0 when not scored. */
static int
bench_truth(BenchState *s, const DemoTruthPerson *p, int side, guint64 k)
{
	TrackerUser truth;
	HandTrack *h = &s->tracks[MIN(p->id, DEMO_MAX_PEOPLE)][side];
	TrackerFrame one = { 0 };
	DemoTruth alone = { .n_people = 1 };

	alone.people[0] = *p;
	truth_to_tracker_frame(&alone, k, 0, 0, &one);
	truth = one.users[0];
	if ((int)truth.hands[side].state != h->state) {
		h->waiting = h->state != TRACKER_HAND_UNKNOWN &&
		             truth.hands[side].state != TRACKER_HAND_UNKNOWN;
		h->waited = 0;
		h->state = truth.hands[side].state;
		h->since = k;
	}
	if (h->state == TRACKER_HAND_UNKNOWN || k - h->since < GRACE_FRAMES)
		return 0;
	return h->state;
}

/* ---- the classifier alone ---- */

static TrackerHand
bench_alone(BenchState *s, TrackerHandFinder *finder, const DepthFrame *frame,
            const DemoTruthPerson *p, int side, SceneTally *st)
{
	TrackerCamera camera;
	TrackerHandImage image = { &camera, frame->mm,   s->labels,
		                   1,       DEPTH_WIDTH, DEMO_LABEL_PERSON(p->id) };
	TrackerHandMeasure m;
	TrackerHand hand;
	double c0;

	tracker_camera_init_kinect(&camera);
	for (int i = 0; i < DEPTH_PIXELS; i++)
		s->labels[i] = frame->truth->labels[i];
	c0 = bench_timing_thread_cpu_ms();
	hand = tracker_hand_classify(finder, &image, p->joints[TRACKER_JOINT_LEFT_HAND + side],
	                             p->joints[TRACKER_JOINT_LEFT_ELBOW + side], 1.0, &m);
	st->classify_ms += bench_timing_thread_cpu_ms() - c0;
	st->classified++;
	if (s->measures)
		printf("measure z %4.0f side %d truth %d called %d conf %.2f px %4u sample %.1f "
		       "palm %5.1f cut %.2f cover %.3f\n",
		       p->joints[TRACKER_JOINT_LEFT_HAND + side].z, side, p->hands[side],
		       hand.state, hand.confidence, m.pixels, m.sample_mm, m.palm_mm, m.cut_share,
		       m.coverage);
	return hand;
}

/* ---- one scene ---- */

static void
bench_frame(BenchState *s, TrackerHandFinder *finder, const DepthFrame *frame,
            const TrackerFrame *out, SceneTally *st)
{
	const DemoTruth *truth = frame->truth;

	for (guint i = 0; i < truth->n_people; i++) {
		const DemoTruthPerson *p = &truth->people[i];
		const TrackerUser *user = bench_match(out, p);

		for (int side = 0; side < 2; side++) {
			int want = bench_truth(s, p, side, frame->number);
			TrackerHandState called =
			        user != NULL ? user->hands[side].state : TRACKER_HAND_UNKNOWN;

			bench_latency(&s->tracks[MIN(p->id, DEMO_MAX_PEOPLE)][side], called,
			              &st->tracked);
			if (want == 0)
				continue;
			tally_call(&st->tracked, called, want);
			tally_call(&st->alone, bench_alone(s, finder, frame, p, side, st).state,
			           want);
		}
	}
}

static void
bench_scene(BenchState *s, const char *name, guint64 seed, SceneTally *st)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(DemoScene) scene = demo_scene_new_named(name, seed, &error);
	g_autoptr(DepthFrame) frame = depth_frame_new();
	g_autoptr(Tracker) tracker = tracker_new(NULL, &error);
	TrackerHandFinder *finder = tracker_hand_finder_new();
	guint64 n;
	TrackerFrame out;

	g_assert_no_error(error);
	memset(s->tracks, 0, sizeof(s->tracks));
	n = demo_scene_n_frames(scene);
	for (guint64 k = 0; k < n; k++) {
		demo_scene_render(scene, k, frame);
		g_assert_true(tracker_process(tracker, frame->mm, k, frame->time_us, &out, &error));
		bench_frame(s, finder, frame, &out, st);
	}
	tracker_hand_finder_free(finder);
}

/* ---- printing ---- */

static double
share(guint a, guint b)
{
	return b > 0 ? 100.0 * a / b : 0.0;
}

static void
bench_print_tally(const char *name, const char *how, const HandTally *t)
{
	guint truth_open = t->calls[0][1] + t->calls[1][1] + t->calls[2][1];
	guint truth_closed = t->calls[0][2] + t->calls[1][2] + t->calls[2][2];
	guint called_open = t->calls[1][1] + t->calls[1][2];
	guint called_closed = t->calls[2][1] + t->calls[2][2];
	guint unknown = t->calls[0][1] + t->calls[0][2];

	printf("%-10s %-8s %7u %6.1f%% %6.1f%% %7u %6.1f%% %6.1f%% %7.1f%%", name, how, truth_open,
	       share(t->calls[1][1], called_open), share(t->calls[1][1], truth_open), truth_closed,
	       share(t->calls[2][2], called_closed), share(t->calls[2][2], truth_closed),
	       share(unknown, truth_open + truth_closed));
	if (t->changes > 0)
		printf("   %5.1f %4u of %u", (double)t->latency_sum / t->changes, t->late,
		       t->changes);
	printf("\n");
}

static void
bench_print_legend(const GArray *seeds)
{
	printf("hand states against the truth, Kinect sensor model, seeds");
	for (guint i = 0; i < seeds->len; i++)
		printf("%s%" G_GUINT64_FORMAT, i ? "," : " ", g_array_index(seeds, guint64, i));
	printf("; a hand is scored while held open or closed, from %d frames after it changes\n"
	       "  tracked: the tracker as it runs; alone: the classifier on the true hand, elbow "
	       "and person's pixels, without hysteresis\n"
	       "  precision: right among those called the state; recall: called the state among "
	       "those in it (unknown is a miss); latency: frames from a change of the truth to "
	       "the tracker showing it, and changes not shown within %d frames\n",
	       GRACE_FRAMES, LATENCY_CAP);
	printf("%-10s %-8s %7s %7s %7s %7s %7s %7s %8s %8s\n", "scene", "how", "open", "prec",
	       "recall", "closed", "prec", "recall", "unknown", "latency");
}

/* ---- options ---- */

static GArray *
bench_parse_seeds(const char *text)
{
	g_auto(GStrv) parts = g_strsplit(text, ",", -1);
	GArray *seeds = g_array_new(FALSE, FALSE, sizeof(guint64));

	for (guint i = 0; parts[i] != NULL; i++) {
		guint64 seed;

		if (!g_ascii_string_to_unsigned(parts[i], 10, 0, G_MAXUINT64, &seed, NULL)) {
			g_printerr("bench-hands: --seeds: expected numbers, got '%s'\n", text);
			exit(2);
		}
		g_array_append_val(seeds, seed);
	}
	return seeds;
}

static void
bench_run(BenchState *s, const char *const *scenes, GArray *seeds)
{
	double ms = 0.0;
	guint classified = 0;

	bench_print_legend(seeds);
	for (guint i = 0; scenes[i] != NULL; i++) {
		SceneTally st;

		memset(&st, 0, sizeof(st));
		for (guint k = 0; k < seeds->len; k++)
			bench_scene(s, scenes[i], g_array_index(seeds, guint64, k), &st);
		bench_print_tally(scenes[i], "tracked", &st.tracked);
		bench_print_tally(scenes[i], "alone", &st.alone);
		fflush(stdout);
		ms += st.classify_ms;
		classified += st.classified;
	}
	printf("\nthe classifier: %.3f ms CPU a hand, mean over %u hands\n",
	       classified > 0 ? ms / classified : 0.0, classified);
}

int
main(int argc, char **argv)
{
	g_autofree char *seeds_text = NULL;
	g_auto(GStrv) scenes = NULL;
	BenchState s = { FALSE, { { { 0 } } }, NULL };
	const GOptionEntry entries[] = {
		{ "seeds", 0, 0, G_OPTION_ARG_STRING, &seeds_text,
		  "Noise seeds (default " BENCH_DEFAULT_SEEDS ")", "N,N,..." },
		{ "measures", 0, 0, G_OPTION_ARG_NONE, &s.measures,
		  "Print what the classifier measured of every hand scored", NULL },
		{ G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &scenes, NULL,
		  "[SCENE...]" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	g_autoptr(GOptionContext) context = g_option_context_new("- hand states against the truth");
	g_autoptr(GError) error = NULL;
	g_autoptr(GArray) seeds = NULL;

	g_option_context_add_main_entries(context, entries, NULL);
	if (!g_option_context_parse(context, &argc, &argv, &error)) {
		g_printerr("bench-hands: %s\n", error->message);
		return 2;
	}
	seeds = bench_parse_seeds(seeds_text != NULL ? seeds_text : BENCH_DEFAULT_SEEDS);
	s.labels = g_new(guint16, DEPTH_PIXELS);
	bench_run(&s, scenes != NULL ? (const char *const *)scenes : default_scenes, seeds);
	g_free(s.labels);
	return 0;
}
