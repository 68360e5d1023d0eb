/* Error domains: each quark is named as G_DEFINE_QUARK's first argument is
 * written, "skelbridge-NAME-error-quark", which a formatter once spaced
 * into "skelbridge - NAME - error - quark". */
#include "bridge.h"
#include "demo/demo-scene.h"
#include "sources/dump.h"
#include "gesture/gesture.h"
#include "mapping/mapping.h"
#include "outputs/tuio-store.h"
#include "room/room-calibrator.h"
#include "room/room.h"
#include "skeletons/skeletons.h"
#include "sources/source.h"
#include "tracker/tracker-parts.h"
#include "tracker/tracker.h"

static void
test_named(gconstpointer data)
{
	const struct {
		GQuark (*quark)(void);
		const char *name;
	} *domain = data;

	g_assert_cmpstr(g_quark_to_string(domain->quark()), ==, domain->name);
}

int
main(int argc, char **argv)
{
	static const struct {
		GQuark (*quark)(void);
		const char *name;
	} domains[] = {
		{ bridge_error_quark, "skelbridge-bridge-error-quark" },
		{ demo_scene_error_quark, "skelbridge-demo-scene-error-quark" },
		{ room_calibrator_error_quark, "skelbridge-room-calibrator-error-quark" },
		{ dump_error_quark, "skelbridge-dump-error-quark" },
		{ gesture_error_quark, "skelbridge-gesture-error-quark" },
		{ mapping_error_quark, "skelbridge-mapping-error-quark" },
		{ room_error_quark, "skelbridge-room-error-quark" },
		{ skeletons_error_quark, "skelbridge-skeletons-error-quark" },
		{ source_error_quark, "skelbridge-source-error-quark" },
		{ tracker_error_quark, "skelbridge-tracker-error-quark" },
		{ tracker_parts_error_quark, "skelbridge-tracker-parts-error-quark" },
		{ tuio_store_error_quark, "skelbridge-tuio-store-error-quark" },
	};

	g_test_init(&argc, &argv, NULL);
	for (guint i = 0; i < G_N_ELEMENTS(domains); i++) {
		g_autofree char *path = g_strdup_printf("/error-domains/%s", domains[i].name);

		g_test_add_data_func(path, &domains[i], test_named);
	}
	return g_test_run();
}
