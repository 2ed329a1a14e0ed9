// A client that costs the daemon's processor as little as a client can: it sends request frames
// made beforehand (the wire's bytes, each a 4-byte big-endian length and a body) and counts the
// reply frames, parsing nothing else. `scripts/kernel-cost.py --client c` drives the daemon with
// it beside the Python client, to tell the daemon's cost from what a client that shares the
// machine's caches and turns around slower might add to it (kernel-cost.md, session 56: within
// this machine's noise, nothing).
//
//   cc -O2 -o /tmp/frame-pump scripts/frame-pump.c
//   /tmp/frame-pump SOCKET FRAMES one                     round trips one at a time, one connection
//   /tmp/frame-pump SOCKET FRAMES flight CONNECTIONS DEPTH each connection keeping DEPTH in flight
//   /tmp/frame-pump SOCKET FRAMES batch ITEMS             FRAMES holds one frame, answered by ITEMS frames
//
// FRAMES is a file of frames end to end. Prints each round trip in microseconds, one a line (one
// at a time), or the whole exchange's wall time (flight, batch). Exits 1 with a message if the
// daemon closes a connection early, as the Python client does.
#define _GNU_SOURCE
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static double microseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec * 1e6 + now.tv_nsec / 1e3;
}

static void fail(const char *what) {
    fprintf(stderr, "frame-pump: %s\n", what);
    exit(1);
}

static uint32_t length_at(const uint8_t *bytes) {
    return (uint32_t)bytes[0] << 24 | (uint32_t)bytes[1] << 16 | (uint32_t)bytes[2] << 8 | bytes[3];
}

static int connect_to(const char *path) {
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    if (fd < 0 || strlen(path) >= sizeof address.sun_path) fail("socket");
    strcpy(address.sun_path, path);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) fail("connect");
    return fd;
}

static void send_all(int fd, const uint8_t *bytes, size_t count) {
    while (count) {
        ssize_t sent = send(fd, bytes, count, MSG_NOSIGNAL);
        if (sent <= 0) fail("send");
        bytes += sent;
        count -= (size_t)sent;
    }
}

// Replies are read into a buffer and counted frame by frame; what is left of a frame cut short
// stays at the buffer's start for the next read.
struct replies {
    uint8_t *bytes;
    size_t capacity, held;
};

static size_t read_replies(int fd, struct replies *r) {
    if (r->held == r->capacity) {
        r->capacity *= 2;
        if (!(r->bytes = realloc(r->bytes, r->capacity))) fail("memory");
    }
    ssize_t got = recv(fd, r->bytes + r->held, r->capacity - r->held, 0);
    if (got <= 0) fail("the daemon closed a connection");
    r->held += (size_t)got;
    size_t frames = 0, offset = 0;
    while (r->held - offset >= 4) {
        size_t next = offset + 4 + length_at(r->bytes + offset);
        if (next > r->held) {
            if (next - offset > r->capacity) {  // a frame larger than the buffer: room for all of it
                r->capacity = next - offset;
                if (!(r->bytes = realloc(r->bytes, r->capacity))) fail("memory");
            }
            break;
        }
        offset = next;
        frames++;
    }
    memmove(r->bytes, r->bytes + offset, r->held - offset);
    r->held -= offset;
    return frames;
}

int main(int argc, char **argv) {
    if (argc < 4) fail("usage: frame-pump SOCKET FRAMES one | flight CONNECTIONS DEPTH | batch ITEMS");
    FILE *file = fopen(argv[2], "rb");
    struct stat info;
    if (!file || fstat(fileno(file), &info) != 0) fail("cannot read FRAMES");
    uint8_t *data = malloc((size_t)info.st_size + 1);
    if (!data || fread(data, 1, (size_t)info.st_size, file) != (size_t)info.st_size) fail("cannot read FRAMES");
    fclose(file);
    size_t count = 0, capacity = 1024;
    size_t *starts = malloc(capacity * sizeof *starts);  // frame k is data[starts[k] ..< starts[k + 1]]
    if (!starts) fail("memory");
    for (size_t offset = 0; offset + 4 <= (size_t)info.st_size; offset += 4 + length_at(data + offset)) {
        if (count + 2 > capacity && !(starts = realloc(starts, (capacity *= 2) * sizeof *starts))) fail("memory");
        starts[count++] = offset;
    }
    size_t end = count ? starts[count - 1] + 4 + length_at(data + starts[count - 1]) : 0;
    if (end != (size_t)info.st_size) fail("FRAMES ends inside a frame");
    starts[count] = (size_t)info.st_size;
    struct replies r = {malloc(1 << 20), 1 << 20, 0};

    if (strcmp(argv[3], "one") == 0) {
        int fd = connect_to(argv[1]);
        double *trips = malloc(count * sizeof *trips);
        if (!trips) fail("memory");
        for (size_t k = 0; k < count; k++) {
            double start = microseconds();
            send_all(fd, data + starts[k], starts[k + 1] - starts[k]);
            while (read_replies(fd, &r) == 0) {}
            trips[k] = microseconds() - start;
        }
        for (size_t k = 0; k < count; k++) printf("%.3f\n", trips[k]);
        return 0;
    }
    if (strcmp(argv[3], "batch") == 0 && argc == 5) {
        long items = atol(argv[4]);
        int fd = connect_to(argv[1]);
        double start = microseconds();
        send_all(fd, data, (size_t)info.st_size);
        for (long left = items; left > 0;) left -= (long)read_replies(fd, &r);
        printf("%.3f\n", microseconds() - start);
        return 0;
    }
    if (strcmp(argv[3], "flight") != 0 || argc != 6) fail("usage: frame-pump SOCKET FRAMES one | flight CONNECTIONS DEPTH | batch ITEMS");
    // Connection c sends frames c, c + n, c + 2n, …, as kernel-cost.py's in_flight shares them.
    int connections = atoi(argv[4]), depth = atoi(argv[5]);
    if (connections < 1 || depth < 1) fail("CONNECTIONS and DEPTH must be at least 1");
    struct pollfd *polls = calloc((size_t)connections, sizeof *polls);
    struct replies *buffers = calloc((size_t)connections, sizeof *buffers);
    size_t *next = calloc((size_t)connections, sizeof *next), *left = calloc((size_t)connections, sizeof *left);
    uint8_t *outgoing = malloc((size_t)info.st_size + 1);
    int open = 0;
    double start = microseconds();
    for (int c = 0; c < connections; c++) {
        buffers[c] = (struct replies){malloc(1 << 20), 1 << 20, 0};
        polls[c] = (struct pollfd){.fd = connect_to(argv[1]), .events = POLLIN};
        left[c] = count > (size_t)c ? (count - (size_t)c + (size_t)connections - 1) / (size_t)connections : 0;
        next[c] = (size_t)c;
        if (!left[c]) { close(polls[c].fd); polls[c].fd = -1; continue; }
        open++;
        size_t held = 0;
        for (int d = 0; d < depth && next[c] < count; d++, next[c] += (size_t)connections) {
            size_t size = starts[next[c] + 1] - starts[next[c]];
            memcpy(outgoing + held, data + starts[next[c]], size);
            held += size;
        }
        send_all(polls[c].fd, outgoing, held);
    }
    while (open) {
        if (poll(polls, (nfds_t)connections, -1) < 0) fail("poll");
        for (int c = 0; c < connections; c++) {
            if (polls[c].fd < 0 || !(polls[c].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            size_t replies = read_replies(polls[c].fd, &buffers[c]), held = 0;
            left[c] -= replies;
            for (; replies && next[c] < count; replies--, next[c] += (size_t)connections) {  // one more for each reply
                size_t size = starts[next[c] + 1] - starts[next[c]];
                memcpy(outgoing + held, data + starts[next[c]], size);
                held += size;
            }
            if (held) send_all(polls[c].fd, outgoing, held);
            if (!left[c]) { close(polls[c].fd); polls[c].fd = -1; open--; }
        }
    }
    printf("%.3f\n", microseconds() - start);
    return 0;
}
