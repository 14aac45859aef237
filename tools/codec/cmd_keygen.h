/* cmd_keygen.h — `codec keygen [--id NAME]`: prints a new key-ring line. */
#ifndef CODEC_CMD_KEYGEN_H
#define CODEC_CMD_KEYGEN_H

/* argv[0] is the command name. Returns the exit code: 0, 2 (usage) or
 * 4 (no random bytes). */
int cmd_keygen(int argc, char **argv);

#endif
