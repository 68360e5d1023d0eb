/* The demo library's scenes seen by several sensors at once: two or
 * three Kinects in one room, each placed and turned its own way, for
 * fusing what they see and for calibrating where they stand against the
 * truth. Each view is played on its own ("demo:SCENE@VIEW"), with its own
 * noise. demo-scene.c plays them with the rest of the library. */
#pragma once

#include <glib.h>

#include "demo-script.h"

#define DEMO_VIEWS_MAX_SCRIPTS 8

/** demo_views_scripts: the scripts, in library order; sets @n. */
const DemoScript *demo_views_scripts(guint *n);
