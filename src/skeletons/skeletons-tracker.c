/* The skeleton tracker as the bridge's source of skeletons: depth in,
 * users and joints out, on any source. */
#include "skeletons.h"
#include "tracker/tracker.h"

static gpointer
skeletons_tracker_open(const TrackerSettings *settings, GError **error)
{
	return tracker_new(settings, error);
}

/* Stills start a new sequence each; so does a source whose clock starts
 * over (a recording looping, a device that came back). */
static gboolean
skeletons_tracker_process(gpointer data, const DepthFrame *depth, TrackerFrame *out, GError **error)
{
	Tracker *tracker = data;
	g_autoptr(GError) local = NULL;

	if (depth->still)
		tracker_reset(tracker);
	if (tracker_process(tracker, depth->mm, depth->number, depth->time_us, out, &local))
		return TRUE;
	g_clear_error(&local);
	tracker_reset(tracker);
	if (tracker_process(tracker, depth->mm, depth->number, depth->time_us, out, &local))
		return TRUE;
	/* Only a frame time the tracker cannot take is left: no users. */
	out->frame = depth->number;
	out->time_us = depth->time_us;
	out->n_users = 0;
	g_set_error(error, SKELETONS_ERROR, SKELETONS_ERROR_FAILED,
	            "tracker: frame %" G_GUINT64_FORMAT ": %s", depth->number, local->message);
	return FALSE;
}

/* The labels of the frame tracker_process() saw last. */
static gboolean
skeletons_tracker_labels(gpointer data, const DepthFrame *depth G_GNUC_UNUSED,
                         const TrackerFrame *frame G_GNUC_UNUSED, guint8 *labels)
{
	return tracker_get_labels(data, labels);
}

static void
skeletons_tracker_camera_pose(gpointer data, TrackerCameraPose *pose)
{
	tracker_get_camera_pose(data, pose);
}

static void
skeletons_tracker_reset(gpointer data)
{
	tracker_reset(data);
}

static void
skeletons_tracker_free(gpointer data)
{
	tracker_free(data);
}

const SkeletonsBackend skeletons_tracker_backend = {
	.name = "tracker",
	.usage = "tracker the skeleton tracker, on any source (the default)",
	.open = skeletons_tracker_open,
	.process = skeletons_tracker_process,
	.reset = skeletons_tracker_reset,
	.labels = skeletons_tracker_labels,
	.camera_pose = skeletons_tracker_camera_pose,
	.free = skeletons_tracker_free,
};
