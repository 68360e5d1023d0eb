/* The keys of a TUIO output in a mapping file ([output NAME] with
 * kind = tuio): which hands touch, the interaction box, the profile.
 * Reads one key's value at a time into a TuioConfig; the parser wraps the
 * messages into its "path:line: [output NAME] key: what" errors. */
#pragma once

#include <glib.h>

#include "mapping.h"
#include "tuio.h"

/* Where a TUIO output sends unless its target says otherwise: TUIO's
 * default port on this machine. */
#define MAPPING_TUIO_TARGET "osc.udp://127.0.0.1:3333"

/** mapping_tuio_is_key: @key is one of the TUIO keys. */
gboolean mapping_tuio_is_key(const char *key);

/** mapping_tuio_keys: the TUIO keys, for "keys are ..." messages; newly allocated. */
char *mapping_tuio_keys(void);

/**
 * mapping_tuio_set:
 * Reads @value for @key into @config and @source (whether to send the
 * source message, and the name in it). On a bad value returns FALSE and
 * sets @message to what is wrong ("expected a number from 0 to 2, got 'x'").
 */
gboolean mapping_tuio_set(TuioConfig *config, MappingTuioSource *source, const char *key,
                          const char *value, char **message);

/**
 * mapping_tuio_name_check:
 * @name can be the NAME of a source message's NAME@HOST: 1 to
 * MAPPING_TUIO_MAX_NAME printable ASCII characters (OSC strings are ASCII),
 * no space and no '@'. Otherwise FALSE with @message (to free) saying why.
 */
gboolean mapping_tuio_name_check(const char *name, char **message);

/**
 * mapping_tuio_check:
 * Checks what keys mean together (a release deeper than the touch);
 * on a problem returns FALSE with the key to blame in @key.
 */
gboolean mapping_tuio_check(const TuioConfig *config, const char **key, char **message);
