/* liblayoutd-client: one blocking connection to layoutd (include/layoutd/client.h). */
#define _GNU_SOURCE /* struct ucred, SO_PEERCRED */
#include "layoutd/client.h"

#include <errno.h>
#include <poll.h>
#include <pwd.h>
#include <stdarg.h>
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

struct layoutd_client {
    int fd;
    int timeout_ms;
    uint64_t next_id;
    Layoutd__V1__Envelope *hello; /* the greeting's reply, kept for layoutd_daemon */
    Layoutd__V1__Envelope **kept;
    size_t n_kept, kept_capacity;
    uint8_t *buffer; /* bytes received and not yet taken: buffer[start..end) */
    size_t start, end, capacity;
    char error[1024];
};

static layoutd_status fail(layoutd_client *client, layoutd_status status, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(client->error, sizeof client->error, format, arguments);
    va_end(arguments);
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

static layoutd_status send_all(layoutd_client *client, const uint8_t *bytes, size_t count, int64_t deadline) {
    size_t done = 0;
    while (done < count) {
        layoutd_status status = wait_ready(client, POLLOUT, deadline);
        if (status != LAYOUTD_OK) return status;
        ssize_t sent = send(client->fd, bytes + done, count - done, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (sent < 0) {
            if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) continue;
            return fail(client, LAYOUTD_ERR_UNREACHABLE, "sending to layoutd failed: %s", strerror(errno));
        }
        done += (size_t)sent;
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
        if (got == 0) return fail(client, LAYOUTD_ERR_UNREACHABLE, "the daemon closed the connection");
        if (got < 0) {
            if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) continue;
            return fail(client, LAYOUTD_ERR_UNREACHABLE, "receiving from layoutd failed: %s", strerror(errno));
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

layoutd_status layoutd_send(layoutd_client *client, Layoutd__V1__Envelope *request, uint64_t *request_id) {
    if (!client || !request || request->body_case == LAYOUTD__V1__ENVELOPE__BODY__NOT_SET) {
        if (client) fail(client, LAYOUTD_ERR_ARGUMENT, "layoutd_send needs a client and a request with a body");
        return LAYOUTD_ERR_ARGUMENT;
    }
    if (client->fd < 0) return fail(client, LAYOUTD_ERR_UNREACHABLE, "the connection has failed; connect again");
    layoutd_status status = check_feature(client, request->body_case);
    if (status != LAYOUTD_OK) return status;
    request->request_id = client->next_id++;
    size_t length = 0;
    uint8_t *frame = layoutd_frame(request, &length);
    if (!frame) return fail(client, LAYOUTD_ERR_NOMEM, "out of memory for a request");
    status = send_all(client, frame, length, deadline_of(client));
    free(frame);
    if (status == LAYOUTD_OK && request_id) *request_id = request->request_id;
    return status;
}

static layoutd_status answer(layoutd_client *client, Layoutd__V1__Envelope *reply) {
    if (reply->body_case != LAYOUTD__V1__ENVELOPE__BODY_ERROR) {
        client->error[0] = 0;
        return LAYOUTD_OK;
    }
    const Layoutd__V1__Error *error = reply->error;
    const ProtobufCEnumValue *code = protobuf_c_enum_descriptor_get_value(&layoutd__v1__error__code__descriptor, (int)error->code);
    const char *name = code ? code->name : "CODE_UNKNOWN";
    if (error->field && error->field[0]) return fail(client, LAYOUTD_ERR_SERVER, "%s %s: %s", name, error->field, error->message);
    return fail(client, LAYOUTD_ERR_SERVER, "%s: %s", name, error->message);
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
    if (client->fd < 0) return fail(client, LAYOUTD_ERR_UNREACHABLE, "the connection has failed; connect again");
    if (request_id == 0 || request_id >= client->next_id)
        return fail(client, LAYOUTD_ERR_ARGUMENT, "request %llu was not sent on this connection", (unsigned long long)request_id);
    int64_t deadline = deadline_of(client);
    for (;;) {
        Layoutd__V1__Envelope *next = NULL;
        layoutd_status status = next_reply(client, deadline, &next);
        if (status != LAYOUTD_OK) {
            /* A frame cut short or unreadable leaves the stream out of step: nothing more can be read. */
            if (status != LAYOUTD_ERR_TIMEOUT) {
                close(client->fd);
                client->fd = -1;
            }
            return status;
        }
        if (next->request_id == request_id) {
            *reply = next;
            return answer(client, next);
        }
        if (next->request_id == 0 || next->request_id >= client->next_id || client->n_kept >= MAX_KEPT) {
            layoutd__v1__envelope__free_unpacked(next, NULL); /* nobody asked for it */
            continue;
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
    }
}

layoutd_status layoutd_call(layoutd_client *client, Layoutd__V1__Envelope *request, Layoutd__V1__Envelope **reply) {
    if (reply) *reply = NULL;
    if (!reply) return LAYOUTD_ERR_ARGUMENT;
    uint64_t id = 0;
    layoutd_status status = layoutd_send(client, request, &id);
    return status == LAYOUTD_OK ? layoutd_receive(client, id, reply) : status;
}

layoutd_status layoutd_layout_text(layoutd_client *client, const char *text, float width, Layoutd__V1__Envelope **reply) {
    Layoutd__V1__LayoutRequest request = LAYOUTD__V1__LAYOUT_REQUEST__INIT;
    request.text = (char *)(text ? text : "");
    request.width = width;
    Layoutd__V1__Envelope envelope = LAYOUTD__V1__ENVELOPE__INIT;
    envelope.body_case = LAYOUTD__V1__ENVELOPE__BODY_LAYOUT;
    envelope.layout = &request;
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
static layoutd_status check_peer(layoutd_client *client, const char *path) {
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
    layoutd_status status = layoutd_call(client, &envelope, &reply);
    if (status == LAYOUTD_OK && reply->body_case != LAYOUTD__V1__ENVELOPE__BODY_HELLO_REPLY)
        status = fail(client, LAYOUTD_ERR_PROTOCOL, "the daemon did not answer hello with a hello reply");
    if (status == LAYOUTD_OK && reply->hello_reply->protocol_version != LAYOUTD_PROTOCOL_VERSION)
        status = fail(client, LAYOUTD_ERR_UNSUPPORTED, "layoutd %s speaks protocol %u; this client speaks %u",
                      reply->hello_reply->server_version, reply->hello_reply->protocol_version, LAYOUTD_PROTOCOL_VERSION);
    if (status != LAYOUTD_OK) {
        layoutd_free_reply(reply);
        return status;
    }
    client->hello = reply;
    return LAYOUTD_OK;
}

layoutd_status layoutd_connect(const char *socket_path, int timeout_ms, layoutd_client **out) {
    if (!out) return LAYOUTD_ERR_ARGUMENT;
    layoutd_client *client = *out = calloc(1, sizeof *client);
    if (!client) return LAYOUTD_ERR_NOMEM;
    client->fd = -1;
    client->next_id = 1;
    client->timeout_ms = timeout_ms > 0 ? timeout_ms : 0;
    char path[sizeof ((struct sockaddr_un *)0)->sun_path + 64];
    if (socket_path) snprintf(path, sizeof path, "%s", socket_path);
    else default_socket(path, sizeof path);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof address.sun_path)
        return fail(client, LAYOUTD_ERR_ARGUMENT, "socket path too long for a Unix socket: %s", path);
    memcpy(address.sun_path, path, strlen(path) + 1);
    client->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (client->fd < 0) return fail(client, LAYOUTD_ERR_UNREACHABLE, "socket: %s", strerror(errno));
    if (connect(client->fd, (struct sockaddr *)&address, sizeof address) != 0) {
        int error = errno;
        close(client->fd);
        client->fd = -1;
        return fail(client, LAYOUTD_ERR_UNREACHABLE, "cannot connect to layoutd at %s: %s (is the daemon running?)", path,
                    strerror(error));
    }
    layoutd_status status = check_peer(client, path);
    if (status == LAYOUTD_OK) status = greet(client);
    if (status != LAYOUTD_OK && client->fd >= 0) {
        close(client->fd);
        client->fd = -1;
    }
    return status;
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
