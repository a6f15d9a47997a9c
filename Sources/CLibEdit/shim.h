#ifndef CLIBEDIT_SHIM_H
#define CLIBEDIT_SHIM_H
#include <stdio.h>
// libedit's readline compatibility header. NOT <readline/readline.h>, which is GNU readline.
#include <editline/readline.h>
#include <histedit.h>

// el_set and history are variadic and so not imported into Swift: small wrappers instead.
static inline History *d2s_history_init(void) { return history_init(); }
static inline int d2s_history_enter(History *h, const char *line) {
  HistEvent ev;
  return history(h, &ev, H_ENTER, line);
}
static inline int d2s_history_set_size(History *h, int size) {
  HistEvent ev;
  return history(h, &ev, H_SETSIZE, size);
}
#endif
