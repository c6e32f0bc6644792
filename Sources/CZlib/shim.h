// The system's zlib, for inflating Core Data's Z_MODELCACHE (raw deflate). Foundation on Linux
// has no decompression API; zlib is in every Apple SDK and every Linux distribution.
#include <zlib.h>
