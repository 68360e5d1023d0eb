#include "view-feed.h"

#include <string.h>

#define LINE_SIZE 160

typedef char ViewFeedLine[LINE_SIZE];

struct _ViewFeed {
	GMutex lock;
	ViewFeedFrame *back;  /* the bridge's latest, under the lock */
	ViewFeedFrame *front; /* the view's */
	gboolean fresh;       /* back holds a frame the view has not taken */
	guint64 dropped;
	ViewFeedLine *lines; /* a ring of max_lines */
	guint max_lines;
	guint64 n_lines; /* ever put in */
	char *mapping;
	guint mapping_version;
	/* the bridge's own, outside the lock */
	guint8 *scratch;
	guint generation;
	gboolean described;
};

ViewFeed *
view_feed_new(guint max_lines)
{
	ViewFeed *feed = g_new0(ViewFeed, 1);

	g_return_val_if_fail(max_lines > 0, NULL);
	g_mutex_init(&feed->lock);
	feed->back = g_new0(ViewFeedFrame, 1);
	feed->front = g_new0(ViewFeedFrame, 1);
	feed->lines = g_new0(ViewFeedLine, max_lines);
	feed->max_lines = max_lines;
	feed->scratch = g_malloc0(DEPTH_PIXELS);
	return feed;
}

void
view_feed_free(ViewFeed *feed)
{
	if (feed == NULL)
		return;
	g_mutex_clear(&feed->lock);
	g_free(feed->back);
	g_free(feed->front);
	g_free(feed->lines);
	g_free(feed->mapping);
	g_free(feed->scratch);
	g_free(feed);
}

void
view_feed_put_frame(ViewFeed *feed, const guint16 *mm, const guint8 *labels,
                    const TrackerFrame *frame, double skeletons_ms)
{
	ViewFeedFrame *back;

	g_mutex_lock(&feed->lock);
	back = feed->back;
	feed->dropped += feed->fresh;
	memcpy(back->mm, mm, sizeof(back->mm));
	back->labelled = labels != NULL;
	if (labels != NULL)
		memcpy(back->labels, labels, sizeof(back->labels));
	back->frame = *frame;
	back->skeletons_ms = skeletons_ms;
	feed->fresh = TRUE;
	g_mutex_unlock(&feed->lock);
}

gboolean
view_feed_wants_frame(ViewFeed *feed)
{
	gboolean wants;

	g_mutex_lock(&feed->lock);
	wants = !feed->fresh;
	g_mutex_unlock(&feed->lock);
	return wants;
}

void
view_feed_skip_frame(ViewFeed *feed)
{
	g_mutex_lock(&feed->lock);
	feed->dropped++;
	g_mutex_unlock(&feed->lock);
}

const ViewFeedFrame *
view_feed_take_frame(ViewFeed *feed)
{
	ViewFeedFrame *taken = NULL;

	g_mutex_lock(&feed->lock);
	if (feed->fresh) {
		taken = feed->back;
		feed->back = feed->front;
		feed->front = taken;
		feed->fresh = FALSE;
	}
	g_mutex_unlock(&feed->lock);
	return taken;
}

guint64
view_feed_dropped(ViewFeed *feed)
{
	guint64 dropped;

	g_mutex_lock(&feed->lock);
	dropped = feed->dropped;
	g_mutex_unlock(&feed->lock);
	return dropped;
}

/* Appends @text at @at of @line, cut to fit; where the line ends now. */
static gsize
view_feed_append(char *line, gsize size, gsize at, const char *text)
{
	if (at + 1 >= size)
		return at;
	g_strlcpy(line + at, text, size - at);
	return MIN(at + strlen(text), size - 1);
}

static void
view_feed_format_arg(const MessageBatch *batch, const MessageArg *arg, char *text, gsize size)
{
	char number[G_ASCII_DTOSTR_BUF_SIZE];

	switch (arg->type) {
	case MESSAGE_ARG_INT32:
		g_snprintf(text, size, " %" G_GINT32_FORMAT, arg->i);
		break;
	case MESSAGE_ARG_FLOAT32:
		/* Not printf's %g: the view runs in the user's locale. */
		g_snprintf(text, size, " %s",
		           g_ascii_formatd(number, sizeof(number), "%.4g", arg->f));
		break;
	case MESSAGE_ARG_STRING:
		g_snprintf(text, size, " \"%s\"", message_arg_string(batch, arg));
		break;
	}
}

/* No allocation: the bridge formats its messages here on every frame. */
void
view_feed_format_message(const char *output, const MessageBatch *batch, const Message *message,
                         char *line, gsize size)
{
	char text[LINE_SIZE];
	gsize at = 0;

	g_return_if_fail(size > 0);
	line[0] = '\0';
	at = view_feed_append(line, size, at, output);
	at = view_feed_append(line, size, at, " ");
	at = view_feed_append(line, size, at, message_address(batch, message));
	for (guint a = 0; a < message->n_args && at + 1 < size; a++) {
		view_feed_format_arg(batch, message_arg(batch, message, a), text, sizeof(text));
		at = view_feed_append(line, size, at, text);
	}
}

void
view_feed_put_messages(ViewFeed *feed, const char *output, const MessageBatch *batch)
{
	guint n = message_batch_length(batch);
	/* Older ones would be overwritten before anyone saw them. */
	guint first = n > feed->max_lines ? n - feed->max_lines : 0;

	g_mutex_lock(&feed->lock);
	feed->n_lines += first;
	for (guint k = first; k < n; k++) {
		char *line = feed->lines[feed->n_lines % feed->max_lines];

		view_feed_format_message(output, batch, message_batch_get(batch, k), line,
		                         LINE_SIZE);
		feed->n_lines++;
	}
	g_mutex_unlock(&feed->lock);
}

char *
view_feed_get_lines(ViewFeed *feed, guint64 *total)
{
	GString *s = g_string_new(NULL);

	g_mutex_lock(&feed->lock);
	for (guint64 k = feed->n_lines; k > 0 && feed->n_lines - k < feed->max_lines; k--) {
		if (k < feed->n_lines)
			g_string_append_c(s, '\n');
		g_string_append(s, feed->lines[(k - 1) % feed->max_lines]);
	}
	if (total != NULL)
		*total = feed->n_lines;
	g_mutex_unlock(&feed->lock);
	return g_string_free(s, FALSE);
}

void
view_feed_put_mapping(ViewFeed *feed, const char *text)
{
	g_mutex_lock(&feed->lock);
	g_free(feed->mapping);
	feed->mapping = g_strdup(text);
	feed->mapping_version++;
	g_mutex_unlock(&feed->lock);
}

char *
view_feed_get_mapping(ViewFeed *feed, guint *seen)
{
	char *text = NULL;

	g_mutex_lock(&feed->lock);
	if (*seen != feed->mapping_version) {
		*seen = feed->mapping_version;
		text = g_strdup(feed->mapping);
	}
	g_mutex_unlock(&feed->lock);
	return text;
}

void
view_feed_watch(Bridge *bridge, const BridgeFrameInfo *info, gpointer user_data)
{
	ViewFeed *feed = user_data;

	/* Only the view takes frames: one it wants now stays wanted. */
	if (info->depth != NULL && !view_feed_wants_frame(feed)) {
		view_feed_skip_frame(feed);
	} else if (info->depth != NULL) {
		gboolean labelled = bridge_get_labels(bridge, info->depth, feed->scratch);

		view_feed_put_frame(feed, info->depth->mm, labelled ? feed->scratch : NULL,
		                    info->frame, info->skeletons_ms);
	}
	for (guint i = 0; i < bridge_n_outputs(bridge); i++) {
		const OscOutput *output = bridge_output(bridge, i, NULL);

		view_feed_put_messages(feed, osc_output_config(output)->name,
		                       bridge_output_messages(bridge, i));
	}
	if (!feed->described || bridge_generation(bridge) != feed->generation) {
		g_autofree char *text = bridge_describe(bridge);

		feed->described = TRUE;
		feed->generation = bridge_generation(bridge);
		view_feed_put_mapping(feed, text);
	}
}
