#include "xvfb.h"

#include <signal.h>
#include <sys/prctl.h>

static void
xvfb_child_setup(gpointer data G_GNUC_UNUSED)
{
	prctl(PR_SET_PDEATHSIG, SIGTERM);
}

/* Xvfb tells the display it took once it is ready for clients. */
Xvfb *
xvfb_start(void)
{
	g_autoptr(GSubprocessLauncher) launcher =
	        g_subprocess_launcher_new(G_SUBPROCESS_FLAGS_STDOUT_PIPE);
	g_autoptr(GDataInputStream) out = NULL;
	g_autoptr(GError) error = NULL;
	g_autofree char *number = NULL;
	Xvfb *x = g_new0(Xvfb, 1);

	g_subprocess_launcher_set_child_setup(launcher, xvfb_child_setup, NULL, NULL);
	x->process =
	        g_subprocess_launcher_spawn(launcher, &error, "Xvfb", "-displayfd", "1", "-screen",
	                                    "0", "1280x800x24", "-nolisten", "tcp", NULL);
	g_assert_no_error(error);
	out = g_data_input_stream_new(g_subprocess_get_stdout_pipe(x->process));
	number = g_data_input_stream_read_line(out, NULL, NULL, &error);
	g_assert_no_error(error);
	g_assert_nonnull(number);
	x->display = g_strdup_printf(":%s", g_strstrip(number));
	g_setenv("DISPLAY", x->display, TRUE);
	g_unsetenv("WAYLAND_DISPLAY");
	/* No session bus here for GTK's accessibility. */
	g_setenv("GTK_A11Y", "none", TRUE);
	/* GTK tries EGL first and falls back to GLX on Xvfb. Mesa 22.3.6
	 * (Debian 12, deb12u2) leaks 128 bytes in swrast_dri.so during that
	 * EGL probe and then unloads the driver. LeakSanitizer can then
	 * neither name the leak nor suppress it. GLX is what the view draws
	 * with here anyway, so go there directly. */
	g_setenv("GDK_DEBUG", "gl-glx", TRUE);
	return x;
}

void
xvfb_stop(Xvfb *x)
{
	g_subprocess_send_signal(x->process, SIGTERM);
	g_subprocess_wait(x->process, NULL, NULL);
	g_object_unref(x->process);
	g_free(x->display);
	g_free(x);
}
