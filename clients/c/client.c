/* A minimal layoutd client in C, on protobuf-c.
 *
 *   layoutd-client golden FILE.hex            encode the shared request vector; exit 1 if the bytes differ
 *   layoutd-client layout SOCKET WIDTH TEXT   lay TEXT out through a running daemon, print one row per line
 */
#define _GNU_SOURCE /* struct ucred, SO_PEERCRED */
#include <arpa/inet.h>
#include <errno.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "layoutd/v1/envelope.pb-c.h"

/* The frame: 4-byte big-endian length, then one Envelope. Caller frees. */
static uint8_t *frame_envelope(const Layoutd__V1__Envelope *envelope, size_t *frame_length) {
    size_t body = layoutd__v1__envelope__get_packed_size(envelope);
    uint8_t *frame = malloc(4 + body);
    if (!frame) return NULL;
    uint32_t length = htonl((uint32_t)body);
    memcpy(frame, &length, 4);
    layoutd__v1__envelope__pack(envelope, frame + 4);
    *frame_length = 4 + body;
    return frame;
}

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
    uint8_t *frame = frame_envelope(&envelope, &length);
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

static int read_exactly(int fd, uint8_t *buffer, size_t count) {
    size_t done = 0;
    while (done < count) {
        ssize_t got = recv(fd, buffer + done, count - done, 0);
        if (got <= 0) { if (got < 0 && errno == EINTR) continue; return -1; }
        done += (size_t)got;
    }
    return 0;
}

/* The daemon must run as this user, as root, or as the service's `layoutd` user: a socket in a
 * shared place can be another user's daemon, which would read the text sent (SO_PEERCRED). */
static int trusted_peer(int fd, const char *socket_path) {
    struct ucred peer;
    socklen_t length = sizeof peer;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &length) != 0) {
        fprintf(stderr, "refusing the daemon at %s: the kernel did not say who serves it\n", socket_path);
        return 0;
    }
    const struct passwd *service = getpwnam("layoutd");
    if (peer.uid == getuid() || peer.uid == 0 || (service && peer.uid == service->pw_uid)) return 1;
    fprintf(stderr, "refusing the daemon at %s: it is served by uid %u, not by you, root or the layoutd service\n",
            socket_path, (unsigned)peer.uid);
    return 0;
}

static int layout(const char *socket_path, float width, const char *text) {
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strncpy(address.sun_path, socket_path, sizeof address.sun_path - 1);
    if (fd < 0 || connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        fprintf(stderr, "cannot connect to %s: %s\n", socket_path, strerror(errno));
        return 1;
    }
    if (!trusted_peer(fd, socket_path)) {
        close(fd);
        return 1;
    }
    Layoutd__V1__Style style = LAYOUTD__V1__STYLE__INIT;
    style.size = 20;
    Layoutd__V1__LayoutRequest request = LAYOUTD__V1__LAYOUT_REQUEST__INIT;
    request.text = (char *)text;
    request.width = width;
    request.default_style = &style;
    Layoutd__V1__Envelope envelope = LAYOUTD__V1__ENVELOPE__INIT;
    envelope.request_id = 1;
    envelope.body_case = LAYOUTD__V1__ENVELOPE__BODY_LAYOUT;
    envelope.layout = &request;
    size_t length = 0;
    uint8_t *frame = frame_envelope(&envelope, &length);
    if (send(fd, frame, length, 0) != (ssize_t)length) { perror("send"); return 1; }
    free(frame);

    uint8_t header[4];
    if (read_exactly(fd, header, 4) != 0) { fprintf(stderr, "no reply\n"); return 1; }
    uint32_t body_length = ((uint32_t)header[0] << 24) | ((uint32_t)header[1] << 16) | ((uint32_t)header[2] << 8) | header[3];
    uint8_t *body = malloc(body_length ? body_length : 1);
    if (read_exactly(fd, body, body_length) != 0) { fprintf(stderr, "short reply\n"); return 1; }
    close(fd);
    Layoutd__V1__Envelope *reply = layoutd__v1__envelope__unpack(NULL, body_length, body);
    free(body);
    if (!reply) { fprintf(stderr, "reply is not an Envelope\n"); return 1; }
    int status = 0;
    if (reply->body_case == LAYOUTD__V1__ENVELOPE__BODY_ERROR) {
        fprintf(stderr, "layoutd: %s: %s\n", reply->error->field, reply->error->message);
        status = 1;
    } else if (reply->body_case == LAYOUTD__V1__ENVELOPE__BODY_LAYOUT_REPLY) {
        Layoutd__V1__LayoutReply *result = reply->layout_reply;
        for (size_t i = 0; i < result->n_lines; i++) {
            Layoutd__V1__Line *line = result->lines[i];
            printf("line %zu: range [%u,%u) baseline %.2f width %.2f\n", i, line->range ? line->range->start : 0,
                   line->range ? line->range->start + line->range->length : 0,
                   line->baseline_origin ? line->baseline_origin->y : 0.0f, line->width);
        }
        printf("%zu glyph runs, size %.2f x %.2f\n", result->n_runs, result->width, result->height);
    } else {
        fprintf(stderr, "unexpected reply\n");
        status = 1;
    }
    layoutd__v1__envelope__free_unpacked(reply, NULL);
    return status;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "golden") == 0) return golden(argv[2]);
    if (argc == 5 && strcmp(argv[1], "layout") == 0) return layout(argv[2], strtof(argv[3], NULL), argv[4]);
    fprintf(stderr, "usage: %s golden FILE.hex | layout SOCKET WIDTH TEXT\n", argv[0]);
    return 2;
}
