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
#include <stdlib.h>

/* One library: opened once, by pthread_once, so two threads never race to open it. A library
 * that cannot be opened (it was there when TextReel was built) ends the process with why. */
#define LIBRARY(var, soname)                                                                       \
    static void *var##_handle;                                                                     \
    static pthread_once_t var##_once = PTHREAD_ONCE_INIT;                                          \
    static void var##_open(void) {                                                                 \
        var##_handle = dlopen(soname, RTLD_NOW | RTLD_GLOBAL);                                     \
        if (!var##_handle) {                                                                       \
            fprintf(stderr, "textreel: %s is needed here and cannot be loaded (%s); run `make setup`\n", soname, dlerror()); \
            exit(2);                                                                               \
        }                                                                                          \
    }                                                                                              \
    static void *var##_symbol(const char *name) {                                                  \
        pthread_once(&var##_once, var##_open);                                                     \
        void *symbol = dlsym(var##_handle, name);                                                  \
        if (!symbol) {                                                                             \
            fprintf(stderr, "textreel: %s has no %s (%s)\n", soname, name, dlerror());            \
            exit(2);                                                                               \
        }                                                                                          \
        return symbol;                                                                             \
    }

LIBRARY(rsvg, "librsvg-2.so.2")
LIBRARY(mhd, "libmicrohttpd.so.12")

/* A forwarding function: RET NAME(PARAMS) { return NAME(ARGS) in LIB }. */
#define FORWARD(lib, ret, name, params, args)                                                      \
    ret name params {                                                                              \
        typedef ret (*function) params;                                                            \
        return ((function)lib##_symbol(#name)) args;                                               \
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

void MHD_destroy_response(void *response) { ((void (*)(void *))mhd_symbol("MHD_destroy_response"))(response); }
void MHD_stop_daemon(void *daemon) { ((void (*)(void *))mhd_symbol("MHD_stop_daemon"))(daemon); }

/* The two variadic ones: the daemon's options go to MHD_start_daemon_va; MHD_get_daemon_info is
 * asked only for kinds that take no further argument (the bound port). */
void *MHD_start_daemon(unsigned int flags, uint16_t port, void *accept, void *accept_context, void *handler,
                       void *handler_context, ...) {
    typedef void *(*function)(unsigned int, uint16_t, void *, void *, void *, void *, va_list);
    va_list options;
    va_start(options, handler_context);
    void *daemon = ((function)mhd_symbol("MHD_start_daemon_va"))(flags, port, accept, accept_context, handler, handler_context, options);
    va_end(options);
    return daemon;
}

const void *MHD_get_daemon_info(void *daemon, int kind, ...) {
    typedef const void *(*function)(void *, int, ...);
    return ((function)mhd_symbol("MHD_get_daemon_info"))(daemon, kind);
}
