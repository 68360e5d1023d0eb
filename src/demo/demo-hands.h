/* The demo library's scenes of hands that open and close: people hold
 * their hands up in front and make fists, at 1 to 3 m, through the
 * Kinect sensor model (demo-sensor.h), for the hand state's benchmark
 * and for examples driven by fists. demo-scene.c plays them with the
 * rest of the library. */
#pragma once

#include <glib.h>

#include "demo-script.h"

#define DEMO_HANDS_MAX_SCRIPTS 16

/** demo_hands_scripts: the scripts, in library order; sets @n. */
const DemoScript *demo_hands_scripts(guint *n);
