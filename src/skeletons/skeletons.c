#include "skeletons.h"

#include <string.h>

/* The formatter would space the quark's name out as a subtraction. */
/* clang-format off */
G_DEFINE_QUARK(skelbridge-skeletons-error-quark, skeletons_error)
/* clang-format on */

static const SkeletonsBackend *const backends[] = {
	&skeletons_tracker_backend,
	&skeletons_truth_backend,
};

struct _Skeletons {
	const SkeletonsBackend *backend;
	gpointer data;
};

char *
skeletons_usage(void)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < G_N_ELEMENTS(backends); i++)
		g_string_append_printf(s, "  %s\n", backends[i]->usage);
	return g_string_free(s, FALSE);
}

Skeletons *
skeletons_open(const char *name, GError **error)
{
	return skeletons_open_full(name, NULL, error);
}

Skeletons *
skeletons_open_full(const char *name, const TrackerSettings *settings, GError **error)
{
	g_autofree char *usage = NULL;
	TrackerSettings defaults;

	if (settings == NULL) {
		tracker_settings_init(&defaults);
		settings = &defaults;
	}
	for (guint i = 0; i < G_N_ELEMENTS(backends); i++) {
		Skeletons *skeletons;
		gpointer data;

		if (strcmp(name, backends[i]->name) != 0)
			continue;
		if ((data = backends[i]->open(settings, error)) == NULL)
			return NULL;
		skeletons = g_new0(Skeletons, 1);
		skeletons->backend = backends[i];
		skeletons->data = data;
		return skeletons;
	}
	usage = skeletons_usage();
	g_set_error(error, SKELETONS_ERROR, SKELETONS_ERROR_UNKNOWN,
	            "unknown skeletons '%s'; they are:\n%s", name, g_strchomp(usage));
	return NULL;
}

void
skeletons_free(Skeletons *skeletons)
{
	if (skeletons == NULL)
		return;
	skeletons->backend->free(skeletons->data);
	g_free(skeletons);
}

gboolean
skeletons_process(Skeletons *skeletons, const DepthFrame *depth, TrackerFrame *out, GError **error)
{
	return skeletons->backend->process(skeletons->data, depth, out, error);
}

const char *
skeletons_name(const Skeletons *skeletons)
{
	return skeletons->backend->name;
}

gboolean
skeletons_get_labels(Skeletons *skeletons, const DepthFrame *depth, const TrackerFrame *frame,
                     guint8 *labels)
{
	if (skeletons->backend->labels == NULL)
		return FALSE;
	return skeletons->backend->labels(skeletons->data, depth, frame, labels);
}

gboolean
skeletons_get_camera_pose(Skeletons *skeletons, TrackerCameraPose *pose)
{
	if (skeletons->backend->camera_pose == NULL)
		return FALSE;
	skeletons->backend->camera_pose(skeletons->data, pose);
	return TRUE;
}

void
skeletons_reset(Skeletons *skeletons)
{
	if (skeletons->backend->reset != NULL)
		skeletons->backend->reset(skeletons->data);
}
