/* The inner loop of TextReel's Markdown index (Sources/TextReel/Document/MarkdownIndex.swift):
 * finds the next byte that matters to it, sixteen bytes at a time. Written here because Swift's
 * SIMD types compile these comparisons to loops over lanes; SSE2 is in every x86-64, and other
 * machines take the plain loop. */
#include <stddef.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Whether `b` is one of the bytes the index looks at: NUL, vertical tab, form feed, CR, "!", "$",
 * "*", "<", "[", "]", "_", "|", "~". */
static inline int textreel_scan_special(uint8_t b) {
    return b == 0x00 || b == 0x0B || b == 0x0C || b == 0x0D || b == 0x21 || b == 0x24 || b == 0x2A || b == 0x3C
        || b == 0x5B || b == 0x5D || b == 0x5F || b == 0x7C || b == 0x7E;
}

/* The offset of the first special byte in p[0..<n], or n; sets *non_ascii when a byte >= 0x80
 * precedes it. */
static inline size_t textreel_scan_next(const uint8_t *p, size_t n, int *non_ascii) {
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i nul = _mm_setzero_si128(), cr = _mm_set1_epi8(0x0D), bang = _mm_set1_epi8(0x21),
        vt = _mm_set1_epi8(0x0B), ff = _mm_set1_epi8(0x0C), dollar = _mm_set1_epi8(0x24), angle = _mm_set1_epi8(0x3C),
        star = _mm_set1_epi8(0x2A), open = _mm_set1_epi8(0x5B), close = _mm_set1_epi8(0x5D),
        under = _mm_set1_epi8(0x5F), bar = _mm_set1_epi8(0x7C), tilde = _mm_set1_epi8(0x7E);
    for (; i + 16 <= n; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(p + i));
        __m128i hit = _mm_or_si128(_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, nul), _mm_cmpeq_epi8(v, cr)),
                                                _mm_or_si128(_mm_cmpeq_epi8(v, bang), _mm_cmpeq_epi8(v, star))),
                                   _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, open), _mm_cmpeq_epi8(v, close)),
                                                _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, under), _mm_cmpeq_epi8(v, bar)),
                                                             _mm_cmpeq_epi8(v, tilde))));
        hit = _mm_or_si128(hit, _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, vt), _mm_cmpeq_epi8(v, ff)),
                                             _mm_or_si128(_mm_cmpeq_epi8(v, dollar), _mm_cmpeq_epi8(v, angle))));
        int mask = _mm_movemask_epi8(hit);
        if (mask) {
            int at = __builtin_ctz(mask);
            if (_mm_movemask_epi8(v) & ((1 << at) - 1)) *non_ascii = 1;
            return i + at;
        }
        if (_mm_movemask_epi8(v)) *non_ascii = 1;
    }
#endif
    for (; i < n; i++) {
        if (textreel_scan_special(p[i])) return i;
        if (p[i] >= 0x80) *non_ascii = 1;
    }
    return n;
}
