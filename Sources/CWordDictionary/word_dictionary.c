#include "word_dictionary.h"

#include <pthread.h>
#include <unicode/ubrk.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static UBreakIterator *iterator;
static int opened;  // 1 once an open was tried; iterator stays NULL if it failed

int32_t layoutd_dictionary_word_boundaries(const uint16_t *text, int32_t length, int32_t *boundaries, int32_t capacity) {
    if (length <= 0) return 0;
    pthread_mutex_lock(&lock);
    if (!opened) {
        UErrorCode error = U_ZERO_ERROR;
        // The root locale: its word rules send ideographs, kana and the South-East Asian
        // scripts to the dictionaries whatever the language.
        iterator = ubrk_open(UBRK_WORD, "", NULL, 0, &error);
        if (U_FAILURE(error)) iterator = NULL;
        opened = 1;
    }
    int32_t written = -1;
    if (iterator) {
        UErrorCode error = U_ZERO_ERROR;
        ubrk_setText(iterator, (const UChar *)text, length, &error);
        if (U_SUCCESS(error)) {
            written = 0;
            for (int32_t at = ubrk_following(iterator, 0); at != UBRK_DONE && at < length && written < capacity;
                 at = ubrk_next(iterator)) {
                boundaries[written++] = at;
            }
            // The iterator must not keep pointing at the caller's buffer.
            ubrk_setText(iterator, NULL, 0, &error);
        }
    }
    pthread_mutex_unlock(&lock);
    return written;
}
