// PCRE2's 16-bit library: patterns and subjects in UTF-16, so match offsets are the protocol's.
#define PCRE2_CODE_UNIT_WIDTH 16
#include <pcre2.h>
