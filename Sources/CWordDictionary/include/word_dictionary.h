#ifndef LAYOUTD_WORD_DICTIONARY_H
#define LAYOUTD_WORD_DICTIONARY_H

#include <stdint.h>

/// Word boundaries from ICU's word break iterator, whose dictionaries cut Chinese, Japanese,
/// Lao, Khmer and Burmese text into words where UAX #29 alone cuts between every character (or
/// not at all). This header names no ICU type: Swift sees only it, so Debian's ICU headers never
/// meet Foundation's own ICU module, and the symbols differ (Debian's carry a version suffix,
/// Foundation's a swift_ prefix).
///
/// Writes the boundaries strictly inside `text[0..<length]`, ascending, at most `capacity` of
/// them, into `boundaries`; returns how many it wrote, or -1 when ICU could not open a word
/// break iterator (no data). Thread-safe: one iterator for the process, used under a lock.
int32_t layoutd_dictionary_word_boundaries(const uint16_t *text, int32_t length, int32_t *boundaries, int32_t capacity);

#endif
