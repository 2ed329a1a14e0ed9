/* liblayoutd-client's tests, run by `make check` under AddressSanitizer and UBSan against the
 * real daemon at argv[1], and against stand-ins for daemons this build is not (older, of
 * another protocol version, silent), served by a child process.
 *
 *   client-test SOCKET
 */
#define _GNU_SOURCE
#include <layoutd/client.h>
#include <layoutd/v1/documents.pb-c.h>
#include <layoutd/v1/service.pb-c.h>
#include <layoutd/v1/typemode.pb-c.h>

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

/* The options calls build the request one would build by hand, and errors come in parts. */
static void test_options_and_error_details(const char *socket_path) {
    layoutd_client *client = NULL;
    if (layoutd_connect(socket_path, 10000, &client) != LAYOUTD_OK) {
        CHECK(0, "connect: %s", layoutd_last_error(client));
        layoutd_close(client);
        return;
    }
    const char *text = "The quick brown fox jumps over the lazy dog, again and again and again.";
    layoutd_layout_options options = LAYOUTD_LAYOUT_OPTIONS_INIT;
    options.family = "DejaVu Serif";
    options.size = 20;
    options.weight = 700;
    options.alignment = LAYOUTD__V1__ALIGNMENT__ALIGNMENT_CENTER;
    options.max_lines = 2;
    options.truncation_token = "+";
    Layoutd__V1__Envelope *reply = NULL, *by_hand = NULL;
    CHECK(layoutd_layout(client, text, 180, &options, &reply) == LAYOUTD_OK, "layout with options: %s", layoutd_last_error(client));
    Layoutd__V1__Style style = LAYOUTD__V1__STYLE__INIT;
    style.family = "DejaVu Serif";
    style.size = 20;
    style.weight = 700;
    Layoutd__V1__Truncation truncation = LAYOUTD__V1__TRUNCATION__INIT;
    truncation.token = "+";
    Layoutd__V1__LayoutRequest request;
    Layoutd__V1__Envelope envelope = layout_envelope(&request, text, 180);
    request.default_style = &style;
    request.alignment = LAYOUTD__V1__ALIGNMENT__ALIGNMENT_CENTER;
    request.max_lines = 2;
    request.truncation = &truncation;
    CHECK(layoutd_call(client, &envelope, &by_hand) == LAYOUTD_OK, "by hand: %s", layoutd_last_error(client));
    if (reply && by_hand) {
        Layoutd__V1__LayoutReply *a = reply->layout_reply, *b = by_hand->layout_reply;
        CHECK(a->n_lines == 2 && a->n_lines == b->n_lines && a->width == b->width && a->height == b->height &&
                  a->n_runs == b->n_runs && a->runs[0]->n_glyph_ids == b->runs[0]->n_glyph_ids &&
                  a->lines[0]->baseline_origin->x == b->lines[0]->baseline_origin->x && a->lines[1]->truncated,
              "options and the hand-built request differ");
        CHECK(a->height > 40, "size 20 on two lines: height %g", (double)a->height);
    }
    layoutd_free_reply(reply);
    layoutd_free_reply(by_hand);

    /* Intrinsic metrics: the widths, and each run's bounds from its font. */
    options = (layoutd_layout_options)LAYOUTD_LAYOUT_OPTIONS_INIT;
    options.size = 20;
    options.intrinsic_metrics = 1;
    CHECK(layoutd_layout(client, "Widths before a box", 60, &options, &reply) == LAYOUTD_OK, "metrics: %s", layoutd_last_error(client));
    if (reply) {
        Layoutd__V1__LayoutReply *measured = reply->layout_reply;
        CHECK(measured->min_content_width > 40 && measured->max_content_width > measured->min_content_width &&
                  measured->runs[0]->ascent > 10 && measured->runs[0]->descent > 0,
              "metrics: %g %g %g", (double)measured->min_content_width, (double)measured->max_content_width,
              (double)measured->runs[0]->ascent);
    }
    layoutd_free_reply(reply);

    /* A style's own fallback families and script: ☕ from the listed DejaVu Sans between two
     * Noto Sans runs; an unknown family and a script that is not four letters refused by name. */
    static const char *const listed[] = {"DejaVu Sans"};
    options = (layoutd_layout_options)LAYOUTD_LAYOUT_OPTIONS_INIT;
    options.family = "Noto Sans";
    options.fallback_families = listed;
    options.fallback_family_count = 1;
    CHECK(layoutd_layout(client, "Tea \xE2\x98\x95 now", 300, &options, &reply) == LAYOUTD_OK, "fallback families: %s",
          layoutd_last_error(client));
    if (reply) CHECK(reply->layout_reply->n_runs == 3, "three runs, the cup from DejaVu Sans: %zu", reply->layout_reply->n_runs);
    layoutd_free_reply(reply);
    static const char *const unknown[] = {"DejaVu Sans", "No Such Family"};
    options.fallback_families = unknown;
    options.fallback_family_count = 2;
    CHECK(layoutd_layout(client, "Tea", 300, &options, &reply) == LAYOUTD_ERR_SERVER, "an unknown fallback family is refused");
    layoutd_error missing = layoutd_last_error_details(client);
    CHECK(missing.code == LAYOUTD__V1__ERROR__CODE__NOT_FOUND && strcmp(missing.field, "layout.default_style.fallback_families[1]") == 0,
          "the unknown family named: %s", layoutd_last_error(client));
    layoutd_free_reply(reply);
    options.fallback_family_count = 0;
    options.script = "Latin";
    CHECK(layoutd_layout(client, "Tea", 300, &options, &reply) == LAYOUTD_ERR_SERVER, "a five-letter script is refused");
    CHECK(strcmp(layoutd_last_error_details(client).field, "layout.default_style.script") == 0, "script named: %s", layoutd_last_error(client));
    layoutd_free_reply(reply);

    /* Synthesised faces: italic Han (Noto Sans CJK has no italic) is made oblique, the reply
     * says by how much; with synthesis off it is not. */
    options = (layoutd_layout_options)LAYOUTD_LAYOUT_OPTIONS_INIT;
    options.family = "Noto Sans CJK SC";
    options.slant = LAYOUTD__V1__SLANT__SLANT_ITALIC;
    CHECK(layoutd_layout(client, "\xE6\xB1\x89\xE5\xAD\x97", 300, &options, &reply) == LAYOUTD_OK, "italic Han: %s", layoutd_last_error(client));
    if (reply) CHECK(reply->layout_reply->n_runs == 1 && reply->layout_reply->runs[0]->synthetic_slant > 0.21f,
                     "an oblique was made: %g", reply->layout_reply->n_runs ? (double)reply->layout_reply->runs[0]->synthetic_slant : -1.0);
    layoutd_free_reply(reply);
    options.font_synthesis = LAYOUTD__V1__FONT_SYNTHESIS__FONT_SYNTHESIS_NONE;
    CHECK(layoutd_layout(client, "\xE6\xB1\x89\xE5\xAD\x97", 300, &options, &reply) == LAYOUTD_OK, "no synthesis: %s", layoutd_last_error(client));
    if (reply) CHECK(reply->layout_reply->n_runs == 1 && reply->layout_reply->runs[0]->synthetic_slant == 0.0f, "nothing made");
    layoutd_free_reply(reply);

    /* Emphasis marks: a sesame over each of the four characters but the comma, in a run beside
     * the text's, half its size; the line grows to hold them. */
    options = (layoutd_layout_options)LAYOUTD_LAYOUT_OPTIONS_INIT;
    options.family = "Noto Sans CJK JP";
    options.size = 24;
    CHECK(layoutd_layout(client, "\xE5\xBC\xB7\xE8\xAA\xBF\xE3\x80\x81\xE6\x96\x87\xE7\xAB\xA0", 300, &options, &reply) == LAYOUTD_OK,
          "unmarked: %s", layoutd_last_error(client));
    float unmarked_ascent = reply && reply->layout_reply->n_lines ? reply->layout_reply->lines[0]->ascent : 0;
    layoutd_free_reply(reply);
    Layoutd__V1__EmphasisMarks sesame = LAYOUTD__V1__EMPHASIS_MARKS__INIT;
    sesame.shape = LAYOUTD__V1__EMPHASIS_SHAPE__EMPHASIS_SHAPE_SESAME;
    options.emphasis = &sesame;
    CHECK(layoutd_layout(client, "\xE5\xBC\xB7\xE8\xAA\xBF\xE3\x80\x81\xE6\x96\x87\xE7\xAB\xA0", 300, &options, &reply) == LAYOUTD_OK,
          "marked: %s", layoutd_last_error(client));
    if (reply) {
        Layoutd__V1__LayoutReply *marked = reply->layout_reply;
        CHECK(marked->n_emphasis_marks == 1 && marked->emphasis_marks[0]->n_clusters == 4 && marked->emphasis_marks[0]->clusters[2] == 3,
              "four marks, none on the comma: %zu runs", marked->n_emphasis_marks);
        CHECK(marked->n_emphasis_marks == 1 && marked->emphasis_marks[0]->size == 12.0f, "half the text's size");
        CHECK(marked->n_lines == 1 && marked->lines[0]->ascent > unmarked_ascent, "the line holds them: %g over %g",
              marked->n_lines ? (double)marked->lines[0]->ascent : -1.0, (double)unmarked_ascent);
    }
    layoutd_free_reply(reply);

    /* Ruby: かんじ over 漢字, in the reply's ruby_runs at half the text's size. */
    options.emphasis = NULL;
    Layoutd__V1__Range base = LAYOUTD__V1__RANGE__INIT;
    base.start = 0;
    base.length = 2;
    Layoutd__V1__Ruby kanji = LAYOUTD__V1__RUBY__INIT;
    kanji.range = &base;
    kanji.text = "\xE3\x81\x8B\xE3\x82\x93\xE3\x81\x98";
    Layoutd__V1__Ruby *ruby[] = {&kanji};
    options.ruby = ruby;
    options.ruby_count = 1;
    CHECK(layoutd_layout(client, "\xE6\xBC\xA2\xE5\xAD\x97", 300, &options, &reply) == LAYOUTD_OK, "ruby: %s",
          layoutd_last_error(client));
    if (reply) {
        Layoutd__V1__LayoutReply *annotated = reply->layout_reply;
        CHECK(annotated->n_ruby_runs == 1 && annotated->ruby_runs[0]->n_glyph_ids == 3 && annotated->ruby_runs[0]->size == 12.0f,
              "three kana at half the size: %zu runs", annotated->n_ruby_runs);
    }
    layoutd_free_reply(reply);
    options.ruby = NULL;
    options.ruby_count = 0;

    /* Glyph flags: one per glyph when asked, "office"'s ligature among those flagged. */
    options.glyph_flags = 1;
    CHECK(layoutd_layout(client, "office", 300, &options, &reply) == LAYOUTD_OK, "glyph flags: %s", layoutd_last_error(client));
    if (reply) {
        Layoutd__V1__LayoutReply *flagged = reply->layout_reply;
        CHECK(flagged->n_runs >= 1 && flagged->runs[0]->n_glyph_flags == flagged->runs[0]->n_glyph_ids,
              "a flag per glyph: %zu runs", flagged->n_runs);
    }
    layoutd_free_reply(reply);
    options.glyph_flags = 0;

    /* An optical size reaches the style: one the daemon takes, one it refuses by name. */
    options.optical_size = 24;
    CHECK(layoutd_layout(client, "Optical", 300, &options, &reply) == LAYOUTD_OK, "optical size: %s", layoutd_last_error(client));
    layoutd_free_reply(reply);
    options.optical_size = -1;
    CHECK(layoutd_layout(client, "Optical", 300, &options, &reply) == LAYOUTD_ERR_SERVER
              && strstr(layoutd_last_error(client), "optical_size") != NULL,
          "a negative optical size: %s", layoutd_last_error(client));
    layoutd_free_reply(reply);
    options.optical_size = 0;

    /* A request past the daemon's frame limit (4 MiB): the daemon's answer naming the limit, not
     * the broken pipe the write met; the next call connects again. */
    size_t big = 5u << 20;
    char *huge = malloc(big + 1);
    CHECK(huge != NULL, "memory for a large text");
    if (huge) {
        memset(huge, 'a', big);
        huge[big] = 0;
        CHECK(layoutd_layout_text(client, huge, 100, &reply) == LAYOUTD_ERR_SERVER, "a frame past the limit: %s",
              layoutd_last_error(client));
        layoutd_error refused = layoutd_last_error_details(client);
        CHECK(refused.code == LAYOUTD__V1__ERROR__CODE__RESOURCE_EXHAUSTED && strcmp(refused.field, "frame") == 0,
              "the daemon's answer: %s", layoutd_last_error(client));
        layoutd_free_reply(reply);
        free(huge);
        CHECK(layoutd_layout_text(client, "after", 100, &reply) == LAYOUTD_OK, "after: %s", layoutd_last_error(client));
        layoutd_free_reply(reply);
    }

    /* Errors: status, code, code name, field and message apart. */
    options = (layoutd_layout_options)LAYOUTD_LAYOUT_OPTIONS_INIT;
    options.family = "No Such Family";
    CHECK(layoutd_layout(client, "x", 100, &options, &reply) == LAYOUTD_ERR_SERVER, "an unknown family");
    layoutd_error error = layoutd_last_error_details(client);
    CHECK(error.status == LAYOUTD_ERR_SERVER && error.code == LAYOUTD__V1__ERROR__CODE__NOT_FOUND &&
              strcmp(error.code_name, "NOT_FOUND") == 0 && strcmp(error.field, "layout.default_style.family") == 0 &&
              strstr(error.message, "No Such Family") != NULL,
          "details: %d %s %s: %s", error.code, error.code_name, error.field, error.message);
    layoutd_free_reply(reply);
    CHECK(layoutd_layout(client, "x", 100, NULL, &reply) == LAYOUTD_OK, "defaults");
    error = layoutd_last_error_details(client);
    CHECK(error.status == LAYOUTD_OK && error.code == 0 && error.field[0] == 0 && error.message[0] == 0, "cleared on success");
    layoutd_free_reply(reply);
    layoutd_layout_options too_small = {0};
    CHECK(layoutd_layout(client, "x", 100, &too_small, &reply) == LAYOUTD_ERR_ARGUMENT && reply == NULL, "struct_size 0");
    CHECK(strstr(layoutd_last_error(client), "LAYOUTD_LAYOUT_OPTIONS_INIT") != NULL, "%s", layoutd_last_error(client));
    CHECK(strcmp(layoutd_last_error_details(client).code_name, "ARGUMENT") == 0, "local code name");

    /* Type Mode with options. */
    layoutd_justify_options justify = LAYOUTD_JUSTIFY_OPTIONS_INIT;
    justify.preset = "modern";
    justify.min_size = 20;
    justify.max_size = 40;
    CHECK(layoutd_justify(client, "Type\nMode is\nhere", 300, &justify, &reply) == LAYOUTD_OK, "justify: %s",
          layoutd_last_error(client));
    if (reply) {
        Layoutd__V1__JustifyReply *j = reply->justify_reply;
        CHECK(j->n_lines == 3 && j->n_line_sizes == 3, "three lines: %zu", j->n_lines);
        for (size_t i = 0; i < j->n_line_sizes; i++)
            CHECK(j->line_sizes[i] >= 20 && j->line_sizes[i] <= 40, "line %zu at %g", i, (double)j->line_sizes[i]);
    }
    layoutd_free_reply(reply);
    justify.max_size = -1;
    CHECK(layoutd_justify(client, "x", 300, &justify, &reply) == LAYOUTD_ERR_SERVER, "a bad size");
    CHECK(strcmp(layoutd_last_error_details(client).field, "justify.max_size") == 0, "%s", layoutd_last_error(client));
    layoutd_free_reply(reply);
    layoutd_close(client);
}

/* A daemon of the test's own, from `binary`, on `path`: started, and waited for. */
static pid_t start_daemon(const char *binary, const char *path) {
    pid_t child = fork();
    if (child == 0) {
        execl(binary, binary, "--socket", path, "--config", "/dev/null", "--log-level", "error", (char *)NULL);
        _exit(127);
    }
    for (int i = 0; i < 1500; i++) {
        int probe = socket(AF_UNIX, SOCK_STREAM, 0);
        struct sockaddr_un address = {.sun_family = AF_UNIX};
        snprintf(address.sun_path, sizeof address.sun_path, "%s", path);
        int connected = connect(probe, (struct sockaddr *)&address, sizeof address) == 0;
        close(probe);
        if (connected) return child;
        usleep(20000);
    }
    return child;
}

static void stop_daemon(pid_t child, int signal_number) {
    kill(child, signal_number);
    waitpid(child, NULL, 0);
}

static Layoutd__V1__Envelope *edit_at_start(layoutd_client *client, uint64_t document, layoutd_status *status) {
    Layoutd__V1__Range range = LAYOUTD__V1__RANGE__INIT;
    Layoutd__V1__TextReplacement replace = LAYOUTD__V1__TEXT_REPLACEMENT__INIT;
    replace.range = &range;
    replace.text = "x";
    Layoutd__V1__DocumentEdit edit = LAYOUTD__V1__DOCUMENT_EDIT__INIT;
    edit.edit_case = LAYOUTD__V1__DOCUMENT_EDIT__EDIT_REPLACE;
    edit.replace = &replace;
    Layoutd__V1__DocumentEdit *edits[] = {&edit};
    Layoutd__V1__EditDocumentRequest request = LAYOUTD__V1__EDIT_DOCUMENT_REQUEST__INIT;
    request.document = document;
    request.n_edits = 1;
    request.edits = edits;
    Layoutd__V1__Envelope envelope = LAYOUTD__V1__ENVELOPE__INIT;
    envelope.body_case = LAYOUTD__V1__ENVELOPE__BODY_EDIT_DOCUMENT;
    envelope.edit_document = &request;
    Layoutd__V1__Envelope *reply = NULL;
    *status = layoutd_call(client, &envelope, &reply);
    return reply;
}

static uint64_t open_document(layoutd_client *client) {
    Layoutd__V1__LayoutRequest layout;
    Layoutd__V1__Envelope unused = layout_envelope(&layout, "Some text.", 300);
    (void)unused;
    Layoutd__V1__OpenDocumentRequest request = LAYOUTD__V1__OPEN_DOCUMENT_REQUEST__INIT;
    request.layout = &layout;
    Layoutd__V1__Envelope envelope = LAYOUTD__V1__ENVELOPE__INIT;
    envelope.body_case = LAYOUTD__V1__ENVELOPE__BODY_OPEN_DOCUMENT;
    envelope.open_document = &request;
    Layoutd__V1__Envelope *reply = NULL;
    layoutd_status status = layoutd_call(client, &envelope, &reply);
    CHECK(status == LAYOUTD_OK, "open_document: %s", layoutd_last_error(client));
    uint64_t document = status == LAYOUTD_OK ? reply->document_reply->document : 0;
    layoutd_free_reply(reply);
    return document;
}

/* The client outlives the daemon: restarted (SIGTERM) or crashed (SIGKILL), the next call
 * connects again; a pipelined request lost with the connection fails as lost; a document on
 * the lost connection is gone; no daemon within the wait is unreachable. */
static void test_restarts(const char *binary) {
    char path[108];
    snprintf(path, sizeof path, "/tmp/layoutd-c-restart-%d.sock", (int)getpid());
    pid_t daemon = start_daemon(binary, path);
    layoutd_client *client = NULL;
    CHECK(layoutd_connect(path, 10000, &client) == LAYOUTD_OK, "connect: %s", layoutd_last_error(client));
    layoutd_set_reconnect(client, 30000, 1);
    const char *text = "The quick brown fox jumps over the lazy dog.";
    Layoutd__V1__Envelope *reply = NULL;
    CHECK(layoutd_layout(client, text, 150, NULL, &reply) == LAYOUTD_OK, "before");
    size_t lines = reply ? reply->layout_reply->n_lines : 0;
    layoutd_free_reply(reply);
    for (int crash = 0; crash < 2; crash++) {
        stop_daemon(daemon, crash ? SIGKILL : SIGTERM);
        daemon = start_daemon(binary, path);
        CHECK(layoutd_layout(client, text, 150, NULL, &reply) == LAYOUTD_OK && reply->layout_reply->n_lines == lines,
              "after a %s: %s", crash ? "crash" : "restart", layoutd_last_error(client));
        layoutd_free_reply(reply);
    }

    /* A request sent, then the daemon gone: its receive fails as lost; the next call works. */
    Layoutd__V1__LayoutRequest request;
    Layoutd__V1__Envelope envelope = layout_envelope(&request, text, 150);
    uint64_t id = 0;
    CHECK(layoutd_send(client, &envelope, &id) == LAYOUTD_OK, "send");
    usleep(200000); /* answered and waiting in the socket */
    stop_daemon(daemon, SIGKILL);
    daemon = start_daemon(binary, path);
    CHECK(layoutd_receive(client, id, &reply) == LAYOUTD_OK, "a reply already sent is still read: %s", layoutd_last_error(client));
    layoutd_free_reply(reply);
    CHECK(layoutd_send(client, &envelope, &id) == LAYOUTD_OK, "send again");
    stop_daemon(daemon, SIGKILL);
    daemon = start_daemon(binary, path);
    layoutd_status status = layoutd_receive(client, id, &reply);
    CHECK(status == LAYOUTD_OK || status == LAYOUTD_ERR_CONNECTION_LOST, "lost or read: %s", layoutd_status_name(status));
    layoutd_free_reply(reply);
    CHECK(layoutd_layout(client, text, 150, NULL, &reply) == LAYOUTD_OK, "and on: %s", layoutd_last_error(client));
    layoutd_free_reply(reply);

    /* Documents die with their connection. */
    uint64_t document = open_document(client);
    reply = edit_at_start(client, document, &status);
    CHECK(status == LAYOUTD_OK, "an edit: %s", layoutd_last_error(client));
    layoutd_free_reply(reply);
    stop_daemon(daemon, SIGTERM);
    daemon = start_daemon(binary, path);
    reply = edit_at_start(client, document, &status);
    CHECK(status == LAYOUTD_ERR_DOCUMENT_GONE && reply == NULL, "an edit after the restart: %s", layoutd_status_name(status));
    layoutd_error error = layoutd_last_error_details(client);
    CHECK(strcmp(error.code_name, "DOCUMENT_GONE") == 0 && strstr(error.message, "open it again") != NULL, "%s", error.message);
    uint64_t again = open_document(client);
    reply = edit_at_start(client, again, &status);
    CHECK(status == LAYOUTD_OK, "an edit on the document opened again: %s", layoutd_last_error(client));
    layoutd_free_reply(reply);

    /* No daemon within the wait: unreachable; back with the daemon. */
    stop_daemon(daemon, SIGTERM);
    layoutd_set_reconnect(client, 200, 1);
    CHECK(layoutd_layout(client, text, 150, NULL, &reply) == LAYOUTD_ERR_UNREACHABLE, "no daemon: %s", layoutd_last_error(client));
    daemon = start_daemon(binary, path);
    CHECK(layoutd_layout(client, text, 150, NULL, &reply) == LAYOUTD_OK, "back: %s", layoutd_last_error(client));
    layoutd_free_reply(reply);
    layoutd_close(client);
    stop_daemon(daemon, SIGTERM);
    unlink(path);
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

/* What a batch's callback saw: each item's index, lines and error code, in order. */
typedef struct {
    size_t seen;
    int out_of_order;
    size_t lines[64];
    int codes[64];
    size_t stop_after;
} batch_record;

static int record_item(void *context, uint32_t index, const Layoutd__V1__LayoutReply *layout, const Layoutd__V1__Error *error) {
    batch_record *record = context;
    if (index != record->seen) record->out_of_order = 1;
    if (record->seen < 64) {
        record->lines[record->seen] = layout ? layout->n_lines : 0;
        record->codes[record->seen] = error ? (int)error->code : 0;
    }
    record->seen++;
    return record->stop_after && record->seen >= record->stop_after;
}

static void test_batch(const char *socket_path) {
    layoutd_client *client = NULL;
    if (layoutd_connect(socket_path, 10000, &client) != LAYOUTD_OK) {
        CHECK(0, "connect: %s", layoutd_last_error(client));
        layoutd_close(client);
        return;
    }
    CHECK(serves(layoutd_daemon(client), "batch_layout") && layoutd_daemon(client)->max_batch_items > 0, "no batch_layout");
    const char *texts[] = {"First caption", "A second caption, long enough for two lines at this width", "", "مرحبا"};
    layoutd_layout_options options = LAYOUTD_LAYOUT_OPTIONS_INIT;
    options.family = "Noto Sans";
    options.size = 20;
    batch_record record = {0};
    size_t failed = 99;
    layoutd_status status = layoutd_layout_batch(client, texts, 4, 200, &options, record_item, &record, &failed);
    CHECK(status == LAYOUTD_OK, "batch: %s", layoutd_last_error(client));
    CHECK(record.seen == 4 && !record.out_of_order && failed == 0, "items %zu, failed %zu", record.seen, failed);
    for (size_t i = 0; i < 4; i++) {
        Layoutd__V1__Envelope *alone = NULL;
        CHECK(layoutd_layout(client, texts[i], 200, &options, &alone) == LAYOUTD_OK, "layout: %s", layoutd_last_error(client));
        if (alone) CHECK(alone->layout_reply->n_lines == record.lines[i], "text %zu: %zu lines alone, %zu in the batch", i,
                         alone->layout_reply->n_lines, record.lines[i]);
        layoutd_free_reply(alone);
    }
    /* An item that fails is counted and reported in its place; the others are laid out. */
    layoutd_layout_options bad = options;
    bad.line_height_multiple = -2;
    batch_record refused = {0};
    status = layoutd_layout_batch(client, texts, 2, 200, &bad, record_item, &refused, &failed);
    CHECK(status == LAYOUTD_OK && failed == 2 && refused.codes[0] == LAYOUTD__V1__ERROR__CODE__INVALID_ARGUMENT,
          "shared options refused per item: status %d, failed %zu", (int)status, failed);
    /* A batch refused as a whole: no texts. */
    batch_record none = {0};
    status = layoutd_layout_batch(client, texts, 0, 200, &options, record_item, &none, &failed);
    layoutd_error details = layoutd_last_error_details(client);
    CHECK(status == LAYOUTD_ERR_SERVER && strcmp(details.field, "batch_layout.texts") == 0, "empty batch: %s", layoutd_last_error(client));
    /* Stopping early: the rest is cancelled and dropped, and the connection goes on. */
    static const char *many[2000];
    for (size_t i = 0; i < 2000; i++) many[i] = "one of many captions";
    batch_record early = {.stop_after = 5};
    status = layoutd_layout_batch(client, many, 2000, 200, &options, record_item, &early, NULL);
    CHECK(status == LAYOUTD_OK && early.seen >= 5 && !early.out_of_order, "stopped early: %s", layoutd_last_error(client));
    Layoutd__V1__Envelope *after = NULL;
    CHECK(layoutd_layout_text(client, "after the batch", 200, &after) == LAYOUTD_OK && after->layout_reply,
          "after: %s", layoutd_last_error(client));
    layoutd_free_reply(after);
    layoutd_close(client);
}

int main(int argc, char **argv) {
    if (argc < 2 || argc > 3 || !argv[1][0]) {
        fprintf(stderr, "usage: client-test SOCKET [LAYOUTD_BINARY] (a running layoutd; a binary to restart)\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    test_daemon(argv[1]);
    test_options_and_error_details(argv[1]);
    test_batch(argv[1]);
    test_stand_ins();
    if (argc == 3) {
        test_restarts(argv[2]);
        printf("ok: liblayoutd-client outlives restarts and crashes of the daemon\n");
    }
    if (failures) fprintf(stderr, "%d failures\n", failures);
    else printf("ok: liblayoutd-client against layoutd and its stand-ins\n");
    return failures ? 1 : 0;
}
