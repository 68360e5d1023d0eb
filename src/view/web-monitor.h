/* The web monitor: what the live view shows, served over HTTP by a
 * websocket output's own listener (`monitor = true`), so that a bridge
 * running as a service can be checked from a laptop or a phone.
 *
 * At http://ADDRESS:PORT/ a page (src/view/web/, compiled in as a
 * GResource) polls /state.json (frames, rate, users and their joints in
 * image coordinates, each output's state and counters, the last messages
 * out, the mappings in force) and /depth.png (the depth image at half size,
 * users tinted, skeletons drawn, as a snapshot draws it).
 *
 * The frame loop pays for nothing while nobody looks: the monitor counts
 * frames, and only while pages have asked for something in the last few
 * seconds does it keep the last users and the messages. The picture is
 * drawn when asked for, at most a few times a second, from a frame the
 * loop hands over only when the last one was taken (a ViewFeed). Requests
 * are answered on the bridge's own main context, the one its frames come
 * in on. GLib and cairo only: it needs no GTK. */
#pragma once

#include <glib.h>

#include "bridge.h"
#include "outputs/ws-server.h"

typedef struct _WebMonitor WebMonitor;

/** web_monitor_new: a monitor of @bridge; @caption names the source. */
WebMonitor *web_monitor_new(Bridge *bridge, const char *caption);
void web_monitor_free(WebMonitor *monitor);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(WebMonitor, web_monitor_free)

/**
 * web_monitor_watch:
 * A BridgeWatchFunc with the monitor for @user_data: counts the frame and,
 * while pages are looking, keeps what they will ask for.
 */
void web_monitor_watch(Bridge *bridge, const BridgeFrameInfo *info, gpointer user_data);

/**
 * web_monitor_serve:
 * A BridgeMonitorFunc with the monitor for @user_data: serves the page,
 * /state.json and /depth.png under "/" on @server.
 */
void web_monitor_serve(WsServer *server, const MappingOutput *config, gpointer user_data);

/**
 * web_monitor_get:
 * What the monitor answers for @path at @now_us (monotonic), with its
 * content type; NULL for a path it does not know.
 */
GBytes *web_monitor_get(WebMonitor *monitor, const char *path, gint64 now_us,
                        const char **content_type);
