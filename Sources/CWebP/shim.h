/* libwebp's animation encoder (WebPAnimEncoder, in libwebpmux) for `render --animation x.webp`. */
#include <webp/encode.h>
#include <webp/mux.h>

/* The init functions are macros over versioned calls, which Swift cannot see. */
static inline int textreel_webp_config_init(WebPConfig *config) { return WebPConfigInit(config); }
static inline int textreel_webp_picture_init(WebPPicture *picture) { return WebPPictureInit(picture); }
static inline int textreel_webp_anim_options_init(WebPAnimEncoderOptions *options) { return WebPAnimEncoderOptionsInit(options); }
static inline WebPAnimEncoder *textreel_webp_anim_new(int width, int height, const WebPAnimEncoderOptions *options) {
    return WebPAnimEncoderNew(width, height, options);
}
