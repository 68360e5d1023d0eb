/* The mapping model: events, values, targets, outputs and rules, and
 * what a rule's messages take. Text in is mapping-parser.c's, files on
 * disk mapping-file.c's. */
#include "mapping.h"

#include <gio/gio.h>
#include <math.h>
#include <string.h>

/* The formatter would space the quark's name out as a subtraction. */
/* clang-format off */
G_DEFINE_QUARK(skelbridge-mapping-error-quark, mapping_error)
/* clang-format on */

static const char *const mapping_event_names[MAPPING_EVENT_FIRST_GESTURE] = {
	[MAPPING_EVENT_NEW_USER] = "new_user",     [MAPPING_EVENT_NEW_SKEL] = "new_skel",
	[MAPPING_EVENT_LOST_USER] = "lost_user",   [MAPPING_EVENT_ZONE_ENTER] = "zone_enter",
	[MAPPING_EVENT_ZONE_LEAVE] = "zone_leave", [MAPPING_EVENT_HAND_CLOSE] = "hand_close",
	[MAPPING_EVENT_HAND_OPEN] = "hand_open",
};

G_STATIC_ASSERT(MAPPING_N_EVENTS - MAPPING_EVENT_FIRST_GESTURE == GESTURE_N_KINDS);

const char *
mapping_event_name(MappingEvent event)
{
	g_return_val_if_fail((guint)event < MAPPING_N_EVENTS, NULL);
	if (mapping_event_is_gesture(event))
		return gesture_kind_to_str((GestureKind)(event - MAPPING_EVENT_FIRST_GESTURE));
	return mapping_event_names[event];
}

gboolean
mapping_rule_chooses(const MappingRule *rule)
{
	return rule->users == MAPPING_USERS_FIRST || rule->users == MAPPING_USERS_NEAREST ||
	       rule->users == MAPPING_USERS_RAISED;
}

gboolean
mapping_event_is_zone(MappingEvent event)
{
	return event == MAPPING_EVENT_ZONE_ENTER || event == MAPPING_EVENT_ZONE_LEAVE;
}

/* "FROM:TO" in millimetres, FROM below TO. */
static gboolean
mapping_box_span(const char *text, double *lo, double *hi)
{
	g_auto(GStrv) ends = g_strsplit(text, ":", -1);
	char *end1 = NULL, *end2 = NULL;

	if (g_strv_length(ends) != 2 || *ends[0] == '\0' || *ends[1] == '\0')
		return FALSE;
	*lo = g_ascii_strtod(ends[0], &end1);
	*hi = g_ascii_strtod(ends[1], &end2);
	return *end1 == '\0' && *end2 == '\0' && isfinite(*lo) && isfinite(*hi) && *lo < *hi;
}

gboolean
mapping_box_parse(const char *text, TrackerVec3 *min, TrackerVec3 *max, char **message)
{
	g_auto(GStrv) spans = g_strsplit(text, " ", -1);
	double lo[3], hi[3];

	if (g_strv_length(spans) != 3 || !mapping_box_span(spans[0], &lo[0], &hi[0]) ||
	    !mapping_box_span(spans[1], &lo[1], &hi[1]) ||
	    !mapping_box_span(spans[2], &lo[2], &hi[2])) {
		*message = g_strdup_printf("expected X0:X1 Y0:Y1 Z0:Z1 in millimetres, each from "
		                           "low to high (-800:800 -300:900 1200:3500), got '%s'",
		                           text);
		return FALSE;
	}
	*min = tracker_vec3(lo[0], lo[1], lo[2]);
	*max = tracker_vec3(hi[0], hi[1], hi[2]);
	return TRUE;
}

gboolean
mapping_event_is_gesture(MappingEvent event)
{
	return event >= MAPPING_EVENT_FIRST_GESTURE && event < MAPPING_N_EVENTS;
}

gboolean
mapping_event_has_hand(MappingEvent event)
{
	return mapping_event_is_gesture(event) || event == MAPPING_EVENT_HAND_CLOSE ||
	       event == MAPPING_EVENT_HAND_OPEN;
}

MappingEvent
mapping_event_from_gesture(GestureKind kind)
{
	g_return_val_if_fail((guint)kind < GESTURE_N_KINDS, MAPPING_EVENT_FIRST_GESTURE);
	return (MappingEvent)(MAPPING_EVENT_FIRST_GESTURE + kind);
}

gboolean
mapping_rule_wants_gestures(const MappingRule *rule)
{
	for (guint i = 0; rule->scope == MAPPING_SCOPE_EVENT && i < rule->n_events; i++) {
		if (mapping_event_is_gesture(rule->events[i]))
			return TRUE;
	}
	return FALSE;
}

gboolean
mapping_wants_gestures(const Mapping *mapping)
{
	for (guint i = 0; i < mapping->rules->len; i++) {
		if (mapping_rule_wants_gestures(mapping_get_rule(mapping, i)))
			return TRUE;
	}
	return FALSE;
}

gboolean
mapping_value_is_joint(MappingValue value)
{
	return value >= MAPPING_VALUE_JOINT && value < MAPPING_N_VALUES;
}

/* OSC pads a string, its NUL included, to 4 bytes. */
static gsize
mapping_osc_string_size(gsize length)
{
	return (length + 4) & ~(gsize)3;
}

static gsize
mapping_rule_longest_joint(const MappingRule *rule)
{
	gsize longest = 0;

	for (guint j = 0; j < rule->n_joints; j++)
		longest = MAX(longest, strlen(rule->joint_names[rule->joints[j]]));
	return longest;
}

static gsize
mapping_rule_longest_event(const MappingRule *rule)
{
	gsize longest = 0;

	for (guint e = 0; e < rule->n_events; e++)
		longest = MAX(longest, strlen(rule->event_names[rule->events[e]]));
	return longest;
}

/* How often argument @i goes into a message: in a for = user rule the
 * joint values repeat per joint. */
static guint
mapping_rule_arg_repeat(const MappingRule *rule, guint i)
{
	return rule->scope == MAPPING_SCOPE_USER && mapping_value_is_joint(rule->args[i])
	               ? rule->n_joints
	               : 1;
}

guint
mapping_rule_n_values(const MappingRule *rule)
{
	guint n = 0;

	for (guint i = 0; i < rule->n_args; i++)
		n += mapping_rule_arg_repeat(rule, i);
	return n;
}

/* The longest text @part stands for: ids have up to 10 digits, the hand
 * is "left", "right" or "both". */
static gsize
mapping_part_longest(const MappingRule *rule, const MappingPart *part)
{
	switch (part->kind) {
	case MAPPING_PART_TEXT:
		return strlen(part->text);
	case MAPPING_PART_USER:
		return 10;
	case MAPPING_PART_JOINT:
		return mapping_rule_longest_joint(rule);
	case MAPPING_PART_EVENT:
		return mapping_rule_longest_event(rule);
	case MAPPING_PART_ZONE:
		return rule->longest_zone;
	case MAPPING_PART_BRIDGE:
		return MAPPING_BRIDGE_MAX_NAME;
	default:
		return strlen("right");
	}
}

static gsize
mapping_value_longest(const MappingRule *rule, MappingValue value)
{
	switch (value) {
	case MAPPING_VALUE_JOINT:
		return mapping_osc_string_size(mapping_rule_longest_joint(rule));
	case MAPPING_VALUE_EVENT:
		return mapping_osc_string_size(mapping_rule_longest_event(rule));
	case MAPPING_VALUE_HAND:
		return mapping_osc_string_size(strlen("right"));
	case MAPPING_VALUE_HAND_STATE:
		return mapping_osc_string_size(strlen("unknown"));
	case MAPPING_VALUE_ZONE:
		return mapping_osc_string_size(rule->longest_zone);
	default:
		return 4; /* an int32 or a float32 */
	}
}

gsize
mapping_rule_max_message(const MappingRule *rule)
{
	gsize address = 0, args = 0;

	for (guint i = 0; i < rule->n_address; i++)
		address += mapping_part_longest(rule, &rule->address[i]);
	for (guint i = 0; i < rule->n_args; i++)
		args += mapping_rule_arg_repeat(rule, i) *
		        mapping_value_longest(rule, rule->args[i]);
	return mapping_osc_string_size(address) +
	       mapping_osc_string_size(1 + mapping_rule_n_values(rule)) + args;
}

int
mapping_value_range(MappingValue value)
{
	if (value >= MAPPING_VALUE_X && value <= MAPPING_VALUE_V)
		return (int)(value - MAPPING_VALUE_X);
	if (value >= MAPPING_VALUE_ANGLE && value <= MAPPING_VALUE_HEIGHT)
		return (int)(value - MAPPING_VALUE_ANGLE) + 5;
	return -1;
}

static void
mapping_output_free(gpointer data)
{
	MappingOutput *output = data;

	g_free(output->name);
	mapping_target_clear(&output->target);
	g_free(output->interface);
	g_free(output->tuio_source.name);
	g_strfreev(output->websocket.allow_origins);
	g_free(output);
}

static void
mapping_rule_free(gpointer data)
{
	MappingRule *rule = data;

	for (guint i = 0; i < rule->n_address; i++)
		g_free(rule->address[i].text);
	g_free(rule->address);
	g_free(rule->name);
	g_free(rule->fingerprint);
	g_free(rule);
}

static void
mapping_names_free(gpointer data)
{
	MappingNames *names = data;

	for (guint j = 0; j < TRACKER_N_JOINTS; j++)
		g_free(names->joints[j]);
	for (guint e = 0; e < MAPPING_N_EVENTS; e++)
		g_free(names->events[e]);
	g_free(names->name);
	g_free(names);
}

static void
mapping_zone_free(gpointer data)
{
	MappingZone *zone = data;

	g_free(zone->name);
	g_free(zone);
}

Mapping *
mapping_new(const char *path)
{
	Mapping *mapping = g_new0(Mapping, 1);

	mapping->path = g_strdup(path);
	mapping->outputs = g_ptr_array_new_with_free_func(mapping_output_free);
	mapping->rules = g_ptr_array_new_with_free_func(mapping_rule_free);
	mapping->names = g_ptr_array_new_with_free_func(mapping_names_free);
	mapping->zones = g_ptr_array_new_with_free_func(mapping_zone_free);
	mapping->warnings = g_ptr_array_new_with_free_func(g_free);
	gesture_config_init(&mapping->gestures);
	return mapping;
}

void
mapping_free(Mapping *mapping)
{
	if (mapping == NULL)
		return;
	g_ptr_array_unref(mapping->outputs);
	g_ptr_array_unref(mapping->rules);
	g_ptr_array_unref(mapping->names);
	g_ptr_array_unref(mapping->zones);
	g_ptr_array_unref(mapping->warnings);
	g_free(mapping->description);
	g_free(mapping->path);
	g_free(mapping);
}

/* Host names and IPv4 addresses; liblo's Debian build has no IPv6. */
static gboolean
mapping_target_host_valid(const char *host, gsize len)
{
	if (len == 0 || len > 253)
		return FALSE;
	for (gsize i = 0; i < len; i++) {
		if (!g_ascii_isalnum(host[i]) && host[i] != '.' && host[i] != '-')
			return FALSE;
	}
	return TRUE;
}

static gboolean
mapping_target_scheme(const char *text, MappingTransport *transport, const char **rest)
{
	static const struct {
		const char *prefix;
		MappingTransport transport;
	} schemes[] = {
		{ "osc.udp://", MAPPING_TRANSPORT_UDP },
		{ "osc.tcp://", MAPPING_TRANSPORT_TCP },
		{ "ws://", MAPPING_TRANSPORT_WS },
	};

	for (guint i = 0; i < G_N_ELEMENTS(schemes); i++) {
		if (g_str_has_prefix(text, schemes[i].prefix)) {
			*transport = schemes[i].transport;
			*rest = text + strlen(schemes[i].prefix);
			return TRUE;
		}
	}
	return FALSE;
}

/* "/osc": a path of its own (the root is left to pages), in characters a
 * URL takes as they are. */
static gboolean
mapping_target_path_valid(const char *path)
{
	if (path[0] != '/' || path[1] == '\0' || strlen(path) > 128)
		return FALSE;
	for (const char *c = path; *c != '\0'; c++) {
		if (!g_ascii_isalnum(*c) && !strchr("/-_.~", *c))
			return FALSE;
	}
	return TRUE;
}

/* A listener binds an address of this machine: no name is looked up. */
static gboolean
mapping_target_listen_host_valid(const char *host)
{
	g_autoptr(GInetAddress) address = NULL;

	if (strcmp(host, "localhost") == 0)
		return TRUE;
	address = g_inet_address_new_from_string(host);
	return address != NULL && g_inet_address_get_family(address) == G_SOCKET_FAMILY_IPV4;
}

static gboolean
mapping_target_parse_ws(const char *text, const char *rest, MappingTarget *target, GError **error)
{
	const char *slash = strchr(rest, '/');
	const char *colon = slash ? g_strrstr_len(rest, slash - rest, ":") : NULL;
	g_autofree char *host = colon ? g_strndup(rest, colon - rest) : NULL;
	g_autofree char *port_text = colon ? g_strndup(colon + 1, slash - colon - 1) : NULL;
	guint64 port;

	if (colon == NULL || !mapping_target_path_valid(slash)) {
		g_set_error(error, MAPPING_ERROR, MAPPING_ERROR_TARGET,
		            "expected ws://ADDRESS:PORT/PATH (ws://127.0.0.1:7180/osc), got '%s'",
		            text);
		return FALSE;
	}
	if (!mapping_target_listen_host_valid(host)) {
		g_set_error(error, MAPPING_ERROR, MAPPING_ERROR_TARGET,
		            "a WebSocket output listens on an IPv4 address of this machine "
		            "(127.0.0.1, 0.0.0.0 for every one) or localhost, got '%s'",
		            host);
		return FALSE;
	}
	if (!g_ascii_string_to_unsigned(port_text, 10, 1, 65535, &port, NULL)) {
		g_set_error(error, MAPPING_ERROR, MAPPING_ERROR_TARGET,
		            "the port must be a number from 1 to 65535, got '%s'", port_text);
		return FALSE;
	}
	target->transport = MAPPING_TRANSPORT_WS;
	target->host = g_steal_pointer(&host);
	target->port = (guint)port;
	target->path = g_strdup(slash);
	return TRUE;
}

gboolean
mapping_target_parse(const char *text, MappingTarget *target, GError **error)
{
	MappingTransport transport;
	const char *rest, *colon;
	guint64 port;

	if (mapping_target_scheme(text, &transport, &rest) && transport == MAPPING_TRANSPORT_WS)
		return mapping_target_parse_ws(text, rest, target, error);
	if (!mapping_target_scheme(text, &transport, &rest) ||
	    (colon = strrchr(rest, ':')) == NULL ||
	    !mapping_target_host_valid(rest, colon - rest)) {
		g_set_error(error, MAPPING_ERROR, MAPPING_ERROR_TARGET,
		            "expected osc.udp://HOST:PORT, osc.tcp://HOST:PORT or "
		            "ws://ADDRESS:PORT/PATH, got '%s'",
		            text);
		return FALSE;
	}
	if (!g_ascii_string_to_unsigned(colon + 1, 10, 1, 65535, &port, NULL)) {
		g_set_error(error, MAPPING_ERROR, MAPPING_ERROR_TARGET,
		            "the port must be a number from 1 to 65535, got '%s'", colon + 1);
		return FALSE;
	}
	target->transport = transport;
	target->host = g_strndup(rest, colon - rest);
	target->port = (guint)port;
	target->path = NULL;
	return TRUE;
}

void
mapping_target_clear(MappingTarget *target)
{
	g_clear_pointer(&target->host, g_free);
	g_clear_pointer(&target->path, g_free);
}

void
mapping_target_copy(MappingTarget *dest, const MappingTarget *src)
{
	dest->transport = src->transport;
	dest->host = g_strdup(src->host);
	dest->port = src->port;
	dest->path = g_strdup(src->path);
}

char *
mapping_target_to_string(const MappingTarget *target)
{
	if (target->transport == MAPPING_TRANSPORT_WS)
		return g_strdup_printf("ws://%s:%u%s", target->host, target->port, target->path);
	return g_strdup_printf("osc.%s://%s:%u",
	                       target->transport == MAPPING_TRANSPORT_TCP ? "tcp" : "udp",
	                       target->host, target->port);
}

static gboolean
mapping_websocket_equal(const MappingWebsocket *a, const MappingWebsocket *b)
{
	const char *const *oa = (const char *const *)a->allow_origins;
	const char *const *ob = (const char *const *)b->allow_origins;

	if ((oa == NULL) != (ob == NULL) || (oa != NULL && !g_strv_equal(oa, ob)))
		return FALSE;
	return a->format == b->format && a->max_clients == b->max_clients &&
	       a->monitor == b->monitor;
}

gboolean
mapping_output_equal(const MappingOutput *a, const MappingOutput *b)
{
	return a->kind == b->kind && a->target.transport == b->target.transport &&
	       g_strcmp0(a->target.host, b->target.host) == 0 && a->target.port == b->target.port &&
	       a->bundle == b->bundle && a->max_packet == b->max_packet && a->ttl == b->ttl &&
	       g_strcmp0(a->interface, b->interface) == 0 &&
	       g_strcmp0(a->target.path, b->target.path) == 0 &&
	       mapping_websocket_equal(&a->websocket, &b->websocket);
}

/* "localhost" listens where "127.0.0.1" does. */
const char *
mapping_target_listen_host(const MappingTarget *target)
{
	return strcmp(target->host, "localhost") == 0 ? "127.0.0.1" : target->host;
}

gboolean
mapping_bridge_name_check(const char *name, char **message)
{
	gsize length = strlen(name);

	for (const char *c = name; *c != '\0'; c++) {
		if (!g_ascii_isalnum(*c) && *c != '-' && *c != '_' && *c != '.') {
			*message = g_strdup_printf("'%s': a bridge's name is letters, digits, '-', "
			                           "'_' or '.', as it goes into OSC addresses",
			                           name);
			return FALSE;
		}
	}
	if (length == 0 || length > MAPPING_BRIDGE_MAX_NAME) {
		*message = g_strdup_printf("a bridge's name is 1 to %d characters, '%s' has %zu",
		                           MAPPING_BRIDGE_MAX_NAME, name, length);
		return FALSE;
	}
	return TRUE;
}

static void
mapping_rule_set_bridge_name(MappingRule *rule, const char *name)
{
	for (guint i = 0; i < rule->n_address; i++) {
		MappingPart *part = &rule->address[i];

		if (part->kind != MAPPING_PART_BRIDGE)
			continue;
		part->kind = MAPPING_PART_TEXT;
		part->text = g_strdup(name);
	}
}

void
mapping_set_bridge_name(Mapping *mapping, const char *name)
{
	for (guint i = 0; i < mapping->rules->len; i++)
		mapping_rule_set_bridge_name(g_ptr_array_index(mapping->rules, i), name);
}
