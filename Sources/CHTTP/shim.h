/* libmicrohttpd for `textreel report --serve`, loaded only when a report is served
 * (COptionalLibraries; its header is in the default include path, and its pkg-config entry
 * would link it). MHD_start_daemon takes C varargs, which Swift
 * cannot call: this starts a daemon bound to 127.0.0.1 only, on `port` (0: one the system
 * chooses), and gives the port back. */
#include <microhttpd.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <string.h>

/* Without MHD_USE_ERROR_LOG, libmicrohttpd prints nothing of its own ("Failed to bind to port
 * …"): TextReel says the same, with what to do. */
static inline struct MHD_Daemon *textreel_http_start(unsigned short port, MHD_AccessHandlerCallback handler, void *context,
                                                     unsigned short *bound) {
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    struct MHD_Daemon *daemon = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD, port, NULL, NULL,
                                                 handler, context,
                                                 MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
                                                 MHD_OPTION_END);
    if (daemon) {
        const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
        *bound = info ? info->port : port;
    }
    return daemon;
}

/* A query argument of the request, or NULL. */
static inline const char *textreel_http_query(struct MHD_Connection *connection, const char *key) {
    return MHD_lookup_connection_value(connection, MHD_GET_ARGUMENT_KIND, key);
}

/* A request header (its value), or NULL. */
static inline const char *textreel_http_header(struct MHD_Connection *connection, const char *key) {
    return MHD_lookup_connection_value(connection, MHD_HEADER_KIND, key);
}

/* Queues a copy of `body` as the response. */
static inline enum MHD_Result textreel_http_reply(struct MHD_Connection *connection, unsigned int status,
                                                  const char *type, const char *body, size_t length) {
    struct MHD_Response *response = MHD_create_response_from_buffer(length, (void *)body, MHD_RESPMEM_MUST_COPY);
    MHD_add_response_header(response, "Content-Type", type);
    MHD_add_response_header(response, "Cache-Control", "no-store");
    enum MHD_Result queued = MHD_queue_response(connection, status, response);
    MHD_destroy_response(response);
    return queued;
}

/* "Go on" for the first call of a request with a body. */
static inline enum MHD_Result textreel_http_continue(void) { return MHD_YES; }
