// What a blocking round trip between two processes costs on this machine, with no daemon and no
// Python: one byte over a Unix socket pair, back and forth, the two processes pinned as asked,
// either side sleeping in read() or spinning on a non-blocking recv(), the server optionally
// waiting in epoll_wait() before its read, as an event loop does. It prints the round trip's wall
// time and what it cost each side in CPU (rusage): a sleep and a wake-up, a read and a write.
// `kernel-cost.md` (sessions 55 and 65) has what it measured; `scripts/kernel-cost.py` times the
// same thing from its own client.
//
//   cc -O2 -o /tmp/socket-pingpong scripts/socket-pingpong.c
//   /tmp/socket-pingpong CLIENT_CPU SERVER_CPU [SERVER_SPINS CLIENT_SPINS [WORK_US [SERVER_EPOLL]]]   (CPU -1: not pinned)
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double microseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec * 1e6 + now.tv_nsec / 1e3;
}

// CPU microseconds (user and system) of `who`: RUSAGE_SELF, or RUSAGE_CHILDREN once waited for.
static double cpuMicroseconds(int who) {
    struct rusage usage;
    getrusage(who, &usage);
    return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e6 + usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
}

static void pin(int cpu) {
    if (cpu < 0) return;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) { perror("sched_setaffinity"); exit(2); }
}

// One byte from `fd`: by sleeping in read(), or by spinning until it is there.
static void receive(int fd, int spins) {
    char byte;
    if (spins) { while (recv(fd, &byte, 1, MSG_DONTWAIT) <= 0) {} }
    else if (read(fd, &byte, 1) != 1) { perror("read"); exit(2); }
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s CLIENT_CPU SERVER_CPU [SERVER_SPINS CLIENT_SPINS [WORK_US [SERVER_EPOLL]]]\n", argv[0]); return 2; }
    int clientCPU = atoi(argv[1]), serverCPU = atoi(argv[2]);
    int serverSpins = argc > 3 ? atoi(argv[3]) : 0, clientSpins = argc > 4 ? atoi(argv[4]) : 0;
    double work = argc > 5 ? atof(argv[5]) : 0;  // the server's busy time a request, as a layout's
    int serverPolls = argc > 6 ? atoi(argv[6]) : 0;  // the server waits in epoll_wait() before it reads
    enum { trips = 20000 };
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) != 0) { perror("socketpair"); return 2; }
    pid_t server = fork();
    if (server == 0) {
        pin(serverCPU);
        int poller = epoll_create1(0);
        struct epoll_event event = {.events = EPOLLIN};
        if (poller < 0 || epoll_ctl(poller, EPOLL_CTL_ADD, pair[1], &event) != 0) { perror("epoll"); _exit(2); }
        for (int i = 0; i < trips; i++) {
            if (serverPolls && epoll_wait(poller, &event, 1, -1) != 1) { perror("epoll_wait"); _exit(2); }
            receive(pair[1], serverSpins);
            for (double start = microseconds(); microseconds() - start < work;) {}
            if (write(pair[1], "x", 1) != 1) _exit(2);
        }
        _exit(0);
    }
    pin(clientCPU);
    double start = microseconds(), clientStart = cpuMicroseconds(RUSAGE_SELF);
    for (int i = 0; i < trips; i++) {
        if (write(pair[0], "x", 1) != 1) { perror("write"); return 2; }
        receive(pair[0], clientSpins);
    }
    double elapsed = microseconds() - start, clientCPUTime = cpuMicroseconds(RUSAGE_SELF) - clientStart;
    waitpid(server, NULL, 0);
    double serverCPUTime = cpuMicroseconds(RUSAGE_CHILDREN);
    printf("client cpu %d, server cpu %d, server spins %d, client spins %d, work %.0f us, server polls %d: %.2f us a round trip;"
           " CPU a round trip: server %.2f us, client %.2f us\n",
           clientCPU, serverCPU, serverSpins, clientSpins, work, serverPolls, elapsed / trips, serverCPUTime / trips, clientCPUTime / trips);
    return 0;
}
