/* A disk that fills up, for the tests: put in front of libc with
 * LD_PRELOAD, it lets writes to files under $FAULT_ENOSPC_DIR through until
 * $FAULT_ENOSPC_BYTES bytes have gone there in all, then writes what still
 * fits and fails every later write with ENOSPC, as a full disk does. */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef ssize_t (*WriteFunc)(int fd, const void *buf, size_t count);

ssize_t write(int fd, const void *buf, size_t count);

static size_t fault_enospc_used;

/* Whether @fd is a file under $FAULT_ENOSPC_DIR. */
static int
fault_enospc_watched(int fd)
{
	const char *dir = getenv("FAULT_ENOSPC_DIR");
	char link[64];
	char path[PATH_MAX];
	ssize_t n;
	size_t len;

	if (dir == NULL || *dir == '\0')
		return 0;
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof path - 1);
	if (n < 0)
		return 0;
	path[n] = '\0';
	len = strlen(dir);
	return strncmp(path, dir, len) == 0 && path[len] == '/';
}

ssize_t
write(int fd, const void *buf, size_t count)
{
	static WriteFunc real_write;
	const char *budget_text = getenv("FAULT_ENOSPC_BYTES");
	size_t budget = budget_text ? strtoull(budget_text, NULL, 10) : 0;
	size_t room;
	ssize_t n;

	if (real_write == NULL) {
		/* POSIX's way to turn dlsym()'s answer into a function pointer. */
		void *symbol = dlsym(RTLD_NEXT, "write");

		memcpy(&real_write, &symbol, sizeof real_write);
	}
	if (count == 0 || !fault_enospc_watched(fd))
		return real_write(fd, buf, count);
	room = fault_enospc_used < budget ? budget - fault_enospc_used : 0;
	if (room == 0) {
		errno = ENOSPC;
		return -1;
	}
	n = real_write(fd, buf, count < room ? count : room);
	if (n > 0)
		fault_enospc_used += (size_t)n;
	return n;
}
