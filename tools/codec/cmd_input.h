/* cmd_input.h — reading a command's input (a file or stdin) whole. */
#ifndef CODEC_CMD_INPUT_H
#define CODEC_CMD_INPUT_H

#include "codec/codec.h"

/* Appends the bytes of `path` (NULL or "-" = stdin) to `out`.
 * @return 0, or CODEC_E_TRANSIENT (cannot read; err says why) or CODEC_E_NOMEM. */
int cmd_read_input(const char *path, codec_buf *out, codec_error *err);

/* Prints "codec <cmd>: <stage>: <message> (offset N)" to stderr. */
void cmd_print_error(const char *cmd, const codec_error *err);

/* The commands this file serves (argv[0] is the command name). */
int cmd_validate(int argc, char **argv);
int cmd_convert(int argc, char **argv);

#endif
