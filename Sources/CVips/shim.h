#ifndef NEWSGEN_CVIPS_SHIM_H
#define NEWSGEN_CVIPS_SHIM_H

/* libvips' API is variadic (options as name/value pairs ending in NULL), which Swift cannot
 * call: these non-variadic wrappers fix the options newsgen uses. */
#include <vips/vips.h>

/* Starts libvips once per process: untrusted loaders (ImageMagick, PDF, SVG, ...) blocked, no
 * operation cache, one thread per operation (newsgen runs images in parallel itself), quiet. */
static inline int newsgen_vips_start(void) {
    /* libvips' own warnings (a damaged tile, ...) would go to stderr: newsgen reports each image itself. vips_init
     * silences them when VIPS_WARNING is set. */
    g_setenv("VIPS_WARNING", "0", FALSE);
    if (vips_init("newsgen") != 0) return -1;
    vips_block_untrusted_set(TRUE);
    vips_cache_set_max(0);
    vips_concurrency_set(1);
    return 0;
}

/* The loader libvips would pick for these bytes ("VipsForeignLoadJpegBuffer"), or NULL. */
static inline const char *newsgen_vips_loader(const void *bytes, size_t length) {
    return vips_foreign_find_load_buffer(bytes, length);
}

/* The image's size and page count from its header alone (nothing is decoded). */
static inline int newsgen_vips_header(const void *bytes, size_t length, int *width, int *height, int *pages) {
    VipsImage *image = vips_image_new_from_buffer(bytes, length, "", "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    if (image == NULL) return -1;
    *width = vips_image_get_width(image);
    *height = vips_image_get_height(image);
    *pages = vips_image_get_n_pages(image);
    g_object_unref(image);
    return 0;
}

/* The first frame decoded once, shrunk to at most `width` pixels wide (never enlarged), turned upright by its EXIF
 * orientation, in sRGB, held in memory for the variants made from it; NULL when the image is truncated or damaged.
 * Release it with g_object_unref. */
static inline VipsImage *newsgen_vips_decode(const void *bytes, size_t length, int width) {
    VipsImage *thumbnail = NULL;
    if (vips_thumbnail_buffer((void *)bytes, length, &thumbnail, width,
                              "height", 100000, "size", VIPS_SIZE_DOWN,
                              "option_string", "fail_on=truncated", NULL) != 0) {
        return NULL;
    }
    VipsImage *memory = vips_image_copy_memory(thumbnail);
    g_object_unref(thumbnail);
    return memory;
}

/* `image` (from newsgen_vips_decode) shrunk to at most `width` pixels wide (never enlarged), as WebP without metadata,
 * encoded at libvips' fastest effort. `*output` is freed with g_free. */
static inline int newsgen_vips_webp(VipsImage *image, int width, int quality,
                                    void **output, size_t *output_length, int *out_width, int *out_height) {
    VipsImage *variant = NULL;
    if (vips_thumbnail_image(image, &variant, width, "height", 100000, "size", VIPS_SIZE_DOWN, NULL) != 0) {
        return -1;
    }
    *out_width = vips_image_get_width(variant);
    *out_height = vips_image_get_height(variant);
    int status = vips_webpsave_buffer(variant, output, output_length, "Q", quality, "strip", TRUE, "effort", 0, NULL);
    g_object_unref(variant);
    return status;
}

/* libvips' last error message, and clearing it. */
static inline const char *newsgen_vips_error(void) { return vips_error_buffer(); }
static inline void newsgen_vips_error_clear(void) { vips_error_clear(); }

#endif
