#include "bridgeproc.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>

#include "testutil.h"

#define POLL_US 10000

struct _BridgeProc {
	GSubprocess *process;
	char *dir;
	char *log_path;
};

/* A test that fails ends at once: its child must not run on after it. */
static void
bridge_proc_child_setup(gpointer data G_GNUC_UNUSED)
{
	prctl(PR_SET_PDEATHSIG, SIGTERM);
}

BridgeProc *
bridge_proc_start(const char *const *args)
{
	g_autoptr(GSubprocessLauncher) launcher =
	        g_subprocess_launcher_new(G_SUBPROCESS_FLAGS_STDOUT_SILENCE);
	g_autoptr(GPtrArray) argv = g_ptr_array_new();
	g_autoptr(GError) error = NULL;
	BridgeProc *proc = g_new0(BridgeProc, 1);

	proc->dir = testutil_tmpdir();
	proc->log_path = g_build_filename(proc->dir, "stderr", NULL);
	g_subprocess_launcher_set_stderr_file_path(launcher, proc->log_path);
	g_subprocess_launcher_set_child_setup(launcher, bridge_proc_child_setup, NULL, NULL);
	g_ptr_array_add(argv, (gpointer)testutil_binary());
	for (guint i = 0; args[i] != NULL; i++)
		g_ptr_array_add(argv, (gpointer)args[i]);
	g_ptr_array_add(argv, NULL);
	proc->process =
	        g_subprocess_launcher_spawnv(launcher, (const char *const *)argv->pdata, &error);
	g_assert_no_error(error);
	return proc;
}

void
bridge_proc_free(BridgeProc *proc)
{
	if (proc == NULL)
		return;
	if (g_subprocess_get_identifier(proc->process) != NULL) {
		g_subprocess_force_exit(proc->process);
		g_subprocess_wait(proc->process, NULL, NULL);
	}
	g_object_unref(proc->process);
	testutil_rmdir(proc->dir);
	g_free(proc->dir);
	g_free(proc->log_path);
	g_free(proc);
}

char *
bridge_proc_log(BridgeProc *proc)
{
	char *text = NULL;

	if (!g_file_get_contents(proc->log_path, &text, NULL, NULL))
		return g_strdup("");
	return text;
}

gboolean
bridge_proc_wait_log(BridgeProc *proc, const char *needle, guint timeout_ms)
{
	gint64 end = g_get_monotonic_time() + timeout_ms * (gint64)1000;

	do {
		g_autofree char *log = bridge_proc_log(proc);

		if (strstr(log, needle) != NULL)
			return TRUE;
		g_usleep(POLL_US);
	} while (g_get_monotonic_time() < end);
	return FALSE;
}

void
bridge_proc_signal(BridgeProc *proc, int signal)
{
	g_subprocess_send_signal(proc->process, signal);
}

int
bridge_proc_wait(BridgeProc *proc, guint timeout_ms)
{
	gint64 end = g_get_monotonic_time() + timeout_ms * (gint64)1000;
	g_autofree char *log = NULL;

	/* GSubprocess learns of the exit from the main context. */
	while (g_subprocess_get_identifier(proc->process) != NULL && g_get_monotonic_time() < end) {
		g_main_context_iteration(NULL, FALSE);
		g_usleep(POLL_US);
	}
	log = bridge_proc_log(proc);
	g_test_message("skelbridge said:\n%s", log);
	g_assert_null(g_subprocess_get_identifier(proc->process));
	g_assert_true(g_subprocess_get_if_exited(proc->process));
	return g_subprocess_get_exit_status(proc->process);
}
