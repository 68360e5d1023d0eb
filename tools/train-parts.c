/* Trains the body-part forest (tracker/tracker-parts.h) on frames of the
 * demo library and measures it on frames of other noise seeds.
 *
 * Every person pixel of a demo frame gets the part whose bone its point
 * is nearest to (less the bone's thickness), from the scene's true
 * joints. Frames are kept at half resolution (320 x 240), as the forest
 * reads them. Trees grow by the usual recipe: at each node, random
 * offset pairs and thresholds, the split that gains most information
 * (parts weighted against their frequency, so that hands count as much as
 * chests), until a node is small, pure or deep enough.
 *
 * Usage: train-parts [--trees N] [--depth N] [--frames N] [--out FILE]
 *        train-parts --model FILE [--frames N]
 * Prints the training time, the model's size, per-pixel accuracy on
 * held-out frames (overall, per part, and how often a part is taken for
 * its mirror), the hands the forest proposes there against the truth,
 * and on the real frames of $SKELBRIDGE_REAL_KINECT against their marks.
 * With --model, measures that model instead of training one. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "demo/demo-scene.h"
#include "marks.h"
#include "testutil.h"
#include "tracker/tracker-camera.h"
#include "tracker/tracker-parts.h"

#define HALF_W        320
#define HALF_H        240
#define PIXELS        (HALF_W * HALF_H)
#define PER_PERSON    300 /* pixels sampled per person and frame */
#define MIN_PIXELS    400 /* a person smaller than this (half resolution) is not used */
#define CANDIDATES    160 /* offset pairs tried at a node */
#define THRESHOLDS    12  /* thresholds tried per pair */
#define MIN_SPLIT     16  /* samples a node needs to split */
#define OFFSET_MAX    70  /* pixels at 1 m, half resolution */
#define TRAIN_SEED    11
#define HELD_OUT_SEED 101

#define HAND_NEAR_MM   100.0 /* a hand proposed this near the truth is found */
#define PROPOSE_MIN_P  0.2   /* pixels this likely a part vote for where it is */
#define PROPOSE_RADIUS 120.0 /* mm: the mode's window */
#define PROPOSE_BEHIND 35.0  /* mm: a joint's centre behind the surface */

typedef struct {
	guint8 label;
	TrackerVec3 hands[2]; /* left, right; camera space */
	gboolean hand_seen[2];
} FramePerson;

typedef struct {
	guint16 mm[PIXELS];
	guint8 labels[PIXELS]; /* person label, as the demo's; 0 elsewhere */
	guint8 parts[PIXELS];  /* TrackerPartId + 1 on person pixels, 0 elsewhere */
	guint n_people;
	FramePerson people[DEMO_MAX_PEOPLE];
} Frame;

typedef struct {
	guint32 frame;
	guint16 x, y;
	guint8 part;
} Sample;

typedef struct {
	GPtrArray *frames;
	GArray *samples;
} Set;

typedef struct {
	GArray *nodes;  /* TrackerPartsNode */
	GArray *leaves; /* guint8 x TRACKER_N_PARTS */
	double weight[TRACKER_N_PARTS];
	const Set *set;
	guint max_depth;
	GRand *rand;
	int *feature; /* scratch: one per sample */
} Trainer;

/* ---- labelling ---- */

typedef struct {
	TrackerJointId a, b;
	double reach; /* the bone goes on past b by this share of a..b */
	double r;     /* its thickness, of the body's height */
	TrackerPartId part;
} Bone;

static const Bone bones[] = {
	{ TRACKER_JOINT_HEAD, TRACKER_JOINT_NECK, 0.0, 0.060, TRACKER_PART_HEAD },
	{ TRACKER_JOINT_NECK, TRACKER_JOINT_TORSO, 0.0, 0.100, TRACKER_PART_CHEST },
	{ TRACKER_JOINT_LEFT_SHOULDER, TRACKER_JOINT_RIGHT_SHOULDER, 0.0, 0.060,
	  TRACKER_PART_CHEST },
	{ TRACKER_JOINT_LEFT_HIP, TRACKER_JOINT_RIGHT_HIP, 0.0, 0.080, TRACKER_PART_BELLY },
	{ TRACKER_JOINT_LEFT_SHOULDER, TRACKER_JOINT_LEFT_ELBOW, 0.0, 0.032,
	  TRACKER_PART_LEFT_UPPER_ARM },
	{ TRACKER_JOINT_RIGHT_SHOULDER, TRACKER_JOINT_RIGHT_ELBOW, 0.0, 0.032,
	  TRACKER_PART_RIGHT_UPPER_ARM },
	{ TRACKER_JOINT_LEFT_ELBOW, TRACKER_JOINT_LEFT_HAND, -0.25, 0.025,
	  TRACKER_PART_LEFT_FOREARM },
	{ TRACKER_JOINT_RIGHT_ELBOW, TRACKER_JOINT_RIGHT_HAND, -0.25, 0.025,
	  TRACKER_PART_RIGHT_FOREARM },
	{ TRACKER_JOINT_LEFT_HIP, TRACKER_JOINT_LEFT_KNEE, 0.0, 0.050, TRACKER_PART_LEFT_THIGH },
	{ TRACKER_JOINT_RIGHT_HIP, TRACKER_JOINT_RIGHT_KNEE, 0.0, 0.050, TRACKER_PART_RIGHT_THIGH },
	{ TRACKER_JOINT_LEFT_KNEE, TRACKER_JOINT_LEFT_FOOT, 0.1, 0.035, TRACKER_PART_LEFT_SHIN },
	{ TRACKER_JOINT_RIGHT_KNEE, TRACKER_JOINT_RIGHT_FOOT, 0.1, 0.035, TRACKER_PART_RIGHT_SHIN },
};

static double
train_segment_distance(TrackerVec3 p, TrackerVec3 a, TrackerVec3 b)
{
	TrackerVec3 ab = tracker_vec3_sub(b, a);
	double len2 = tracker_vec3_dot(ab, ab);
	double t = len2 > 0.0 ? CLAMP(tracker_vec3_dot(tracker_vec3_sub(p, a), ab) / len2, 0.0, 1.0)
	                      : 0.0;

	return tracker_vec3_distance(p, tracker_vec3_mad(a, ab, t));
}

/* The torso's belly and the hands are not bones between two joints: the
 * belly runs from the torso joint to between the hips, the hand from the
 * last quarter of the forearm on past the hand joint. */
static TrackerPartId
train_part_of(const DemoTruthPerson *person, TrackerVec3 p)
{
	const TrackerVec3 *j = person->joints;
	TrackerVec3 hips =
	        tracker_vec3_lerp(j[TRACKER_JOINT_LEFT_HIP], j[TRACKER_JOINT_RIGHT_HIP], 0.5);
	double H = person->height;
	double best = train_segment_distance(p, j[TRACKER_JOINT_TORSO], hips) - 0.1 * H;
	TrackerPartId part = TRACKER_PART_BELLY;

	for (guint i = 0; i < G_N_ELEMENTS(bones); i++) {
		TrackerVec3 a = j[bones[i].a], b = j[bones[i].b];
		double d;

		b = tracker_vec3_mad(b, tracker_vec3_sub(b, a), bones[i].reach);
		d = train_segment_distance(p, a, b) - bones[i].r * H;
		if (d < best) {
			best = d;
			part = bones[i].part;
		}
	}
	for (int side = 0; side < 2; side++) {
		TrackerVec3 e = j[TRACKER_JOINT_LEFT_ELBOW + side],
		            h = j[TRACKER_JOINT_LEFT_HAND + side];
		TrackerVec3 from = tracker_vec3_lerp(e, h, 0.75);
		TrackerVec3 to = tracker_vec3_mad(h, tracker_vec3_normalize(tracker_vec3_sub(h, e)),
		                                  0.06 * H);
		double d = train_segment_distance(p, from, to) - 0.035 * H;

		if (d < best) {
			best = d;
			part = side == 0 ? TRACKER_PART_LEFT_HAND : TRACKER_PART_RIGHT_HAND;
		}
	}
	return part;
}

/* A rendered frame at half resolution, each person pixel labelled. */
static Frame *
train_frame(const DepthFrame *depth, const TrackerCamera *camera)
{
	const DemoTruth *truth = depth->truth;
	Frame *f = g_new0(Frame, 1);

	for (int y = 0; y < HALF_H; y++) {
		for (int x = 0; x < HALF_W; x++) {
			int k = y * HALF_W + x, full = 2 * y * 640 + 2 * x;
			guint8 l = truth->labels[full];

			f->mm[k] = depth->mm[full];
			if (!DEMO_LABEL_IS_PERSON(l) || f->mm[k] == 0)
				continue;
			for (guint p = 0; p < truth->n_people; p++) {
				if (truth->people[p].id != DEMO_LABEL_PERSON_ID(l))
					continue;
				f->labels[k] = l;
				f->parts[k] =
				        1 + train_part_of(&truth->people[p],
				                          tracker_camera_unproject(
				                                  camera, 2 * x, 2 * y, f->mm[k]));
			}
		}
	}
	for (guint p = 0; p < truth->n_people; p++) {
		FramePerson *fp = &f->people[f->n_people++];

		fp->label = DEMO_LABEL_PERSON(truth->people[p].id);
		for (int side = 0; side < 2; side++) {
			fp->hands[side] = truth->people[p].joints[TRACKER_JOINT_LEFT_HAND + side];
			fp->hand_seen[side] = truth->people[p].hand_seen[side];
		}
	}
	return f;
}

/* Up to PER_PERSON pixels of each person big enough, at random. */
static void
train_sample(Set *set, guint32 index, GRand *rand)
{
	const Frame *f = g_ptr_array_index(set->frames, index);
	guint count[256] = { 0 };

	for (int k = 0; k < PIXELS; k++)
		count[f->labels[k]]++;
	for (int k = 0; k < PIXELS; k++) {
		guint8 l = f->labels[k];

		if (l == 0 || count[l] < MIN_PIXELS || g_rand_double(rand) * count[l] >= PER_PERSON)
			continue;
		g_array_append_val(set->samples,
		                   ((Sample){ index, k % HALF_W, k / HALF_W, f->parts[k] - 1 }));
	}
}

/* Frames of every scene of the library with noise @seed, @per_scene of
 * each, spread over the scene. */
static void
train_set(Set *set, guint64 seed, guint per_scene, GRand *rand)
{
	const char *const *names = demo_scene_names();
	g_autoptr(DepthFrame) depth = depth_frame_new();
	TrackerCamera camera;

	tracker_camera_init_kinect(&camera);
	set->frames = g_ptr_array_new_with_free_func(g_free);
	set->samples = g_array_new(FALSE, FALSE, sizeof(Sample));
	for (guint s = 0; per_scene > 0 && names[s] != NULL; s++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(DemoScene) scene = demo_scene_new_named(names[s], seed, &error);
		guint64 n;

		if (scene == NULL) {
			g_printerr("train-parts: %s\n", error->message);
			continue;
		}
		n = demo_scene_n_frames(scene);
		for (guint i = 0; i < per_scene; i++) {
			demo_scene_render(scene, (n * (2 * i + 1)) / (2 * per_scene), depth);
			g_ptr_array_add(set->frames, train_frame(depth, &camera));
			train_sample(set, set->frames->len - 1, rand);
		}
	}
}

static void
train_set_clear(Set *set)
{
	g_ptr_array_unref(set->frames);
	g_array_unref(set->samples);
}

/* ---- growing trees ---- */

static int
train_feature(const Set *set, const Sample *s, const TrackerPartsNode *node)
{
	const Frame *f = g_ptr_array_index(set->frames, s->frame);
	TrackerPartsImage image = { f->mm, f->labels, f->labels[s->y * HALF_W + s->x], HALF_W,
		                    HALF_H };

	return tracker_parts_feature(&image, s->x, s->y, node);
}

/* Weighted entropy of the parts' counts, times their total. */
static double
train_entropy(const double *counts)
{
	double total = 0.0, h = 0.0;

	for (int p = 0; p < TRACKER_N_PARTS; p++)
		total += counts[p];
	for (int p = 0; p < TRACKER_N_PARTS; p++) {
		if (counts[p] > 0.0)
			h -= counts[p] * log(counts[p] / total);
	}
	return h;
}

static void
train_counts(const Trainer *t, const Sample *samples, guint n, double *counts)
{
	memset(counts, 0, TRACKER_N_PARTS * sizeof(double));
	for (guint i = 0; i < n; i++)
		counts[samples[i].part] += t->weight[samples[i].part];
}

static gint32
train_leaf(Trainer *t, const Sample *samples, guint n)
{
	double counts[TRACKER_N_PARTS], total = 0.0;
	guint8 leaf[TRACKER_N_PARTS];

	train_counts(t, samples, n, counts);
	for (int p = 0; p < TRACKER_N_PARTS; p++)
		total += counts[p];
	for (int p = 0; p < TRACKER_N_PARTS; p++)
		leaf[p] = (guint8)lround(255.0 * counts[p] / MAX(total, 1e-9));
	g_array_append_vals(t->leaves, leaf, TRACKER_N_PARTS);
	return -(gint32)(t->leaves->len / TRACKER_N_PARTS);
}

static TrackerPartsNode
train_candidate(Trainer *t)
{
	TrackerPartsNode node = { 0 };

	node.au = (gint16)g_rand_int_range(t->rand, -OFFSET_MAX, OFFSET_MAX + 1);
	node.av = (gint16)g_rand_int_range(t->rand, -OFFSET_MAX, OFFSET_MAX + 1);
	/* Half the features compare a probe with the pixel itself. */
	if (g_rand_boolean(t->rand)) {
		node.bu = (gint16)g_rand_int_range(t->rand, -OFFSET_MAX, OFFSET_MAX + 1);
		node.bv = (gint16)g_rand_int_range(t->rand, -OFFSET_MAX, OFFSET_MAX + 1);
	}
	return node;
}

/* The gain of splitting @n samples, whose features are in t->feature, at
 * @threshold. */
static double
train_gain(const Trainer *t, const Sample *samples, guint n, int threshold, double parent)
{
	double left[TRACKER_N_PARTS] = { 0 }, right[TRACKER_N_PARTS] = { 0 };

	for (guint i = 0; i < n; i++) {
		double *side = t->feature[i] < threshold ? left : right;

		side[samples[i].part] += t->weight[samples[i].part];
	}
	return parent - train_entropy(left) - train_entropy(right);
}

/* The best split of the samples, into @best; FALSE when none gains. */
static gboolean
train_split(Trainer *t, const Sample *samples, guint n, TrackerPartsNode *best)
{
	double counts[TRACKER_N_PARTS], parent, best_gain = 1e-9;

	train_counts(t, samples, n, counts);
	parent = train_entropy(counts);
	for (int c = 0; c < CANDIDATES; c++) {
		TrackerPartsNode node = train_candidate(t);

		for (guint i = 0; i < n; i++)
			t->feature[i] = train_feature(t->set, &samples[i], &node);
		for (int k = 0; k < THRESHOLDS; k++) {
			int f = t->feature[g_rand_int_range(t->rand, 0, (gint32)n)];
			double gain;

			if (f >= TRACKER_PARTS_FAR / 2 || f <= -TRACKER_PARTS_FAR / 2)
				f = f > 0 ? TRACKER_PARTS_FAR / 2 : -TRACKER_PARTS_FAR / 2;
			node.threshold = (gint16)CLAMP(f + 1, G_MININT16, G_MAXINT16);
			gain = train_gain(t, samples, n, node.threshold, parent);
			if (gain > best_gain) {
				best_gain = gain;
				*best = node;
			}
		}
	}
	return best_gain > 1e-9;
}

/* Moves the samples going left to the front; returns how many. */
static guint
train_partition(const Trainer *t, Sample *samples, guint n, const TrackerPartsNode *node)
{
	guint left = 0;

	for (guint i = 0; i < n; i++) {
		if (train_feature(t->set, &samples[i], node) < node->threshold) {
			Sample s = samples[left];

			samples[left++] = samples[i];
			samples[i] = s;
		}
	}
	return left;
}

static gboolean
train_pure(const Sample *samples, guint n)
{
	for (guint i = 1; i < n; i++) {
		if (samples[i].part != samples[0].part)
			return FALSE;
	}
	return TRUE;
}

/* Grows the subtree over @samples; returns its index (a node, or a leaf
 * as -1 - i). Nodes are numbered before their children. */
static gint32
train_grow(Trainer *t, Sample *samples, guint n, guint depth)
{
	TrackerPartsNode node;
	guint index, left;

	if (depth >= t->max_depth || n < MIN_SPLIT || train_pure(samples, n) ||
	    !train_split(t, samples, n, &node))
		return train_leaf(t, samples, n);
	index = t->nodes->len;
	g_array_append_val(t->nodes, node);
	left = train_partition(t, samples, n, &node);
	node.left = train_grow(t, samples, left, depth + 1);
	node.right = train_grow(t, samples + left, n - left, depth + 1);
	g_array_index(t->nodes, TrackerPartsNode, index) = node;
	return (gint32)index;
}

/* Parts weighted against their frequency in @set. */
static void
train_weights(Trainer *t, const Set *set)
{
	double count[TRACKER_N_PARTS] = { 0 };

	for (guint i = 0; i < set->samples->len; i++)
		count[g_array_index(set->samples, Sample, i).part] += 1.0;
	for (int p = 0; p < TRACKER_N_PARTS; p++)
		t->weight[p] =
		        count[p] > 0.0 ? set->samples->len / (TRACKER_N_PARTS * count[p]) : 0.0;
}

static TrackerPartsForest *
train_forest(const Set *set, guint n_trees, guint max_depth, guint64 seed)
{
	Trainer t = { .set = set, .max_depth = max_depth };
	TrackerPartsForest *forest = g_new0(TrackerPartsForest, 1);
	guint n = set->samples->len;

	t.nodes = g_array_new(FALSE, FALSE, sizeof(TrackerPartsNode));
	t.leaves = g_array_new(FALSE, FALSE, 1);
	t.rand = g_rand_new_with_seed((guint32)seed);
	t.feature = g_new(int, n);
	train_weights(&t, set);
	forest->n_trees = n_trees;
	forest->roots = g_new(guint32, n_trees);
	for (guint tree = 0; tree < n_trees; tree++) {
		/* Each tree on its own half of the samples, drawn at random. */
		g_autofree Sample *bag = g_new(Sample, n / 2 + 1);
		guint m = 0;
		gint32 root;

		for (guint i = 0; i < n; i++) {
			if (g_rand_boolean(t.rand) && m < n / 2 + 1)
				bag[m++] = g_array_index(set->samples, Sample, i);
		}
		root = train_grow(&t, bag, m, 0);
		if (root < 0) {
			/* A tree that is one leaf still needs a node to start from. */
			TrackerPartsNode node = { .threshold = 0, .left = root, .right = root };

			root = (gint32)t.nodes->len;
			g_array_append_val(t.nodes, node);
		}
		forest->roots[tree] = (guint32)root;
		g_print("tree %u: %u nodes, %u leaves so far\n", tree, t.nodes->len,
		        t.leaves->len / TRACKER_N_PARTS);
	}
	forest->n_nodes = t.nodes->len;
	forest->nodes = (TrackerPartsNode *)g_array_free(t.nodes, FALSE);
	forest->n_leaves = t.leaves->len / TRACKER_N_PARTS;
	forest->leaves = (guint8 *)g_array_free(t.leaves, FALSE);
	g_rand_free(t.rand);
	g_free(t.feature);
	return forest;
}

/* ---- measuring ---- */

static void
train_measure(const TrackerPartsForest *forest, const Set *set)
{
	guint right = 0, mirrored = 0, total[TRACKER_N_PARTS] = { 0 }, hit[TRACKER_N_PARTS] = { 0 };
	gint64 start = g_get_monotonic_time();

	for (guint i = 0; i < set->samples->len; i++) {
		const Sample *s = &g_array_index(set->samples, Sample, i);
		const Frame *f = g_ptr_array_index(set->frames, s->frame);
		TrackerPartsImage image = { f->mm, f->labels, f->labels[s->y * HALF_W + s->x],
			                    HALF_W, HALF_H };
		float probs[TRACKER_N_PARTS];
		int best = 0;

		tracker_parts_classify(forest, &image, s->x, s->y, probs);
		for (int p = 1; p < TRACKER_N_PARTS; p++)
			best = probs[p] > probs[best] ? p : best;
		total[s->part]++;
		hit[s->part] += best == s->part;
		right += best == s->part;
		mirrored += best != s->part && (TrackerPartId)best == tracker_parts_mirror(s->part);
	}
	g_print("held out: %u pixels of %u frames, %.1f%% right, %.1f%% taken for the other "
	        "side's; %.2f us a pixel\n",
	        set->samples->len, set->frames->len, 100.0 * right / MAX(1u, set->samples->len),
	        100.0 * mirrored / MAX(1u, set->samples->len),
	        (double)(g_get_monotonic_time() - start) / MAX(1u, set->samples->len));
	for (int p = 0; p < TRACKER_N_PARTS; p++)
		g_print("  %-16s %5.1f%% of %u\n", tracker_parts_part_name(p),
		        100.0 * hit[p] / MAX(1u, total[p]), total[p]);
}

/* Where the forest puts @part on the person of @image: the densest place
 * of the points that vote for it (each by its probability and the
 * surface its pixel shows), found by mean shift from their mean, pushed
 * behind the surface. @scale takes the image's pixels to the camera's. */
static gboolean
train_propose(const TrackerPartsForest *forest, const TrackerPartsImage *image,
              const TrackerCamera *camera, int scale, TrackerPartId part, TrackerVec3 *out)
{
	g_autoptr(GArray) points = g_array_new(FALSE, FALSE, sizeof(TrackerVec3));
	g_autoptr(GArray) weights = g_array_new(FALSE, FALSE, sizeof(double));
	TrackerVec3 c = { 0 };

	for (int y = 0; y < image->height; y++) {
		for (int x = 0; x < image->width; x++) {
			int k = y * image->width + x;
			float probs[TRACKER_N_PARTS];
			TrackerVec3 p;
			double w;

			if (!tracker_parts_on_person(image, x, y))
				continue;
			tracker_parts_classify(forest, image, x, y, probs);
			if (probs[part] < PROPOSE_MIN_P)
				continue;
			p = tracker_camera_unproject(camera, x * scale, y * scale, image->mm[k]);
			w = probs[part] * p.z * p.z;
			g_array_append_val(points, p);
			g_array_append_val(weights, w);
		}
	}
	if (points->len == 0)
		return FALSE;
	for (int round = 0; round <= 6; round++) {
		TrackerVec3 sum = { 0 };
		double total = 0.0;

		for (guint i = 0; i < points->len; i++) {
			TrackerVec3 p = g_array_index(points, TrackerVec3, i);
			double w = g_array_index(weights, double, i);

			if (round > 0 && tracker_vec3_distance(p, c) > PROPOSE_RADIUS)
				continue;
			sum = tracker_vec3_mad(sum, p, w);
			total += w;
		}
		if (total <= 0.0)
			break;
		c = tracker_vec3_scale(sum, 1.0 / total);
	}
	*out = tracker_vec3_mad(c, tracker_vec3_normalize(c), PROPOSE_BEHIND);
	return TRUE;
}

/* The hands the forest proposes on held-out frames against the truth. */
static void
train_measure_hands(const TrackerPartsForest *forest, const Set *set)
{
	TrackerCamera camera;
	guint seen = 0, found = 0;

	tracker_camera_init_kinect(&camera);
	for (guint i = 0; i < set->frames->len; i++) {
		const Frame *f = g_ptr_array_index(set->frames, i);

		for (guint p = 0; p < f->n_people; p++) {
			TrackerPartsImage image = { f->mm, f->labels, f->people[p].label, HALF_W,
				                    HALF_H };

			for (int side = 0; side < 2; side++) {
				TrackerVec3 at;

				if (!f->people[p].hand_seen[side])
					continue;
				seen++;
				found += train_propose(forest, &image, &camera, 2,
				                       side == 0 ? TRACKER_PART_LEFT_HAND
				                                 : TRACKER_PART_RIGHT_HAND,
				                       &at) &&
				         tracker_vec3_distance(at, f->people[p].hands[side]) <=
				                 HAND_NEAR_MM;
			}
		}
	}
	g_print("held out: hands in view proposed within %.0f mm: %u of %u (%.1f%%)\n",
	        HAND_NEAR_MM, found, seen, 100.0 * found / MAX(1u, seen));
}

/* The real frames' marked hands and elbows, against the forest's
 * proposals (the background is cut away: every reading is the person). */
static void
train_measure_real(const TrackerPartsForest *forest)
{
	const char *dir = testutil_real_kinect_dir();
	g_autofree char *path = NULL;
	g_autoptr(GPtrArray) marks = NULL;
	g_autoptr(GError) error = NULL;
	g_auto(GStrv) files = NULL;
	TrackerCamera camera;
	guint marked = 0, found = 0;

	if (dir == NULL) {
		g_print("real frames: skipped ($SKELBRIDGE_REAL_KINECT is not a folder)\n");
		return;
	}
	path = g_build_filename(dir, "annotations.csv", NULL);
	if ((marks = marks_read_joints(path, &error)) == NULL) {
		g_print("real frames: %s\n", error->message);
		return;
	}
	tracker_camera_init_kinect(&camera);
	files = testutil_real_kinect_files(dir);
	for (guint n = 0; files[n] != NULL; n++) {
		g_autofree guint16 *full = g_new(guint16, 640 * 480);
		g_autofree char *base = g_path_get_basename(files[n]);
		guint16 half[PIXELS];
		TrackerPartsImage image = { half, NULL, 0, HALF_W, HALF_H };

		testutil_load_raw(files[n], full);
		for (int k = 0; k < PIXELS; k++)
			half[k] = full[2 * (k / HALF_W) * 640 + 2 * (k % HALF_W)];
		g_print("  %s:", base);
		for (guint i = 0; i < marks->len; i++) {
			const MarksJoint *m = g_ptr_array_index(marks, i);
			TrackerVec3 at;
			gboolean ok;

			if (strcmp(m->file, base) != 0 || (m->joint != TRACKER_JOINT_LEFT_HAND &&
			                                   m->joint != TRACKER_JOINT_RIGHT_HAND))
				continue;
			ok = train_propose(forest, &image, &camera, 2,
			                   m->joint == TRACKER_JOINT_LEFT_HAND
			                           ? TRACKER_PART_LEFT_HAND
			                           : TRACKER_PART_RIGHT_HAND,
			                   &at);
			marked++;
			found += ok &&
			         tracker_vec3_distance(at, marks_joint_position(m)) <= HAND_NEAR_MM;
			g_print(" %s %.0f mm", tracker_joint_name(m->joint),
			        ok ? tracker_vec3_distance(at, marks_joint_position(m)) : -1.0);
		}
		g_print("\n");
	}
	g_print("real frames: marked hands proposed within %.0f mm: %u of %u\n", HAND_NEAR_MM,
	        found, marked);
}

int
main(int argc, char **argv)
{
	guint trees = 3, depth = 18, frames = 6;
	g_autofree char *out = NULL, *model = NULL;
	GOptionEntry entries[] = {
		{ "model", 0, 0, G_OPTION_ARG_FILENAME, &model,
		  "Measure this model instead of training one", "FILE" },
		{ "trees", 0, 0, G_OPTION_ARG_INT, &trees, "Trees (default 3)", "N" },
		{ "depth", 0, 0, G_OPTION_ARG_INT, &depth, "Most levels a tree has (default 18)",
		  "N" },
		{ "frames", 0, 0, G_OPTION_ARG_INT, &frames, "Frames of each scene (default 6)",
		  "N" },
		{ "out", 0, 0, G_OPTION_ARG_FILENAME, &out, "Where to write the model", "FILE" },
		G_OPTION_ENTRY_NULL,
	};
	g_autoptr(GOptionContext) context = g_option_context_new("- train the body-part forest");
	g_autoptr(GError) error = NULL;
	g_autoptr(TrackerPartsForest) forest = NULL;
	g_autoptr(GBytes) bytes = NULL;
	g_autoptr(GRand) rand = g_rand_new_with_seed(1);
	Set train, held;
	gint64 start;

	g_option_context_add_main_entries(context, entries, NULL);
	if (!g_option_context_parse(context, &argc, &argv, &error) || trees == 0 || trees > 16 ||
	    depth == 0 || depth > 30 || frames == 0) {
		g_printerr("train-parts: %s\n",
		           error != NULL ? error->message : "options out of range");
		return 2;
	}
	start = g_get_monotonic_time();
	/* Seeds of their own, and a model given has no need of training frames. */
	train_set(&train, TRAIN_SEED, model != NULL ? 0 : frames, rand);
	train_set(&held, HELD_OUT_SEED, MAX(1u, frames / 2), rand);
	g_print("%u training pixels of %u frames; %.1f s to render\n", train.samples->len,
	        train.frames->len, (g_get_monotonic_time() - start) / 1e6);
	start = g_get_monotonic_time();
	if (model != NULL) {
		g_autofree char *data = NULL;
		gsize size;

		if (!g_file_get_contents(model, &data, &size, &error)) {
			g_printerr("train-parts: %s\n", error->message);
			return 1;
		}
		bytes = g_bytes_new_take(g_steal_pointer(&data), size);
		if ((forest = tracker_parts_forest_new_from_bytes(bytes, &error)) == NULL) {
			g_printerr("train-parts: %s: %s\n", model, error->message);
			return 1;
		}
	} else {
		forest = train_forest(&train, trees, depth, 1);
		bytes = tracker_parts_forest_to_bytes(forest);
	}
	g_print("%u trees of at most %u levels: %u nodes, %u leaves, %.1f KB; %.1f s to train\n",
	        forest->n_trees, depth, forest->n_nodes, forest->n_leaves,
	        g_bytes_get_size(bytes) / 1024.0, (g_get_monotonic_time() - start) / 1e6);
	train_measure(forest, &held);
	train_measure_hands(forest, &held);
	train_measure_real(forest);
	if (out != NULL && !g_file_set_contents(out, g_bytes_get_data(bytes, NULL),
	                                        (gssize)g_bytes_get_size(bytes), &error)) {
		g_printerr("train-parts: %s\n", error->message);
		return 1;
	}
	train_set_clear(&train);
	train_set_clear(&held);
	return 0;
}
