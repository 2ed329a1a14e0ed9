/* liblayoutd-client: one blocking connection to layoutd (include/layoutd/client.h). */
#define _GNU_SOURCE /* struct ucred, SO_PEERCRED */
#include "layoutd/client.h"

#include <errno.h>
#include <poll.h>
#include <pwd.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* Replies can be much larger than requests (a glyph per character); this bounds them. */
#define MAX_REPLY_BYTES (256u << 20)
/* Replies that came before the one waited for, kept for their own receive. */
#define MAX_KEPT 4096

/* Open documents remembered, to tell a request on one from a lost connection (oldest go first). */
#define MAX_DOCUMENTS 1024

struct layoutd_client {
    int fd;
    int timeout_ms;
    uint64_t next_id;
    char path[sizeof ((struct sockaddr_un *)0)->sun_path];
    /* Each connection is a generation; a request id below first_id was sent on a lost one. */
    uint64_t generation, first_id;
    int reconnect_wait_ms, retries;
    struct { uint64_t document, generation; } documents[MAX_DOCUMENTS];
    size_t n_documents;
    Layoutd__V1__Envelope *hello; /* the greeting's reply, kept for layoutd_daemon */
    Layoutd__V1__Envelope **kept;
    size_t n_kept, kept_capacity;
    uint8_t *buffer; /* bytes received and not yet taken: buffer[start..end) */
    size_t start, end, capacity;
    /* The last failure: its line, and its parts (layoutd_last_error_details). */
    char error[1536];
    layoutd_status error_status;
    int error_code;
    const char *error_code_name;
    char error_field[256];
    char error_message[1024];
};

/* The short name of a failure on this side, as layoutctl prints it: the status's name without
 * its prefix, a lost connection being UNREACHABLE as layoutctl says. */
static const char *short_name(layoutd_status status) {
    if (status == LAYOUTD_OK) return "";
    if (status == LAYOUTD_ERR_CONNECTION_LOST) return "UNREACHABLE";
    return layoutd_status_name(status) + strlen("LAYOUTD_ERR_");
}

static void succeed(layoutd_client *client) {
    client->error[0] = client->error_field[0] = client->error_message[0] = 0;
    client->error_status = LAYOUTD_OK;
    client->error_code = 0;
    client->error_code_name = "";
}

static layoutd_status fail(layoutd_client *client, layoutd_status status, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(client->error_message, sizeof client->error_message, format, arguments);
    va_end(arguments);
    snprintf(client->error, sizeof client->error, "%s", client->error_message);
    client->error_status = status;
    client->error_code = 0;
    client->error_code_name = short_name(status);
    client->error_field[0] = 0;
    return status;
}

const char *layoutd_status_name(layoutd_status status) {
    switch (status) {
    case LAYOUTD_OK: return "LAYOUTD_OK";
    case LAYOUTD_ERR_UNREACHABLE: return "LAYOUTD_ERR_UNREACHABLE";
    case LAYOUTD_ERR_TIMEOUT: return "LAYOUTD_ERR_TIMEOUT";
    case LAYOUTD_ERR_PROTOCOL: return "LAYOUTD_ERR_PROTOCOL";
    case LAYOUTD_ERR_UNSUPPORTED: return "LAYOUTD_ERR_UNSUPPORTED";
    case LAYOUTD_ERR_SERVER: return "LAYOUTD_ERR_SERVER";
    case LAYOUTD_ERR_ARGUMENT: return "LAYOUTD_ERR_ARGUMENT";
    case LAYOUTD_ERR_NOMEM: return "LAYOUTD_ERR_NOMEM";
    case LAYOUTD_ERR_CONNECTION_LOST: return "LAYOUTD_ERR_CONNECTION_LOST";
    case LAYOUTD_ERR_DOCUMENT_GONE: return "LAYOUTD_ERR_DOCUMENT_GONE";
    }
    return "LAYOUTD_ERR_UNKNOWN";
}

uint8_t *layoutd_frame(const Layoutd__V1__Envelope *envelope, size_t *frame_length) {
    size_t body = layoutd__v1__envelope__get_packed_size(envelope);
    uint8_t *frame = malloc(4 + body);
    if (!frame) return NULL;
    frame[0] = (uint8_t)(body >> 24);
    frame[1] = (uint8_t)(body >> 16);
    frame[2] = (uint8_t)(body >> 8);
    frame[3] = (uint8_t)body;
    layoutd__v1__envelope__pack(envelope, frame + 4);
    *frame_length = 4 + body;
    return frame;
}

static int64_t now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* Waits until the socket is ready for `events` or the deadline (-1: none) passes. */
static layoutd_status wait_ready(layoutd_client *client, short events, int64_t deadline) {
    for (;;) {
        int remaining = -1;
        if (deadline >= 0) {
            int64_t left = deadline - now_ms();
            if (left <= 0) return fail(client, LAYOUTD_ERR_TIMEOUT, "no answer from layoutd within %d ms", client->timeout_ms);
            remaining = left > 0x7fffffff ? 0x7fffffff : (int)left;
        }
        struct pollfd ready = {.fd = client->fd, .events = events};
        int got = poll(&ready, 1, remaining);
        if (got > 0) return LAYOUTD_OK;
        if (got < 0 && errno != EINTR) return fail(client, LAYOUTD_ERR_UNREACHABLE, "poll failed: %s", strerror(errno));
    }
}

static int64_t deadline_of(const layoutd_client *client) {
    return client->timeout_ms > 0 ? now_ms() + client->timeout_ms : -1;
}

/* Writes `count` bytes; `*done` says how many went, also on failure. */
static layoutd_status send_all(layoutd_client *client, const uint8_t *bytes, size_t count, int64_t deadline, size_t *written) {
    size_t done = 0;
    *written = 0;
    while (done < count) {
        layoutd_status status = wait_ready(client, POLLOUT, deadline);
        if (status != LAYOUTD_OK) return status;
        ssize_t sent = send(client->fd, bytes + done, count - done, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (sent < 0) {
            if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) continue;
            return fail(client, LAYOUTD_ERR_CONNECTION_LOST, "sending to layoutd failed: %s", strerror(errno));
        }
        done += (size_t)sent;
        *written = done;
    }
    return LAYOUTD_OK;
}

/* Receives until `count` bytes wait in the buffer. */
static layoutd_status fill(layoutd_client *client, size_t count, int64_t deadline) {
    if (client->capacity - client->start < count) {
        size_t waiting = client->end - client->start;
        size_t capacity = client->capacity > count ? client->capacity : count;
        if (capacity < (64u << 10)) capacity = 64u << 10;
        uint8_t *grown = malloc(capacity);
        if (!grown) return fail(client, LAYOUTD_ERR_NOMEM, "out of memory for a reply of %zu bytes", count);
        if (waiting) memcpy(grown, client->buffer + client->start, waiting);
        free(client->buffer);
        client->buffer = grown;
        client->capacity = capacity;
        client->start = 0;
        client->end = waiting;
    }
    while (client->end - client->start < count) {
        layoutd_status status = wait_ready(client, POLLIN, deadline);
        if (status != LAYOUTD_OK) return status;
        ssize_t got = recv(client->fd, client->buffer + client->end, client->capacity - client->end, MSG_DONTWAIT);
        if (got == 0) return fail(client, LAYOUTD_ERR_CONNECTION_LOST, "the daemon closed the connection");
        if (got < 0) {
            if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) continue;
            return fail(client, LAYOUTD_ERR_CONNECTION_LOST, "receiving from layoutd failed: %s", strerror(errno));
        }
        client->end += (size_t)got;
    }
    return LAYOUTD_OK;
}

/* The next reply frame, whatever its id. */
static layoutd_status next_reply(layoutd_client *client, int64_t deadline, Layoutd__V1__Envelope **reply) {
    layoutd_status status = fill(client, 4, deadline);
    if (status != LAYOUTD_OK) return status;
    const uint8_t *header = client->buffer + client->start;
    uint32_t length = ((uint32_t)header[0] << 24) | ((uint32_t)header[1] << 16) | ((uint32_t)header[2] << 8) | header[3];
    if (length > MAX_REPLY_BYTES)
        return fail(client, LAYOUTD_ERR_PROTOCOL, "reply of %u bytes is over the client's limit", length);
    status = fill(client, 4 + (size_t)length, deadline);
    if (status != LAYOUTD_OK) return status;
    *reply = layoutd__v1__envelope__unpack(NULL, length, client->buffer + client->start + 4);
    client->start += 4 + (size_t)length;
    if (!*reply) return fail(client, LAYOUTD_ERR_PROTOCOL, "reply is not an Envelope");
    return LAYOUTD_OK;
}

/* The Envelope field name of a body ("layout", "tag_hit"): the name hello's features use. */
static const char *body_name(Layoutd__V1__Envelope__BodyCase body) {
    const ProtobufCFieldDescriptor *field =
        protobuf_c_message_descriptor_get_field(&layoutd__v1__envelope__descriptor, (unsigned)body);
    return field ? field->name : "unknown";
}

static layoutd_status check_feature(layoutd_client *client, Layoutd__V1__Envelope__BodyCase body) {
    if (!client->hello) return LAYOUTD_OK;
    const Layoutd__V1__HelloReply *daemon = client->hello->hello_reply;
    if (daemon->n_features == 0) return LAYOUTD_OK; /* before 0.3.0: no list; UNIMPLEMENTED explains */
    const char *name = body_name(body);
    for (size_t i = 0; i < daemon->n_features; i++)
        if (strcmp(daemon->features[i], name) == 0) return LAYOUTD_OK;
    return fail(client, LAYOUTD_ERR_UNSUPPORTED, "layoutd %s does not serve %s requests; upgrade the daemon",
                daemon->server_version, name);
}

static void drop_connection(layoutd_client *client) {
    if (client->fd >= 0) close(client->fd);
    client->fd = -1;
}

static layoutd_status open_connection(layoutd_client *client, int patient);

/* The document a request names (edit or close), or 0. */
static uint64_t document_of(const Layoutd__V1__Envelope *request) {
    if (request->body_case == LAYOUTD__V1__ENVELOPE__BODY_EDIT_DOCUMENT && request->edit_document)
        return request->edit_document->document;
    if (request->body_case == LAYOUTD__V1__ENVELOPE__BODY_CLOSE_DOCUMENT && request->close_document)
        return request->close_document->document;
    return 0;
}

static layoutd_status document_gone(layoutd_client *client, uint64_t document) {
    layoutd_status status = fail(client, LAYOUTD_ERR_DOCUMENT_GONE,
                                 "document %llu was open on a connection to layoutd that was lost, so the daemon closed it; "
                                 "open it again", (unsigned long long)document);
    snprintf(client->error_field, sizeof client->error_field, "document");
    return status;
}

/* Whether `document` lived on a connection that is lost: one before this, or this one failed. */
static int on_a_lost_connection(const layoutd_client *client, uint64_t document) {
    for (size_t i = 0; i < client->n_documents; i++)
        if (client->documents[i].document == document)
            return client->documents[i].generation != client->generation || client->fd < 0;
    return 0;
}

static void remember_document(layoutd_client *client, uint64_t document) {
    for (size_t i = 0; i < client->n_documents; i++) {
        if (client->documents[i].document == document) {
            client->documents[i].generation = client->generation;
            return;
        }
    }
    if (client->n_documents == MAX_DOCUMENTS) {
        memmove(client->documents, client->documents + 1, (MAX_DOCUMENTS - 1) * sizeof client->documents[0]);
        client->n_documents--;
    }
    client->documents[client->n_documents].document = document;
    client->documents[client->n_documents].generation = client->generation;
    client->n_documents++;
}

static layoutd_status keep(layoutd_client *client, Layoutd__V1__Envelope *next);

/* After a failed write: the daemon may have answered before it closed (a frame past its
 * max_frame_bytes gets one error, under no request's id, saying so). Keeps it as request `id`'s
 * answer, and the replies read before it for their own calls; 0 when none came. */
static int kept_farewell(layoutd_client *client, uint64_t id) {
    int64_t deadline = now_ms() + 500;
    for (;;) {
        Layoutd__V1__Envelope *next = NULL;
        if (next_reply(client, deadline, &next) != LAYOUTD_OK) return 0;
        if (next->request_id == 0 && next->body_case == LAYOUTD__V1__ENVELOPE__BODY_ERROR) {
            next->request_id = id;
            return keep(client, next) == LAYOUTD_OK;
        }
        if (keep(client, next) != LAYOUTD_OK) return 0;
    }
}

layoutd_status layoutd_send(layoutd_client *client, Layoutd__V1__Envelope *request, uint64_t *request_id) {
    if (!client || !request || request->body_case == LAYOUTD__V1__ENVELOPE__BODY__NOT_SET) {
        if (client) fail(client, LAYOUTD_ERR_ARGUMENT, "layoutd_send needs a client and a request with a body");
        return LAYOUTD_ERR_ARGUMENT;
    }
    for (int attempt = 0;; attempt++) {
        layoutd_status status = LAYOUTD_OK;
        uint64_t document = document_of(request);
        if (document && on_a_lost_connection(client, document)) return document_gone(client, document);
        if (client->fd < 0 && (status = open_connection(client, 1)) != LAYOUTD_OK) return status;
        status = check_feature(client, request->body_case);
        if (status != LAYOUTD_OK) return status;
        request->request_id = client->next_id++;
        size_t length = 0, written = 0;
        uint8_t *frame = layoutd_frame(request, &length);
        if (!frame) return fail(client, LAYOUTD_ERR_NOMEM, "out of memory for a request");
        status = send_all(client, frame, length, deadline_of(client), &written);
        free(frame);
        if (status == LAYOUTD_ERR_CONNECTION_LOST) {
            if (written > 0 && kept_farewell(client, request->request_id)) {
                drop_connection(client);
                if (request_id) *request_id = request->request_id;
                return LAYOUTD_OK;  /* layoutd_receive gives the daemon's answer */
            }
            if (written > 0) fail(client, LAYOUTD_ERR_CONNECTION_LOST, "sending to layoutd failed: the daemon closed the connection");
            drop_connection(client);
            /* Not a byte of it went: the daemon has not seen it, so any request may go on a new
             * connection (the usual case after a restart while this client was idle). */
            if (written == 0 && attempt == 0) continue;
        }
        if (status == LAYOUTD_OK && request_id) *request_id = request->request_id;
        return status;
    }
}

static layoutd_status answer(layoutd_client *client, Layoutd__V1__Envelope *reply) {
    if (reply->body_case == LAYOUTD__V1__ENVELOPE__BODY_DOCUMENT_REPLY && reply->document_reply)
        remember_document(client, reply->document_reply->document);
    if (reply->body_case != LAYOUTD__V1__ENVELOPE__BODY_ERROR) {
        succeed(client);
        return LAYOUTD_OK;
    }
    const Layoutd__V1__Error *error = reply->error;
    const ProtobufCEnumValue *code = protobuf_c_enum_descriptor_get_value(&layoutd__v1__error__code__descriptor, (int)error->code);
    const char *name = code ? code->name : "UNKNOWN";
    const char *field = error->field ? error->field : "";
    fail(client, LAYOUTD_ERR_SERVER, "%s", error->message ? error->message : "");
    client->error_code = (int)error->code;
    client->error_code_name = name;
    snprintf(client->error_field, sizeof client->error_field, "%s", field);
    if (field[0]) snprintf(client->error, sizeof client->error, "%s %s: %s", name, field, client->error_message);
    else snprintf(client->error, sizeof client->error, "%s: %s", name, client->error_message);
    return LAYOUTD_ERR_SERVER;
}

/* Keeps a reply that came before it was asked for, for its own layoutd_receive (one nobody asked
 * for is dropped). */
static layoutd_status keep(layoutd_client *client, Layoutd__V1__Envelope *next) {
    if (next->request_id == 0 || next->request_id >= client->next_id || client->n_kept >= MAX_KEPT) {
        layoutd__v1__envelope__free_unpacked(next, NULL); /* nobody asked for it */
        return LAYOUTD_OK;
    }
    if (client->n_kept == client->kept_capacity) {
        size_t capacity = client->kept_capacity ? 2 * client->kept_capacity : 16;
        Layoutd__V1__Envelope **grown = realloc(client->kept, capacity * sizeof *grown);
        if (!grown) {
            layoutd__v1__envelope__free_unpacked(next, NULL);
            return fail(client, LAYOUTD_ERR_NOMEM, "out of memory keeping a reply");
        }
        client->kept = grown;
        client->kept_capacity = capacity;
    }
    client->kept[client->n_kept++] = next;
    return LAYOUTD_OK;
}

layoutd_status layoutd_receive(layoutd_client *client, uint64_t request_id, Layoutd__V1__Envelope **reply) {
    if (!client || !reply) return LAYOUTD_ERR_ARGUMENT;
    *reply = NULL;
    for (size_t i = 0; i < client->n_kept; i++) {
        if (client->kept[i]->request_id == request_id) {
            *reply = client->kept[i];
            client->kept[i] = client->kept[--client->n_kept];
            return answer(client, *reply);
        }
    }
    if (request_id != 0 && request_id < client->first_id)
        return fail(client, LAYOUTD_ERR_CONNECTION_LOST, "request %llu was sent on a connection to layoutd that was lost "
                    "before its reply came", (unsigned long long)request_id);
    if (client->fd < 0)
        return fail(client, LAYOUTD_ERR_CONNECTION_LOST, "the connection to layoutd was lost before the reply came");
    if (request_id == 0 || request_id >= client->next_id)
        return fail(client, LAYOUTD_ERR_ARGUMENT, "request %llu was not sent on this connection", (unsigned long long)request_id);
    int64_t deadline = deadline_of(client);
    for (;;) {
        Layoutd__V1__Envelope *next = NULL;
        layoutd_status status = next_reply(client, deadline, &next);
        if (status != LAYOUTD_OK) {
            /* A frame cut short or unreadable leaves the stream out of step: nothing more can be read. */
            if (status != LAYOUTD_ERR_TIMEOUT) drop_connection(client);
            return status;
        }
        if (next->request_id == request_id) {
            *reply = next;
            return answer(client, next);
        }
        status = keep(client, next);
        if (status != LAYOUTD_OK) return status;
    }
}

/* Whether a request changes nothing in the daemon, so that sending it twice is sending it once. */
static int changes_nothing(Layoutd__V1__Envelope__BodyCase body) {
    switch (body) {
    case LAYOUTD__V1__ENVELOPE__BODY_HELLO:
    case LAYOUTD__V1__ENVELOPE__BODY_LAYOUT:
    case LAYOUTD__V1__ENVELOPE__BODY_JUSTIFY:
    case LAYOUTD__V1__ENVELOPE__BODY_RENDER:
    case LAYOUTD__V1__ENVELOPE__BODY_TAGS:
    case LAYOUTD__V1__ENVELOPE__BODY_TAG_HIT:
    case LAYOUTD__V1__ENVELOPE__BODY_TAG_STYLE:
    case LAYOUTD__V1__ENVELOPE__BODY_HIT_TEST:
    case LAYOUTD__V1__ENVELOPE__BODY_FONTS:
    case LAYOUTD__V1__ENVELOPE__BODY_STATS: return 1;
    default: return 0;
    }
}

/* One request and its reply, on the connection there is (made again when it was lost). */
static layoutd_status call_once(layoutd_client *client, Layoutd__V1__Envelope *request, Layoutd__V1__Envelope **reply) {
    uint64_t id = 0;
    layoutd_status status = layoutd_send(client, request, &id);
    return status == LAYOUTD_OK ? layoutd_receive(client, id, reply) : status;
}

layoutd_status layoutd_call(layoutd_client *client, Layoutd__V1__Envelope *request, Layoutd__V1__Envelope **reply) {
    if (reply) *reply = NULL;
    if (!reply || !client || !request) return LAYOUTD_ERR_ARGUMENT;
    for (int attempt = 0;; attempt++) {
        layoutd_status status = call_once(client, request, reply);
        uint64_t document = document_of(request);
        if (status == LAYOUTD_ERR_CONNECTION_LOST && document) return document_gone(client, document);
        int again = status == LAYOUTD_ERR_CONNECTION_LOST && changes_nothing(request->body_case);
        if (status == LAYOUTD_ERR_SERVER && (*reply)->error->code == LAYOUTD__V1__ERROR__CODE__UNAVAILABLE) {
            drop_connection(client); /* the daemon is stopping and did none of it: the next send connects again */
            again = 1;
        }
        if (!again || attempt >= client->retries) return status;
        layoutd_free_reply(*reply);
        *reply = NULL;
    }
}

layoutd_status layoutd_layout_text(layoutd_client *client, const char *text, float width, Layoutd__V1__Envelope **reply) {
    return layoutd_layout(client, text, width, NULL, reply);
}

/* Whether `options` (of `struct_size` as the caller's header had it) holds `field`. */
#define HAS(options, type, field) ((options)->struct_size >= offsetof(type, field) + sizeof((options)->field))

static void layout_request(const layoutd_layout_options *o, const char *text, float width, Layoutd__V1__LayoutRequest *out,
                           Layoutd__V1__Style *out_style, Layoutd__V1__Truncation *out_truncation);

layoutd_status layoutd_layout(layoutd_client *client, const char *text, float width, const layoutd_layout_options *options,
                              Layoutd__V1__Envelope **reply) {
    if (reply) *reply = NULL;
    if (!client || !reply) return LAYOUTD_ERR_ARGUMENT;
    static const layoutd_layout_options defaults = LAYOUTD_LAYOUT_OPTIONS_INIT;
    const layoutd_layout_options *o = options ? options : &defaults;
    if (o->struct_size < offsetof(layoutd_layout_options, family) + sizeof o->family)
        return fail(client, LAYOUTD_ERR_ARGUMENT, "layoutd_layout_options.struct_size is %zu: start from LAYOUTD_LAYOUT_OPTIONS_INIT",
                    o->struct_size);
    Layoutd__V1__Style style;
    Layoutd__V1__Truncation truncation;
    Layoutd__V1__LayoutRequest request;
    layout_request(o, text, width, &request, &style, &truncation);
    Layoutd__V1__Envelope envelope = LAYOUTD__V1__ENVELOPE__INIT;
    envelope.body_case = LAYOUTD__V1__ENVELOPE__BODY_LAYOUT;
    envelope.layout = &request;
    if (HAS(o, layoutd_layout_options, deadline_ms)) envelope.deadline_ms = o->deadline_ms;
    return layoutd_call(client, &envelope, reply);
}

/* The layout request `options` describe, in the caller's `request`, `style` and `truncation`. */
static void layout_request(const layoutd_layout_options *o, const char *text, float width, Layoutd__V1__LayoutRequest *out,
                           Layoutd__V1__Style *out_style, Layoutd__V1__Truncation *out_truncation) {
    Layoutd__V1__Style style = LAYOUTD__V1__STYLE__INIT;
    Layoutd__V1__LayoutRequest request = LAYOUTD__V1__LAYOUT_REQUEST__INIT;
    *out_truncation = (Layoutd__V1__Truncation)LAYOUTD__V1__TRUNCATION__INIT;
    request.text = (char *)(text ? text : "");
    request.width = width;
    int styled = 0;
    if (o->family && o->family[0]) style.family = (char *)o->family, styled = 1;
    if (HAS(o, layoutd_layout_options, size) && o->size != 0) style.size = o->size, styled = 1;
    if (HAS(o, layoutd_layout_options, weight) && o->weight != 0) style.weight = o->weight, styled = 1;
    if (HAS(o, layoutd_layout_options, language) && o->language) style.language = (char *)o->language, styled = 1;
    if (HAS(o, layoutd_layout_options, fallback_family_count) && o->fallback_family_count && o->fallback_families) {
        style.n_fallback_families = o->fallback_family_count;
        style.fallback_families = (char **)o->fallback_families;
        styled = 1;
    }
    if (HAS(o, layoutd_layout_options, script) && o->script && o->script[0]) style.script = (char *)o->script, styled = 1;
    if (HAS(o, layoutd_layout_options, slant) && o->slant) style.slant = o->slant, styled = 1;
    if (HAS(o, layoutd_layout_options, font_synthesis) && o->font_synthesis) style.font_synthesis = o->font_synthesis, styled = 1;
    if (HAS(o, layoutd_layout_options, emphasis) && o->emphasis) style.emphasis = (Layoutd__V1__EmphasisMarks *)o->emphasis, styled = 1;
    if (HAS(o, layoutd_layout_options, optical_size) && o->optical_size != 0) style.optical_size = o->optical_size, styled = 1;
    *out_style = style;
    if (styled) request.default_style = out_style;
    if (HAS(o, layoutd_layout_options, glyph_flags)) request.glyph_flags = o->glyph_flags != 0;
    if (HAS(o, layoutd_layout_options, ruby_count) && o->ruby_count && o->ruby) {
        request.n_ruby_annotations = o->ruby_count;
        request.ruby_annotations = (Layoutd__V1__Ruby **)o->ruby;
    }
    if (HAS(o, layoutd_layout_options, alignment)) request.alignment = o->alignment;
    if (HAS(o, layoutd_layout_options, line_height_multiple)) request.line_height_multiple = o->line_height_multiple;
    if (HAS(o, layoutd_layout_options, max_lines)) request.max_lines = o->max_lines;
    if (HAS(o, layoutd_layout_options, intrinsic_metrics)) request.intrinsic_metrics = o->intrinsic_metrics != 0;
    if (HAS(o, layoutd_layout_options, truncation_token) && o->truncation_token) {
        out_truncation->token = (char *)o->truncation_token;
        request.truncation = out_truncation;
    }
    *out = request;
}

/* Asks the daemon to drop what is left of request `id` (best effort; a Cancel has no reply). */
static void send_cancel(layoutd_client *client, uint64_t id) {
    Layoutd__V1__Cancel cancel = LAYOUTD__V1__CANCEL__INIT;
    cancel.request_id = id;
    Layoutd__V1__Envelope envelope = LAYOUTD__V1__ENVELOPE__INIT;
    envelope.body_case = LAYOUTD__V1__ENVELOPE__BODY_CANCEL;
    envelope.cancel = &cancel;
    uint64_t ignored = 0;
    (void)layoutd_send(client, &envelope, &ignored);
}

/* Reads the batch `id`'s items in order, each to `each`, until `count` are answered; stops
 * early (the rest cancelled, then read and dropped) when `each` returns nonzero. */
static layoutd_status batch_items(layoutd_client *client, uint64_t id, size_t count, layoutd_batch_item_fn each, void *context,
                                  size_t *failed) {
    size_t answered = 0;
    int stopped = 0;
    while (answered < (count ? count : 1)) {
        Layoutd__V1__Envelope *next = NULL;
        layoutd_status status = next_reply(client, deadline_of(client), &next);
        if (status != LAYOUTD_OK) {
            if (status != LAYOUTD_ERR_TIMEOUT) drop_connection(client);
            if (status == LAYOUTD_ERR_UNREACHABLE) status = LAYOUTD_ERR_CONNECTION_LOST;
            return status;
        }
        if (next->request_id != id) {
            if ((status = keep(client, next)) != LAYOUTD_OK) return status;
            continue;
        }
        if (answered == 0 && next->body_case == LAYOUTD__V1__ENVELOPE__BODY_ERROR) {
            status = answer(client, next); /* the batch refused as a whole */
            layoutd_free_reply(next);
            return status;
        }
        const Layoutd__V1__BatchItemReply *item = next->body_case == LAYOUTD__V1__ENVELOPE__BODY_BATCH_ITEM ? next->batch_item : NULL;
        if (!item || item->index != answered) {
            layoutd_free_reply(next);
            drop_connection(client); /* out of step: nothing more can be read */
            return fail(client, LAYOUTD_ERR_PROTOCOL, "batch item %zu was due; the daemon sent something else", answered);
        }
        const Layoutd__V1__LayoutReply *layout = item->result_case == LAYOUTD__V1__BATCH_ITEM_REPLY__RESULT_LAYOUT ? item->layout : NULL;
        const Layoutd__V1__Error *error = item->result_case == LAYOUTD__V1__BATCH_ITEM_REPLY__RESULT_ERROR ? item->error : NULL;
        if (error && failed) (*failed)++;
        if (!stopped && each(context, item->index, layout, error) != 0) {
            stopped = 1;
            if (answered + 1 < count) send_cancel(client, id);
        }
        answered++;
        layoutd_free_reply(next);
    }
    succeed(client);
    return LAYOUTD_OK;
}

layoutd_status layoutd_layout_batch(layoutd_client *client, const char *const *texts, size_t count, float width,
                                    const layoutd_layout_options *options, layoutd_batch_item_fn each, void *context,
                                    size_t *failed) {
    if (failed) *failed = 0;
    if (!client || (!texts && count) || !each) return LAYOUTD_ERR_ARGUMENT;
    static const layoutd_layout_options defaults = LAYOUTD_LAYOUT_OPTIONS_INIT;
    const layoutd_layout_options *o = options ? options : &defaults;
    if (o->struct_size < offsetof(layoutd_layout_options, family) + sizeof o->family)
        return fail(client, LAYOUTD_ERR_ARGUMENT, "layoutd_layout_options.struct_size is %zu: start from LAYOUTD_LAYOUT_OPTIONS_INIT",
                    o->struct_size);
    for (size_t i = 0; i < count; i++)
        if (!texts[i]) return fail(client, LAYOUTD_ERR_ARGUMENT, "texts[%zu] is NULL", i);
    Layoutd__V1__Style style;
    Layoutd__V1__Truncation truncation;
    Layoutd__V1__LayoutRequest shared;
    layout_request(o, NULL, width, &shared, &style, &truncation);
    Layoutd__V1__BatchLayoutRequest batch = LAYOUTD__V1__BATCH_LAYOUT_REQUEST__INIT;
    batch.layout = &shared;
    batch.n_texts = count;
    batch.texts = (char **)texts;
    Layoutd__V1__Envelope envelope = LAYOUTD__V1__ENVELOPE__INIT;
    envelope.body_case = LAYOUTD__V1__ENVELOPE__BODY_BATCH_LAYOUT;
    envelope.batch_layout = &batch;
    if (HAS(o, layoutd_layout_options, deadline_ms)) envelope.deadline_ms = o->deadline_ms;
    uint64_t id = 0;
    layoutd_status status = layoutd_send(client, &envelope, &id);
    if (status != LAYOUTD_OK) return status;
    return batch_items(client, id, count, each, context, failed);
}

layoutd_status layoutd_justify(layoutd_client *client, const char *text, float width, const layoutd_justify_options *options,
                               Layoutd__V1__Envelope **reply) {
    if (reply) *reply = NULL;
    if (!client || !reply) return LAYOUTD_ERR_ARGUMENT;
    static const layoutd_justify_options defaults = LAYOUTD_JUSTIFY_OPTIONS_INIT;
    const layoutd_justify_options *o = options ? options : &defaults;
    if (o->struct_size < offsetof(layoutd_justify_options, preset) + sizeof o->preset)
        return fail(client, LAYOUTD_ERR_ARGUMENT, "layoutd_justify_options.struct_size is %zu: start from LAYOUTD_JUSTIFY_OPTIONS_INIT",
                    o->struct_size);
    Layoutd__V1__Style style = LAYOUTD__V1__STYLE__INIT;
    Layoutd__V1__JustifyRequest request = LAYOUTD__V1__JUSTIFY_REQUEST__INIT;
    request.text = (char *)(text ? text : "");
    request.width = width;
    if (o->preset) request.preset = (char *)o->preset;
    if (HAS(o, layoutd_justify_options, family) && o->family && o->family[0]) {
        style.family = (char *)o->family;
        request.style = &style;
    }
    if (HAS(o, layoutd_justify_options, min_size)) request.min_size = o->min_size;
    if (HAS(o, layoutd_justify_options, max_size)) request.max_size = o->max_size;
    if (HAS(o, layoutd_justify_options, alignment)) request.alignment = o->alignment;
    Layoutd__V1__Envelope envelope = LAYOUTD__V1__ENVELOPE__INIT;
    envelope.body_case = LAYOUTD__V1__ENVELOPE__BODY_JUSTIFY;
    envelope.justify = &request;
    if (HAS(o, layoutd_justify_options, deadline_ms)) envelope.deadline_ms = o->deadline_ms;
    return layoutd_call(client, &envelope, reply);
}

void layoutd_free_reply(Layoutd__V1__Envelope *reply) {
    if (reply) layoutd__v1__envelope__free_unpacked(reply, NULL);
}

const Layoutd__V1__HelloReply *layoutd_daemon(const layoutd_client *client) {
    return client && client->hello ? client->hello->hello_reply : NULL;
}

const char *layoutd_last_error(const layoutd_client *client) {
    return client ? client->error : "no client";
}

layoutd_error layoutd_last_error_details(const layoutd_client *client) {
    if (!client) return (layoutd_error){LAYOUTD_ERR_ARGUMENT, 0, "ARGUMENT", "", "no client"};
    return (layoutd_error){client->error_status, client->error_code, client->error_code_name ? client->error_code_name : "",
                           client->error_field, client->error_message};
}

void layoutd_set_reconnect(layoutd_client *client, int wait_ms, int retries) {
    if (!client) return;
    client->reconnect_wait_ms = wait_ms > 0 ? wait_ms : 0;
    client->retries = retries > 0 ? retries : 0;
}

/* As layoutctl: $LAYOUTD_SOCKET, the service's socket when there is one, the user's. */
static void default_socket(char *path, size_t size) {
    const char *variable = getenv("LAYOUTD_SOCKET");
    struct stat info;
    if (variable && variable[0]) snprintf(path, size, "%s", variable);
    else if (stat("/run/layoutd/layoutd.sock", &info) == 0 && S_ISSOCK(info.st_mode)) snprintf(path, size, "/run/layoutd/layoutd.sock");
    else if ((variable = getenv("XDG_RUNTIME_DIR")) && variable[0]) snprintf(path, size, "%s/layoutd.sock", variable);
    else snprintf(path, size, "/tmp/layoutd-%u/layoutd.sock", (unsigned)getuid());
}

/* The daemon must run as this user, as root, or as the service's `layoutd` user: a socket in a
 * shared place can be another user's daemon, which would read the text sent (SO_PEERCRED). */
static layoutd_status check_peer(layoutd_client *client) {
    const char *path = client->path;
    struct ucred peer;
    socklen_t length = sizeof peer;
    if (getsockopt(client->fd, SOL_SOCKET, SO_PEERCRED, &peer, &length) != 0)
        return fail(client, LAYOUTD_ERR_UNREACHABLE, "refusing the daemon at %s: the kernel did not say who serves it", path);
    const struct passwd *service = getpwnam("layoutd");
    if (peer.uid == getuid() || peer.uid == 0 || (service && peer.uid == service->pw_uid)) return LAYOUTD_OK;
    return fail(client, LAYOUTD_ERR_UNREACHABLE,
                "refusing the daemon at %s: it is served by uid %u, not by you, root or the layoutd service", path,
                (unsigned)peer.uid);
}

static layoutd_status greet(layoutd_client *client) {
    Layoutd__V1__HelloRequest hello = LAYOUTD__V1__HELLO_REQUEST__INIT;
    hello.client_name = "liblayoutd-client";
    Layoutd__V1__Envelope envelope = LAYOUTD__V1__ENVELOPE__INIT;
    envelope.body_case = LAYOUTD__V1__ENVELOPE__BODY_HELLO;
    envelope.hello = &hello;
    Layoutd__V1__Envelope *reply = NULL;
    layoutd_status status = call_once(client, &envelope, &reply);
    if (status == LAYOUTD_OK && reply->body_case != LAYOUTD__V1__ENVELOPE__BODY_HELLO_REPLY)
        status = fail(client, LAYOUTD_ERR_PROTOCOL, "the daemon did not answer hello with a hello reply");
    if (status == LAYOUTD_OK && reply->hello_reply->protocol_version != LAYOUTD_PROTOCOL_VERSION)
        status = fail(client, LAYOUTD_ERR_UNSUPPORTED, "layoutd %s speaks protocol %u; this client speaks %u",
                      reply->hello_reply->server_version, reply->hello_reply->protocol_version, LAYOUTD_PROTOCOL_VERSION);
    if (status != LAYOUTD_OK) {
        layoutd_free_reply(reply);
        return status;
    }
    layoutd_free_reply(client->hello);
    client->hello = reply;
    return LAYOUTD_OK;
}

/* A new connection to client->path, checked and greeted. `patient`: a restarting daemon has
 * no socket, or refuses, for a moment; keep trying for the reconnect wait. Replies kept from
 * the lost connection are dropped: their requests fail as lost. */
static layoutd_status open_connection_once(layoutd_client *client, int64_t give_up);

static layoutd_status open_connection(layoutd_client *client, int patient) {
    int64_t give_up = now_ms() + (patient ? client->reconnect_wait_ms : 0);
    for (;;) {
        layoutd_status status = open_connection_once(client, give_up);
        /* A daemon being killed can still take a connection into its backlog, then drop it
         * unanswered: that is the daemon not being there yet. */
        if (status != LAYOUTD_ERR_CONNECTION_LOST || now_ms() >= give_up) return status;
        struct timespec pause = {.tv_sec = 0, .tv_nsec = 20000000L};
        nanosleep(&pause, NULL);
    }
}

static layoutd_status open_connection_once(layoutd_client *client, int64_t give_up) {
    drop_connection(client);
    for (size_t i = 0; i < client->n_kept; i++) layoutd__v1__envelope__free_unpacked(client->kept[i], NULL);
    client->n_kept = 0;
    client->start = client->end = 0;
    client->generation++;
    client->first_id = client->next_id;
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    memcpy(address.sun_path, client->path, strlen(client->path) + 1);
    int pause_ms = 20;
    for (;;) {
        client->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (client->fd < 0) return fail(client, LAYOUTD_ERR_UNREACHABLE, "socket: %s", strerror(errno));
        if (connect(client->fd, (struct sockaddr *)&address, sizeof address) == 0) break;
        int error = errno;
        drop_connection(client);
        int waiting = error == ENOENT || error == ECONNREFUSED || error == EAGAIN;
        if (waiting && now_ms() + pause_ms < give_up) {
            struct timespec pause = {.tv_sec = pause_ms / 1000, .tv_nsec = (long)(pause_ms % 1000) * 1000000L};
            nanosleep(&pause, NULL);
            pause_ms = pause_ms * 2 > 500 ? 500 : pause_ms * 2;
            continue;
        }
        return fail(client, LAYOUTD_ERR_UNREACHABLE, "cannot connect to layoutd at %s: %s (is the daemon running?)", client->path,
                    strerror(error));
    }
    layoutd_status status = check_peer(client);
    if (status == LAYOUTD_OK) status = greet(client);
    if (status != LAYOUTD_OK) drop_connection(client);
    return status;
}

layoutd_status layoutd_connect(const char *socket_path, int timeout_ms, layoutd_client **out) {
    if (!out) return LAYOUTD_ERR_ARGUMENT;
    layoutd_client *client = *out = calloc(1, sizeof *client);
    if (!client) return LAYOUTD_ERR_NOMEM;
    client->fd = -1;
    client->next_id = 1;
    client->timeout_ms = timeout_ms > 0 ? timeout_ms : 0;
    client->reconnect_wait_ms = 5000;
    client->retries = 1;
    succeed(client);
    char path[sizeof client->path + 64];
    if (socket_path) snprintf(path, sizeof path, "%s", socket_path);
    else default_socket(path, sizeof path);
    if (strlen(path) >= sizeof client->path)
        return fail(client, LAYOUTD_ERR_ARGUMENT, "socket path too long for a Unix socket: %s", path);
    memcpy(client->path, path, strlen(path) + 1);
    return open_connection(client, 0);
}

void layoutd_close(layoutd_client *client) {
    if (!client) return;
    if (client->fd >= 0) close(client->fd);
    for (size_t i = 0; i < client->n_kept; i++) layoutd__v1__envelope__free_unpacked(client->kept[i], NULL);
    free(client->kept);
    layoutd_free_reply(client->hello);
    free(client->buffer);
    free(client);
}
