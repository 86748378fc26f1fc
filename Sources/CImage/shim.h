#include <gdk-pixbuf/gdk-pixbuf.h>
#include <png.h>
#include "png_read.h"

/* The three librsvg functions TextReel calls, declared here as librsvg's header declares them:
 * librsvg is loaded only when an SVG is first read (COptionalLibraries), so nothing here may
 * link it, and its pkg-config entry would. */
typedef struct _RsvgHandle RsvgHandle;
typedef struct {
    double x;
    double y;
    double width;
    double height;
} RsvgRectangle;
RsvgHandle *rsvg_handle_new_from_data(const guint8 *data, gsize data_len, GError **error);
gboolean rsvg_handle_get_intrinsic_size_in_pixels(RsvgHandle *handle, gdouble *out_width, gdouble *out_height);
gboolean rsvg_handle_render_document(RsvgHandle *handle, struct _cairo *cr, const RsvgRectangle *viewport, GError **error);
