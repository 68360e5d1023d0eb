/* The demo library's scenes in real-looking rooms: furniture, walls close
 * behind people, doorways, clutter at a person's size, cameras high, low,
 * tilted and rolled, people sitting, close up, far off and in a row, all
 * through the Kinect sensor model (demo-sensor.h). demo-scene.c plays
 * them with the rest of the library. */
#pragma once

#include <glib.h>

#include "demo-script.h"

#define DEMO_ROOMS_MAX_SCRIPTS 64

/** demo_rooms_scripts: the scripts, in library order; sets @n. */
const DemoScript *demo_rooms_scripts(guint *n);
