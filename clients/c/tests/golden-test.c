/* The cross-language wire vectors (Tests/LayoutWireTests/Vectors, written by
 * scripts/golden-bytes.py with Python's protobuf): every request built by hand in C
 * (golden-requests.c) encodes to Python's bytes, and protobuf-c decodes every request and reply
 * vector to the values Python printed in golden.dump, knows every field it holds, and encodes
 * it back to the same bytes.
 *
 *   golden-test VECTORS_DIR
 */
#define _GNU_SOURCE /* vasprintf */
#include <layoutd/client.h>

#include "golden-requests.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char **lines;
    size_t count, capacity;
} Lines;

#include <stdarg.h>

static void add(Lines *lines, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void add(Lines *lines, const char *format, ...) {
    if (lines->count == lines->capacity) {
        lines->capacity = lines->capacity ? 2 * lines->capacity : 256;
        lines->lines = realloc(lines->lines, lines->capacity * sizeof *lines->lines);
        if (!lines->lines) abort();
    }
    va_list arguments;
    va_start(arguments, format);
    if (vasprintf(&lines->lines[lines->count++], format, arguments) < 0) abort();
    va_end(arguments);
}

static void hex(char *out, const uint8_t *bytes, size_t length) {
    for (size_t i = 0; i < length; i++) sprintf(out + 2 * i, "%02x", bytes[i]);
    out[2 * length] = 0;
}

static int unknown_fields = 0;

static void dump(const ProtobufCMessage *message, const char *path, Lines *out);

/* One value of `field` at `member` (a pointer to the value), as golden-bytes.py prints it. */
static void value(const ProtobufCFieldDescriptor *field, const void *member, const char *name, Lines *out) {
    switch (field->type) {
    case PROTOBUF_C_TYPE_MESSAGE: {
        const ProtobufCMessage *inner = *(ProtobufCMessage *const *)member;
        size_t before = out->count;
        char prefix[512];
        snprintf(prefix, sizeof prefix, "%s.", name);
        dump(inner, prefix, out);
        if (out->count == before) add(out, "%s = {}", name);
        break;
    }
    case PROTOBUF_C_TYPE_FLOAT: add(out, "%s = %.9g", name, (double)*(const float *)member); break;
    case PROTOBUF_C_TYPE_DOUBLE: add(out, "%s = %.17g", name, *(const double *)member); break;
    case PROTOBUF_C_TYPE_BOOL: add(out, "%s = %s", name, *(const protobuf_c_boolean *)member ? "true" : "false"); break;
    case PROTOBUF_C_TYPE_STRING: {
        const char *text = *(char *const *)member;
        char *encoded = malloc(2 * strlen(text) + 1);
        hex(encoded, (const uint8_t *)text, strlen(text));
        add(out, "%s = %s", name, encoded);
        free(encoded);
        break;
    }
    case PROTOBUF_C_TYPE_BYTES: {
        const ProtobufCBinaryData *data = member;
        char *encoded = malloc(2 * data->len + 1);
        hex(encoded, data->data, data->len);
        add(out, "%s = %s", name, encoded);
        free(encoded);
        break;
    }
    case PROTOBUF_C_TYPE_ENUM:
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SFIXED32: add(out, "%s = %d", name, *(const int32_t *)member); break;
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32: add(out, "%s = %u", name, *(const uint32_t *)member); break;
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64: add(out, "%s = %lld", name, (long long)*(const int64_t *)member); break;
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64: add(out, "%s = %llu", name, (unsigned long long)*(const uint64_t *)member); break;
    }
}

static size_t element_size(const ProtobufCFieldDescriptor *field) {
    switch (field->type) {
    case PROTOBUF_C_TYPE_MESSAGE:
    case PROTOBUF_C_TYPE_STRING: return sizeof(void *);
    case PROTOBUF_C_TYPE_BYTES: return sizeof(ProtobufCBinaryData);
    case PROTOBUF_C_TYPE_DOUBLE:
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64: return 8;
    case PROTOBUF_C_TYPE_BOOL: return sizeof(protobuf_c_boolean);
    default: return 4;
    }
}

/* Is the proto3 scalar at `member` its default (0, false, "", empty bytes)? */
static int is_default(const ProtobufCFieldDescriptor *field, const void *member) {
    switch (field->type) {
    case PROTOBUF_C_TYPE_STRING: {
        const char *text = *(char *const *)member;
        return !text || !text[0];
    }
    case PROTOBUF_C_TYPE_BYTES: return ((const ProtobufCBinaryData *)member)->len == 0;
    case PROTOBUF_C_TYPE_MESSAGE: return *(void *const *)member == NULL;
    case PROTOBUF_C_TYPE_FLOAT: return *(const float *)member == 0;
    case PROTOBUF_C_TYPE_DOUBLE: return *(const double *)member == 0;
    default: {
        uint8_t zero[8] = {0};
        return memcmp(member, zero, element_size(field)) == 0;
    }
    }
}

/* Every field set, depth first in field-number order (the generated descriptors list fields
 * in that order): scalars that are not their default, messages present, oneof members set. */
static void dump(const ProtobufCMessage *message, const char *path, Lines *out) {
    const ProtobufCMessageDescriptor *descriptor = message->descriptor;
    unknown_fields += (int)message->n_unknown_fields;
    for (unsigned i = 0; i < descriptor->n_fields; i++) {
        const ProtobufCFieldDescriptor *field = &descriptor->fields[i];
        const uint8_t *base = (const uint8_t *)message;
        const void *member = base + field->offset;
        char name[512];
        snprintf(name, sizeof name, "%s%s", path, field->name);
        if (field->label == PROTOBUF_C_LABEL_REPEATED) {
            size_t count = *(const size_t *)(base + field->quantifier_offset);
            const uint8_t *items = *(uint8_t *const *)member;
            for (size_t k = 0; k < count; k++) {
                char item[560];
                snprintf(item, sizeof item, "%s[%zu]", name, k);
                value(field, items + k * element_size(field), item, out);
            }
            continue;
        }
        if (field->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) {
            if (*(const uint32_t *)(base + field->quantifier_offset) != field->id) continue;
        } else if (is_default(field, member)) {
            continue;
        }
        value(field, member, name, out);
    }
}

static size_t unhex(const char *text, uint8_t *out) {
    size_t length = strlen(text) / 2;
    for (size_t i = 0; i < length; i++) sscanf(text + 2 * i, "%2hhx", &out[i]);
    return length;
}

static char *read_file(const char *path) {
    FILE *file = fopen(path, "rb");
    if (!file) {
        perror(path);
        exit(2);
    }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    rewind(file);
    char *text = malloc((size_t)size + 1);
    if (fread(text, 1, (size_t)size, file) != (size_t)size) exit(2);
    text[size] = 0;
    fclose(file);
    return text;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: golden-test VECTORS_DIR\n");
        return 2;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/golden.hex", argv[1]);
    char *vectors = read_file(path);
    snprintf(path, sizeof path, "%s/golden.dump", argv[1]);
    char *expected = read_file(path);
    int failures = 0, count = 0, built = 0;
    char *expected_cursor = expected;
    for (char *line = strtok(vectors, "\n"); line; line = strtok(NULL, "\n")) {
        char *space = strchr(line, ' ');
        if (!space) continue;
        *space = 0;
        const char *label = line, *frame_hex = space + 1;
        uint8_t *frame = malloc(strlen(frame_hex) / 2 + 1);
        size_t length = unhex(frame_hex, frame);
        Layoutd__V1__Envelope *envelope = layoutd__v1__envelope__unpack(NULL, length - 4, frame + 4);
        if (!envelope) {
            fprintf(stderr, "FAIL %s: protobuf-c cannot decode it\n", label);
            failures++;
            free(frame);
            continue;
        }
        count++;
        /* Built by hand, as a C program would: the same bytes. */
        for (size_t i = 0; i < golden_request_count; i++) {
            if (strcmp(golden_requests[i].label, label) != 0) continue;
            size_t built_length = 0;
            uint8_t *built_frame = layoutd_frame(golden_requests[i].build(), &built_length);
            if (built_length != length || memcmp(built_frame, frame, length) != 0) {
                fprintf(stderr, "FAIL %s: the request built in C encodes to other bytes\n", label);
                failures++;
            }
            built++;
            free(built_frame);
        }
        /* Encoded again: the same bytes. */
        size_t again_length = 0;
        uint8_t *again = layoutd_frame(envelope, &again_length);
        if (again_length != length || memcmp(again, frame, length) != 0) {
            fprintf(stderr, "FAIL %s: protobuf-c encodes it to other bytes\n", label);
            failures++;
        }
        /* Decoded: the values Python printed, line for line. */
        Lines lines = {0};
        unknown_fields = 0;
        dump(&envelope->base, "", &lines);
        if (unknown_fields) {
            fprintf(stderr, "FAIL %s: %d fields protobuf-c does not know\n", label, unknown_fields);
            failures++;
        }
        for (size_t i = 0; i < lines.count; i++) {
            char *end = strchr(expected_cursor, '\n');
            size_t span = end ? (size_t)(end - expected_cursor) : strlen(expected_cursor);
            char want[span + 1];
            memcpy(want, expected_cursor, span);
            want[span] = 0;
            char got[strlen(label) + strlen(lines.lines[i]) + 2];
            sprintf(got, "%s %s", label, lines.lines[i]);
            if (strcmp(want, got) != 0) {
                fprintf(stderr, "FAIL %s: decoded\n  C:      %.200s\n  Python: %.200s\n", label, got, want);
                failures++;
                break;
            }
            expected_cursor = end ? end + 1 : expected_cursor + span;
        }
        /* Python printed nothing more for this vector. */
        if (strncmp(expected_cursor, label, strlen(label)) == 0 && expected_cursor[strlen(label)] == ' ') {
            fprintf(stderr, "FAIL %s: Python found fields C did not: %.200s\n", label, expected_cursor);
            failures++;
            while (strncmp(expected_cursor, label, strlen(label)) == 0 && strchr(expected_cursor, '\n'))
                expected_cursor = strchr(expected_cursor, '\n') + 1;
        }
        for (size_t i = 0; i < lines.count; i++) free(lines.lines[i]);
        free(lines.lines);
        free(again);
        free(frame);
        layoutd__v1__envelope__free_unpacked(envelope, NULL);
    }
    free(vectors);
    free(expected);
    if (built != (int)golden_request_count) {
        fprintf(stderr, "FAIL: %d of the %zu requests built in C are in golden.hex\n", built, golden_request_count);
        failures++;
    }
    if (failures) {
        fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    printf("ok: protobuf-c decodes and encodes the %d golden vectors as Python does, and builds its %d requests to the same bytes\n",
           count, built);
    return 0;
}
