#include "cli-sensors.h"

#include <gio/gio.h>
#include <string.h>

#include "cli.h"
#include "room/room-fusion.h"

/* Sent apart, a sensor's users go with the lead's frame when its own last
 * frame is at most this far from it. */
#define APART_MAX_AGE_US ROOM_FUSION_MAX_AGE_US

typedef struct {
	CliSensors *owner;
	guint index;
	Source *source;
	Tracker *tracker;
	gboolean busy;          /* the tracker is on a frame */
	gboolean reset_pending; /* forget the past once it is done */
	gboolean ended;
	guint64 dropped;
	gboolean have_last;
	TrackerFrame last; /* sent apart: the last frame tracked */
} Sensor;

struct _CliSensors {
	Sensor sensors[ROOM_MAX_SENSORS];
	guint n;
	RoomFusion *fusion; /* NULL: sent apart */
	GCancellable *cancel;
	guint in_flight;
	GMainLoop *loop;
	int *status;
	CliSensorsFunc func;
	gpointer user_data;
	CliSensorsTrackedFunc tracked_func;
	gpointer tracked_data;
	gboolean keep_all; /* pulled sources wait for their tracker */
	guint64 frames;
};

static gboolean
cli_sensors_check_room(char **specs, const Room *room, GError **error)
{
	for (guint i = 0; specs[i] != NULL; i++) {
		if (room_find_source(room, specs[i]) == NULL) {
			g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
			            "--source %s is not in the room file: place it with skelbridge "
			            "calibrate, or add a [sensor] for it",
			            specs[i]);
			return FALSE;
		}
	}
	return TRUE;
}

/* The room's sensors in the order of @specs (each once, each in @room),
 * for fusion's numbering. */
static Room *
cli_sensors_room_in_order(char **specs, const Room *room)
{
	Room *ordered = room_new();

	for (guint i = 0; specs[i] != NULL; i++) {
		gboolean added = room_add_sensor(ordered, room_find_source(room, specs[i]), NULL);

		g_warn_if_fail(added);
	}
	return ordered;
}

CliSensors *
cli_sensors_new(char **specs, const SourceOptions *options, const TrackerSettings *settings,
                const Room *room, GError **error)
{
	g_autoptr(CliSensors) s = g_new0(CliSensors, 1);
	guint n = g_strv_length(specs);

	if (n < 2 || n > ROOM_MAX_SENSORS) {
		g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
		            "give --source 2 to %u times for several sensors (%u given)",
		            ROOM_MAX_SENSORS, n);
		return NULL;
	}
	if (!cli_sources_once(specs, error))
		return NULL;
	if (room != NULL) {
		g_autoptr(Room) ordered = NULL;

		if (!cli_sensors_check_room(specs, room, error))
			return NULL;
		ordered = cli_sensors_room_in_order(specs, room);
		s->fusion = room_fusion_new(ordered);
	}
	s->cancel = g_cancellable_new();
	for (guint i = 0; i < n; i++) {
		Sensor *sensor = &s->sensors[i];

		sensor->owner = s;
		sensor->index = i;
		s->n = i + 1;
		if ((sensor->source = source_open(specs[i], options, error)) == NULL ||
		    (sensor->tracker = tracker_new(settings, error)) == NULL)
			return NULL;
	}
	return g_steal_pointer(&s);
}

void
cli_sensors_free(CliSensors *s)
{
	if (s == NULL)
		return;
	/* (cli_sensors_run() waited for the trackers' threads.) */
	g_return_if_fail(s->in_flight == 0);
	for (guint i = 0; i < s->n; i++) {
		g_clear_pointer(&s->sensors[i].tracker, tracker_free);
		g_clear_pointer(&s->sensors[i].source, source_free);
	}
	g_clear_pointer(&s->fusion, room_fusion_free);
	g_clear_object(&s->cancel);
	g_free(s);
}

/* ---- users apart ---- */

/* The lead for users sent apart, as fusion picks its own. */
static guint
cli_sensors_apart_lead(const CliSensors *s)
{
	gint64 last_us[ROOM_MAX_SENSORS];

	for (guint i = 0; i < s->n; i++)
		last_us[i] =
		        s->sensors[i].have_last ? s->sensors[i].last.time_us : ROOM_FUSION_NO_FRAME;
	return room_fusion_lead_of(last_us, s->n);
}

/* Every sensor's users about the lead's frame @lead, in their own camera
 * spaces, with ids apart. */
static void
cli_sensors_apart(CliSensors *s, const TrackerFrame *lead, TrackerFrame *out)
{
	*out = *lead;
	out->frame = s->frames;
	out->n_users = 0;
	for (guint i = 0; i < s->n; i++) {
		const Sensor *sensor = &s->sensors[i];

		if (!sensor->have_last ||
		    ABS(sensor->last.time_us - lead->time_us) > APART_MAX_AGE_US)
			continue;
		for (guint u = 0; u < sensor->last.n_users && out->n_users < TRACKER_MAX_USERS;
		     u++) {
			TrackerUser *user = &out->users[out->n_users++];

			*user = sensor->last.users[u];
			user->id += i * CLI_SENSORS_ID_STRIDE;
		}
	}
}

/* ---- tracking ---- */

static void
cli_sensors_tracked(Sensor *sensor, const TrackerFrame *frame)
{
	CliSensors *s = sensor->owner;
	TrackerFrame out;

	if (s->tracked_func != NULL) {
		TrackerCameraPose pose;

		tracker_get_camera_pose(sensor->tracker, &pose);
		s->tracked_func(sensor->index, frame, &pose, s->tracked_data);
	}
	if (s->func == NULL)
		return;
	if (s->fusion != NULL) {
		if (!room_fusion_process(s->fusion, sensor->index, frame, &out))
			return;
	} else {
		sensor->last = *frame;
		sensor->have_last = TRUE;
		if (cli_sensors_apart_lead(s) != sensor->index)
			return;
		cli_sensors_apart(s, frame, &out);
	}
	s->frames++;
	s->func(&out, s->user_data);
}

static void
cli_sensors_done(GObject *object G_GNUC_UNUSED, GAsyncResult *result, gpointer user_data)
{
	Sensor *sensor = user_data;
	CliSensors *s = sensor->owner;
	g_autoptr(GError) error = NULL;
	TrackerFrame frame;
	gboolean ok = tracker_process_finish(sensor->tracker, result, &frame, &error);

	s->in_flight--;
	sensor->busy = FALSE;
	if (s->keep_all)
		source_resume(sensor->source);
	if (sensor->reset_pending) {
		tracker_reset(sensor->tracker);
		sensor->reset_pending = FALSE;
		return;
	}
	if (g_cancellable_is_cancelled(s->cancel))
		return;
	if (!ok) {
		cli_warning("%s: %s", source_spec(sensor->source), error->message);
		return;
	}
	cli_sensors_tracked(sensor, &frame);
}

static void
cli_sensors_frame(Source *source, const DepthFrame *frame, gpointer user_data)
{
	Sensor *sensor = user_data;
	CliSensors *s = sensor->owner;

	sensor->dropped += frame->skipped;
	if (sensor->busy) {
		sensor->dropped++;
		cli_debug("%s: frame %" G_GUINT64_FORMAT " left out: its tracker is busy",
		          source_spec(source), frame->number);
		return;
	}
	if (frame->still)
		tracker_reset(sensor->tracker);
	sensor->busy = TRUE;
	s->in_flight++;
	if (s->keep_all)
		source_pause(source);
	tracker_process_async(sensor->tracker, frame->mm, frame->number, frame->time_us, s->cancel,
	                      cli_sensors_done, sensor);
}

static void
cli_sensors_event(Source *source, SourceEvent event, const GError *error, gpointer user_data)
{
	Sensor *sensor = user_data;
	CliSensors *s = sensor->owner;
	gboolean all_ended = TRUE;

	if (event != SOURCE_EVENT_END) {
		/* Time and people moved on while the device was away. */
		if (cli_source_event(source, event, error, s->loop, s->status)) {
			if (sensor->busy)
				sensor->reset_pending = TRUE;
			else
				tracker_reset(sensor->tracker);
		}
		return;
	}
	sensor->ended = TRUE;
	for (guint i = 0; i < s->n; i++)
		all_ended = all_ended && s->sensors[i].ended;
	if (all_ended)
		g_main_loop_quit(s->loop);
}

void
cli_sensors_watch(CliSensors *s, CliSensorsTrackedFunc func, gboolean keep_all, gpointer user_data)
{
	s->tracked_func = func;
	s->tracked_data = user_data;
	s->keep_all = keep_all;
}

gboolean
cli_sensors_run(CliSensors *s, GMainLoop *loop, int *status, CliSensorsFunc func,
                gpointer user_data, GError **error)
{
	static const SourceCallbacks callbacks = { cli_sensors_frame, cli_sensors_event };
	GMainContext *context = g_main_loop_get_context(loop);
	gboolean started = TRUE;

	s->loop = loop;
	s->status = status;
	s->func = func;
	s->user_data = user_data;
	for (guint i = 0; i < s->n && started; i++)
		started = source_start(s->sensors[i].source, &callbacks, &s->sensors[i], error);
	if (started) {
		cli_quit_on_signals(loop, status, NULL);
		g_main_loop_run(loop);
	}
	cli_sensors_stop(s);
	g_cancellable_cancel(s->cancel);
	while (s->in_flight > 0)
		g_main_context_iteration(context, TRUE);
	return started;
}

void
cli_sensors_stop(CliSensors *s)
{
	for (guint i = 0; i < s->n; i++)
		source_stop(s->sensors[i].source);
}

char *
cli_sensors_describe(const CliSensors *s)
{
	g_autoptr(GString) text = g_string_new(NULL);

	for (guint i = 0; i < s->n; i++)
		g_string_append_printf(text, "%s%s", i > 0 ? " + " : "",
		                       source_spec(s->sensors[i].source));
	return g_string_free(g_steal_pointer(&text), FALSE);
}

guint64
cli_sensors_dropped(const CliSensors *s)
{
	guint64 n = 0;

	for (guint i = 0; i < s->n; i++)
		n += s->sensors[i].dropped;
	return n;
}
