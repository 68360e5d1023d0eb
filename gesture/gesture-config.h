/* The recognisers' settings: their defaults, ranges and descriptions, and
 * setting them by name, as a mapping file does. */
#pragma once

#include "gesture-types.h"

#define GESTURE_ERROR (gesture_error_quark())
GQuark gesture_error_quark(void);

typedef enum {
	GESTURE_ERROR_UNKNOWN_KEY,  /* no setting has that name */
	GESTURE_ERROR_INVALID,      /* the text is not a number */
	GESTURE_ERROR_OUT_OF_RANGE, /* a number outside the setting's range */
} GestureError;

typedef struct {
	const char *key;         /* as in a mapping file: "swipe_min_speed" */
	const char *unit;        /* "body units", "body units/s", "s" or "" */
	double default_value;    /* what gesture_config_init() sets */
	double min, max;         /* the accepted range, inclusive */
	gboolean whole;          /* only whole numbers */
	const char *description; /* one line */
} GestureConfigKeyInfo;

/** gesture_config_init: sets every threshold to its default. */
void gesture_config_init(GestureConfig *config);

/** gesture_config_key_info: the @index'th setting, or NULL past the last. */
const GestureConfigKeyInfo *gesture_config_key_info(guint index);

/** gesture_config_get: the value of setting @key; FALSE when unknown. */
gboolean gesture_config_get(const GestureConfig *config, const char *key, double *value);

/**
 * gesture_config_set:
 * Sets @key to @value; fails with GESTURE_ERROR_UNKNOWN_KEY or
 * GESTURE_ERROR_OUT_OF_RANGE and leaves @config as it was.
 */
gboolean gesture_config_set(GestureConfig *config, const char *key, double value, GError **error);

/**
 * gesture_config_parse:
 * As gesture_config_set() with the value as text ("1.5"), as a mapping
 * file holds it; fails with GESTURE_ERROR_INVALID for anything else.
 */
gboolean gesture_config_parse(GestureConfig *config, const char *key, const char *text,
                              GError **error);

/** gesture_config_us: seconds (a setting) as microseconds. */
gint64 gesture_config_us(double seconds);
