/* skelbridge as a child process in a test: started with arguments, its
 * stderr kept in a file that the test can wait on, stopped with signals. */
#pragma once

#include <glib.h>

typedef struct _BridgeProc BridgeProc;

/** bridge_proc_start: runs `skelbridge ARGS...` (@args NULL-terminated). */
BridgeProc *bridge_proc_start(const char *const *args);
void bridge_proc_free(BridgeProc *proc);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(BridgeProc, bridge_proc_free)

/** bridge_proc_log: everything the child wrote to stderr so far. */
char *bridge_proc_log(BridgeProc *proc);

/** bridge_proc_wait_log: waits up to @timeout_ms for @needle to show in the log. */
gboolean bridge_proc_wait_log(BridgeProc *proc, const char *needle, guint timeout_ms);

void bridge_proc_signal(BridgeProc *proc, int signal);

/** bridge_proc_wait: waits up to @timeout_ms for the child to exit; its exit status. */
int bridge_proc_wait(BridgeProc *proc, guint timeout_ms);
