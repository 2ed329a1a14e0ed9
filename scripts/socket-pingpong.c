// What a blocking round trip between two processes costs on this machine, with no daemon and no
// Python: one byte over a Unix socket pair, back and forth, the two processes pinned as asked,
// either side sleeping in read() or spinning on a non-blocking recv(). `kernel-cost.md` (session
// 55) has what it measured; `scripts/kernel-cost.py` times the same thing from its own client.
//
//   cc -O2 -o /tmp/socket-pingpong scripts/socket-pingpong.c
//   /tmp/socket-pingpong CLIENT_CPU SERVER_CPU [SERVER_SPINS CLIENT_SPINS [WORK_US]]   (CPU -1: not pinned)
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double microseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec * 1e6 + now.tv_nsec / 1e3;
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
    if (argc < 3) { fprintf(stderr, "usage: %s CLIENT_CPU SERVER_CPU [SERVER_SPINS CLIENT_SPINS [WORK_US]]\n", argv[0]); return 2; }
    int clientCPU = atoi(argv[1]), serverCPU = atoi(argv[2]);
    int serverSpins = argc > 3 ? atoi(argv[3]) : 0, clientSpins = argc > 4 ? atoi(argv[4]) : 0;
    double work = argc > 5 ? atof(argv[5]) : 0;  // the server's busy time a request, as a layout's
    enum { trips = 20000 };
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) != 0) { perror("socketpair"); return 2; }
    pid_t server = fork();
    if (server == 0) {
        pin(serverCPU);
        for (int i = 0; i < trips; i++) {
            receive(pair[1], serverSpins);
            for (double start = microseconds(); microseconds() - start < work;) {}
            if (write(pair[1], "x", 1) != 1) _exit(2);
        }
        _exit(0);
    }
    pin(clientCPU);
    double start = microseconds();
    for (int i = 0; i < trips; i++) {
        if (write(pair[0], "x", 1) != 1) { perror("write"); return 2; }
        receive(pair[0], clientSpins);
    }
    double elapsed = microseconds() - start;
    waitpid(server, NULL, 0);
    printf("client cpu %d, server cpu %d, server spins %d, client spins %d, work %.0f us: %.2f us a round trip\n",
           clientCPU, serverCPU, serverSpins, clientSpins, work, elapsed / trips);
    return 0;
}
