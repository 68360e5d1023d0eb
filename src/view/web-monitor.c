#include "web-monitor.h"

#include <cairo.h>
#include <math.h>
#include <string.h>

#include "snapshot.h"
#include "view-feed.h"
#include "web-monitor-resources.h"

/* Message lines a page gets: a frame of every joint of two users. */
#define MONITOR_LINES 48
/* Pages poll a few times a second; one that stopped this long ago left. */
#define MONITOR_ACTIVE_US (5 * G_USEC_PER_SEC)
/* The picture is drawn again at most this often, however many ask. */
#define MONITOR_PICTURE_US (G_USEC_PER_SEC / 5)
#define MONITOR_RATE_US    G_USEC_PER_SEC
#define MONITOR_SCALE      0.5
#define MONITOR_RESOURCES  "/org/skelbridge/web/"

struct _WebMonitor {
	Bridge *bridge;
	char *caption;
	ViewFeed *feed; /* the frames for the picture, the messages, the mappings;
	                 * made when first asked for: most bridges serve no monitor */
	guint64 frames;
	double fps;
	guint64 rate_frames;
	gint64 rate_start_us;
	gint64 asked_us; /* when a page last asked for anything; 0: never */
	TrackerFrame last;
	gboolean has_last;
	GBytes *picture; /* the last PNG drawn */
	gint64 picture_us;
};

WebMonitor *
web_monitor_new(Bridge *bridge, const char *caption)
{
	WebMonitor *monitor = g_new0(WebMonitor, 1);

	monitor->bridge = bridge;
	monitor->caption = g_strdup(caption);
	return monitor;
}

void
web_monitor_free(WebMonitor *monitor)
{
	if (monitor == NULL)
		return;
	g_free(monitor->caption);
	view_feed_free(monitor->feed);
	g_clear_pointer(&monitor->picture, g_bytes_unref);
	g_free(monitor);
}

static gboolean
web_monitor_active(const WebMonitor *monitor, gint64 now_us)
{
	return monitor->asked_us != 0 && now_us - monitor->asked_us < MONITOR_ACTIVE_US;
}

static void
web_monitor_count(WebMonitor *monitor, gint64 now_us)
{
	gint64 span = now_us - monitor->rate_start_us;

	monitor->frames++;
	if (monitor->rate_start_us == 0) {
		monitor->rate_start_us = now_us;
		monitor->rate_frames = monitor->frames;
	} else if (span >= MONITOR_RATE_US) {
		monitor->fps =
		        (monitor->frames - monitor->rate_frames) * (double)G_USEC_PER_SEC / span;
		monitor->rate_start_us = now_us;
		monitor->rate_frames = monitor->frames;
	}
}

void
web_monitor_watch(Bridge *bridge, const BridgeFrameInfo *info, gpointer user_data)
{
	WebMonitor *monitor = user_data;
	gint64 now = g_get_monotonic_time();

	web_monitor_count(monitor, now);
	if (!web_monitor_active(monitor, now))
		return;
	monitor->last = *info->frame;
	monitor->has_last = TRUE;
	view_feed_watch(bridge, info, monitor->feed);
}

/* ---- /state.json ---- */

static void
web_monitor_json_string(GString *s, const char *text)
{
	g_string_append_c(s, '"');
	for (const char *p = text ? text : ""; *p != '\0'; p++) {
		guchar c = (guchar)*p;

		if (c == '"' || c == '\\')
			g_string_append_printf(s, "\\%c", c);
		else if (c < 0x20)
			g_string_append_printf(s, "\\u%04x", c);
		else
			g_string_append_c(s, (char)c);
	}
	g_string_append_c(s, '"');
}

/* JSON has no locale, nor NaN: never printf's %g for a number. */
static void
web_monitor_json_number(GString *s, double value)
{
	char text[G_ASCII_DTOSTR_BUF_SIZE];

	if (!isfinite(value))
		g_string_append(s, "null");
	else
		g_string_append(s, g_ascii_formatd(text, sizeof(text), "%.6g", value));
}

static void
web_monitor_json_user(GString *s, const TrackerUser *user)
{
	g_string_append_printf(s, "{\"id\":%u,\"joints\":{", user->id);
	for (int k = 0; k < TRACKER_N_JOINTS; k++) {
		const TrackerJoint *j = &user->joints[k];

		g_string_append_printf(s, "%s\"%s\":[", k ? "," : "", tracker_joint_name(k));
		web_monitor_json_number(s, j->u);
		g_string_append_c(s, ',');
		web_monitor_json_number(s, j->v);
		g_string_append_c(s, ',');
		web_monitor_json_number(s, j->confidence);
		g_string_append_c(s, ']');
	}
	g_string_append(s, "}}");
}

static void
web_monitor_json_users(GString *s, const WebMonitor *monitor)
{
	guint n = monitor->has_last ? monitor->last.n_users : 0;

	g_string_append(s, "\"users\":[");
	for (guint k = 0; k < n; k++) {
		if (k > 0)
			g_string_append_c(s, ',');
		web_monitor_json_user(s, &monitor->last.users[k]);
	}
	g_string_append(s, "]");
}

static void
web_monitor_json_output(GString *s, const OscOutput *output, const char *label)
{
	OscOutputStats stats;

	osc_output_get_stats(output, &stats);
	g_string_append(s, "{\"name\":");
	web_monitor_json_string(s, osc_output_config(output)->name);
	g_string_append(s, ",\"label\":");
	web_monitor_json_string(s, label);
	g_string_append(s, ",\"state\":");
	web_monitor_json_string(s, osc_output_state_name(stats.state));
	g_string_append_printf(s,
	                       ",\"messages\":%" G_GUINT64_FORMAT ",\"errors\":%" G_GUINT64_FORMAT
	                       ",\"last_error\":",
	                       stats.messages, stats.errors);
	if (stats.last_error != NULL)
		web_monitor_json_string(s, stats.last_error);
	else
		g_string_append(s, "null");
	/* Pages and the like, for a listener; null for a sender. */
	if (osc_output_ws_server(output) != NULL)
		g_string_append_printf(s, ",\"clients\":%u}", stats.clients);
	else
		g_string_append(s, ",\"clients\":null}");
}

static void
web_monitor_json_outputs(GString *s, const WebMonitor *monitor)
{
	g_string_append(s, "\"outputs\":[");
	for (guint i = 0; i < bridge_n_outputs(monitor->bridge); i++) {
		const char *label;
		const OscOutput *output = bridge_output(monitor->bridge, i, &label);

		if (i > 0)
			g_string_append_c(s, ',');
		web_monitor_json_output(s, output, label);
	}
	g_string_append(s, "]");
}

/* The lines come newest first, a line each. */
static void
web_monitor_json_messages(GString *s, const WebMonitor *monitor)
{
	guint64 total;
	g_autofree char *text = view_feed_get_lines(monitor->feed, &total);
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

	g_string_append_printf(s, "\"messages_total\":%" G_GUINT64_FORMAT ",\"messages\":[", total);
	for (guint k = 0; *text != '\0' && lines[k] != NULL; k++) {
		if (k > 0)
			g_string_append_c(s, ',');
		web_monitor_json_string(s, lines[k]);
	}
	g_string_append(s, "]");
}

static GBytes *
web_monitor_state(WebMonitor *monitor)
{
	GString *s = g_string_new("{\"source\":");
	guint seen = 0;
	g_autofree char *mapping = view_feed_get_mapping(monitor->feed, &seen);

	web_monitor_json_string(s, monitor->caption);
	g_string_append_printf(s,
	                       ",\"frame\":%" G_GUINT64_FORMAT
	                       ",\"source_frame\":%" G_GUINT64_FORMAT ",\"fps\":",
	                       monitor->frames, monitor->has_last ? monitor->last.frame : 0);
	web_monitor_json_number(s, monitor->fps);
	g_string_append_c(s, ',');
	web_monitor_json_users(s, monitor);
	g_string_append_c(s, ',');
	web_monitor_json_outputs(s, monitor);
	g_string_append_c(s, ',');
	web_monitor_json_messages(s, monitor);
	g_string_append(s, ",\"mapping\":");
	web_monitor_json_string(s, mapping);
	g_string_append(s, "}\n");
	return g_string_free_to_bytes(s);
}

/* ---- /depth.png ---- */

static cairo_status_t
web_monitor_png_write(void *closure, const unsigned char *data, unsigned int length)
{
	g_byte_array_append(closure, data, length);
	return CAIRO_STATUS_SUCCESS;
}

/* @surface at MONITOR_SCALE, as a PNG. */
static GBytes *
web_monitor_png(cairo_surface_t *surface)
{
	int width = (int)(cairo_image_surface_get_width(surface) * MONITOR_SCALE);
	int height = (int)(cairo_image_surface_get_height(surface) * MONITOR_SCALE);
	cairo_surface_t *small = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
	cairo_t *cr = cairo_create(small);
	GByteArray *png = g_byte_array_new();

	cairo_scale(cr, MONITOR_SCALE, MONITOR_SCALE);
	cairo_set_source_surface(cr, surface, 0, 0);
	cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD);
	cairo_paint(cr);
	cairo_destroy(cr);
	cairo_surface_write_to_png_stream(small, web_monitor_png_write, png);
	cairo_surface_destroy(small);
	return g_byte_array_free_to_bytes(png);
}

/* The frame the loop handed over, or an empty picture before the first. */
static GBytes *
web_monitor_draw(WebMonitor *monitor, const ViewFeedFrame *frame)
{
	g_autofree guint16 *blank = frame == NULL ? g_new0(guint16, DEPTH_PIXELS) : NULL;
	SnapshotInput input = { 0 };
	cairo_surface_t *surface;
	GBytes *png;

	input.depth_mm = frame ? frame->mm : blank;
	input.labels = frame && frame->labelled ? frame->labels : NULL;
	input.frame = frame ? &frame->frame : NULL;
	input.source = monitor->caption;
	input.tracker_ms = frame && frame->skeletons_ms > 0.0 ? frame->skeletons_ms : -1.0;
	surface = snapshot_draw(&input);
	png = web_monitor_png(surface);
	cairo_surface_destroy(surface);
	return png;
}

static GBytes *
web_monitor_picture(WebMonitor *monitor, gint64 now_us)
{
	const ViewFeedFrame *frame;

	if (monitor->picture != NULL && now_us - monitor->picture_us < MONITOR_PICTURE_US)
		return g_bytes_ref(monitor->picture);
	frame = view_feed_take_frame(monitor->feed);
	if (frame != NULL || monitor->picture == NULL) {
		g_clear_pointer(&monitor->picture, g_bytes_unref);
		monitor->picture = web_monitor_draw(monitor, frame);
		monitor->picture_us = now_us;
	}
	return g_bytes_ref(monitor->picture);
}

/* ---- serving ---- */

static GBytes *
web_monitor_file(const char *name, const char **content_type)
{
	static const char *const types[][2] = {
		{ "index.html", "text/html; charset=utf-8" },
		{ "monitor.css", "text/css; charset=utf-8" },
		{ "monitor.js", "text/javascript; charset=utf-8" },
	};

	for (guint k = 0; k < G_N_ELEMENTS(types); k++) {
		g_autofree char *path = NULL;

		if (strcmp(name, types[k][0]) != 0)
			continue;
		path = g_strconcat(MONITOR_RESOURCES, name, NULL);
		*content_type = types[k][1];
		return g_resource_lookup_data(web_monitor_get_resource(), path,
		                              G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
	}
	return NULL;
}

GBytes *
web_monitor_get(WebMonitor *monitor, const char *path, gint64 now_us, const char **content_type)
{
	monitor->asked_us = now_us;
	if (monitor->feed == NULL)
		monitor->feed = view_feed_new(MONITOR_LINES);
	if (strcmp(path, "/") == 0)
		return web_monitor_file("index.html", content_type);
	if (strcmp(path, "/state.json") == 0) {
		*content_type = "application/json";
		return web_monitor_state(monitor);
	}
	if (strcmp(path, "/depth.png") == 0) {
		*content_type = "image/png";
		return web_monitor_picture(monitor, now_us);
	}
	return path[0] == '/' ? web_monitor_file(path + 1, content_type) : NULL;
}

static GBytes *
web_monitor_route(const char *path, const char **content_type, gpointer user_data)
{
	return web_monitor_get(user_data, path, g_get_monotonic_time(), content_type);
}

void
web_monitor_serve(WsServer *server, const MappingOutput *config G_GNUC_UNUSED, gpointer user_data)
{
	ws_server_add_route(server, "/", web_monitor_route, user_data, NULL);
}
