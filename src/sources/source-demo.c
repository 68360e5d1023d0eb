/* The built-in demo source: "demo" plays the demo routine for ever,
 * "demo:NAME" plays one pass of a scene from the library (or for ever with
 * the loop option), "demo:NAME@VIEW" one of the sensors of a scene seen
 * by several. */
#include "demo/demo-scene.h"
#include "source.h"

typedef struct {
	DemoScene *scene;
	guint64 next;
	guint64 end; /* G_MAXUINT64 for endless */
} SourceDemo;

static gpointer
source_demo_open(const char *arg, const SourceOptions *options, GError **error)
{
	g_autoptr(GError) local = NULL;
	SourceDemo *demo;
	DemoScene *scene = demo_scene_new_named(arg ? arg : "routine", options->seed, &local);

	if (scene == NULL) {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_SPEC, "demo:%s: %s", arg,
		            local->message);
		return NULL;
	}
	demo = g_new0(SourceDemo, 1);
	demo->scene = scene;
	demo->end = (arg == NULL || options->loop) ? G_MAXUINT64 : demo_scene_n_frames(scene);
	return demo;
}

static SourceReadResult
source_demo_read(gpointer data, DepthFrame *frame, GError **error G_GNUC_UNUSED)
{
	SourceDemo *demo = data;

	if (demo->next >= demo->end)
		return SOURCE_READ_END;
	demo_scene_render(demo->scene, demo->next++, frame);
	return SOURCE_READ_FRAME;
}

static void
source_demo_free(gpointer data)
{
	SourceDemo *demo = data;

	demo_scene_free(demo->scene);
	g_free(demo);
}

const SourceBackend source_demo_backend = {
	.name = "demo",
	.usage = "demo[:SCENE[@VIEW]]  built-in animated scene (default; no camera needed)",
	.open = source_demo_open,
	.read = source_demo_read,
	.free = source_demo_free,
};
