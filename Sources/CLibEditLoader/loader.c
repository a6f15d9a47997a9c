// Trampolines into libedit, opened on first use (see include/CLibEditLoader.h). Each one
// looks its target up once and does nothing (answering 0 or NULL) when libedit cannot be
// loaded; d2s_libedit_load() says why.
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include "CLibEditLoader.h"

static void *library;
static const char *load_error;
static pthread_once_t once = PTHREAD_ONCE_INIT;

// D2S_LIBEDIT names another libedit to load (a path or a soname).
static void load(void) {
  const char *name = getenv("D2S_LIBEDIT");
  if (!name || !*name) name = "libedit.so.2";
  library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *error = dlerror();
    load_error = error ? error : "cannot load libedit";
  }
}

const char *d2s_libedit_load(void) {
  pthread_once(&once, load);
  return load_error;
}

static void *symbol(const char *name) {
  pthread_once(&once, load);
  return library ? dlsym(library, name) : NULL;
}

char *d2s_readline(const char *prompt) {
  static char *(*target)(const char *);
  if (!target) target = (char *(*)(const char *))symbol("readline");
  return target ? target(prompt) : NULL;
}

int d2s_add_history(const char *line) {
  static int (*target)(const char *);
  if (!target) target = (int (*)(const char *))symbol("add_history");
  return target ? target(line) : 0;
}

int d2s_read_history(const char *path) {
  static int (*target)(const char *);
  if (!target) target = (int (*)(const char *))symbol("read_history");
  return target ? target(path) : 0;
}

int d2s_write_history(const char *path) {
  static int (*target)(const char *);
  if (!target) target = (int (*)(const char *))symbol("write_history");
  return target ? target(path) : 0;
}

char **d2s_rl_completion_matches(const char *text, char *(*generator)(const char *, int)) {
  static char **(*target)(const char *, char *(*)(const char *, int));
  if (!target) {
    target = (char **(*)(const char *, char *(*)(const char *, int)))symbol(
        "rl_completion_matches");
  }
  return target ? target(text, generator) : NULL;
}

void d2s_rl_forced_update_display(void) {
  static void (*target)(void);
  if (!target) target = (void (*)(void))symbol("rl_forced_update_display");
  if (target) target();
}

void d2s_rl_set_getc_function(int (*function)(FILE *)) {
  int (**variable)(FILE *) = (int (**)(FILE *))symbol("rl_getc_function");
  if (variable) *variable = function;
}

void d2s_rl_set_readline_name(const char *name) {
  const char **variable = (const char **)symbol("rl_readline_name");
  if (variable) *variable = name;
}

void d2s_rl_set_attempted_completion_function(char **(*function)(const char *, int, int)) {
  char **(**variable)(const char *, int, int) =
      (char **(**)(const char *, int, int))symbol("rl_attempted_completion_function");
  if (variable) *variable = function;
}

void d2s_rl_set_attempted_completion_over(int value) {
  int *variable = (int *)symbol("rl_attempted_completion_over");
  if (variable) *variable = value;
}

const char *d2s_rl_line_buffer(void) {
  char **variable = (char **)symbol("rl_line_buffer");
  return variable ? *variable : NULL;
}
