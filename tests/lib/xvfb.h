/* A virtual X display for tests and benchmarks of the live view. */
#pragma once

#include <gio/gio.h>

typedef struct {
	GSubprocess *process;
	char *display; /* ":N" */
} Xvfb;

/**
 * xvfb_start:
 * Starts Xvfb on a free display (it must be installed) and points this
 * process's DISPLAY at it, so that children open their windows there.
 */
Xvfb *xvfb_start(void);
void xvfb_stop(Xvfb *x);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Xvfb, xvfb_stop)
