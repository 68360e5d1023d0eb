#include "tracker-parts.h"

#include <math.h>
#include <string.h>

#define FOREST_MAGIC     "SBPF"
#define FOREST_VERSION   1
#define FOREST_HEADER    24 /* magic, version, parts, trees, nodes, leaves */
#define FOREST_NODE      18 /* four offsets and a threshold (int16), two children (int32) */
#define FOREST_MAX_TREES 16
#define FOREST_MAX_NODES (1u << 22)

/* The formatter would space the quark's name out as a subtraction. */
/* clang-format off */
G_DEFINE_QUARK(skelbridge-tracker-parts-error-quark, tracker_parts_error)
/* clang-format on */

static const char *const part_names[TRACKER_N_PARTS] = {
	[TRACKER_PART_HEAD] = "head",
	[TRACKER_PART_CHEST] = "chest",
	[TRACKER_PART_BELLY] = "belly",
	[TRACKER_PART_LEFT_UPPER_ARM] = "left_upper_arm",
	[TRACKER_PART_RIGHT_UPPER_ARM] = "right_upper_arm",
	[TRACKER_PART_LEFT_FOREARM] = "left_forearm",
	[TRACKER_PART_RIGHT_FOREARM] = "right_forearm",
	[TRACKER_PART_LEFT_HAND] = "left_hand",
	[TRACKER_PART_RIGHT_HAND] = "right_hand",
	[TRACKER_PART_LEFT_THIGH] = "left_thigh",
	[TRACKER_PART_RIGHT_THIGH] = "right_thigh",
	[TRACKER_PART_LEFT_SHIN] = "left_shin",
	[TRACKER_PART_RIGHT_SHIN] = "right_shin",
};

const char *
tracker_parts_part_name(TrackerPartId part)
{
	return (guint)part < TRACKER_N_PARTS ? part_names[part] : NULL;
}

TrackerPartId
tracker_parts_mirror(TrackerPartId part)
{
	/* Left and right alternate from the upper arms on. */
	if (part < TRACKER_PART_LEFT_UPPER_ARM || part >= TRACKER_N_PARTS)
		return part;
	return (part - TRACKER_PART_LEFT_UPPER_ARM) % 2 == 0 ? part + 1 : part - 1;
}

/* ---- features ---- */

gboolean
tracker_parts_on_person(const TrackerPartsImage *image, int x, int y)
{
	int k;

	if (x < 0 || y < 0 || x >= image->width || y >= image->height)
		return FALSE;
	k = y * image->width + x;
	return image->mm[k] != 0 && (image->labels == NULL || image->labels[k] == image->label);
}

/* The depth a probe reads: TRACKER_PARTS_FAR off the person. */
static int
tracker_parts_probe(const TrackerPartsImage *image, int x, int y)
{
	if (!tracker_parts_on_person(image, x, y))
		return TRACKER_PARTS_FAR;
	return image->mm[y * image->width + x];
}

int
tracker_parts_feature(const TrackerPartsImage *image, int x, int y, const TrackerPartsNode *node)
{
	double scale = 1000.0 / MAX(1, image->mm[y * image->width + x]);

	return tracker_parts_probe(image, x + (int)lround(node->au * scale),
	                           y + (int)lround(node->av * scale)) -
	       tracker_parts_probe(image, x + (int)lround(node->bu * scale),
	                           y + (int)lround(node->bv * scale));
}

void
tracker_parts_classify(const TrackerPartsForest *forest, const TrackerPartsImage *image, int x,
                       int y, float probs[TRACKER_N_PARTS])
{
	float sum = 0.0f;

	memset(probs, 0, TRACKER_N_PARTS * sizeof(float));
	for (guint t = 0; t < forest->n_trees; t++) {
		gint32 i = (gint32)forest->roots[t];
		const guint8 *leaf;

		/* Children follow their parents (checked on loading): the walk ends. */
		while (i >= 0) {
			const TrackerPartsNode *node = &forest->nodes[i];

			i = tracker_parts_feature(image, x, y, node) < node->threshold
			            ? node->left
			            : node->right;
		}
		leaf = &forest->leaves[(gsize)(-1 - i) * TRACKER_N_PARTS];
		for (int p = 0; p < TRACKER_N_PARTS; p++)
			probs[p] += leaf[p];
	}
	for (int p = 0; p < TRACKER_N_PARTS; p++)
		sum += probs[p];
	for (int p = 0; p < TRACKER_N_PARTS && sum > 0.0f; p++)
		probs[p] /= sum;
}

/* ---- serialised form ---- */

static guint32
tracker_parts_read32(const guint8 *p)
{
	return (guint32)p[0] | (guint32)p[1] << 8 | (guint32)p[2] << 16 | (guint32)p[3] << 24;
}

static gint16
tracker_parts_read16(const guint8 *p)
{
	return (gint16)(guint16)(p[0] | p[1] << 8);
}

static void
tracker_parts_write32(GByteArray *out, guint32 v)
{
	guint8 b[4] = { v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, (v >> 24) & 0xff };

	g_byte_array_append(out, b, 4);
}

static void
tracker_parts_write16(GByteArray *out, gint16 v)
{
	guint16 u = (guint16)v;
	guint8 b[2] = { u & 0xff, u >> 8 };

	g_byte_array_append(out, b, 2);
}

GBytes *
tracker_parts_forest_to_bytes(const TrackerPartsForest *forest)
{
	GByteArray *out = g_byte_array_new();

	g_byte_array_append(out, (const guint8 *)FOREST_MAGIC, 4);
	tracker_parts_write32(out, FOREST_VERSION);
	tracker_parts_write32(out, TRACKER_N_PARTS);
	tracker_parts_write32(out, forest->n_trees);
	tracker_parts_write32(out, forest->n_nodes);
	tracker_parts_write32(out, forest->n_leaves);
	for (guint t = 0; t < forest->n_trees; t++)
		tracker_parts_write32(out, forest->roots[t]);
	for (guint i = 0; i < forest->n_nodes; i++) {
		const TrackerPartsNode *n = &forest->nodes[i];

		tracker_parts_write16(out, n->au);
		tracker_parts_write16(out, n->av);
		tracker_parts_write16(out, n->bu);
		tracker_parts_write16(out, n->bv);
		tracker_parts_write16(out, n->threshold);
		tracker_parts_write32(out, (guint32)n->left);
		tracker_parts_write32(out, (guint32)n->right);
	}
	g_byte_array_append(out, forest->leaves, forest->n_leaves * TRACKER_N_PARTS);
	return g_byte_array_free_to_bytes(out);
}

static gboolean
tracker_parts_fail(GError **error, const char *what)
{
	g_set_error(error, TRACKER_PARTS_ERROR, TRACKER_PARTS_ERROR_FORMAT,
	            "not a body-part forest: %s", what);
	return FALSE;
}

/* The header's counts, checked against the size of @data. */
static gboolean
tracker_parts_read_header(const guint8 *data, gsize size, TrackerPartsForest *f, GError **error)
{
	gsize want;

	if (size < FOREST_HEADER || data == NULL || memcmp(data, FOREST_MAGIC, 4) != 0)
		return tracker_parts_fail(error, "no SBPF header");
	if (tracker_parts_read32(data + 4) != FOREST_VERSION)
		return tracker_parts_fail(error, "unknown version");
	if (tracker_parts_read32(data + 8) != TRACKER_N_PARTS)
		return tracker_parts_fail(error, "another set of parts");
	f->n_trees = tracker_parts_read32(data + 12);
	f->n_nodes = tracker_parts_read32(data + 16);
	f->n_leaves = tracker_parts_read32(data + 20);
	if (f->n_trees == 0 || f->n_trees > FOREST_MAX_TREES || f->n_nodes > FOREST_MAX_NODES ||
	    f->n_leaves == 0 || f->n_leaves > FOREST_MAX_NODES + FOREST_MAX_TREES)
		return tracker_parts_fail(error, "counts out of range");
	want = FOREST_HEADER + 4 * (gsize)f->n_trees + FOREST_NODE * (gsize)f->n_nodes +
	       TRACKER_N_PARTS * (gsize)f->n_leaves;
	if (size != want)
		return tracker_parts_fail(error, size < want ? "truncated" : "trailing bytes");
	return TRUE;
}

/* A child of node @i: a later node (so that every walk ends) or a leaf. */
static gboolean
tracker_parts_child_ok(const TrackerPartsForest *f, guint i, gint32 child)
{
	return child < 0 ? (guint32)(-1 - child) < f->n_leaves
	                 : (guint32)child > i && (guint32)child < f->n_nodes;
}

static gboolean
tracker_parts_read_body(const guint8 *p, TrackerPartsForest *f, GError **error)
{
	for (guint t = 0; t < f->n_trees; t++, p += 4) {
		f->roots[t] = tracker_parts_read32(p);
		if (f->roots[t] >= f->n_nodes)
			return tracker_parts_fail(error, "a tree's root out of range");
	}
	for (guint i = 0; i < f->n_nodes; i++, p += FOREST_NODE) {
		TrackerPartsNode *n = &f->nodes[i];

		n->au = tracker_parts_read16(p);
		n->av = tracker_parts_read16(p + 2);
		n->bu = tracker_parts_read16(p + 4);
		n->bv = tracker_parts_read16(p + 6);
		n->threshold = tracker_parts_read16(p + 8);
		n->left = (gint32)tracker_parts_read32(p + 10);
		n->right = (gint32)tracker_parts_read32(p + 14);
		if (!tracker_parts_child_ok(f, i, n->left) ||
		    !tracker_parts_child_ok(f, i, n->right))
			return tracker_parts_fail(error, "a node's child out of range");
	}
	memcpy(f->leaves, p, (gsize)f->n_leaves * TRACKER_N_PARTS);
	return TRUE;
}

TrackerPartsForest *
tracker_parts_forest_new_from_bytes(GBytes *bytes, GError **error)
{
	gsize size;
	const guint8 *data = g_bytes_get_data(bytes, &size);
	g_autoptr(TrackerPartsForest) f = g_new0(TrackerPartsForest, 1);

	/* An empty GBytes may have no data at all. */
	if (data == NULL)
		size = 0;
	if (!tracker_parts_read_header(data, size, f, error))
		return NULL;
	f->roots = g_new(guint32, f->n_trees);
	f->nodes = g_new(TrackerPartsNode, f->n_nodes);
	f->leaves = g_new(guint8, (gsize)f->n_leaves * TRACKER_N_PARTS);
	if (!tracker_parts_read_body(data + FOREST_HEADER, f, error))
		return NULL;
	return g_steal_pointer(&f);
}

void
tracker_parts_forest_free(TrackerPartsForest *forest)
{
	if (forest == NULL)
		return;
	g_free(forest->roots);
	g_free(forest->nodes);
	g_free(forest->leaves);
	g_free(forest);
}
