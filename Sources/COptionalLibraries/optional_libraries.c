/* Libraries only some commands need, loaded when first called instead of when the process
 * starts: librsvg (with libxml2, ICU, GIO and cairo-gobject behind it) draws SVG attachments,
 * libmicrohttpd (with GnuTLS and seven more) serves `report --serve`. Loading them cost every
 * process about 8 ms before its first instruction (a first frame of 10^3 paragraphs is 40 ms).
 *
 * Each function below has the name and the argument kinds of the library's own and forwards
 * to it through dlsym; the Swift modules declare them (CImage) or include the header (CHTTP)
 * without linking the library. Written by hand: no packaged tool makes such stubs. The
 * prototypes use plain C types of the same classes as the headers' (pointers, int, size_t,
 * double), so this file needs none of the libraries' headers. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One library: opened once, by pthread_once, so two threads never race to open it. A library
 * (or a function of it) that cannot be had leaves its reason in var##_problem and its
 * functions answer 0 or NULL: the caller asks `textreel_optional_library_problem` first and
 * reports it, so a process embedding TextReel never ends here. */
#define LIBRARY(var, soname)                                                                       \
    static void *var##_handle;                                                                     \
    static char var##_problem[512];                                                                \
    static pthread_once_t var##_once = PTHREAD_ONCE_INIT;                                          \
    static void var##_open(void) {                                                                 \
        var##_handle = dlopen(soname, RTLD_NOW | RTLD_GLOBAL);                                     \
        if (!var##_handle) {                                                                       \
            snprintf(var##_problem, sizeof var##_problem, "%s cannot be loaded (%s); run `make setup`", soname, dlerror()); \
        }                                                                                          \
    }                                                                                              \
    static void *var##_symbol(const char *name) {                                                  \
        pthread_once(&var##_once, var##_open);                                                     \
        if (!var##_handle) return NULL;                                                            \
        return dlsym(var##_handle, name);                                                          \
    }

LIBRARY(rsvg, "librsvg-2.so.2")
LIBRARY(mhd, "libmicrohttpd.so.12")

/* Why `which` (0: librsvg, 1: libmicrohttpd) cannot be used, or NULL when every function
 * TextReel calls in it is there. */
static const char *const rsvg_functions[] = {"rsvg_handle_new_from_data", "rsvg_handle_get_intrinsic_size_in_pixels",
                                             "rsvg_handle_render_document", NULL};
static const char *const mhd_functions[] = {"MHD_add_response_header", "MHD_create_response_from_buffer",
                                            "MHD_lookup_connection_value", "MHD_queue_response", "MHD_destroy_response",
                                            "MHD_stop_daemon", "MHD_start_daemon_va", "MHD_get_daemon_info", NULL};
const char *textreel_optional_library_problem(int which) {
    void *(*symbol)(const char *) = which == 0 ? rsvg_symbol : mhd_symbol;
    char *problem = which == 0 ? rsvg_problem : mhd_problem;
    const char *const *functions = which == 0 ? rsvg_functions : mhd_functions;
    for (int k = 0; functions[k]; k++) {
        if (!symbol(functions[k]) && !problem[0]) {
            snprintf(problem, 512, "%s has no %s", which == 0 ? "librsvg-2.so.2" : "libmicrohttpd.so.12", functions[k]);
        }
    }
    return problem[0] ? problem : NULL;
}

/* A forwarding function: RET NAME(PARAMS) { return NAME(ARGS) in LIB }, or 0 without it. */
#define FORWARD(lib, ret, name, params, args)                                                      \
    ret name params {                                                                              \
        typedef ret (*function) params;                                                            \
        function forward = (function)lib##_symbol(#name);                                          \
        return forward ? forward args : (ret)0;                                                    \
    }

/* librsvg */
FORWARD(rsvg, void *, rsvg_handle_new_from_data, (const unsigned char *data, size_t length, void **error), (data, length, error))
FORWARD(rsvg, int, rsvg_handle_get_intrinsic_size_in_pixels, (void *handle, double *width, double *height), (handle, width, height))
FORWARD(rsvg, int, rsvg_handle_render_document, (void *handle, void *cr, const void *viewport, void **error), (handle, cr, viewport, error))

/* libmicrohttpd (its enums are int-sized) */
FORWARD(mhd, int, MHD_add_response_header, (void *response, const char *header, const char *content), (response, header, content))
FORWARD(mhd, void *, MHD_create_response_from_buffer, (size_t size, void *buffer, int mode), (size, buffer, mode))
FORWARD(mhd, const char *, MHD_lookup_connection_value, (void *connection, int kind, const char *key), (connection, kind, key))
FORWARD(mhd, int, MHD_queue_response, (void *connection, unsigned int status, void *response), (connection, status, response))

void MHD_destroy_response(void *response) {
    void (*forward)(void *) = (void (*)(void *))mhd_symbol("MHD_destroy_response");
    if (forward) forward(response);
}
void MHD_stop_daemon(void *daemon) {
    void (*forward)(void *) = (void (*)(void *))mhd_symbol("MHD_stop_daemon");
    if (forward) forward(daemon);
}

/* The two variadic ones: the daemon's options go to MHD_start_daemon_va; MHD_get_daemon_info is
 * asked only for kinds that take no further argument (the bound port). */
void *MHD_start_daemon(unsigned int flags, uint16_t port, void *accept, void *accept_context, void *handler,
                       void *handler_context, ...) {
    typedef void *(*function)(unsigned int, uint16_t, void *, void *, void *, void *, va_list);
    va_list options;
    va_start(options, handler_context);
    function forward = (function)mhd_symbol("MHD_start_daemon_va");
    void *daemon = forward ? forward(flags, port, accept, accept_context, handler, handler_context, options) : NULL;
    va_end(options);
    return daemon;
}

const void *MHD_get_daemon_info(void *daemon, int kind, ...) {
    typedef const void *(*function)(void *, int, ...);
    function forward = (function)mhd_symbol("MHD_get_daemon_info");
    return forward ? forward(daemon, kind) : NULL;
}
