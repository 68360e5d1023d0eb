#include "bridge.h"

#include <gio/gio.h>
#include <string.h>

#include "gesture/gesture.h"
#include "mapping/mapping-engine.h"
#include "mapping/mapping-file.h"
#include "mapping/mapping-parse.h"
#include "outputs/tuio-output.h"
#include "skeletons/skeletons.h"

/* The formatter would space the quark's name out as a subtraction. */
/* clang-format off */
G_DEFINE_QUARK(skelbridge-bridge-error-quark, bridge_error)
/* clang-format on */

/* A frame stamped this far behind the wall clock was held up (a paused
 * replay, a stall): the clock starts afresh rather than stamp the past. */
#define CLOCK_SLACK_US G_USEC_PER_SEC
/* Editors write a file in several steps: reload once they are quiet. */
#define RELOAD_DELAY_MS 100
/* On shutdown, how long TCP receivers get to take the last frames. */
#define FLUSH_US (500 * 1000)

typedef struct {
	char *output; /* NULL: the only output there is */
	char *text;   /* as given, for messages */
	MappingTarget target;
} BridgeTarget;

typedef struct {
	Bridge *bridge;
	char *path;
	GBytes *seen; /* the text last read, good or bad */
	Mapping *mapping;
	MappingEngine *engine;
	GPtrArray *outputs; /* OscOutput, one per mapping->outputs */
	/* The outputs in force by name, and the WebSocket ones by where they
	 * listen ("PORT HOST"): their index + 1. A reload finds each new
	 * output's old one by looking it up, in linear time. */
	GHashTable *by_name, *by_listener;
	GPtrArray *tuio;    /* TuioOutput for TUIO outputs, NULL for the others */
	GPtrArray *batches; /* MessageBatch, one per output */
	GFileMonitor *monitor;
	GSource *reload;
	GestureRecognizer *gestures; /* only when a rule sends gesture events */
} BridgeMapping;

struct _Bridge {
	BridgeLogFunc log;
	gpointer user_data;
	Skeletons *skeletons;
	GPtrArray *targets;                        /* BridgeTarget */
	GPtrArray *mappings;                       /* BridgeMapping */
	TrackerFrame frame;                        /* scratch */
	GestureEvent gestures[GESTURE_MAX_EVENTS]; /* scratch */
	BridgeClock clock;
	guint64 frames;
	guint users;
	BridgeStats retired; /* what outputs replaced by reloads had sent */
	guint generation;    /* of the mappings in force */
	BridgeWatchFunc watch;
	gpointer watch_data;
	BridgeMonitorFunc monitor;
	gpointer monitor_data;
	char *name;      /* NULL: skelbridge */
	char *state_dir; /* NULL: TUIO sequences are not kept */
};

gint64
bridge_clock_timetag(BridgeClock *clock, gint64 frame_us, gint64 now_us)
{
	gint64 t = frame_us + clock->offset_us;

	if (!clock->set || t > now_us || now_us - t > CLOCK_SLACK_US) {
		clock->set = TRUE;
		clock->offset_us = now_us - frame_us;
		t = now_us;
	}
	return t;
}

static void bridge_log(Bridge *b, GLogLevelFlags level, const char *format, ...)
        G_GNUC_PRINTF(3, 4);

static void
bridge_log(Bridge *b, GLogLevelFlags level, const char *format, ...)
{
	g_autofree char *message = NULL;
	va_list args;

	va_start(args, format);
	message = g_strdup_vprintf(format, args);
	va_end(args);
	if (b->log != NULL)
		b->log(level, message, b->user_data);
}

static void
bridge_output_log(GLogLevelFlags level, const char *label, const char *message, gpointer user_data)
{
	bridge_log(user_data, level, "output %s: %s", label, message);
}

static void
bridge_log_warnings(Bridge *b, const Mapping *mapping)
{
	for (guint i = 0; i < mapping->warnings->len; i++)
		bridge_log(b, G_LOG_LEVEL_WARNING, "%s",
		           (const char *)g_ptr_array_index(mapping->warnings, i));
}

/* ---- --target ---- */

static void
bridge_target_free(gpointer data)
{
	BridgeTarget *t = data;

	g_free(t->output);
	g_free(t->text);
	mapping_target_clear(&t->target);
	g_free(t);
}

/* "[OUTPUT=]URL"; URLs have no '=' of their own. */
static BridgeTarget *
bridge_target_parse(const char *text, GError **error)
{
	BridgeTarget *t = g_new0(BridgeTarget, 1);
	const char *equals = strchr(text, '=');
	g_autoptr(GError) local = NULL;

	t->text = g_strdup(text);
	if (equals != NULL)
		t->output = g_strndup(text, equals - text);
	if (!mapping_target_parse(equals ? equals + 1 : text, &t->target, &local)) {
		g_set_error(error, MAPPING_ERROR, MAPPING_ERROR_TARGET, "--target %s: %s", text,
		            local->message);
		bridge_target_free(t);
		return NULL;
	}
	return t;
}

static gboolean
bridge_has_output(const Mapping *mapping, const char *name)
{
	for (guint i = 0; mapping != NULL && i < mapping->outputs->len; i++) {
		if (strcmp(mapping_get_output(mapping, i)->name, name) == 0)
			return TRUE;
	}
	return FALSE;
}

/* A named target must name an output of some mapping, an unnamed one the
 * only output there is: otherwise it would silently do nothing. */
static gboolean
bridge_target_check(Bridge *b, const BridgeMapping *bm, const BridgeTarget *t,
                    const Mapping *mapping, GError **error)
{
	if (t->output == NULL) {
		if (mapping->outputs->len == 1)
			return TRUE;
		g_set_error(error, BRIDGE_ERROR, BRIDGE_ERROR_TARGET,
		            "%s: --target %s: the mapping has %u outputs; name one: --target "
		            "OUTPUT=URL",
		            mapping->path, t->text, mapping->outputs->len);
		return FALSE;
	}
	if (bridge_has_output(mapping, t->output))
		return TRUE;
	for (guint i = 0; i < b->mappings->len; i++) {
		const BridgeMapping *other = g_ptr_array_index(b->mappings, i);

		if (other != bm && bridge_has_output(other->mapping, t->output))
			return TRUE;
	}
	g_set_error(error, BRIDGE_ERROR, BRIDGE_ERROR_TARGET,
	            "--target %s: no mapping has an output called '%s'", t->text, t->output);
	return FALSE;
}

/* A WebSocket output takes a ws:// URL (where to listen), the others an
 * osc.udp:// or osc.tcp:// one (where to send). */
static gboolean
bridge_target_fits(const BridgeTarget *t, const MappingOutput *output, GError **error)
{
	gboolean listens = output->kind == MAPPING_OUTPUT_WEBSOCKET;

	if (listens == (t->target.transport == MAPPING_TRANSPORT_WS))
		return TRUE;
	if (listens)
		g_set_error(error, BRIDGE_ERROR, BRIDGE_ERROR_TARGET,
		            "--target %s: output '%s' is a WebSocket output: give "
		            "ws://ADDRESS:PORT/PATH",
		            t->text, output->name);
	else
		g_set_error(error, BRIDGE_ERROR, BRIDGE_ERROR_TARGET,
		            "--target %s: output '%s' sends OSC to a receiver: give "
		            "osc.udp://HOST:PORT or osc.tcp://HOST:PORT",
		            t->text, output->name);
	return FALSE;
}

static gboolean
bridge_apply_targets(Bridge *b, const BridgeMapping *bm, Mapping *mapping, GError **error)
{
	for (guint i = 0; i < b->targets->len; i++) {
		const BridgeTarget *t = g_ptr_array_index(b->targets, i);

		if (!bridge_target_check(b, bm, t, mapping, error))
			return FALSE;
		for (guint o = 0; o < mapping->outputs->len; o++) {
			MappingOutput *output = g_ptr_array_index(mapping->outputs, o);

			if (t->output != NULL && strcmp(t->output, output->name) != 0)
				continue;
			if (!bridge_target_fits(t, output, error))
				return FALSE;
			mapping_target_clear(&output->target);
			mapping_target_copy(&output->target, &t->target);
		}
	}
	return TRUE;
}

/* ---- one mapping ---- */

static GBytes *
bridge_read(const char *path, GError **error)
{
	char *text;
	gsize length;

	if (!mapping_file_read(path, &text, &length, error))
		return NULL;
	return g_bytes_new_take(text, length);
}

/* {bridge} in addresses: the bridge's name when it has one. */
static void
bridge_apply_name(const Bridge *b, Mapping *mapping)
{
	if (b->name != NULL)
		mapping_set_bridge_name(mapping, b->name);
}

static Mapping *
bridge_mapping_parse(BridgeMapping *bm, GBytes *text, GError **error)
{
	gsize length;
	const char *data = g_bytes_get_data(text, &length);
	g_autoptr(Mapping) mapping = mapping_parse(bm->path, data ? data : "", length, error);

	if (mapping == NULL || !bridge_apply_targets(bm->bridge, bm, mapping, error))
		return NULL;
	bridge_apply_name(bm->bridge, mapping);
	return g_steal_pointer(&mapping);
}

static void
bridge_retire(Bridge *b, OscOutput *output)
{
	OscOutputStats stats;

	if (output == NULL)
		return;
	osc_output_get_stats(output, &stats);
	b->retired.messages += stats.messages;
	b->retired.errors += stats.errors;
	osc_output_free(output);
}

/* "PORT HOST": where a WebSocket output listens, as a key. */
static char *
bridge_listener_key(const MappingTarget *target)
{
	return g_strdup_printf("%u %s", target->port, target->host);
}

/* Indexes the outputs in force (bm->outputs) by name and by listener. */
static void
bridge_mapping_index(BridgeMapping *bm)
{
	g_hash_table_remove_all(bm->by_name);
	g_hash_table_remove_all(bm->by_listener);
	for (guint i = 0; i < bm->outputs->len; i++) {
		OscOutput *output = g_ptr_array_index(bm->outputs, i);
		const MappingOutput *config = osc_output_config(output);

		g_hash_table_insert(bm->by_name, config->name, GUINT_TO_POINTER(i + 1));
		if (osc_output_ws_server(output) != NULL)
			g_hash_table_insert(bm->by_listener, bridge_listener_key(&config->target),
			                    GUINT_TO_POINTER(i + 1));
	}
}

/* The index in bm->outputs of the output in force called like @config,
 * not yet taken by the new mapping; -1 when there is none. */
static int
bridge_mapping_find_name(const BridgeMapping *bm, const MappingOutput *config)
{
	guint at = GPOINTER_TO_UINT(g_hash_table_lookup(bm->by_name, config->name));

	if (at == 0 || g_ptr_array_index(bm->outputs, at - 1) == NULL)
		return -1;
	return (int)at - 1;
}

/* The index of the output in force that sends just as @config says, or -1. */
static int
bridge_mapping_find_equal(const BridgeMapping *bm, const MappingOutput *config)
{
	int at = bridge_mapping_find_name(bm, config);

	if (at < 0 ||
	    !mapping_output_equal(osc_output_config(g_ptr_array_index(bm->outputs, at)), config))
		return -1;
	return at;
}

/* A WebSocket output in force listening where @config would: a new
 * output takes its listener (and clients) rather than bind again. */
static OscOutput *
bridge_mapping_find_listener(const BridgeMapping *bm, const MappingOutput *config)
{
	g_autofree char *key = NULL;
	guint at;

	if (config->kind != MAPPING_OUTPUT_WEBSOCKET)
		return NULL;
	key = bridge_listener_key(&config->target);
	at = GPOINTER_TO_UINT(g_hash_table_lookup(bm->by_listener, key));
	return at > 0 ? g_ptr_array_index(bm->outputs, at - 1) : NULL;
}

static char *
bridge_output_label(const MappingOutput *config)
{
	g_autofree char *url = mapping_target_to_string(&config->target);

	return g_strdup_printf("%s (%s)", config->name, url);
}

/* The outputs that need a listener of their own, opened before anything
 * changes (one per config, NULL for the others): a port in use fails the
 * mapping, and the one in force stays. */
static GPtrArray *
bridge_mapping_open_listeners(BridgeMapping *bm, const Mapping *mapping, GError **error)
{
	g_autoptr(GPtrArray) opened =
	        g_ptr_array_new_with_free_func((GDestroyNotify)osc_output_free);

	for (guint i = 0; i < mapping->outputs->len; i++) {
		const MappingOutput *config = mapping_get_output(mapping, i);
		g_autofree char *label = bridge_output_label(config);
		OscOutput *output = NULL;

		if (config->kind == MAPPING_OUTPUT_WEBSOCKET &&
		    bridge_mapping_find_equal(bm, config) < 0 &&
		    bridge_mapping_find_listener(bm, config) == NULL) {
			output = osc_output_open(config, label, bridge_output_log, bm->bridge, NULL,
			                         error);
			if (output == NULL)
				return NULL;
		}
		g_ptr_array_add(opened, output);
	}
	return g_steal_pointer(&opened);
}

/* The output in force when nothing about it changed (keeping its
 * connection and counts), otherwise a new one; *@fresh says which. */
static OscOutput *
bridge_mapping_take_output(BridgeMapping *bm, const MappingOutput *config, gboolean *fresh)
{
	g_autofree char *label = bridge_output_label(config);
	int at = bridge_mapping_find_equal(bm, config);
	g_autoptr(GError) error = NULL;
	OscOutput *output;

	*fresh = at < 0;
	if (at >= 0) {
		output = g_ptr_array_index(bm->outputs, at);
		g_ptr_array_index(bm->outputs, at) = NULL;
		return output;
	}
	/* Only a listener taken over is left to open here, and that cannot fail. */
	output = osc_output_open(config, label, bridge_output_log, bm->bridge,
	                         bridge_mapping_find_listener(bm, config), &error);
	g_assert_no_error(error);
	return output;
}

/* The TUIO state of the output called like @config in force, so that ids
 * and the frame sequence go on; a new one for a new TUIO output. */
static TuioOutput *
bridge_mapping_take_tuio(BridgeMapping *bm, const MappingOutput *config)
{
	int at = bm->tuio != NULL ? bridge_mapping_find_name(bm, config) : -1;
	TuioOutput *old = at >= 0 ? g_ptr_array_index(bm->tuio, at) : NULL;
	TuioOutputSetup setup;

	if (old != NULL) {
		g_ptr_array_index(bm->tuio, at) = NULL;
		tuio_output_configure(old, config, g_get_real_time());
		return old;
	}
	setup.bridge_name = bm->bridge->name;
	setup.state_dir = bm->bridge->state_dir;
	setup.log = bridge_output_log;
	setup.user_data = bm->bridge;
	return tuio_output_new(config, &setup, g_get_real_time());
}

/* A TUIO output that a reload removes tells its clients to drop cursors. */
static void
bridge_mapping_drop_tuio(BridgeMapping *bm)
{
	for (guint i = 0; bm->tuio != NULL && i < bm->tuio->len; i++) {
		TuioOutput *old = g_ptr_array_index(bm->tuio, i);

		if (old == NULL)
			continue;
		tuio_output_finish(old, g_ptr_array_index(bm->outputs, i),
		                   bm->bridge->frame.time_us, g_get_real_time());
		tuio_output_free(old);
	}
	g_clear_pointer(&bm->tuio, g_ptr_array_unref);
}

/* A recogniser when some rule wants gestures, with the mapping's
 * thresholds; one already running keeps what its users are doing. */
static void
bridge_mapping_install_gestures(BridgeMapping *bm, const Mapping *mapping)
{
	if (!mapping_wants_gestures(mapping))
		g_clear_pointer(&bm->gestures, gesture_recognizer_free);
	else if (bm->gestures == NULL)
		bm->gestures = gesture_recognizer_new(&mapping->gestures);
	else
		gesture_recognizer_set_config(bm->gestures, &mapping->gestures);
}

/* Tells the view layer of each new WebSocket output that serves the monitor. */
static void
bridge_mapping_announce(BridgeMapping *bm, GPtrArray *fresh)
{
	Bridge *b = bm->bridge;

	for (guint i = 0; b->monitor != NULL && i < fresh->len; i++) {
		const OscOutput *output = g_ptr_array_index(fresh, i);
		const MappingOutput *config = osc_output_config(output);

		if (config->kind == MAPPING_OUTPUT_WEBSOCKET && config->websocket.monitor)
			b->monitor(osc_output_ws_server(output), config, b->monitor_data);
	}
}

static gboolean
bridge_mapping_install(BridgeMapping *bm, Mapping *mapping, GError **error)
{
	g_autoptr(GPtrArray) opened = bridge_mapping_open_listeners(bm, mapping, error);
	g_autoptr(GPtrArray) fresh = g_ptr_array_new();
	GPtrArray *outputs = g_ptr_array_new();
	GPtrArray *tuio = g_ptr_array_new();
	MappingEngine *engine;

	if (opened == NULL) {
		g_ptr_array_unref(outputs);
		g_ptr_array_unref(tuio);
		return FALSE;
	}
	engine = mapping_engine_new(mapping, bm->engine);
	for (guint i = 0; i < mapping->outputs->len; i++) {
		const MappingOutput *config = mapping_get_output(mapping, i);

		g_ptr_array_add(tuio, config->kind == MAPPING_OUTPUT_TUIO
		                              ? bridge_mapping_take_tuio(bm, config)
		                              : NULL);
	}
	/* Before the old outputs go: a dropped TUIO output still sends through one. */
	bridge_mapping_drop_tuio(bm);
	bm->tuio = tuio;
	for (guint i = 0; i < mapping->outputs->len; i++) {
		OscOutput *output = g_steal_pointer(&g_ptr_array_index(opened, i));
		gboolean is_new = TRUE;

		if (output == NULL)
			output = bridge_mapping_take_output(bm, mapping_get_output(mapping, i),
			                                    &is_new);
		g_ptr_array_add(outputs, output);
		if (is_new)
			g_ptr_array_add(fresh, output);
	}
	for (guint i = 0; bm->outputs != NULL && i < bm->outputs->len; i++)
		bridge_retire(bm->bridge, g_ptr_array_index(bm->outputs, i));
	g_clear_pointer(&bm->outputs, g_ptr_array_unref);
	bm->outputs = outputs;
	bridge_mapping_index(bm);
	while (bm->batches->len < outputs->len)
		g_ptr_array_add(bm->batches, message_batch_new());
	g_ptr_array_set_size(bm->batches, outputs->len);
	mapping_engine_free(bm->engine);
	bm->engine = engine;
	bridge_mapping_install_gestures(bm, mapping);
	mapping_free(bm->mapping);
	bm->mapping = mapping;
	bm->bridge->generation++;
	bridge_mapping_announce(bm, fresh);
	return TRUE;
}

/* "4 rules, sending to default at osc.udp://127.0.0.1:7120" */
static char *
bridge_mapping_describe(const Mapping *mapping)
{
	GString *s = g_string_new(NULL);

	g_string_append_printf(s, "%u rule%s, sending to", mapping->rules->len,
	                       mapping->rules->len == 1 ? "" : "s");
	for (guint i = 0; i < mapping->outputs->len; i++) {
		const MappingOutput *output = mapping_get_output(mapping, i);
		g_autofree char *url = mapping_target_to_string(&output->target);

		g_string_append_printf(s, "%s %s at %s", i ? "," : "", output->name, url);
	}
	return g_string_free(s, FALSE);
}

/* Reads the file again; @forced reloads even when its text did not change. */
static void
bridge_mapping_reload(BridgeMapping *bm, gboolean forced)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GBytes) text = bridge_read(bm->path, &error);
	g_autofree char *description = NULL;
	Mapping *mapping = NULL;

	if (text != NULL && !forced && g_bytes_equal(text, bm->seen))
		return;
	if (text != NULL) {
		g_bytes_unref(bm->seen);
		bm->seen = g_bytes_ref(text);
		mapping = bridge_mapping_parse(bm, text, &error);
	}
	if (mapping == NULL) {
		bridge_log(bm->bridge, G_LOG_LEVEL_WARNING, "%s; the mapping in force stays",
		           error->message);
		return;
	}
	if (!bridge_mapping_install(bm, mapping, &error)) {
		bridge_log(bm->bridge, G_LOG_LEVEL_WARNING, "%s: %s; the mapping in force stays",
		           bm->path, error->message);
		mapping_free(mapping);
		return;
	}
	bridge_log_warnings(bm->bridge, mapping);
	description = bridge_mapping_describe(mapping);
	bridge_log(bm->bridge, G_LOG_LEVEL_INFO, "%s: reloaded: %s", bm->path, description);
}

static gboolean
bridge_mapping_reload_due(gpointer user_data)
{
	BridgeMapping *bm = user_data;

	g_clear_pointer(&bm->reload, g_source_unref);
	bridge_mapping_reload(bm, FALSE);
	return G_SOURCE_REMOVE;
}

static void
bridge_mapping_changed(GFileMonitor *monitor G_GNUC_UNUSED, GFile *file G_GNUC_UNUSED,
                       GFile *other G_GNUC_UNUSED, GFileMonitorEvent event, gpointer user_data)
{
	BridgeMapping *bm = user_data;

	if (event == G_FILE_MONITOR_EVENT_ATTRIBUTE_CHANGED)
		return;
	if (bm->reload != NULL) {
		g_source_destroy(bm->reload);
		g_source_unref(bm->reload);
	}
	bm->reload = g_timeout_source_new(RELOAD_DELAY_MS);
	g_source_set_callback(bm->reload, bridge_mapping_reload_due, bm, NULL);
	g_source_attach(bm->reload, g_main_context_get_thread_default());
}

static void
bridge_mapping_watch(BridgeMapping *bm)
{
	g_autoptr(GFile) file = g_file_new_for_path(bm->path);
	g_autoptr(GError) error = NULL;

	/* Editors often save by writing a new file and renaming it over the old. */
	bm->monitor = g_file_monitor_file(file, G_FILE_MONITOR_WATCH_MOVES, NULL, &error);
	if (bm->monitor == NULL) {
		bridge_log(bm->bridge, G_LOG_LEVEL_WARNING,
		           "%s: cannot watch for changes (%s); reload with SIGHUP", bm->path,
		           error->message);
		return;
	}
	g_signal_connect(bm->monitor, "changed", G_CALLBACK(bridge_mapping_changed), bm);
}

static void
bridge_mapping_free(gpointer data)
{
	BridgeMapping *bm = data;

	if (bm->monitor != NULL) {
		g_signal_handlers_disconnect_by_data(bm->monitor, bm);
		g_file_monitor_cancel(bm->monitor);
		g_object_unref(bm->monitor);
	}
	if (bm->reload != NULL) {
		g_source_destroy(bm->reload);
		g_source_unref(bm->reload);
	}
	if (bm->outputs != NULL)
		g_ptr_array_set_free_func(bm->outputs, (GDestroyNotify)osc_output_free);
	if (bm->tuio != NULL)
		g_ptr_array_set_free_func(bm->tuio, (GDestroyNotify)tuio_output_free);
	g_clear_pointer(&bm->tuio, g_ptr_array_unref);
	g_clear_pointer(&bm->outputs, g_ptr_array_unref);
	g_hash_table_unref(bm->by_name);
	g_hash_table_unref(bm->by_listener);
	g_ptr_array_unref(bm->batches);
	g_clear_pointer(&bm->gestures, gesture_recognizer_free);
	mapping_engine_free(bm->engine);
	mapping_free(bm->mapping);
	g_clear_pointer(&bm->seen, g_bytes_unref);
	g_free(bm->path);
	g_free(bm);
}

/* Reads (but does not start) the mapping named @spec. */
static BridgeMapping *
bridge_mapping_load(Bridge *b, const char *spec, GError **error)
{
	g_autofree char *path = mapping_file_locate(spec, error);
	g_autoptr(GBytes) text = path ? bridge_read(path, error) : NULL;
	gsize length;
	const char *data;
	BridgeMapping *bm;
	Mapping *mapping;

	if (text == NULL)
		return NULL;
	data = g_bytes_get_data(text, &length);
	mapping = mapping_parse(path, data ? data : "", length, error);
	if (mapping == NULL)
		return NULL;
	bridge_apply_name(b, mapping);
	bm = g_new0(BridgeMapping, 1);
	bm->bridge = b;
	bm->path = g_steal_pointer(&path);
	bm->seen = g_steal_pointer(&text);
	bm->mapping = mapping;
	bm->batches = g_ptr_array_new_with_free_func((GDestroyNotify)message_batch_free);
	bm->by_name = g_hash_table_new(g_str_hash, g_str_equal);
	bm->by_listener = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	return bm;
}

/* ---- the bridge ---- */

static gboolean
bridge_parse_targets(Bridge *b, const BridgeOptions *options, GError **error)
{
	for (guint i = 0; options->targets != NULL && options->targets[i] != NULL; i++) {
		BridgeTarget *t = bridge_target_parse(options->targets[i], error);

		if (t == NULL)
			return FALSE;
		g_ptr_array_add(b->targets, t);
		if (t->output == NULL && g_strv_length((char **)options->mappings) > 1) {
			g_set_error(error, BRIDGE_ERROR, BRIDGE_ERROR_TARGET,
			            "--target %s: with several mappings, name the output: --target "
			            "OUTPUT=URL",
			            t->text);
			return FALSE;
		}
	}
	return TRUE;
}

static gboolean
bridge_load_mappings(Bridge *b, const BridgeOptions *options, GError **error)
{
	for (guint i = 0; options->mappings[i] != NULL; i++) {
		BridgeMapping *bm = bridge_mapping_load(b, options->mappings[i], error);

		if (bm == NULL)
			return FALSE;
		g_ptr_array_add(b->mappings, bm);
	}
	/* Targets are checked against every mapping, so only once all are read. */
	for (guint i = 0; i < b->mappings->len; i++) {
		BridgeMapping *bm = g_ptr_array_index(b->mappings, i);

		if (!bridge_apply_targets(b, bm, bm->mapping, error))
			return FALSE;
	}
	return TRUE;
}

static gboolean
bridge_start_mapping(Bridge *b, BridgeMapping *bm, gboolean watch, GError **error)
{
	Mapping *mapping = g_steal_pointer(&bm->mapping);
	g_autofree char *description = bridge_mapping_describe(mapping);
	g_autoptr(GError) local = NULL;

	if (!bridge_mapping_install(bm, mapping, &local)) {
		bm->mapping = mapping;
		g_set_error(error, local->domain, local->code, "%s: %s", bm->path, local->message);
		return FALSE;
	}
	bridge_log_warnings(b, mapping);
	bridge_log(b, G_LOG_LEVEL_INFO, "%s: %s", bm->path, description);
	if (watch)
		bridge_mapping_watch(bm);
	return TRUE;
}

static gboolean
bridge_name_check(const char *name, GError **error)
{
	g_autofree char *message = NULL;

	if (mapping_bridge_name_check(name, &message))
		return TRUE;
	g_set_error(error, BRIDGE_ERROR, BRIDGE_ERROR_NAME, "--bridge: %s", message);
	return FALSE;
}

Bridge *
bridge_new(const BridgeOptions *options, BridgeLogFunc log, gpointer user_data, GError **error)
{
	return bridge_new_full(options, NULL, log, user_data, error);
}

Bridge *
bridge_new_full(const BridgeOptions *options, const TrackerSettings *tracker, BridgeLogFunc log,
                gpointer user_data, GError **error)
{
	g_autoptr(Bridge) b = NULL;

	g_return_val_if_fail(options->mappings != NULL && options->mappings[0] != NULL, NULL);

	if (options->name != NULL && !bridge_name_check(options->name, error))
		return NULL;
	b = g_new0(Bridge, 1);
	b->log = log;
	b->user_data = user_data;
	b->name = g_strdup(options->name);
	if (options->state_dir == NULL)
		b->state_dir = g_build_filename(g_get_user_state_dir(), "skelbridge", NULL);
	else if (options->state_dir[0] != '\0')
		b->state_dir = g_strdup(options->state_dir);
	b->targets = g_ptr_array_new_with_free_func(bridge_target_free);
	b->mappings = g_ptr_array_new_with_free_func(bridge_mapping_free);
	b->skeletons = skeletons_open_full(options->skeletons, tracker, error);
	if (b->skeletons == NULL || !bridge_parse_targets(b, options, error) ||
	    !bridge_load_mappings(b, options, error))
		return NULL;
	for (guint i = 0; i < b->mappings->len; i++) {
		if (!bridge_start_mapping(b, g_ptr_array_index(b->mappings, i), options->watch,
		                          error))
			return NULL;
	}
	return g_steal_pointer(&b);
}

void
bridge_free(Bridge *b)
{
	if (b == NULL)
		return;
	g_ptr_array_unref(b->mappings);
	g_ptr_array_unref(b->targets);
	skeletons_free(b->skeletons);
	g_free(b->name);
	g_free(b->state_dir);
	g_free(b);
}

static void
bridge_send(Bridge *b, const TrackerFrame *frame, gint64 timetag_us)
{
	TrackerCameraPose pose;
	gboolean posed = skeletons_get_camera_pose(b->skeletons, &pose);

	b->frames++;
	b->users = frame->n_users;
	for (guint i = 0; i < b->mappings->len; i++) {
		BridgeMapping *bm = g_ptr_array_index(b->mappings, i);
		MessageBatch **batches = (MessageBatch **)bm->batches->pdata;
		guint n_gestures = 0;

		mapping_engine_set_camera_pose(bm->engine, posed ? &pose : NULL);

		/* Time from the frame: replays and fast playback see the same gestures. */
		if (bm->gestures != NULL)
			n_gestures = gesture_recognizer_process(bm->gestures, frame, frame->time_us,
			                                        b->gestures);
		mapping_engine_run_gestures(bm->engine, frame, b->gestures, n_gestures, batches);
		for (guint o = 0; o < bm->outputs->len; o++) {
			OscOutput *output = g_ptr_array_index(bm->outputs, o);
			TuioOutput *tuio = g_ptr_array_index(bm->tuio, o);

			if (tuio != NULL)
				tuio_output_frame(tuio, output, frame, timetag_us);
			else
				osc_output_send(output, batches[o], timetag_us);
		}
	}
}

static void
bridge_notify(Bridge *b, const DepthFrame *depth, const TrackerFrame *frame, double ms)
{
	BridgeFrameInfo info = { depth, frame, ms };

	if (b->watch != NULL)
		b->watch(b, &info, b->watch_data);
}

void
bridge_push(Bridge *b, const TrackerFrame *frame, gint64 timetag_us)
{
	bridge_send(b, frame, timetag_us);
	bridge_notify(b, NULL, frame, 0.0);
}

static gboolean
bridge_flushed(const Bridge *b)
{
	for (guint i = 0; i < bridge_n_outputs(b); i++) {
		if (!osc_output_flushed(bridge_output(b, i, NULL)))
			return FALSE;
	}
	return TRUE;
}

void
bridge_finish(Bridge *b)
{
	gint64 deadline = g_get_monotonic_time() + FLUSH_US;

	for (guint i = 0; i < b->mappings->len; i++) {
		BridgeMapping *bm = g_ptr_array_index(b->mappings, i);

		for (guint o = 0; o < bm->tuio->len; o++) {
			TuioOutput *tuio = g_ptr_array_index(bm->tuio, o);

			if (tuio != NULL)
				tuio_output_finish(tuio, g_ptr_array_index(bm->outputs, o),
				                   b->frame.time_us, g_get_real_time());
		}
	}
	while (!bridge_flushed(b) && g_get_monotonic_time() < deadline) {
		if (!g_main_context_iteration(g_main_context_get_thread_default(), FALSE))
			g_usleep(1000);
	}
}

static void
bridge_reset_gestures(Bridge *b)
{
	for (guint i = 0; i < b->mappings->len; i++) {
		BridgeMapping *bm = g_ptr_array_index(b->mappings, i);

		if (bm->gestures != NULL)
			gesture_recognizer_reset(bm->gestures);
	}
}

void
bridge_reset(Bridge *b)
{
	skeletons_reset(b->skeletons);
	bridge_reset_gestures(b);
}

void
bridge_frame(Bridge *b, const DepthFrame *frame)
{
	g_autoptr(GError) error = NULL;
	gint64 start = g_get_monotonic_time();
	double ms;

	/* A still follows nothing: the tracker starts afresh on it, and so do gestures. */
	if (frame->still)
		bridge_reset_gestures(b);
	if (!skeletons_process(b->skeletons, frame, &b->frame, &error))
		bridge_log(b, G_LOG_LEVEL_WARNING, "%s", error->message);
	ms = (g_get_monotonic_time() - start) / 1000.0;
	bridge_send(b, &b->frame,
	            bridge_clock_timetag(&b->clock, frame->time_us, g_get_real_time()));
	bridge_notify(b, frame, &b->frame, ms);
}

void
bridge_reload(Bridge *b)
{
	for (guint i = 0; i < b->mappings->len; i++)
		bridge_mapping_reload(g_ptr_array_index(b->mappings, i), TRUE);
}

void
bridge_get_stats(const Bridge *b, BridgeStats *stats)
{
	*stats = b->retired;
	stats->frames = b->frames;
	stats->users = b->users;
	for (guint i = 0; i < bridge_n_outputs(b); i++) {
		OscOutputStats output;

		osc_output_get_stats(bridge_output(b, i, NULL), &output);
		stats->messages += output.messages;
		stats->errors += output.errors;
	}
}

guint
bridge_n_outputs(const Bridge *b)
{
	guint n = 0;

	for (guint i = 0; i < b->mappings->len; i++)
		n += ((BridgeMapping *)g_ptr_array_index(b->mappings, i))->outputs->len;
	return n;
}

const OscOutput *
bridge_output(const Bridge *b, guint index, const char **label)
{
	for (guint i = 0; i < b->mappings->len; i++) {
		const BridgeMapping *bm = g_ptr_array_index(b->mappings, i);

		if (index < bm->outputs->len) {
			const OscOutput *output = g_ptr_array_index(bm->outputs, index);

			if (label != NULL)
				*label = osc_output_label(output);
			return output;
		}
		index -= bm->outputs->len;
	}
	g_return_val_if_reached(NULL);
}

void
bridge_set_watch(Bridge *b, BridgeWatchFunc func, gpointer user_data)
{
	b->watch = func;
	b->watch_data = user_data;
}

void
bridge_set_monitor_func(Bridge *b, BridgeMonitorFunc func, gpointer user_data)
{
	b->monitor = func;
	b->monitor_data = user_data;
	for (guint i = 0; i < b->mappings->len; i++) {
		BridgeMapping *bm = g_ptr_array_index(b->mappings, i);

		if (bm->outputs != NULL)
			bridge_mapping_announce(bm, bm->outputs);
	}
}

gboolean
bridge_get_labels(Bridge *b, const DepthFrame *depth, guint8 *labels)
{
	return skeletons_get_labels(b->skeletons, depth, &b->frame, labels);
}

gboolean
bridge_get_camera_pose(Bridge *b, TrackerCameraPose *pose)
{
	return skeletons_get_camera_pose(b->skeletons, pose);
}

const MessageBatch *
bridge_output_messages(const Bridge *b, guint index)
{
	for (guint i = 0; i < b->mappings->len; i++) {
		const BridgeMapping *bm = g_ptr_array_index(b->mappings, i);

		if (index < bm->outputs->len)
			return g_ptr_array_index(bm->batches, index);
		index -= bm->outputs->len;
	}
	g_return_val_if_reached(NULL);
}

guint
bridge_generation(const Bridge *b)
{
	return b->generation;
}

static const char *const bridge_scope_names[] = { "frame", "user", "joint", "event" };

/* "/skel/user{user}/{joint}", as the file wrote it. */
static void
bridge_describe_address(GString *s, const MappingRule *rule)
{
	static const char *const fields[] = {
		[MAPPING_PART_USER] = "{user}",   [MAPPING_PART_JOINT] = "{joint}",
		[MAPPING_PART_EVENT] = "{event}", [MAPPING_PART_HAND] = "{hand}",
		[MAPPING_PART_ZONE] = "{zone}",   [MAPPING_PART_BRIDGE] = "{bridge}",
	};

	for (guint p = 0; p < rule->n_address; p++) {
		const MappingPart *part = &rule->address[p];

		g_string_append(s,
		                part->kind == MAPPING_PART_TEXT ? part->text : fields[part->kind]);
	}
}

static const char *
bridge_describe_kind(const MappingOutput *output)
{
	switch (output->kind) {
	case MAPPING_OUTPUT_TUIO:
		return "TUIO cursors to ";
	case MAPPING_OUTPUT_WEBSOCKET:
		return output->websocket.format == MAPPING_WS_JSON ? "JSON to WebSocket clients at "
		                                                   : "OSC to WebSocket clients at ";
	case MAPPING_OUTPUT_OSC:
		break;
	}
	return "";
}

static void
bridge_describe_mapping(GString *s, const Mapping *mapping)
{
	g_string_append_printf(s, "%s\n", mapping->path);
	for (guint i = 0; i < mapping->outputs->len; i++) {
		const MappingOutput *output = mapping_get_output(mapping, i);
		g_autofree char *url = mapping_target_to_string(&output->target);

		g_string_append_printf(s, "  output %s: %s%s\n", output->name,
		                       bridge_describe_kind(output), url);
	}
	for (guint i = 0; i < mapping->rules->len; i++) {
		const MappingRule *rule = mapping_get_rule(mapping, i);

		g_string_append_printf(s, "  rule %s (per %s, to %s): ", rule->name,
		                       bridge_scope_names[rule->scope],
		                       mapping_get_output(mapping, rule->output)->name);
		bridge_describe_address(s, rule);
		g_string_append_c(s, '\n');
	}
}

char *
bridge_describe(const Bridge *b)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < b->mappings->len; i++)
		bridge_describe_mapping(
		        s, ((BridgeMapping *)g_ptr_array_index(b->mappings, i))->mapping);
	return g_string_free(s, FALSE);
}
