#ifndef CLIBEDITLOADER_H
#define CLIBEDITLOADER_H
// libedit is loaded when the interactive REPL starts, not when a process starts: scripts,
// `-c` commands and transcripts never load it and the libraries it needs (libtinfo, libbsd,
// libmd). These are libedit's readline functions and variables as D2S uses them, under
// `d2s_` names (libedit's own names, defined here, would be bound by libedit's own calls).
#include <stdio.h>

/// Loads libedit (once: `libedit.so.2`, or what `D2S_LIBEDIT` names); NULL when it is loaded,
/// else why it could not be.
const char *d2s_libedit_load(void);

char *d2s_readline(const char *prompt);
int d2s_add_history(const char *line);
int d2s_read_history(const char *path);
int d2s_write_history(const char *path);
char **d2s_rl_completion_matches(const char *text, char *(*generator)(const char *, int));
void d2s_rl_forced_update_display(void);

/// `rl_getc_function = function`.
void d2s_rl_set_getc_function(int (*function)(FILE *));
/// `rl_readline_name = name` (kept, not copied).
void d2s_rl_set_readline_name(const char *name);
/// `rl_attempted_completion_function = function`.
void d2s_rl_set_attempted_completion_function(char **(*function)(const char *, int, int));
/// `rl_attempted_completion_over = value`.
void d2s_rl_set_attempted_completion_over(int value);
/// `rl_line_buffer`: the line being edited (NULL before libedit is loaded).
const char *d2s_rl_line_buffer(void);

#endif
