/* main.c — the `codec` command (placeholder until the CLI lands). */
#include "codec/codec.h"

#include <stdio.h>

int main(void)
{
    for (size_t i = 0; i < codec_registry_count(); i++)
        printf("%s\n", codec_registry_info(i)->name);
    return 0;
}
