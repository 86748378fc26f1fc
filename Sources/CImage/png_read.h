/* Exact PNG decoding for image comparison: every colour type and bit depth to straight 8-bit
 * RGBA, 16-bit samples scaled with libpng's rounding (png_set_scale_16), and no gamma applied
 * (as pixelmatch's PNG reader does). libpng reports errors by longjmp, which must not cross
 * Swift frames: the setjmp lives here, in C, and errors come back as a message. */
#include <png.h>
#include <setjmp.h>
#include <string.h>
#include <stdio.h>

typedef struct {
    const unsigned char *data;
    size_t size;
    size_t offset;
    char message[200];
    /* Set by a read: whether the image has an alpha channel or a transparent colour (tRNS). */
    int has_alpha;
} textreel_png_source;

static void textreel_png_read_data(png_structp png, png_bytep out, png_size_t length) {
    textreel_png_source *source = (textreel_png_source *)png_get_io_ptr(png);
    if (source->offset + length > source->size) {
        snprintf(source->message, sizeof source->message, "data ends at byte %zu", source->size);
        png_error(png, source->message);
    }
    memcpy(out, source->data + source->offset, length);
    source->offset += length;
}

static void textreel_png_error(png_structp png, png_const_charp message) {
    textreel_png_source *source = (textreel_png_source *)png_get_io_ptr(png);
    if (source && source->message[0] == 0) snprintf(source->message, sizeof source->message, "%s", message);
    png_longjmp(png, 1);
}

static void textreel_png_warning(png_structp png, png_const_charp message) { (void)png; (void)message; }

/* Reads the size (pixels == NULL) or the pixels (width * height * 4 bytes). Returns 1 on
 * success; on failure 0 with `source->message` saying why. */
static inline int textreel_png_read_rgba8(textreel_png_source *source, unsigned char *pixels,
                                          unsigned int *width, unsigned int *height, unsigned long maximum_pixels) {
    source->offset = 0;
    source->message[0] = 0;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, textreel_png_error, textreel_png_warning);
    if (!png) { snprintf(source->message, sizeof source->message, "out of memory"); return 0; }
    png_infop info = png_create_info_struct(png);
    png_bytep *volatile rows = NULL;   /* volatile: read after longjmp */
    if (!info || setjmp(png_jmpbuf(png))) {
        if (source->message[0] == 0) snprintf(source->message, sizeof source->message, "damaged PNG");
        free(rows);
        png_destroy_read_struct(&png, info ? &info : NULL, NULL);
        return 0;
    }
    png_set_read_fn(png, source, textreel_png_read_data);
    png_set_user_limits(png, 0x7fffffff, 0x7fffffff);
    png_read_info(png, info);
    *width = png_get_image_width(png, info);
    *height = png_get_image_height(png, info);
    source->has_alpha = (png_get_color_type(png, info) & PNG_COLOR_MASK_ALPHA) != 0 || png_get_valid(png, info, PNG_INFO_tRNS);
    if ((unsigned long)*width * (unsigned long)*height > maximum_pixels) {
        snprintf(source->message, sizeof source->message, "PNG of %u×%u is too large", *width, *height);
        png_destroy_read_struct(&png, &info, NULL);
        return 0;
    }
    if (!pixels) { png_destroy_read_struct(&png, &info, NULL); return 1; }
    int type = png_get_color_type(png, info);
    png_set_scale_16(png);
    png_set_packing(png);
    if (type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (type == PNG_COLOR_TYPE_GRAY && png_get_bit_depth(png, info) < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (type == PNG_COLOR_TYPE_GRAY || type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    png_set_filler(png, 0xff, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    rows = (png_bytep *)malloc(sizeof(png_bytep) * (*height ? *height : 1));
    if (!rows) png_error(png, "out of memory");
    for (unsigned int y = 0; y < *height; y++) rows[y] = pixels + (size_t)y * *width * 4;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    free(rows);
    png_destroy_read_struct(&png, &info, NULL);
    return 1;
}
