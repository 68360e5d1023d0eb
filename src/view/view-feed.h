/* What the bridge hands to the live view, across threads, without ever
 * waiting for it.
 *
 * Frames: the view takes a frame when it is ready to draw one; the bridge
 * puts a frame in only when the view has taken the one before, and counts
 * those in between as not drawn. A slow window thus costs the bridge
 * nothing for the frames it cannot draw (no labels, no copies): drawing
 * drops frames, the bridge does not. Messages: the bridge puts each
 * output's messages in as text lines into a bounded ring; the view takes
 * the newest. The mapping in force: a text the bridge replaces on every
 * load and reload.
 *
 * The bridge's side never blocks on the view's: the lock is held for
 * copies and pointer swaps only. GLib only, so the bridge builds without
 * GTK. */
#pragma once

#include <glib.h>

#include "bridge.h"
#include "base/depth.h"
#include "mapping/message.h"
#include "tracker/tracker-types.h"

typedef struct {
	guint16 mm[DEPTH_PIXELS];
	guint8 labels[DEPTH_PIXELS];
	gboolean labelled; /* labels hold something */
	TrackerFrame frame;
	double skeletons_ms;
} ViewFeedFrame;

typedef struct _ViewFeed ViewFeed;

/** view_feed_new: keeps the last @max_lines message lines. */
ViewFeed *view_feed_new(guint max_lines);
void view_feed_free(ViewFeed *feed);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(ViewFeed, view_feed_free)

/* ---- the bridge's side ---- */

/** view_feed_wants_frame: the view took the last frame put in (or none came yet). */
gboolean view_feed_wants_frame(ViewFeed *feed);

/** view_feed_skip_frame: a frame the view will not see, while it is busy. */
void view_feed_skip_frame(ViewFeed *feed);

/**
 * view_feed_put_frame:
 * A frame for the view: @mm (DEPTH_PIXELS), @labels (DEPTH_PIXELS, or NULL
 * when there are none) and its skeletons. One the view has not taken yet
 * is replaced, and counted as not drawn.
 */
void view_feed_put_frame(ViewFeed *feed, const guint16 *mm, const guint8 *labels,
                         const TrackerFrame *frame, double skeletons_ms);

/** view_feed_put_messages: @batch's messages, going out to @output, as lines. */
void view_feed_put_messages(ViewFeed *feed, const char *output, const MessageBatch *batch);

/** view_feed_put_mapping: the mapping in force, described. */
void view_feed_put_mapping(ViewFeed *feed, const char *text);

/**
 * view_feed_watch:
 * A BridgeWatchFunc with the feed for @user_data: puts in each frame with
 * its labels, every output's messages, and the mappings when they change.
 */
void view_feed_watch(Bridge *bridge, const BridgeFrameInfo *info, gpointer user_data);

/* ---- the view's side ---- */

/**
 * view_feed_take_frame:
 * The frame put in since the last call, or NULL. It stays the view's
 * until the next call.
 */
const ViewFeedFrame *view_feed_take_frame(ViewFeed *feed);

/** view_feed_dropped: frames skipped or replaced before the view took them. */
guint64 view_feed_dropped(ViewFeed *feed);

/**
 * view_feed_get_lines:
 * The message lines, newest first, joined by newlines; newly allocated.
 * Sets *@total to the messages ever put in (kept or not), so that a view
 * can tell when there is nothing new.
 */
char *view_feed_get_lines(ViewFeed *feed, guint64 *total);

/** view_feed_get_mapping: the mapping text when it changed since *@seen, else NULL. */
char *view_feed_get_mapping(ViewFeed *feed, guint *seen);

/**
 * view_feed_format_message:
 * One message as a line: "OUTPUT ADDRESS ARG...", floats with up to four
 * significant digits, strings quoted, cut at @size - 1 bytes.
 */
void view_feed_format_message(const char *output, const MessageBatch *batch, const Message *message,
                              char *line, gsize size);
