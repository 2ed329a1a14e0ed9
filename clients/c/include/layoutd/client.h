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
 * The common calls take an options struct (layoutd_layout, layoutd_justify); every request of
 * the protocol can be sent as a protobuf-c message (layoutd_call). Messages are generated from
 * proto/layoutd/v1 (layoutd/v1/NAME.pb-c.h); link with `pkg-config --cflags --libs
 * layoutd-client`. A client is one connection and is not thread-safe: use one per thread, or
 * lock around it. Every call blocks for at most the client's timeout. Replies are matched by
 * request id, so several requests may be sent (layoutd_send) before their replies are taken
 * (layoutd_receive): pipelining.
 *
 * The daemon may restart. After the connection is lost, the next send connects again (waiting
 * up to the reconnect wait, 5 s by default, for the socket to come back) and greets the new
 * daemon. layoutd_call sends a request again, once by default, when that is safe: when the
 * connection was lost before the reply and the request changes nothing in the daemon (layout,
 * justify, render, tags, hit tests, fonts, stats), or the daemon answered UNAVAILABLE (it was
 * stopping). A document lives on its connection: a request naming one opened on a lost
 * connection fails with LAYOUTD_ERR_DOCUMENT_GONE. docs/protocol.md, "Retrying", has the rules.
 */
#ifndef LAYOUTD_CLIENT_H
#define LAYOUTD_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include <layoutd/v1/batch.pb-c.h>
#include <layoutd/v1/envelope.pb-c.h>
#include <layoutd/v1/layout.pb-c.h>

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
    LAYOUTD_ERR_CONNECTION_LOST, /* the connection was lost after the request went, before its reply */
    LAYOUTD_ERR_DOCUMENT_GONE,   /* the document was open on a connection that was lost: open it again */
} layoutd_status;

/* The last failure, in parts. `code` is the daemon's Layoutd__V1__Error__Code with
 * LAYOUTD_ERR_SERVER and 0 otherwise; `code_name` is its name ("INVALID_ARGUMENT"), or for a
 * failure on this side the status's short name ("UNREACHABLE", "TIMEOUT", "DOCUMENT_GONE");
 * `field` is the request field at fault ("layout.width", "" when none) and `message` says
 * what was wrong. The strings are the client's, good until its next call. */
typedef struct {
    layoutd_status status;
    int code;
    const char *code_name;
    const char *field;
    const char *message;
} layoutd_error;

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

/* The last failure's status, code, field and message (status LAYOUTD_OK after a success). */
layoutd_error layoutd_last_error_details(const layoutd_client *client);

/* How the client outlives the daemon: after a lost connection, how long the next call waits
 * for the socket to come back (default 5000 ms; 0: one try), and how many times layoutd_call
 * sends a request again where that is safe (default 1; 0: never). */
void layoutd_set_reconnect(layoutd_client *client, int wait_ms, int retries);

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

/* What the common layout call sets. Start from LAYOUTD_LAYOUT_OPTIONS_INIT (zero is the
 * default everywhere; `struct_size` lets later versions add fields at the end). */
typedef struct {
    size_t struct_size;
    const char *family;             /* NULL or "": the daemon's default family */
    float size;                     /* points; 0: the default (16) */
    uint32_t weight;                /* 1...1000; 0: regular */
    const char *language;           /* BCP 47 ("de", "zh-Hant"); NULL: from the text */
    Layoutd__V1__Alignment alignment; /* LAYOUTD__V1__ALIGNMENT__ALIGNMENT_NATURAL by default */
    float line_height_multiple;     /* 0: 1, the fonts' own height */
    uint32_t max_lines;             /* 0: unlimited */
    const char *truncation_token;   /* where max_lines cuts: NULL "…", "" none */
    uint32_t deadline_ms;           /* 0: the daemon's request budget */
    int intrinsic_metrics;          /* nonzero: the reply's min/max_content_width and each run's ascent, descent, leading */
    const char *const *fallback_families; /* families tried in order for what `family` cannot draw (CSS font-family) */
    size_t fallback_family_count;   /* entries of fallback_families; at most 16 */
    const char *script;             /* ISO 15924 code to shape as ("Qaag"); NULL: the characters' own */
    Layoutd__V1__Slant slant;       /* LAYOUTD__V1__SLANT__SLANT_ITALIC for italic; 0: upright */
    Layoutd__V1__FontSynthesis font_synthesis; /* what may be made where the family lacks the weight or slant; 0: both */
    const Layoutd__V1__EmphasisMarks *emphasis; /* marks over each character (CSS text-emphasis), in the reply's
                                                 * emphasis_marks; NULL: none */
    Layoutd__V1__Ruby *const *ruby; /* ruby (furigana) over ranges of the text, in the reply's ruby_runs */
    size_t ruby_count;              /* entries of ruby; at most 4,096 */
    int glyph_flags;                /* nonzero: each run's glyph_flags (HarfBuzz's unsafe to break 1, to concatenate 2) */
    float optical_size;             /* points opsz and AAT trak tracking follow instead of size (HarfBuzz's ptem); 0: size */
} layoutd_layout_options;
#define LAYOUTD_LAYOUT_OPTIONS_INIT \
    {sizeof(layoutd_layout_options), NULL, 0, 0, NULL, LAYOUTD__V1__ALIGNMENT__ALIGNMENT_NATURAL, 0, 0, NULL, 0, 0, NULL, 0, NULL, \
     LAYOUTD__V1__SLANT__SLANT_INHERIT, LAYOUTD__V1__FONT_SYNTHESIS__FONT_SYNTHESIS_INHERIT, NULL, NULL, 0, 0, 0}

/* Lays `text` (UTF-8) out `width` points wide with `options` (NULL: the defaults). */
layoutd_status layoutd_layout(layoutd_client *client, const char *text, float width, const layoutd_layout_options *options,
                              Layoutd__V1__Envelope **reply);

/* Called with each item of a batch, in order: its `index` and its layout, or its error (one of
 * the two is NULL). Both are the library's, good until the call returns. Return 0 to go on;
 * anything else stops the batch: the rest is cancelled, read and dropped, and
 * layoutd_layout_batch returns LAYOUTD_OK. */
typedef int (*layoutd_batch_item_fn)(void *context, uint32_t index, const Layoutd__V1__LayoutReply *layout,
                                     const Layoutd__V1__Error *error);

/* Lays `count` texts (UTF-8) out `width` points wide with the same `options`, in one batch_layout
 * request: one round trip, the daemon answering item by item (docs/protocol.md, "Batches").
 * `each` gets every item as it arrives; `*failed` (when not NULL) counts the items that failed,
 * which do not stop the others. `options->deadline_ms` covers the whole batch. Returns
 * LAYOUTD_ERR_SERVER when the daemon refuses the batch as a whole (too many texts, say: its
 * hello's max_batch_items), with the error in layoutd_last_error_details. A batch cut by a lost
 * connection is not sent again: LAYOUTD_ERR_CONNECTION_LOST after the items that came. */
layoutd_status layoutd_layout_batch(layoutd_client *client, const char *const *texts, size_t count, float width,
                                    const layoutd_layout_options *options, layoutd_batch_item_fn each, void *context,
                                    size_t *failed);

/* What the common Type Mode call sets (LAYOUTD_JUSTIFY_OPTIONS_INIT; zero is the default). */
typedef struct {
    size_t struct_size;
    const char *preset;             /* "modern", "neon", "typewriter", "strong", "classic"; NULL: none */
    const char *family;             /* NULL: the preset's, else the daemon's default */
    float min_size, max_size;       /* each line's size stays within them; 0: the preset's (14, 96) */
    Layoutd__V1__Alignment alignment; /* 0: the preset's */
    uint32_t deadline_ms;           /* 0: the daemon's request budget */
} layoutd_justify_options;
#define LAYOUTD_JUSTIFY_OPTIONS_INIT {sizeof(layoutd_justify_options), NULL, NULL, 0, 0, LAYOUTD__V1__ALIGNMENT__ALIGNMENT_NATURAL, 0}

/* Type Mode: every line of `text` justified `width` points wide at its own size. */
layoutd_status layoutd_justify(layoutd_client *client, const char *text, float width, const layoutd_justify_options *options,
                               Layoutd__V1__Envelope **reply);

void layoutd_free_reply(Layoutd__V1__Envelope *reply);

/* The status's name ("LAYOUTD_ERR_TIMEOUT"). */
const char *layoutd_status_name(layoutd_status status);

/* The frame for `envelope` (4-byte big-endian length, then its bytes), malloc'd; NULL when out of memory. */
uint8_t *layoutd_frame(const Layoutd__V1__Envelope *envelope, size_t *frame_length);

#ifdef __cplusplus
}
#endif

#endif
