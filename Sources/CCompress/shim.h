/* Compressors for the PNG writer: ISA-L's igzip (fast) and CRC-32, libdeflate (small), zlib
 * (stored blocks, Adler-32 combining). */
#include <isa-l/igzip_lib.h>
#include <isa-l/crc.h>
#include <libdeflate.h>
#include <zlib.h>

/* ISA-L's level buffer sizes are macros Swift cannot import. */
static inline unsigned int textreel_isal_level_buffer_size(int level) {
    switch (level) {
    case 0: return 0;
    case 1: return ISAL_DEF_LVL1_DEFAULT;
    case 2: return ISAL_DEF_LVL2_DEFAULT;
    default: return ISAL_DEF_LVL3_DEFAULT;
    }
}
