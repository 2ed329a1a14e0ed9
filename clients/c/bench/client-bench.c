/* The C client's figures for layoutd-bench --clients: one caption's round trip and 1,000
 * captions pipelined, through liblayoutd-client.
 *
 *   client-bench SOCKET TEXTS    TEXTS: captions separated by NUL bytes
 * Prints "roundtrip_us MEDIAN" (over 300 captions, one at a time, after 20 unmeasured) and
 * "pipelined_us TOTAL" (the first 1,000 captions, up to 64 in flight: the median of three batches
 * after one unmeasured).
 */
#define _GNU_SOURCE
#include <layoutd/client.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double micros(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec * 1e6 + (double)now.tv_nsec / 1e3;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static Layoutd__V1__Style style = LAYOUTD__V1__STYLE__INIT;

static Layoutd__V1__Envelope request(Layoutd__V1__LayoutRequest *layout, char *text) {
    Layoutd__V1__LayoutRequest blank = LAYOUTD__V1__LAYOUT_REQUEST__INIT;
    *layout = blank;
    layout->text = text;
    layout->width = 300;
    layout->default_style = &style;
    Layoutd__V1__Envelope envelope = LAYOUTD__V1__ENVELOPE__INIT;
    envelope.body_case = LAYOUTD__V1__ENVELOPE__BODY_LAYOUT;
    envelope.layout = layout;
    return envelope;
}

int main(int argc, char **argv) {
    if (argc != 3) return 2;
    style.size = 24;
    FILE *file = fopen(argv[2], "rb");
    if (!file) return 2;
    static char data[8 << 20];
    size_t length = fread(data, 1, sizeof data - 1, file);
    fclose(file);
    char *texts[4096];
    size_t count = 0;
    for (size_t at = 0; at < length && count < 4096;) {
        texts[count++] = data + at;
        at += strlen(data + at) + 1;
    }
    layoutd_client *client = NULL;
    if (layoutd_connect(argv[1], 60000, &client) != LAYOUTD_OK) {
        fprintf(stderr, "client-bench: %s\n", layoutd_last_error(client));
        return 1;
    }
    double times[300];
    for (size_t i = 0; i < 320 && i < count; i++) {
        Layoutd__V1__LayoutRequest layout;
        Layoutd__V1__Envelope envelope = request(&layout, texts[i]);
        Layoutd__V1__Envelope *reply = NULL;
        double start = micros();
        if (layoutd_call(client, &envelope, &reply) != LAYOUTD_OK) {
            fprintf(stderr, "client-bench: %s\n", layoutd_last_error(client));
            return 1;
        }
        double took = micros() - start;
        layoutd_free_reply(reply);
        if (i >= 20) times[i - 20] = took;
    }
    qsort(times, 300, sizeof times[0], compare);
    printf("roundtrip_us %.2f\n", times[150]);

    /* The batch four times: the first unmeasured (as the round trip's first 20 calls), the
     * median of the other three printed. */
    enum { TOTAL = 1000, WINDOW = 64, BATCHES = 4 };
    double batches[BATCHES - 1];
    for (int batch = 0; batch < BATCHES; batch++) {
        uint64_t ids[TOTAL];
        size_t sent = 0, received = 0;
        double start = micros();
        while (received < TOTAL) {
            while (sent < TOTAL && sent - received < WINDOW) {
                Layoutd__V1__LayoutRequest layout;
                Layoutd__V1__Envelope envelope = request(&layout, texts[sent % count]);
                if (layoutd_send(client, &envelope, &ids[sent]) != LAYOUTD_OK) return 1;
                sent++;
            }
            Layoutd__V1__Envelope *reply = NULL;
            if (layoutd_receive(client, ids[received], &reply) != LAYOUTD_OK) return 1;
            layoutd_free_reply(reply);
            received++;
        }
        if (batch > 0) batches[batch - 1] = micros() - start;
    }
    qsort(batches, BATCHES - 1, sizeof batches[0], compare);
    printf("pipelined_us %.0f\n", batches[(BATCHES - 1) / 2]);
    layoutd_close(client);
    return 0;
}
