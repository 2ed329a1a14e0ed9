/* An example program on liblayoutd-client (include/layoutd/client.h).
 *
 *   layoutd-client golden FILE.hex            encode the shared request vector; exit 1 if the bytes differ
 *   layoutd-client layout SOCKET WIDTH TEXT   lay TEXT out through a running daemon, print one row per line
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <layoutd/client.h>

/* The request the golden vector holds (scripts/golden-bytes.py writes it with Python). */
static int golden(const char *path) {
    Layoutd__V1__Style style = LAYOUTD__V1__STYLE__INIT;
    style.family = "Noto Sans";
    style.size = 24;
    Layoutd__V1__Style span_style = LAYOUTD__V1__STYLE__INIT;
    span_style.weight = 700;
    Layoutd__V1__Range range = LAYOUTD__V1__RANGE__INIT;
    range.start = 3;
    range.length = 2;
    Layoutd__V1__StyleSpan span = LAYOUTD__V1__STYLE_SPAN__INIT;
    span.range = &range;
    span.style = &span_style;
    Layoutd__V1__StyleSpan *spans[] = {&span};
    Layoutd__V1__LayoutRequest request = LAYOUTD__V1__LAYOUT_REQUEST__INIT;
    request.text = "H\xc3\xa9 \xf0\x9f\x91\x8b";  /* "Hé 👋" */
    request.width = 300;
    request.default_style = &style;
    request.n_spans = 1;
    request.spans = spans;
    request.alignment = LAYOUTD__V1__ALIGNMENT__ALIGNMENT_CENTER;
    request.max_lines = 2;
    Layoutd__V1__Envelope envelope = LAYOUTD__V1__ENVELOPE__INIT;
    envelope.request_id = 7;
    envelope.deadline_ms = 250;
    envelope.body_case = LAYOUTD__V1__ENVELOPE__BODY_LAYOUT;
    envelope.layout = &request;

    size_t length = 0;
    uint8_t *frame = layoutd_frame(&envelope, &length);
    char *hex = malloc(2 * length + 1);
    for (size_t i = 0; i < length; i++) sprintf(hex + 2 * i, "%02x", frame[i]);
    FILE *file = fopen(path, "r");
    if (!file) { fprintf(stderr, "cannot open %s\n", path); return 1; }
    char expected[4096] = {0};
    if (!fgets(expected, sizeof expected, file)) expected[0] = 0;
    fclose(file);
    expected[strcspn(expected, "\r\n")] = 0;
    int same = strcmp(hex, expected) == 0;
    printf("%s: C frame %s the shared vector\n", same ? "ok" : "FAIL", same ? "equals" : "differs from");
    if (!same) printf("  C:      %s\n  vector: %s\n", hex, expected);
    free(hex);
    free(frame);
    return same ? 0 : 1;
}

static int layout(const char *socket_path, float width, const char *text) {
    layoutd_client *client = NULL;
    layoutd_status status = layoutd_connect(socket_path, 10000, &client);
    if (status != LAYOUTD_OK) {
        fprintf(stderr, "layoutd-client: %s\n", layoutd_last_error(client));
        layoutd_close(client);
        return 1;
    }
    Layoutd__V1__Style style = LAYOUTD__V1__STYLE__INIT;
    style.size = 20;
    Layoutd__V1__LayoutRequest request = LAYOUTD__V1__LAYOUT_REQUEST__INIT;
    request.text = (char *)text;
    request.width = width;
    request.default_style = &style;
    Layoutd__V1__Envelope envelope = LAYOUTD__V1__ENVELOPE__INIT;
    envelope.body_case = LAYOUTD__V1__ENVELOPE__BODY_LAYOUT;
    envelope.layout = &request;
    Layoutd__V1__Envelope *reply = NULL;
    status = layoutd_call(client, &envelope, &reply);
    if (status != LAYOUTD_OK) {
        fprintf(stderr, "layoutd: %s\n", layoutd_last_error(client));
    } else {
        const Layoutd__V1__LayoutReply *result = reply->layout_reply;
        for (size_t i = 0; i < result->n_lines; i++) {
            const Layoutd__V1__Line *line = result->lines[i];
            printf("line %zu: range [%u,%u) baseline %.2f width %.2f\n", i, line->range ? line->range->start : 0,
                   line->range ? line->range->start + line->range->length : 0,
                   line->baseline_origin ? line->baseline_origin->y : 0.0f, line->width);
        }
        printf("%zu glyph runs, size %.2f x %.2f\n", result->n_runs, result->width, result->height);
    }
    layoutd_free_reply(reply);
    layoutd_close(client);
    return status == LAYOUTD_OK ? 0 : 1;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "golden") == 0) return golden(argv[2]);
    if (argc == 5 && strcmp(argv[1], "layout") == 0) return layout(argv[2], strtof(argv[3], NULL), argv[4]);
    fprintf(stderr, "usage: layoutd-client golden FILE.hex | layoutd-client layout SOCKET WIDTH TEXT\n");
    return 2;
}
