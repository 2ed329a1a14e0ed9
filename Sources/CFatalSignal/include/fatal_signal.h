#ifndef LAYOUTD_FATAL_SIGNAL_H
#define LAYOUTD_FATAL_SIGNAL_H

/// Installs handlers for SIGSEGV, SIGBUS, SIGILL, SIGFPE and SIGABRT that write one line to
/// standard error (the signal and the request the crashing thread was serving), then die of the
/// same signal, so systemd still sees it. `journal` non-zero: the line starts with "<2>" (crit).
void layoutd_fatal_signal_install(int journal);

/// Names the request the calling thread serves now; `name` must be static storage (a string
/// literal), NULL when the thread serves none. Gives the thread an alternate signal stack the
/// first time, so that a stack overflow is reported too.
void layoutd_fatal_signal_serving(const char *name);

#endif
