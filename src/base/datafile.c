#include "datafile.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

#define MIB ((gsize)1024 * 1024)

/* What a file that is not a regular one is, for the message. */
static const char *
datafile_kind(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a folder";
	if (S_ISFIFO(mode))
		return "a named pipe";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "something else";
}

static gboolean
datafile_fail_errno(const char *path, int saved, GError **error)
{
	g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(saved), "%s: %s", path,
	            g_strerror(saved));
	return FALSE;
}

int
datafile_open(const char *path, GError **error)
{
	int fd = g_open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0);
	struct stat st;

	if (fd < 0) {
		datafile_fail_errno(path, errno, error);
		return -1;
	}
	if (fstat(fd, &st) != 0) {
		datafile_fail_errno(path, errno, error);
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		g_set_error(error, G_FILE_ERROR,
		            S_ISDIR(st.st_mode) ? G_FILE_ERROR_ISDIR : G_FILE_ERROR_INVAL,
		            "%s: not a file but %s", path, datafile_kind(st.st_mode));
		close(fd);
		return -1;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

gboolean
datafile_fail_too_large(const char *path, gsize max_bytes, GError **error)
{
	g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
	            "%s: larger than %zu %s, more than such a file ever holds", path,
	            max_bytes % MIB == 0 ? max_bytes / MIB : max_bytes,
	            max_bytes % MIB == 0 ? "MiB" : "bytes");
	return FALSE;
}

/* Reads @fd to its end, failing once more than @max_bytes came. */
static gboolean
datafile_read_fd(const char *path, int fd, gsize max_bytes, GString *out, GError **error)
{
	char buffer[65536];

	for (;;) {
		gssize n = read(fd, buffer, sizeof(buffer));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return datafile_fail_errno(path, errno, error);
		if (n == 0)
			return TRUE;
		if (out->len + (gsize)n > max_bytes)
			return datafile_fail_too_large(path, max_bytes, error);
		g_string_append_len(out, buffer, n);
	}
}

gboolean
datafile_read(const char *path, gsize max_bytes, char **contents, gsize *length, GError **error)
{
	g_autoptr(GString) out = g_string_new(NULL);
	int fd = datafile_open(path, error);
	gboolean ok;

	if (fd < 0)
		return FALSE;
	ok = datafile_read_fd(path, fd, max_bytes, out, error);
	close(fd);
	if (!ok)
		return FALSE;
	*length = out->len;
	*contents = g_string_free(g_steal_pointer(&out), FALSE);
	return TRUE;
}
