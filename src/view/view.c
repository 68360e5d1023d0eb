#include "view.h"

#include <gtk/gtk.h>

#include "snapshot.h"

/* The formatter would space the quark's name out as a subtraction. */
/* clang-format off */
G_DEFINE_QUARK(skelbridge-view-error-quark, view_error)
/* clang-format on */

/* The side panel is redrawn this often at most: laying text out costs GTK
 * more than drawing a frame, and no one reads faster. */
#define PANEL_INTERVAL_US (250 * 1000)
#define PANEL_WIDTH       440
/* No faster than a camera: a recording played fast would have the window
 * take all the time there is. */
#define MIN_FRAME_US (G_USEC_PER_SEC / 32)

struct _View {
	ViewFeed *feed;
	ViewLogFunc log;
	gpointer log_data;
	char *caption;
	GMainLoop *loop;
	GtkWidget *window;
	GtkWidget *content;
	GtkWidget *area;
	GtkWidget *mapping;
	GtkWidget *status;
	GtkWidget *messages;
	cairo_surface_t *picture; /* the latest frame drawn */
	guint mapping_seen;
	guint64 lines_seen;
	guint64 drawn;
	guint64 frame;
	gint64 panel_us;
	gint64 frame_us; /* when the last frame was taken */
	gint64 rate_us;  /* drawn frames per second, over the last second */
	guint64 rate_drawn;
	double rate;
	char *screenshot;
	guint64 screenshot_after;
	gint quitting;
};

static void view_log(View *view, GLogLevelFlags level, const char *format, ...) G_GNUC_PRINTF(3, 4);

static void
view_log(View *view, GLogLevelFlags level, const char *format, ...)
{
	g_autofree char *message = NULL;
	va_list args;

	va_start(args, format);
	message = g_strdup_vprintf(format, args);
	va_end(args);
	if (view->log != NULL)
		view->log(level, message, view->log_data);
}

gboolean
view_init(GError **error)
{
	if (g_getenv("DISPLAY") == NULL && g_getenv("WAYLAND_DISPLAY") == NULL) {
		g_set_error(error, VIEW_ERROR, VIEW_ERROR_NO_DISPLAY,
		            "no display: DISPLAY and WAYLAND_DISPLAY are unset");
		return FALSE;
	}
	if (!gtk_init_check()) {
		g_set_error(error, VIEW_ERROR, VIEW_ERROR_NO_DISPLAY, "cannot open the display %s",
		            g_getenv("WAYLAND_DISPLAY") ? g_getenv("WAYLAND_DISPLAY")
		                                        : g_getenv("DISPLAY"));
		return FALSE;
	}
	return TRUE;
}

static void
view_draw(GtkDrawingArea *area G_GNUC_UNUSED, cairo_t *cr, int width G_GNUC_UNUSED,
          int height G_GNUC_UNUSED, gpointer user_data)
{
	View *view = user_data;

	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_paint(cr);
	if (view->picture == NULL)
		return;
	cairo_set_source_surface(cr, view->picture, 0, 0);
	cairo_paint(cr);
}

static gboolean
view_take_frame(View *view)
{
	const ViewFeedFrame *f = view_feed_take_frame(view->feed);
	SnapshotInput in;

	if (f == NULL)
		return FALSE;
	in.depth_mm = f->mm;
	in.labels = f->labelled ? f->labels : NULL;
	in.frame = &f->frame;
	in.source = view->caption;
	in.tracker_ms = f->skeletons_ms;
	g_clear_pointer(&view->picture, cairo_surface_destroy);
	view->picture = snapshot_draw(&in);
	view->frame = f->frame.frame;
	view->drawn++;
	gtk_widget_queue_draw(view->area);
	return TRUE;
}

static void
view_update_rate(View *view, gint64 now)
{
	if (now - view->rate_us < G_USEC_PER_SEC)
		return;
	view->rate =
	        (view->drawn - view->rate_drawn) * (double)G_USEC_PER_SEC / (now - view->rate_us);
	view->rate_drawn = view->drawn;
	view->rate_us = now;
}

static void
view_update_panel(View *view)
{
	g_autofree char *mapping = view_feed_get_mapping(view->feed, &view->mapping_seen);
	g_autofree char *status = NULL;
	guint64 total = 0;
	g_autofree char *lines = view_feed_get_lines(view->feed, &total);

	if (mapping != NULL)
		gtk_label_set_text(GTK_LABEL(view->mapping), mapping);
	if (total != view->lines_seen)
		gtk_label_set_text(GTK_LABEL(view->messages), lines);
	view->lines_seen = total;
	status =
	        g_strdup_printf("frame %" G_GUINT64_FORMAT ", drawn at %.1f fps, %" G_GUINT64_FORMAT
	                        " not drawn; %" G_GUINT64_FORMAT " messages out",
	                        view->frame, view->rate, view_feed_dropped(view->feed), total);
	gtk_label_set_text(GTK_LABEL(view->status), status);
}

static void
view_write_screenshot(View *view)
{
	int width = gtk_widget_get_width(view->window);
	int height = gtk_widget_get_height(view->window);
	g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new(view->window);
	GtkSnapshot *snapshot = gtk_snapshot_new();
	g_autoptr(GskRenderNode) node = NULL;
	g_autoptr(GdkTexture) texture = NULL;
	GskRenderer *renderer = gtk_native_get_renderer(GTK_NATIVE(view->window));

	gdk_paintable_snapshot(paintable, snapshot, width, height);
	node = gtk_snapshot_free_to_node(snapshot);
	if (node == NULL || renderer == NULL) {
		view_log(view, G_LOG_LEVEL_WARNING, "view: nothing to take a screenshot of");
		return;
	}
	texture = gsk_renderer_render_texture(renderer, node,
	                                      &GRAPHENE_RECT_INIT(0, 0, width, height));
	if (gdk_texture_save_to_png(texture, view->screenshot))
		view_log(view, G_LOG_LEVEL_INFO, "view: screenshot %s", view->screenshot);
	else
		view_log(view, G_LOG_LEVEL_WARNING, "view: cannot write the screenshot %s",
		         view->screenshot);
}

/* Runs before every frame GTK paints: the camera's latest frame, if a new
 * one came, and now and then the panel. A screenshot waits one more tick,
 * so that the frame it shows has been painted. */
static gboolean
view_tick(GtkWidget *widget G_GNUC_UNUSED, GdkFrameClock *clock, gpointer user_data)
{
	View *view = user_data;
	gint64 now = gdk_frame_clock_get_frame_time(clock);

	if (g_atomic_int_get(&view->quitting))
		g_main_loop_quit(view->loop);
	if (view->screenshot != NULL && view->drawn >= view->screenshot_after &&
	    view->panel_us > 0) {
		view_write_screenshot(view);
		g_clear_pointer(&view->screenshot, g_free);
	}
	if (now - view->frame_us >= MIN_FRAME_US && view_take_frame(view))
		view->frame_us = now;
	view_update_rate(view, now);
	if (now - view->panel_us >= PANEL_INTERVAL_US) {
		view_update_panel(view);
		view->panel_us = now;
	}
	return G_SOURCE_CONTINUE;
}

static GtkWidget *
view_heading(const char *text)
{
	GtkWidget *label = gtk_label_new(NULL);
	g_autofree char *markup = g_markup_printf_escaped("<b>%s</b>", text);

	gtk_label_set_markup(GTK_LABEL(label), markup);
	gtk_label_set_xalign(GTK_LABEL(label), 0.0);
	gtk_widget_set_margin_top(label, 6);
	return label;
}

/* Wrapping a long text costs GTK a lot on every change: only the short,
 * seldom changing texts wrap; message lines are cut at the panel's edge. */
static GtkWidget *
view_text(gboolean wrap)
{
	GtkWidget *label = gtk_label_new("");

	gtk_label_set_xalign(GTK_LABEL(label), 0.0);
	gtk_label_set_yalign(GTK_LABEL(label), 0.0);
	gtk_label_set_wrap(GTK_LABEL(label), wrap);
	gtk_label_set_wrap_mode(GTK_LABEL(label), PANGO_WRAP_WORD_CHAR);
	gtk_widget_add_css_class(label, "monospace");
	return label;
}

static GtkWidget *
view_panel(View *view)
{
	GtkWidget *panel = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4);
	GtkWidget *scroller = gtk_scrolled_window_new();

	gtk_widget_set_size_request(panel, PANEL_WIDTH, -1);
	gtk_widget_set_margin_start(panel, 8);
	gtk_widget_set_margin_end(panel, 8);
	view->mapping = view_text(TRUE);
	view->status = view_text(TRUE);
	view->messages = view_text(FALSE);
	gtk_box_append(GTK_BOX(panel), view_heading("Mappings in force"));
	gtk_box_append(GTK_BOX(panel), view->mapping);
	gtk_box_append(GTK_BOX(panel), view_heading("Messages out, newest first"));
	gtk_box_append(GTK_BOX(panel), view->status);
	gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scroller), GTK_POLICY_EXTERNAL,
	                               GTK_POLICY_AUTOMATIC);
	gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroller), view->messages);
	gtk_widget_set_vexpand(scroller, TRUE);
	gtk_box_append(GTK_BOX(panel), scroller);
	return panel;
}

static gboolean
view_close_request(GtkWindow *window G_GNUC_UNUSED, gpointer user_data)
{
	View *view = user_data;

	g_main_loop_quit(view->loop);
	/* The window goes with the view, not now. */
	return TRUE;
}

View *
view_new(ViewFeed *feed, const char *caption, ViewLogFunc log, gpointer user_data)
{
	View *view = g_new0(View, 1);
	g_autofree char *title = g_strdup_printf("skelbridge: %s", caption);

	view->feed = feed;
	view->log = log;
	view->log_data = user_data;
	view->caption = g_strdup(caption);
	view->loop = g_main_loop_new(NULL, FALSE);
	view->window = gtk_window_new();
	gtk_window_set_title(GTK_WINDOW(view->window), title);
	view->content = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
	view->area = gtk_drawing_area_new();
	gtk_drawing_area_set_content_width(GTK_DRAWING_AREA(view->area), DEPTH_WIDTH);
	gtk_drawing_area_set_content_height(GTK_DRAWING_AREA(view->area),
	                                    DEPTH_HEIGHT + SNAPSHOT_CAPTION_HEIGHT);
	gtk_widget_set_valign(view->area, GTK_ALIGN_START);
	gtk_drawing_area_set_draw_func(GTK_DRAWING_AREA(view->area), view_draw, view, NULL);
	gtk_box_append(GTK_BOX(view->content), view->area);
	gtk_box_append(GTK_BOX(view->content), view_panel(view));
	gtk_window_set_child(GTK_WINDOW(view->window), view->content);
	gtk_window_set_default_size(GTK_WINDOW(view->window), DEPTH_WIDTH + PANEL_WIDTH + 16,
	                            DEPTH_HEIGHT + SNAPSHOT_CAPTION_HEIGHT);
	g_signal_connect(view->window, "close-request", G_CALLBACK(view_close_request), view);
	gtk_widget_add_tick_callback(view->area, view_tick, view, NULL);
	return view;
}

void
view_free(View *view)
{
	if (view == NULL)
		return;
	gtk_window_destroy(GTK_WINDOW(view->window));
	g_clear_pointer(&view->picture, cairo_surface_destroy);
	g_main_loop_unref(view->loop);
	g_free(view->caption);
	g_free(view->screenshot);
	g_free(view);
}

void
view_set_screenshot(View *view, const char *path, guint frames)
{
	g_free(view->screenshot);
	view->screenshot = g_strdup(path);
	view->screenshot_after = frames;
}

void
view_run(View *view)
{
	gtk_window_present(GTK_WINDOW(view->window));
	if (!g_atomic_int_get(&view->quitting))
		g_main_loop_run(view->loop);
	view_log(view, G_LOG_LEVEL_INFO,
	         "view: %" G_GUINT64_FORMAT " frames drawn, %" G_GUINT64_FORMAT " not drawn",
	         view->drawn, view_feed_dropped(view->feed));
}

void
view_quit(View *view)
{
	g_atomic_int_set(&view->quitting, TRUE);
	g_main_loop_quit(view->loop);
}
