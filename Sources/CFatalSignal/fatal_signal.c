// A crash must leave a line in the log: systemd alone says only "status=11/SEGV". Written in C
// because a signal handler may call only async-signal-safe functions (signal-safety(7)): no
// allocation, no locks, no Swift runtime; the line is assembled in a stack buffer and written
// with write(2).
#define _GNU_SOURCE
#include "fatal_signal.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static _Thread_local const char *serving;
static _Thread_local int has_alternate_stack;
static int journal_prefix;

static void append(char *line, size_t *length, size_t capacity, const char *text) {
    while (*text && *length + 1 < capacity) line[(*length)++] = *text++;
}

static const char *signal_name(int number) {
    switch (number) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGABRT: return "SIGABRT";
    default: return "a fatal signal";
    }
}

static void on_fatal_signal(int number) {
    char line[256];
    size_t length = 0;
    if (journal_prefix) append(line, &length, sizeof line, "<2>");
    append(line, &length, sizeof line, "layoutd: fatal ");
    append(line, &length, sizeof line, signal_name(number));
    if (serving) {
        append(line, &length, sizeof line, " while serving a ");
        append(line, &length, sizeof line, serving);
        append(line, &length, sizeof line, " request");
    } else {
        append(line, &length, sizeof line, " outside any request");
    }
    append(line, &length, sizeof line, "; exiting\n");
    ssize_t ignored = write(STDERR_FILENO, line, length);
    (void)ignored;
    // SA_RESETHAND restored the default action: the same signal now ends the process as it would
    // have, with its core dump and the status systemd reports.
    raise(number);
}

void layoutd_fatal_signal_install(int journal) {
    journal_prefix = journal;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_fatal_signal;
    action.sa_flags = SA_RESETHAND | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    int fatal[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
    for (size_t k = 0; k < sizeof fatal / sizeof fatal[0]; k++) sigaction(fatal[k], &action, NULL);
    layoutd_fatal_signal_serving(NULL);
}

void layoutd_fatal_signal_serving(const char *name) {
    if (!has_alternate_stack) {
        // A thread that has one already (AddressSanitizer gives every thread its own, and unmaps
        // it at thread exit) keeps it.
        stack_t current;
        if (sigaltstack(NULL, &current) == 0 && !(current.ss_flags & SS_DISABLE)) {
            has_alternate_stack = 1;
            serving = name;
            return;
        }
        // Never freed: the thread may die with it in use, and threads here live as long as the
        // daemon (event loops and the worker pool).
        stack_t stack;
        stack.ss_size = 64 * 1024;
        stack.ss_sp = malloc(stack.ss_size);
        stack.ss_flags = 0;
        if (stack.ss_sp && sigaltstack(&stack, NULL) == 0) {
            has_alternate_stack = 1;
        } else {
            free(stack.ss_sp);
            has_alternate_stack = -1;  // not tried again
        }
    }
    serving = name;
}
