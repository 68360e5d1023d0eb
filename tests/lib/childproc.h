/* A program the test runs beside it, skelbridge or a receiver such as Pd:
 * its stderr is kept in a file that the test can wait on; signals stop it. */
#pragma once

#include <glib.h>

typedef struct _ChildProc ChildProc;

/** child_proc_spawn: runs @argv (NULL-terminated; argv[0] is looked up in PATH). */
ChildProc *child_proc_spawn(const char *const *argv);
/** child_proc_start: runs `skelbridge ARGS...` (@args NULL-terminated). */
ChildProc *child_proc_start(const char *const *args);
void child_proc_free(ChildProc *proc);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(ChildProc, child_proc_free)

/** child_proc_log: everything the child wrote to stderr so far. */
char *child_proc_log(ChildProc *proc);

/** child_proc_wait_log: waits up to @timeout_ms for @needle to show in the log. */
gboolean child_proc_wait_log(ChildProc *proc, const char *needle, guint timeout_ms);

typedef gboolean (*ChildProcLogFunc)(const char *log, gpointer user_data);

/** child_proc_wait_until: waits up to @timeout_ms for @ready to say the log holds what it wants. */
gboolean child_proc_wait_until(ChildProc *proc, ChildProcLogFunc ready, gpointer user_data,
                               guint timeout_ms);

void child_proc_signal(ChildProc *proc, int signal);

/** child_proc_pid: the child's process id, 0 once it has exited. */
int child_proc_pid(ChildProc *proc);

/** child_proc_wait: waits up to @timeout_ms for the child to exit; its exit status. */
int child_proc_wait(ChildProc *proc, guint timeout_ms);
