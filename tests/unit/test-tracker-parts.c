/* The body-part forest's evaluator: features read depth differences at
 * offsets scaled by depth, probes off the person read far, the trees
 * send pixels down to their leaves, and a model survives its serialised
 * form while a damaged one is refused without a read out of bounds. */
#include <string.h>

#include "tracker/tracker-parts.h"

#define W 64
#define H 48

/* One tree: a unary feature, 20 px to the right at 1 m, against the pixel
 * itself; under 100 mm to the head, else to the chest. */
static TrackerPartsForest *
forest_new_small(void)
{
	TrackerPartsForest *f = g_new0(TrackerPartsForest, 1);

	f->n_trees = 1;
	f->n_nodes = 1;
	f->n_leaves = 2;
	f->roots = g_new0(guint32, 1);
	f->nodes = g_new0(TrackerPartsNode, 1);
	f->nodes[0] = (TrackerPartsNode){ 20, 0, 0, 0, 100, -1, -2 };
	f->leaves = g_new0(guint8, 2 * TRACKER_N_PARTS);
	f->leaves[TRACKER_PART_HEAD] = 255;
	f->leaves[TRACKER_N_PARTS + TRACKER_PART_CHEST] = 255;
	return f;
}

/* A person at 2 m on columns 10..39, label 1; the rest empty. */
static void
image_fill(guint16 *mm, guint8 *labels, TrackerPartsImage *image)
{
	memset(mm, 0, W * H * sizeof(guint16));
	memset(labels, 0, W * H);
	for (int y = 0; y < H; y++) {
		for (int x = 10; x < 40; x++) {
			mm[y * W + x] = 2000;
			labels[y * W + x] = 1;
		}
	}
	*image = (TrackerPartsImage){ mm, labels, 1, W, H };
}

static void
test_feature(void)
{
	g_autofree guint16 *mm = g_new(guint16, W * H);
	g_autofree guint8 *labels = g_new(guint8, W * H);
	g_autoptr(TrackerPartsForest) f = forest_new_small();
	TrackerPartsImage image;
	float probs[TRACKER_N_PARTS];

	image_fill(mm, labels, &image);
	g_assert_true(tracker_parts_on_person(&image, 10, 0));
	g_assert_false(tracker_parts_on_person(&image, 9, 0));
	g_assert_false(tracker_parts_on_person(&image, 10, -1));
	g_assert_false(tracker_parts_on_person(&image, 40, H - 1));
	g_assert_false(tracker_parts_on_person(&image, 20, H));
	/* At 2 m the probe is 10 px to the right: on the person at 12, 20. */
	g_assert_cmpint(tracker_parts_feature(&image, 12, 20, &f->nodes[0]), ==, 0);
	tracker_parts_classify(f, &image, 12, 20, probs);
	g_assert_cmpfloat(probs[TRACKER_PART_HEAD], ==, 1.0f);
	/* From 35 it lands on 45, off the person: far. */
	g_assert_cmpint(tracker_parts_feature(&image, 35, 20, &f->nodes[0]), ==,
	                TRACKER_PARTS_FAR - 2000);
	tracker_parts_classify(f, &image, 35, 20, probs);
	g_assert_cmpfloat(probs[TRACKER_PART_CHEST], ==, 1.0f);
	/* Another person's label reads far as well; so does no reading. */
	labels[20 * W + 22] = 2;
	g_assert_cmpint(tracker_parts_feature(&image, 12, 20, &f->nodes[0]), ==,
	                TRACKER_PARTS_FAR - 2000);
	labels[20 * W + 22] = 1;
	mm[20 * W + 22] = 0;
	g_assert_cmpint(tracker_parts_feature(&image, 12, 20, &f->nodes[0]), ==,
	                TRACKER_PARTS_FAR - 2000);
	/* Nearer, the same offset reaches farther in pixels: at 1 m, 20 px. */
	mm[20 * W + 22] = 2000;
	mm[20 * W + 12] = 1000;
	g_assert_cmpint(tracker_parts_feature(&image, 12, 20, &f->nodes[0]), ==, 2000 - 1000);
}

static void
test_round_trip(void)
{
	g_autoptr(TrackerPartsForest) f = forest_new_small();
	g_autoptr(GBytes) bytes = tracker_parts_forest_to_bytes(f);
	g_autoptr(GError) error = NULL;
	g_autoptr(TrackerPartsForest) back = tracker_parts_forest_new_from_bytes(bytes, &error);

	g_assert_no_error(error);
	g_assert_cmpuint(back->n_trees, ==, 1);
	g_assert_cmpuint(back->n_nodes, ==, 1);
	g_assert_cmpuint(back->n_leaves, ==, 2);
	g_assert_cmpint(back->nodes[0].au, ==, 20);
	g_assert_cmpint(back->nodes[0].av, ==, 0);
	g_assert_cmpint(back->nodes[0].bu, ==, 0);
	g_assert_cmpint(back->nodes[0].bv, ==, 0);
	g_assert_cmpint(back->nodes[0].threshold, ==, 100);
	g_assert_cmpint(back->nodes[0].left, ==, -1);
	g_assert_cmpint(back->nodes[0].right, ==, -2);
	g_assert_cmpuint(back->roots[0], ==, 0);
	g_assert_cmpmem(back->leaves, 2 * TRACKER_N_PARTS, f->leaves, 2 * TRACKER_N_PARTS);
}

static void
assert_refused(const guint8 *data, gsize size)
{
	g_autoptr(GBytes) bytes = g_bytes_new(data, size);
	g_autoptr(GError) error = NULL;
	g_autoptr(TrackerPartsForest) f = tracker_parts_forest_new_from_bytes(bytes, &error);

	g_assert_null(f);
	g_assert_error(error, TRACKER_PARTS_ERROR, TRACKER_PARTS_ERROR_FORMAT);
}

/* Every prefix of a good model, a byte too many, a child pointing back
 * (a walk that would never end) and a leaf out of range. */
static void
test_damaged(void)
{
	g_autoptr(TrackerPartsForest) f = forest_new_small();
	g_autoptr(GBytes) bytes = NULL;
	gsize size;
	const guint8 *data;
	g_autofree guint8 *copy = NULL;

	bytes = tracker_parts_forest_to_bytes(f);
	data = g_bytes_get_data(bytes, &size);
	for (gsize n = 0; n < size; n++)
		assert_refused(data, n);
	copy = g_malloc0(size + 1);
	memcpy(copy, data, size);
	assert_refused(copy, size + 1);
	f->nodes[0].left = 0; /* itself */
	g_bytes_unref(bytes);
	bytes = tracker_parts_forest_to_bytes(f);
	data = g_bytes_get_data(bytes, &size);
	assert_refused(data, size);
	f->nodes[0].left = -3; /* leaf 2 of 2 */
	g_bytes_unref(bytes);
	bytes = tracker_parts_forest_to_bytes(f);
	data = g_bytes_get_data(bytes, &size);
	assert_refused(data, size);
	assert_refused((const guint8 *)"SBPX", 4);
}

static void
test_parts(void)
{
	for (int p = 0; p < TRACKER_N_PARTS; p++) {
		const char *name = tracker_parts_part_name(p);
		TrackerPartId m = tracker_parts_mirror(p);

		g_assert_nonnull(name);
		g_assert_cmpint(tracker_parts_mirror(m), ==, p);
		if (g_str_has_prefix(name, "left_"))
			g_assert_cmpstr(tracker_parts_part_name(m) + strlen("right_"), ==,
			                name + strlen("left_"));
		else if (!g_str_has_prefix(name, "right_"))
			g_assert_cmpint(m, ==, p);
	}
	g_assert_null(tracker_parts_part_name(TRACKER_N_PARTS));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/tracker/parts/feature", test_feature);
	g_test_add_func("/tracker/parts/round-trip", test_round_trip);
	g_test_add_func("/tracker/parts/damaged", test_damaged);
	g_test_add_func("/tracker/parts/names", test_parts);
	return g_test_run();
}
