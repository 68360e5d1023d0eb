/* A WebSocket listener: serves clients at ws://ADDRESS:PORT/PATH and, on
 * the same port, HTTP GET routes that others register (the web monitor).
 *
 * Built on libsoup 3 (only here and in ws-server.c). Safe by default:
 * pages from other origins than the allowed ones are refused (403), at
 * most max_clients are served (the next one gets 503), what clients send
 * is read and thrown away (a message over WS_SERVER_MAX_INCOMING bytes
 * closes the client), and a client that does not keep up is dropped once
 * WS_SERVER_MAX_BACKLOG bytes wait for it: it never holds up the frame
 * loop or the other clients. Every refusal and drop is logged. */
#pragma once

#include <gio/gio.h>

/* The largest message a client may send (and which is ignored). */
#define WS_SERVER_MAX_INCOMING 1024
/* Bytes given to a client that it has not taken yet before it is dropped. */
#define WS_SERVER_MAX_BACKLOG (1024 * 1024)

typedef struct _WsServer WsServer;

/* As OscOutputLogFunc: a problem at G_LOG_LEVEL_WARNING, comings and goings
 * at G_LOG_LEVEL_INFO. */
typedef void (*WsServerLogFunc)(GLogLevelFlags level, const char *label, const char *message,
                                gpointer user_data);

typedef struct {
	const char *host; /* an IPv4 address or "localhost" */
	guint port;
	const char *path;                 /* of the WebSocket: "/osc" */
	const char *const *allow_origins; /* NULL: the listener's own, file:// and null */
	guint max_clients;
} WsServerSetup;

typedef struct {
	guint clients;    /* connected now */
	guint64 accepted; /* clients taken, since the start */
	guint64 refused;  /* clients turned away: origin, too many */
	guint64 dropped;  /* clients dropped: too slow, or what they sent */
	guint64 messages; /* WebSocket messages given to clients, all clients counted */
	guint64 bytes;    /* ...and their bytes */
} WsServerStats;

/**
 * ws_server_new:
 * Listens as @setup says, on the thread-default main context. @label
 * names it in logs and errors. Fails when the address cannot be bound
 * (a port in use), with an error naming @label and the address.
 */
WsServer *ws_server_new(const WsServerSetup *setup, const char *label, WsServerLogFunc log,
                        gpointer user_data, GError **error);
void ws_server_free(WsServer *server);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(WsServer, ws_server_free)

/**
 * ws_server_configure:
 * Takes @setup's path, origins and client limit (its host and port must
 * be the listener's own). Clients over a lower limit stay.
 */
void ws_server_configure(WsServer *server, const WsServerSetup *setup, const char *label);

/** ws_server_set_log: logs through @log from now on. */
void ws_server_set_log(WsServer *server, WsServerLogFunc log, gpointer user_data);

/** ws_server_matches: the server listens where @setup says. */
gboolean ws_server_matches(const WsServer *server, const WsServerSetup *setup);

/**
 * ws_server_broadcast:
 * Sends @length bytes of @data to every client as one message, binary or,
 * with @text, text (UTF-8). Never blocks.
 */
void ws_server_broadcast(WsServer *server, gboolean text, const void *data, gsize length);

void ws_server_get_stats(const WsServer *server, WsServerStats *stats);

/** ws_server_port: the port listened on. */
guint ws_server_port(const WsServer *server);

/* An HTTP GET route on the listener. Return the body (new ref) and set
 * *content_type (static string), or NULL for 404. */
typedef GBytes *(*WsServerGetFunc)(const char *path, const char **content_type, gpointer user_data);

/**
 * ws_server_add_route:
 * Serves GET (and HEAD) requests for @prefix with @func, on the main
 * context the server was made on. A @prefix ending in '/' matches every
 * path under it. Replaces any route with the same prefix (destroying its
 * data).
 */
void ws_server_add_route(WsServer *server, const char *prefix, WsServerGetFunc func,
                         gpointer user_data, GDestroyNotify destroy);
void ws_server_remove_route(WsServer *server, const char *prefix);

/** ws_server_clear_routes: removes every route. */
void ws_server_clear_routes(WsServer *server);
