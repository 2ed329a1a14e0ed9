/* liblayoutd-client's tests, run by `make check` under AddressSanitizer and UBSan against the
 * real daemon at argv[1], and against stand-ins for daemons this build is not (older, of
 * another protocol version, silent), served by a child process.
 *
 *   client-test SOCKET
 */
#define _GNU_SOURCE
#include <layoutd/client.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int failures = 0;

#define CHECK(condition, ...)                                                   \
    do {                                                                        \
        if (!(condition)) {                                                     \
            failures++;                                                         \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #condition); \
            fprintf(stderr, __VA_ARGS__);                                       \
            fprintf(stderr, "\n");                                              \
        }                                                                       \
    } while (0)

static double seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static int serves(const Layoutd__V1__HelloReply *hello, const char *name) {
    for (size_t i = 0; i < hello->n_features; i++)
        if (strcmp(hello->features[i], name) == 0) return 1;
    return 0;
}

static Layoutd__V1__Envelope layout_envelope(Layoutd__V1__LayoutRequest *request, const char *text, float width) {
    Layoutd__V1__LayoutRequest blank = LAYOUTD__V1__LAYOUT_REQUEST__INIT;
    *request = blank;
    request->text = (char *)text;
    request->width = width;
    Layoutd__V1__Envelope envelope = LAYOUTD__V1__ENVELOPE__INIT;
    envelope.body_case = LAYOUTD__V1__ENVELOPE__BODY_LAYOUT;
    envelope.layout = request;
    return envelope;
}

static void test_daemon(const char *socket_path) {
    layoutd_client *client = NULL;
    layoutd_status status = layoutd_connect(socket_path, 10000, &client);
    CHECK(status == LAYOUTD_OK, "connect: %s", layoutd_last_error(client));
    if (status != LAYOUTD_OK) { layoutd_close(client); return; }
    const Layoutd__V1__HelloReply *daemon = layoutd_daemon(client);
    CHECK(daemon->protocol_version == LAYOUTD_PROTOCOL_VERSION, "protocol %u", daemon->protocol_version);
    CHECK(serves(daemon, "layout") && serves(daemon, "render") && serves(daemon, "tag_hit"), "features listed");

    /* The README's call. */
    Layoutd__V1__Envelope *reply = NULL;
    status = layoutd_layout_text(client, "Hello from C, \xd9\x85\xd8\xb1\xd8\xad\xd8\xa8\xd8\xa7", 240, &reply);
    CHECK(status == LAYOUTD_OK && reply->layout_reply->n_lines >= 1 && reply->layout_reply->n_runs >= 1, "layout: %s",
          layoutd_last_error(client));
    layoutd_free_reply(reply);

    /* A refusal: the daemon's code, field and message, and the connection still good. */
    status = layoutd_layout_text(client, "x", -1, &reply);
    CHECK(status == LAYOUTD_ERR_SERVER, "negative width: %s", layoutd_status_name(status));
    CHECK(reply && reply->body_case == LAYOUTD__V1__ENVELOPE__BODY_ERROR &&
              reply->error->code == LAYOUTD__V1__ERROR__CODE__INVALID_ARGUMENT && strcmp(reply->error->field, "layout.width") == 0,
          "the error reply");
    CHECK(strncmp(layoutd_last_error(client), "INVALID_ARGUMENT layout.width: ", 31) == 0, "%s", layoutd_last_error(client));
    layoutd_free_reply(reply);

    /* Pipelining: 60 requests out, their replies taken in reverse order, each its own. */
    enum { COUNT = 60 };
    const char *text = "The quick brown fox jumps over the lazy dog, again and again and again.";
    uint64_t ids[COUNT];
    float widths[COUNT];
    for (int i = 0; i < COUNT; i++) {
        Layoutd__V1__LayoutRequest request;
        widths[i] = 60.0f + 4.0f * (float)i;
        Layoutd__V1__Envelope envelope = layout_envelope(&request, text, widths[i]);
        status = layoutd_send(client, &envelope, &ids[i]);
        CHECK(status == LAYOUTD_OK, "send %d: %s", i, layoutd_last_error(client));
    }
    for (int i = COUNT - 1; i >= 0; i--) {
        status = layoutd_receive(client, ids[i], &reply);
        CHECK(status == LAYOUTD_OK && reply->request_id == ids[i], "receive %d: %s", i, layoutd_last_error(client));
        if (status == LAYOUTD_OK) {
            Layoutd__V1__Envelope *single = NULL;
            Layoutd__V1__LayoutRequest request;
            Layoutd__V1__Envelope envelope = layout_envelope(&request, text, widths[i]);
            CHECK(layoutd_call(client, &envelope, &single) == LAYOUTD_OK, "single %d", i);
            CHECK(single && single->layout_reply->n_lines == reply->layout_reply->n_lines &&
                      single->layout_reply->width == reply->layout_reply->width,
                  "pipelined reply %d differs from a single call", i);
            layoutd_free_reply(single);
        }
        layoutd_free_reply(reply);
    }
    CHECK(layoutd_receive(client, 999999, &reply) == LAYOUTD_ERR_ARGUMENT, "an id never sent");

    /* Every other request. */
    Layoutd__V1__FontsRequest fonts = LAYOUTD__V1__FONTS_REQUEST__INIT;
    Layoutd__V1__Envelope envelope = LAYOUTD__V1__ENVELOPE__INIT;
    envelope.body_case = LAYOUTD__V1__ENVELOPE__BODY_FONTS;
    envelope.fonts = &fonts;
    CHECK(layoutd_call(client, &envelope, &reply) == LAYOUTD_OK && reply->fonts_reply->n_faces > 0, "fonts");
    layoutd_free_reply(reply);

    Layoutd__V1__JustifyRequest justify = LAYOUTD__V1__JUSTIFY_REQUEST__INIT;
    justify.text = "Type\nMode";
    justify.width = 300;
    Layoutd__V1__Envelope justify_envelope = LAYOUTD__V1__ENVELOPE__INIT;
    justify_envelope.body_case = LAYOUTD__V1__ENVELOPE__BODY_JUSTIFY;
    justify_envelope.justify = &justify;
    CHECK(layoutd_call(client, &justify_envelope, &reply) == LAYOUTD_OK && reply->justify_reply->n_lines == 2, "justify: %s",
          layoutd_last_error(client));
    layoutd_free_reply(reply);

    Layoutd__V1__LayoutRequest picture_layout;
    Layoutd__V1__Envelope unused = layout_envelope(&picture_layout, "Hi", 100);
    (void)unused;
    Layoutd__V1__RenderRequest render = LAYOUTD__V1__RENDER_REQUEST__INIT;
    render.source_case = LAYOUTD__V1__RENDER_REQUEST__SOURCE_LAYOUT;
    render.layout = &picture_layout;
    Layoutd__V1__Envelope render_envelope = LAYOUTD__V1__ENVELOPE__INIT;
    render_envelope.body_case = LAYOUTD__V1__ENVELOPE__BODY_RENDER;
    render_envelope.render = &render;
    CHECK(layoutd_call(client, &render_envelope, &reply) == LAYOUTD_OK && reply->render_reply->image.len > 8 &&
              memcmp(reply->render_reply->image.data, "\x89PNG", 4) == 0,
          "render: %s", layoutd_last_error(client));
    layoutd_free_reply(reply);

    Layoutd__V1__StatsRequest stats = LAYOUTD__V1__STATS_REQUEST__INIT;
    Layoutd__V1__Envelope stats_envelope = LAYOUTD__V1__ENVELOPE__INIT;
    stats_envelope.body_case = LAYOUTD__V1__ENVELOPE__BODY_STATS;
    stats_envelope.stats = &stats;
    CHECK(layoutd_call(client, &stats_envelope, &reply) == LAYOUTD_OK && reply->stats_reply->requests_served > 0, "stats");
    layoutd_free_reply(reply);

    Layoutd__V1__Envelope empty = LAYOUTD__V1__ENVELOPE__INIT;
    CHECK(layoutd_call(client, &empty, &reply) == LAYOUTD_ERR_ARGUMENT, "an envelope without a body");
    layoutd_close(client);
}

/* A child process that accepts one connection at `path` and answers hello as told (or, with
 * `silent`, nothing); it counts the frames it reads into the file descriptor `report`. */
static pid_t stand_in(const char *path, const char *version, uint32_t protocol, int silent, int report) {
    int listener = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    snprintf(address.sun_path, sizeof address.sun_path, "%s", path);
    unlink(path);
    if (bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 1) != 0) {
        perror("stand-in");
        exit(2);
    }
    pid_t child = fork();
    if (child != 0) {
        close(listener);
        return child;
    }
    int connection = accept(listener, NULL, NULL);
    int frames = 0;
    for (;;) {
        uint8_t header[4];
        if (recv(connection, header, 4, MSG_WAITALL) != 4) break;
        uint32_t length = ((uint32_t)header[0] << 24) | ((uint32_t)header[1] << 16) | ((uint32_t)header[2] << 8) | header[3];
        uint8_t *body = malloc(length ? length : 1);
        if (recv(connection, body, length, MSG_WAITALL) != (ssize_t)length) break;
        frames++;
        Layoutd__V1__Envelope *request = layoutd__v1__envelope__unpack(NULL, length, body);
        free(body);
        if (!silent && request && request->body_case == LAYOUTD__V1__ENVELOPE__BODY_HELLO) {
            char *features[] = {"hello", "layout"};
            Layoutd__V1__HelloReply hello = LAYOUTD__V1__HELLO_REPLY__INIT;
            hello.server_version = (char *)version;
            hello.protocol_version = protocol;
            hello.n_features = 2;
            hello.features = features;
            Layoutd__V1__Envelope reply = LAYOUTD__V1__ENVELOPE__INIT;
            reply.request_id = request->request_id;
            reply.body_case = LAYOUTD__V1__ENVELOPE__BODY_HELLO_REPLY;
            reply.hello_reply = &hello;
            size_t frame_length = 0;
            uint8_t *frame = layoutd_frame(&reply, &frame_length);
            if (send(connection, frame, frame_length, MSG_NOSIGNAL) < 0) break;
            free(frame);
        }
        layoutd__v1__envelope__free_unpacked(request, NULL);
    }
    if (write(report, &frames, sizeof frames) != sizeof frames) _exit(3);
    _exit(0);
}

static void test_stand_ins(void) {
    char path[108];
    snprintf(path, sizeof path, "/tmp/layoutd-c-standin-%d.sock", (int)getpid());
    int report[2];
    if (pipe(report) != 0) exit(2);

    /* An older daemon: a request it does not list is refused here, naming its version. */
    pid_t child = stand_in(path, "0.1.0", 1, 0, report[1]);
    layoutd_client *client = NULL;
    CHECK(layoutd_connect(path, 5000, &client) == LAYOUTD_OK, "connect to the old stand-in: %s", layoutd_last_error(client));
    Layoutd__V1__RenderRequest render = LAYOUTD__V1__RENDER_REQUEST__INIT;
    Layoutd__V1__Envelope envelope = LAYOUTD__V1__ENVELOPE__INIT;
    envelope.body_case = LAYOUTD__V1__ENVELOPE__BODY_RENDER;
    envelope.render = &render;
    Layoutd__V1__Envelope *reply = NULL;
    CHECK(layoutd_call(client, &envelope, &reply) == LAYOUTD_ERR_UNSUPPORTED, "render to an old daemon");
    CHECK(strstr(layoutd_last_error(client), "layoutd 0.1.0 does not serve render requests") != NULL, "%s",
          layoutd_last_error(client));
    layoutd_close(client);
    int frames = 0;
    CHECK(read(report[0], &frames, sizeof frames) == sizeof frames && frames == 1, "frames sent: %d (the hello only)", frames);
    waitpid(child, NULL, 0);

    /* Another protocol version: refused on connect. */
    child = stand_in(path, "9.0.0", 2, 0, report[1]);
    CHECK(layoutd_connect(path, 5000, &client) == LAYOUTD_ERR_UNSUPPORTED, "protocol 2");
    CHECK(strstr(layoutd_last_error(client), "speaks protocol 2") != NULL, "%s", layoutd_last_error(client));
    layoutd_close(client);
    CHECK(read(report[0], &frames, sizeof frames) == sizeof frames, "report");
    waitpid(child, NULL, 0);

    /* A daemon that never answers: the timeout holds. */
    child = stand_in(path, "0.3.0", 1, 1, report[1]);
    double start = seconds();
    CHECK(layoutd_connect(path, 300, &client) == LAYOUTD_ERR_TIMEOUT, "silent daemon: %s", layoutd_last_error(client));
    double took = seconds() - start;
    CHECK(took >= 0.29 && took < 5, "the timeout took %.2f s", took);
    layoutd_close(client);
    CHECK(read(report[0], &frames, sizeof frames) == sizeof frames, "report");
    waitpid(child, NULL, 0);
    unlink(path);

    /* No daemon at all. */
    CHECK(layoutd_connect("/tmp/layoutd-c-nothing-here.sock", 1000, &client) == LAYOUTD_ERR_UNREACHABLE, "no daemon");
    CHECK(strstr(layoutd_last_error(client), "cannot connect to layoutd at /tmp/layoutd-c-nothing-here.sock") != NULL, "%s",
          layoutd_last_error(client));
    layoutd_close(client);
    close(report[0]);
    close(report[1]);
}

int main(int argc, char **argv) {
    if (argc != 2 || !argv[1][0]) {
        fprintf(stderr, "usage: client-test SOCKET (a running layoutd)\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    test_daemon(argv[1]);
    test_stand_ins();
    if (failures) fprintf(stderr, "%d failures\n", failures);
    else printf("ok: liblayoutd-client against layoutd and its stand-ins\n");
    return failures ? 1 : 0;
}
