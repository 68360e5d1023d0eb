/* The bridge: depth frames -> skeletons -> mapping engines -> outputs.
 *
 * Holds the mappings in force with their engines and outputs. A mapping
 * file is read again when it changes (or on bridge_reload()): a good edit
 * takes effect from the next frame, keeping the outputs that did not
 * change (and their TCP connections); a broken edit is reported with its
 * path and line and the mapping in force stays. Frames keep flowing
 * throughout. */
#pragma once

#include <glib.h>

#include "base/depth.h"
#include "mapping/message.h"
#include "outputs/osc-output.h"
#include "outputs/ws-server.h"
#include "tracker/tracker.h"

#define BRIDGE_ERROR (bridge_error_quark())
GQuark bridge_error_quark(void);

typedef enum {
	BRIDGE_ERROR_TARGET, /* a --target that matches no output */
	BRIDGE_ERROR_NAME,   /* a --bridge name that cannot be one */
} BridgeError;

typedef struct {
	const char *const *mappings; /* names or paths, NULL-terminated, at least one */
	const char *const *targets;  /* "[OUTPUT=]URL" overrides, NULL-terminated; may be NULL */
	const char *skeletons;       /* backend name */
	gboolean watch;              /* reload mapping files when they change */
	const char *name;      /* the bridge's name: {bridge}, TUIO sources; NULL: skelbridge */
	const char *state_dir; /* where TUIO outputs keep their frame sequence across runs;
	                        * NULL: $XDG_STATE_HOME/skelbridge; "" for nowhere */
} BridgeOptions;

/* Everything worth telling the user: loads, reloads, rejected edits, outputs. */
/* @level: G_LOG_LEVEL_WARNING for faults it rides out, G_LOG_LEVEL_INFO for what it
 * does, G_LOG_LEVEL_DEBUG for comings and goings. */
typedef void (*BridgeLogFunc)(GLogLevelFlags level, const char *message, gpointer user_data);

typedef struct _Bridge Bridge;

/**
 * bridge_new:
 * Loads the mappings, applies the targets and starts the outputs. Fails on
 * a missing or broken mapping, a bad target or an unknown skeletons backend.
 */
Bridge *bridge_new(const BridgeOptions *options, BridgeLogFunc log, gpointer user_data,
                   GError **error);

/**
 * bridge_new_full:
 * As bridge_new(), with @tracker the settings of skeletons that track
 * (NULL: the defaults); fails too on settings out of range.
 */
Bridge *bridge_new_full(const BridgeOptions *options, const TrackerSettings *tracker,
                        BridgeLogFunc log, gpointer user_data, GError **error);
void bridge_free(Bridge *bridge);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Bridge, bridge_free)

/** bridge_frame: a depth frame in: its skeletons go through every mapping. */
void bridge_frame(Bridge *bridge, const DepthFrame *frame);

/**
 * bridge_push:
 * Skeletons in, messages out to every output, with @timetag_us
 * (microseconds since 1970) on bundles. bridge_frame() ends here.
 */
void bridge_push(Bridge *bridge, const TrackerFrame *frame, gint64 timetag_us);

/**
 * bridge_finish:
 * Before the bridge stops: TUIO outputs send an empty frame so that
 * clients drop every cursor, and TCP receivers get a moment to take what
 * is still queued for them.
 */
void bridge_finish(Bridge *bridge);

/**
 * bridge_reset:
 * Frames from now on do not follow the ones before (the device came
 * back): the skeletons and the gesture recognisers start afresh.
 */
void bridge_reset(Bridge *bridge);

/** bridge_reload: reads every mapping file again (SIGHUP). */
void bridge_reload(Bridge *bridge);

typedef struct {
	guint64 frames;
	guint users; /* in the last frame */
	guint64 messages;
	guint64 errors;
} BridgeStats;

/** bridge_get_stats: totals over every output, since the start. */
void bridge_get_stats(const Bridge *bridge, BridgeStats *stats);

/** bridge_n_outputs: the outputs in force, over all mappings. */
guint bridge_n_outputs(const Bridge *bridge);
/** bridge_output: the @index-th output in force and its label ("name (url)"). */
const OscOutput *bridge_output(const Bridge *bridge, guint index, const char **label);

/* One frame through the bridge, for a watcher such as the live view. */
typedef struct {
	const DepthFrame *depth; /* NULL for frames given to bridge_push() */
	const TrackerFrame *frame;
	double skeletons_ms; /* the time the skeletons took; 0 without depth */
} BridgeFrameInfo;

typedef void (*BridgeWatchFunc)(Bridge *bridge, const BridgeFrameInfo *info, gpointer user_data);

/** bridge_set_watch: @func sees every frame once its messages went out (NULL: none). */
void bridge_set_watch(Bridge *bridge, BridgeWatchFunc func, gpointer user_data);

/* Called with each WsServer whose output says monitor = true, when it is
 * created (also after a reload that recreates it, or that changes the
 * output while keeping its listener: routes are then added again). A
 * reload that turns monitor off removes the listener's routes. */
typedef void (*BridgeMonitorFunc)(WsServer *server, const MappingOutput *config,
                                  gpointer user_data);

/**
 * bridge_set_monitor_func:
 * @func hears of every listener whose output says monitor = true: at once
 * of those already running, then of each a reload makes (NULL: none).
 * Route handlers run on the bridge's main context.
 */
void bridge_set_monitor_func(Bridge *bridge, BridgeMonitorFunc func, gpointer user_data);

/**
 * bridge_get_labels:
 * During a watch call: what each pixel of @depth was taken for, as
 * skeletons_get_labels() tells. FALSE when the skeletons cannot tell.
 */
gboolean bridge_get_labels(Bridge *bridge, const DepthFrame *depth, guint8 *labels);

/**
 * bridge_output_messages:
 * The messages the @index-th output in force (as bridge_output() counts)
 * was given for the last frame. TUIO outputs lay out their own bundles and
 * show none here.
 */
const MessageBatch *bridge_output_messages(const Bridge *bridge, guint index);

/**
 * bridge_get_camera_pose:
 * The camera pose as the skeletons saw it in the last frame (see
 * tracker_get_camera_pose()); FALSE when they cannot tell.
 */
gboolean bridge_get_camera_pose(Bridge *bridge, TrackerCameraPose *pose);

/** bridge_describe: the mappings in force: files, outputs and rules, a line each. */
char *bridge_describe(const Bridge *bridge);

/** bridge_generation: goes up whenever the mappings in force change. */
guint bridge_generation(const Bridge *bridge);

/* How the source's clock maps to the wall clock, for timetags. */
typedef struct {
	gboolean set;
	gint64 offset_us; /* wall clock minus source clock */
} BridgeClock;

/**
 * bridge_clock_timetag:
 * The wall-clock time of a frame taken at @frame_us on its source's clock,
 * with @now_us the wall clock now. Keeps the frames' own spacing while they
 * come at their pace; starts afresh from @now_us when the source's time
 * jumps or runs ahead of the wall clock (a loop, a replay played fast), so
 * that no bundle is stamped in the future.
 */
gint64 bridge_clock_timetag(BridgeClock *clock, gint64 frame_us, gint64 now_us);
