/* The hand-off from the bridge to the live view: the view gets a frame
 * when it wants one, frames it missed are counted, message lines are bounded and come
 * newest first, and a copy is never torn between threads. */
#include <string.h>

#include "view/view-feed.h"

static TrackerFrame
numbered(guint64 n)
{
	TrackerFrame frame = { 0 };

	frame.frame = n;
	frame.n_users = n % 3;
	return frame;
}

static void
put(ViewFeed *feed, guint64 n, gboolean labelled)
{
	g_autofree guint16 *mm = g_new(guint16, DEPTH_PIXELS);
	g_autofree guint8 *labels = g_new(guint8, DEPTH_PIXELS);
	TrackerFrame frame = numbered(n);

	for (int i = 0; i < DEPTH_PIXELS; i++)
		mm[i] = (guint16)n;
	memset(labels, (int)(n & 0xff), DEPTH_PIXELS);
	view_feed_put_frame(feed, mm, labelled ? labels : NULL, &frame, n / 10.0);
}

static void
test_latest_frame_wins(void)
{
	g_autoptr(ViewFeed) feed = view_feed_new(8);
	const ViewFeedFrame *taken;

	g_assert_null(view_feed_take_frame(feed));
	put(feed, 1, TRUE);
	put(feed, 2, TRUE);
	put(feed, 3, FALSE);
	taken = view_feed_take_frame(feed);
	g_assert_nonnull(taken);
	g_assert_cmpuint(taken->frame.frame, ==, 3);
	g_assert_cmpuint(taken->mm[DEPTH_PIXELS - 1], ==, 3);
	g_assert_false(taken->labelled);
	g_assert_cmpfloat(taken->skeletons_ms, ==, 0.3);
	g_assert_cmpuint(view_feed_dropped(feed), ==, 2);
	g_assert_null(view_feed_take_frame(feed));
	put(feed, 4, TRUE);
	/* The frame taken before stays the view's until it takes another. */
	g_assert_cmpuint(taken->frame.frame, ==, 3);
	taken = view_feed_take_frame(feed);
	g_assert_cmpuint(taken->frame.frame, ==, 4);
	g_assert_true(taken->labelled);
	g_assert_cmpuint(taken->labels[DEPTH_PIXELS - 1], ==, 4);
	g_assert_cmpuint(view_feed_dropped(feed), ==, 2);
}

static MessageBatch *
batch_of(guint n)
{
	MessageBatch *batch = message_batch_new();

	for (guint k = 0; k < n; k++) {
		g_autofree char *address = g_strdup_printf("/m%u", k);

		message_batch_add(batch, 0, address);
		message_batch_add_int32(batch, (gint32)k);
	}
	return batch;
}

static void
test_lines_bounded_newest_first(void)
{
	g_autoptr(ViewFeed) feed = view_feed_new(4);
	g_autoptr(MessageBatch) three = batch_of(3);
	g_autoptr(MessageBatch) six = batch_of(6);
	g_autofree char *empty = NULL;
	g_autofree char *first = NULL;
	g_autofree char *lines = NULL;
	guint64 total = 99;

	empty = view_feed_get_lines(feed, &total);
	g_assert_cmpstr(empty, ==, "");
	g_assert_cmpuint(total, ==, 0);
	view_feed_put_messages(feed, "a", three);
	first = view_feed_get_lines(feed, &total);
	g_assert_cmpstr(first, ==, "a /m2 2\na /m1 1\na /m0 0");
	g_assert_cmpuint(total, ==, 3);
	view_feed_put_messages(feed, "b", six);
	lines = view_feed_get_lines(feed, &total);
	g_assert_cmpstr(lines, ==, "b /m5 5\nb /m4 4\nb /m3 3\nb /m2 2");
	g_assert_cmpuint(total, ==, 9);
}

static void
test_format_message(void)
{
	g_autoptr(MessageBatch) batch = message_batch_new();
	char line[160];
	char short_line[12];

	message_batch_add(batch, 1, "/skel/user1/head");
	message_batch_add_float32(batch, 0.012345f);
	message_batch_add_float32(batch, -1.5f);
	message_batch_add_int32(batch, 7);
	message_batch_add_string(batch, "left_hand");
	view_feed_format_message("default", batch, message_batch_get(batch, 0), line, sizeof(line));
	g_assert_cmpstr(line, ==, "default /skel/user1/head 0.01235 -1.5 7 \"left_hand\"");
	view_feed_format_message("default", batch, message_batch_get(batch, 0), short_line,
	                         sizeof(short_line));
	g_assert_cmpstr(short_line, ==, "default /sk");
}

static void
test_mapping_when_changed(void)
{
	g_autoptr(ViewFeed) feed = view_feed_new(1);
	g_autofree char *text = NULL;
	g_autofree char *again = NULL;
	guint seen = 0;

	g_assert_null(view_feed_get_mapping(feed, &seen));
	view_feed_put_mapping(feed, "default.map: 5 rules");
	text = view_feed_get_mapping(feed, &seen);
	g_assert_cmpstr(text, ==, "default.map: 5 rules");
	g_assert_null(view_feed_get_mapping(feed, &seen));
	view_feed_put_mapping(feed, "default.map: 6 rules");
	again = view_feed_get_mapping(feed, &seen);
	g_assert_cmpstr(again, ==, "default.map: 6 rules");
}

#define THREAD_FRAMES 300

static gpointer
producer(gpointer data)
{
	for (guint64 n = 1; n <= THREAD_FRAMES; n++)
		put(data, n, TRUE);
	return NULL;
}

/* Whatever the view takes is one whole frame, never two half ones. */
static void
test_threads_never_tear(void)
{
	g_autoptr(ViewFeed) feed = view_feed_new(4);
	GThread *thread = g_thread_new("producer", producer, feed);
	guint64 last = 0, taken_frames = 0;

	while (last < THREAD_FRAMES) {
		const ViewFeedFrame *taken = view_feed_take_frame(feed);

		if (taken == NULL) {
			g_thread_yield();
			continue;
		}
		g_assert_cmpuint(taken->frame.frame, >, last);
		last = taken->frame.frame;
		g_assert_cmpuint(taken->mm[0], ==, last);
		g_assert_cmpuint(taken->mm[DEPTH_PIXELS - 1], ==, last);
		g_assert_cmpuint(taken->labels[DEPTH_PIXELS / 2], ==, last & 0xff);
		taken_frames++;
	}
	g_thread_join(thread);
	g_assert_cmpuint(taken_frames + view_feed_dropped(feed), ==, THREAD_FRAMES);
}

static void
test_wants_frame_once_taken(void)
{
	g_autoptr(ViewFeed) feed = view_feed_new(8);

	g_assert_true(view_feed_wants_frame(feed));
	put(feed, 1, TRUE);
	g_assert_false(view_feed_wants_frame(feed));
	view_feed_skip_frame(feed);
	view_feed_skip_frame(feed);
	g_assert_cmpuint(view_feed_dropped(feed), ==, 2);
	g_assert_cmpuint(view_feed_take_frame(feed)->frame.frame, ==, 1);
	g_assert_true(view_feed_wants_frame(feed));
	g_assert_cmpuint(view_feed_dropped(feed), ==, 2);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/view-feed/latest-frame-wins", test_latest_frame_wins);
	g_test_add_func("/view-feed/wants-frame-once-taken", test_wants_frame_once_taken);
	g_test_add_func("/view-feed/lines-bounded-newest-first", test_lines_bounded_newest_first);
	g_test_add_func("/view-feed/format-message", test_format_message);
	g_test_add_func("/view-feed/mapping-when-changed", test_mapping_when_changed);
	g_test_add_func("/view-feed/threads-never-tear", test_threads_never_tear);
	return g_test_run();
}
