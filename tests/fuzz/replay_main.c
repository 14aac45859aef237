/* replay_main.c — runs a libFuzzer target without libFuzzer: over every file
 * in the corpus directory given as argv[1] (if it exists), plus a fixed set
 * of generated inputs (empty, every single byte, seeded random buffers). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_target.h"

static size_t replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    static uint8_t buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    uint8_t *copy = malloc(n ? n : 1); /* exact size, so ASan sees overreads */
    memcpy(copy, buf, n);
    LLVMFuzzerTestOneInput(copy, n);
    free(copy);
    return 1;
}

int main(int argc, char **argv)
{
    size_t files = 0;
    if (argc > 1) {
        DIR *d = opendir(argv[1]);
        if (d) {
            struct dirent *e;
            char path[4096];
            while ((e = readdir(d))) {
                if (e->d_name[0] == '.')
                    continue;
                snprintf(path, sizeof path, "%s/%s", argv[1], e->d_name);
                files += replay_file(path);
            }
            closedir(d);
        }
    }
    LLVMFuzzerTestOneInput((const uint8_t *)"", 0);
    for (int b = 0; b < 256; b++) {
        uint8_t one = (uint8_t)b;
        LLVMFuzzerTestOneInput(&one, 1);
    }
    uint64_t x = 0x9E3779B97F4A7C15u;
    for (int i = 0; i < 2000; i++) {
        size_t n = (size_t)(i % 300);
        uint8_t *buf = malloc(n ? n : 1);
        for (size_t j = 0; j < n; j++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            buf[j] = (uint8_t)x;
        }
        LLVMFuzzerTestOneInput(buf, n);
        free(buf);
    }
    printf("replayed %zu corpus files and 2257 generated inputs\n", files);
    return 0;
}
