/* The golden requests built by hand in C (golden-requests.c). */
#ifndef GOLDEN_REQUESTS_H
#define GOLDEN_REQUESTS_H

#include <layoutd/client.h>

typedef struct {
    const char *label;                   /* as golden.hex names it: "request.layout" */
    Layoutd__V1__Envelope *(*build)(void); /* the request, in static storage until the next build */
} GoldenRequest;

extern const GoldenRequest golden_requests[];
extern const size_t golden_request_count;

#endif
