/* The demo scene's truth as skeletons: what a perfect tracker would report.
 * Frames from other sources carry no truth and give no users. */
#include "skeletons.h"
#include "demo/truth.h"

static gpointer
skeletons_truth_open(const TrackerSettings *settings G_GNUC_UNUSED, GError **error G_GNUC_UNUSED)
{
	/* Stateless; any non-NULL pointer says the open worked. */
	return (gpointer)&skeletons_truth_backend;
}

static gboolean
skeletons_truth_process(gpointer data G_GNUC_UNUSED, const DepthFrame *depth, TrackerFrame *out,
                        GError **error G_GNUC_UNUSED)
{
	if (depth->truth != NULL) {
		truth_to_tracker_frame(depth->truth, depth->number, depth->time_us,
		                       SKELETONS_TRUTH_MIN_PIXELS, out);
		return TRUE;
	}
	out->frame = depth->number;
	out->time_us = depth->time_us;
	out->n_users = 0;
	return TRUE;
}

/* Only the demo knows what each pixel shows. */
static gboolean
skeletons_truth_labels(gpointer data G_GNUC_UNUSED, const DepthFrame *depth,
                       const TrackerFrame *frame, guint8 *labels)
{
	if (depth->truth == NULL)
		return FALSE;
	truth_to_labels(depth->truth, depth->mm, frame, labels);
	return TRUE;
}

static void
skeletons_truth_free(gpointer data G_GNUC_UNUSED)
{
}

const SkeletonsBackend skeletons_truth_backend = {
	.name = "truth",
	.usage = "truth   the demo scene's true skeletons (other sources: no users)",
	.open = skeletons_truth_open,
	.process = skeletons_truth_process,
	.labels = skeletons_truth_labels,
	.free = skeletons_truth_free,
};
