/* The recognisers' thresholds, each with a name, a unit, a default and a
 * range, so that a mapping file can set any of them by name and a typo is
 * an error rather than a silently ignored line. */
#include "gesture-config.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The formatter would space the quark's name out as a subtraction. */
/* clang-format off */
G_DEFINE_QUARK(skelbridge-gesture-error-quark, gesture_error)
/* clang-format on */

#define BU  "body units"
#define BUS "body units/s"

typedef struct {
	GestureConfigKeyInfo info;
	gsize offset;
} ConfigKey;

#define KEY(name, unit, def, min, max, whole, desc)                                                \
	{                                                                                          \
		{ #name, unit, def, min, max, whole, desc }, offsetof(GestureConfig, name)         \
	}

/* Ranges keep a setting meaningful (no negative times, no fraction above
 * one for a confidence); they do not judge taste. */
static const ConfigKey config_keys[] = {
	KEY(min_confidence, "", 0.7, 0.0, 1.0, FALSE,
	    "joints reported with less confidence are treated as not found: a hand the tracker "
	    "barely sees (an arm behind the body) is a guess, and makes no gesture"),
	KEY(velocity_window, "s", 0.08, 0.01, 0.5, FALSE,
	    "hand speeds are measured over at least this long, to steady them"),
	KEY(still_window, "s", 0.3, 0.01, 1.0, FALSE,
	    "whether a hand or body holds still is measured over this long"),
	KEY(scale_smoothing, "s", 1.0, 0.0, 60.0, FALSE,
	    "time constant over which the body unit (shoulder width) follows the skeleton"),
	KEY(turn_smoothing, "s", 0.1, 0.0, 10.0, FALSE,
	    "time constant over which the body's facing follows the shoulders"),
	KEY(cooldown, "s", 0.5, 0.0, 10.0, FALSE,
	    "after an event, its recogniser ignores that hand (or body) this long"),
	KEY(stroke_settle, "", 0.5, 0.0, 1.0, FALSE,
	    "a swipe or push goes on until the hand turns aside or slows below this fraction of "
	    "the speed that starts one"),

	KEY(swipe_min_speed, BUS, 2.5, 0.0, 100.0, FALSE,
	    "a swipe's hand moves across the body's front at least this fast"),
	KEY(swipe_min_distance, BU, 1.2, 0.0, 10.0, FALSE,
	    "a swipe travels at least this far in its direction"),
	KEY(swipe_max_off_axis, "", 0.5, 0.0, 10.0, FALSE,
	    "travel off a swipe's direction, at most this fraction of the travel along it"),
	KEY(swipe_max_duration, "s", 1.0, 0.0, 10.0, FALSE, "a swipe takes at most this long"),
	KEY(swipe_min_forward, BU, 0.4, -5.0, 5.0, FALSE,
	    "a swipe starts and ends with the hand at least this far in front of the shoulders"),
	KEY(swipe_min_elbow, "", 0.25, 0.0, 1.0, FALSE,
	    "a swipe's elbow follows the hand, at least this fraction of its travel (a wave "
	    "turns about a still elbow)"),

	KEY(push_min_speed, BUS, 1.5, 0.0, 100.0, FALSE,
	    "a push's hand moves toward the front at least this fast"),
	KEY(push_min_distance, BU, 0.5, 0.0, 10.0, FALSE,
	    "a push travels at least this far toward the front"),
	KEY(push_max_off_axis, "", 1.0, 0.0, 10.0, FALSE,
	    "travel across or up and down, at most this fraction of the forward travel"),
	KEY(push_max_duration, "s", 0.8, 0.0, 10.0, FALSE, "a push takes at most this long"),
	KEY(push_min_reach, BU, 1.3, -5.0, 5.0, FALSE,
	    "a push ends with the hand at least this far in front of the shoulders"),
	KEY(push_min_extension, "", 0.9, 0.0, 1.0, FALSE,
	    "a push ends with the arm nearly straight: the hand at least this fraction of the "
	    "arm's length (shoulder to elbow to hand) from its shoulder"),

	KEY(wave_min_lift, BU, 0.3, -5.0, 5.0, FALSE,
	    "a waving hand is at least this far above its elbow"),
	KEY(wave_min_amplitude, BU, 0.35, 0.0, 10.0, FALSE,
	    "each half-cycle swings the hand at least this far side to side"),
	KEY(wave_min_half_cycles, "", 3.0, 1.0, 100.0, TRUE,
	    "half-cycles (swings one way) before a wave counts"),
	KEY(wave_max_half_period, "s", 1.0, 0.0, 10.0, FALSE,
	    "a swing that takes longer ends the wave"),

	KEY(raise_min_height, BU, 0.8, -5.0, 5.0, FALSE,
	    "a raised hand is at least this far above the head joint"),
	KEY(raise_max_speed, BUS, 1.0, 0.0, 100.0, FALSE,
	    "a raised hand moving slower than this (over the still window) counts as held"),
	KEY(raise_hold_time, "s", 1.0, 0.0, 60.0, FALSE,
	    "a raised hand is held this long before the event"),

	KEY(clap_min_open, BU, 1.0, 0.0, 10.0, FALSE,
	    "before a clap the hands are at least this far apart"),
	KEY(clap_max_gap, BU, 0.4, 0.0, 10.0, FALSE,
	    "hands at most this far apart (joint to joint) are together"),
	KEY(clap_min_speed, BUS, 2.0, 0.0, 100.0, FALSE,
	    "on average, from apart to together, the hands close at least this fast"),
	KEY(clap_min_forward, BU, 0.3, -5.0, 5.0, FALSE,
	    "the hands meet at least this far in front of the shoulders"),

	KEY(arms_out_min_reach, BU, 1.5, 0.0, 10.0, FALSE,
	    "each hand at least this far out to its side from the shoulders' midpoint"),
	KEY(arms_out_max_height, BU, 0.6, 0.0, 10.0, FALSE,
	    "each hand within this of shoulder height"),
	KEY(arms_out_max_speed, BUS, 1.0, 0.0, 100.0, FALSE,
	    "hands and shoulders moving slower than this (over the still window) count as still"),
	KEY(arms_out_hold_time, "s", 1.5, 0.0, 60.0, FALSE,
	    "the arms are held out still this long before the event"),
};

static double *
config_field(GestureConfig *config, const ConfigKey *key)
{
	return (double *)((char *)config + key->offset);
}

static const ConfigKey *
config_find(const char *name)
{
	for (guint i = 0; i < G_N_ELEMENTS(config_keys); i++) {
		if (strcmp(config_keys[i].info.key, name) == 0)
			return &config_keys[i];
	}
	return NULL;
}

/* As config_find(), with an error that names the unknown key. */
static const ConfigKey *
config_lookup(const char *name, GError **error)
{
	const ConfigKey *k = config_find(name);

	if (k == NULL)
		g_set_error(error, GESTURE_ERROR, GESTURE_ERROR_UNKNOWN_KEY,
		            "no gesture setting called '%s'", name);
	return k;
}

void
gesture_config_init(GestureConfig *config)
{
	memset(config, 0, sizeof(*config));
	for (guint i = 0; i < G_N_ELEMENTS(config_keys); i++)
		*config_field(config, &config_keys[i]) = config_keys[i].info.default_value;
}

const GestureConfigKeyInfo *
gesture_config_key_info(guint index)
{
	return index < G_N_ELEMENTS(config_keys) ? &config_keys[index].info : NULL;
}

gboolean
gesture_config_get(const GestureConfig *config, const char *key, double *value)
{
	const ConfigKey *k = config_find(key);

	if (k == NULL)
		return FALSE;
	*value = *config_field((GestureConfig *)config, k);
	return TRUE;
}

static gboolean
config_check(const ConfigKey *k, double value, GError **error)
{
	const GestureConfigKeyInfo *info = &k->info;

	if (!isfinite(value) || value < info->min || value > info->max) {
		g_set_error(error, GESTURE_ERROR, GESTURE_ERROR_OUT_OF_RANGE,
		            "%s: %g is out of range; expected %g to %g", info->key, value,
		            info->min, info->max);
		return FALSE;
	}
	if (info->whole && value != floor(value)) {
		g_set_error(error, GESTURE_ERROR, GESTURE_ERROR_OUT_OF_RANGE,
		            "%s: expected a whole number, got %g", info->key, value);
		return FALSE;
	}
	return TRUE;
}

gboolean
gesture_config_set(GestureConfig *config, const char *key, double value, GError **error)
{
	const ConfigKey *k = config_lookup(key, error);

	if (k == NULL || !config_check(k, value, error))
		return FALSE;
	*config_field(config, k) = value;
	return TRUE;
}

gboolean
gesture_config_parse(GestureConfig *config, const char *key, const char *text, GError **error)
{
	char *end = NULL;
	double value;

	if (config_lookup(key, error) == NULL)
		return FALSE;
	errno = 0;
	/* g_ascii_strtod: a mapping file means the same in every locale. */
	value = g_ascii_strtod(text, &end);
	if (end == text || *end != '\0' || errno != 0 || g_ascii_isspace(*text)) {
		g_set_error(error, GESTURE_ERROR, GESTURE_ERROR_INVALID,
		            "%s: expected a number, got '%s'", key, text);
		return FALSE;
	}
	return gesture_config_set(config, key, value, error);
}

gint64
gesture_config_us(double seconds)
{
	return (gint64)(seconds * G_USEC_PER_SEC + 0.5);
}
