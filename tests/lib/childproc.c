#include "childproc.h"

#include <stdlib.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>

#include "testutil.h"

#define POLL_US 10000

struct _ChildProc {
	GSubprocess *process;
	char *dir;
	char *log_path;
	char *name; /* the program's, for messages */
};

/* A test that fails ends at once: its child must not run on after it. */
static void
child_proc_child_setup(gpointer data G_GNUC_UNUSED)
{
	prctl(PR_SET_PDEATHSIG, SIGTERM);
}

ChildProc *
child_proc_spawn(const char *const *argv)
{
	g_autoptr(GSubprocessLauncher) launcher =
	        g_subprocess_launcher_new(G_SUBPROCESS_FLAGS_STDOUT_SILENCE);
	g_autoptr(GError) error = NULL;
	ChildProc *proc = g_new0(ChildProc, 1);

	proc->dir = testutil_tmpdir();
	proc->log_path = g_build_filename(proc->dir, "stderr", NULL);
	proc->name = g_path_get_basename(argv[0]);
	g_subprocess_launcher_set_stderr_file_path(launcher, proc->log_path);
	g_subprocess_launcher_set_child_setup(launcher, child_proc_child_setup, NULL, NULL);
	proc->process = g_subprocess_launcher_spawnv(launcher, argv, &error);
	g_assert_no_error(error);
	return proc;
}

ChildProc *
child_proc_start(const char *const *args)
{
	g_autoptr(GPtrArray) argv = g_ptr_array_new();

	g_ptr_array_add(argv, (gpointer)testutil_binary());
	for (guint i = 0; args[i] != NULL; i++)
		g_ptr_array_add(argv, (gpointer)args[i]);
	g_ptr_array_add(argv, NULL);
	return child_proc_spawn((const char *const *)argv->pdata);
}

int
child_proc_pid(ChildProc *proc)
{
	const char *id = g_subprocess_get_identifier(proc->process);

	return id != NULL ? atoi(id) : 0;
}

void
child_proc_free(ChildProc *proc)
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
	g_free(proc->name);
	g_free(proc);
}

char *
child_proc_log(ChildProc *proc)
{
	char *text = NULL;

	if (!g_file_get_contents(proc->log_path, &text, NULL, NULL))
		return g_strdup("");
	return text;
}

gboolean
child_proc_wait_until(ChildProc *proc, ChildProcLogFunc ready, gpointer user_data, guint timeout_ms)
{
	gint64 end = g_get_monotonic_time() + testutil_wait_ms(timeout_ms) * 1000;

	do {
		g_autofree char *log = child_proc_log(proc);

		if (ready(log, user_data))
			return TRUE;
		g_usleep(POLL_US);
	} while (g_get_monotonic_time() < end);
	return FALSE;
}

static gboolean
child_proc_log_has(const char *log, gpointer needle)
{
	return strstr(log, needle) != NULL;
}

gboolean
child_proc_wait_log(ChildProc *proc, const char *needle, guint timeout_ms)
{
	return child_proc_wait_until(proc, child_proc_log_has, (gpointer)needle, timeout_ms);
}

void
child_proc_signal(ChildProc *proc, int signal)
{
	g_subprocess_send_signal(proc->process, signal);
}

int
child_proc_wait(ChildProc *proc, guint timeout_ms)
{
	gint64 end = g_get_monotonic_time() + testutil_wait_ms(timeout_ms) * 1000;
	g_autofree char *log = NULL;

	/* GSubprocess learns of the exit from the main context. */
	while (g_subprocess_get_identifier(proc->process) != NULL && g_get_monotonic_time() < end) {
		g_main_context_iteration(NULL, FALSE);
		g_usleep(POLL_US);
	}
	log = child_proc_log(proc);
	g_test_message("%s said:\n%s", proc->name, log);
	g_assert_null(g_subprocess_get_identifier(proc->process));
	g_assert_true(g_subprocess_get_if_exited(proc->process));
	return g_subprocess_get_exit_status(proc->process);
}
