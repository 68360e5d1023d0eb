/* The live view: a GTK 4 window beside the running bridge. It draws the
 * latest frame of a ViewFeed as a snapshot does (depth, users, skeletons,
 * what was cut away) on GTK's frame clock, lists the messages going out,
 * newest first, and shows the mappings in force.
 *
 * GTK runs on the thread that calls view_init() and view_run(); the bridge
 * runs elsewhere and only ever puts things into the feed, so a slow window
 * drops frames and never holds the bridge up. Only built with GTK 4
 * (meson option view). */
#pragma once

#include <glib.h>

#include "view-feed.h"

#define VIEW_ERROR (view_error_quark())
GQuark view_error_quark(void);

typedef enum {
	VIEW_ERROR_NO_DISPLAY, /* nowhere to open a window */
} ViewError;

typedef struct _View View;

/**
 * view_init:
 * Starts GTK. Fails with VIEW_ERROR_NO_DISPLAY when neither DISPLAY nor
 * WAYLAND_DISPLAY is set or the display cannot be opened.
 */
gboolean view_init(GError **error);

/* What the view tells: screenshots taken, frames drawn. */
/* @level: G_LOG_LEVEL_WARNING for a problem, G_LOG_LEVEL_INFO otherwise. */
typedef void (*ViewLogFunc)(GLogLevelFlags level, const char *message, gpointer user_data);

/** view_new: the window (not shown yet) for @feed; @caption names the source. */
View *view_new(ViewFeed *feed, const char *caption, ViewLogFunc log, gpointer user_data);
void view_free(View *view);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(View, view_free)

/**
 * view_set_screenshot:
 * Once @frames frames were drawn, writes the window's content to @path
 * as a PNG and logs "view: screenshot PATH" (for tests).
 */
void view_set_screenshot(View *view, const char *path, guint frames);

/**
 * view_run:
 * Shows the window; returns when it is closed or on view_quit(), logging
 * how many frames it drew and how many it let go.
 */
void view_run(View *view);

/** view_quit: makes view_run() return; from any thread. */
void view_quit(View *view);
