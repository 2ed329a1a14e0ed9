/* liblayoutd-client: talk to layoutd, the text layout daemon, over its Unix socket.
 *
 *     layoutd_client *client = NULL;
 *     Layoutd__V1__Envelope *reply = NULL;
 *     if (layoutd_connect(NULL, 5000, &client) == LAYOUTD_OK &&
 *         layoutd_layout_text(client, "Hello, world", 300, &reply) == LAYOUTD_OK)
 *         printf("%zu lines\n", reply->layout_reply->n_lines);
 *     else
 *         fprintf(stderr, "%s\n", layoutd_last_error(client));
 *     layoutd_free_reply(reply);
 *     layoutd_close(client);
 *
 * Messages are protobuf-c's, generated from proto/layoutd/v1 (layoutd/v1/NAME.pb-c.h); link
 * with `pkg-config --cflags --libs layoutd-client`. A client is one connection and is not
 * thread-safe: use one per thread, or lock around it. Every call blocks for at most the
 * client's timeout. Replies are matched by request id, so several requests may be sent
 * (layoutd_send) before their replies are taken (layoutd_receive): pipelining.
 */
#ifndef LAYOUTD_CLIENT_H
#define LAYOUTD_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include <layoutd/v1/envelope.pb-c.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The protocol version this library speaks; a daemon reporting another is refused. */
#define LAYOUTD_PROTOCOL_VERSION 1u

typedef enum {
    LAYOUTD_OK = 0,
    LAYOUTD_ERR_UNREACHABLE,  /* no socket, refused, closed, or a daemon this user does not trust */
    LAYOUTD_ERR_TIMEOUT,      /* no answer within the client's timeout */
    LAYOUTD_ERR_PROTOCOL,     /* the daemon answered something that is not the protocol */
    LAYOUTD_ERR_UNSUPPORTED,  /* another protocol version, or a daemon too old for the request */
    LAYOUTD_ERR_SERVER,       /* the daemon refused the request: the reply holds its Error */
    LAYOUTD_ERR_ARGUMENT,     /* a NULL or malformed argument to this library */
    LAYOUTD_ERR_NOMEM,
} layoutd_status;

typedef struct layoutd_client layoutd_client;

/* Connects to the daemon at `socket_path` (NULL: as layoutctl finds it — $LAYOUTD_SOCKET, the
 * service's /run/layoutd/layoutd.sock, $XDG_RUNTIME_DIR/layoutd.sock, /tmp/layoutd-<uid>/layoutd.sock),
 * checks that it runs as this user, root or the layoutd service, greets it and checks its
 * protocol version. `timeout_ms` bounds every later call (0: wait for ever). On failure
 * `*client` is still set when it could be allocated, for layoutd_last_error; close it. */
layoutd_status layoutd_connect(const char *socket_path, int timeout_ms, layoutd_client **client);

/* Ends the connection and frees the client and any reply it still holds. NULL is ignored. */
void layoutd_close(layoutd_client *client);

/* The daemon's hello: version, limits and the requests it serves. Owned by the client. */
const Layoutd__V1__HelloReply *layoutd_daemon(const layoutd_client *client);

/* One line on the last failure ("INVALID_ARGUMENT layout.width: width must be ..."), or "". */
const char *layoutd_last_error(const layoutd_client *client);

/* Sends `request` (its body set; request_id is assigned here and returned in `*request_id`). */
layoutd_status layoutd_send(layoutd_client *client, Layoutd__V1__Envelope *request, uint64_t *request_id);

/* Waits for the reply to `request_id`; replies to other requests that arrive first are kept
 * for their own layoutd_receive. `*reply` is the caller's, freed with layoutd_free_reply — also
 * on LAYOUTD_ERR_SERVER, where reply->error holds the daemon's code, field and message. */
layoutd_status layoutd_receive(layoutd_client *client, uint64_t request_id, Layoutd__V1__Envelope **reply);

/* layoutd_send, then layoutd_receive. */
layoutd_status layoutd_call(layoutd_client *client, Layoutd__V1__Envelope *request, Layoutd__V1__Envelope **reply);

/* A layout request of `text` (UTF-8) `width` points wide in the daemon's default style. */
layoutd_status layoutd_layout_text(layoutd_client *client, const char *text, float width, Layoutd__V1__Envelope **reply);

void layoutd_free_reply(Layoutd__V1__Envelope *reply);

/* The status's name ("LAYOUTD_ERR_TIMEOUT"). */
const char *layoutd_status_name(layoutd_status status);

/* The frame for `envelope` (4-byte big-endian length, then its bytes), malloc'd; NULL when out of memory. */
uint8_t *layoutd_frame(const Layoutd__V1__Envelope *envelope, size_t *frame_length);

#ifdef __cplusplus
}
#endif

#endif
