/* machine.h — the machine line every report starts with. */
#ifndef BENCH_MACHINE_H
#define BENCH_MACHINE_H

typedef struct bench_machine {
    char cpu[128];
    int cores;
    char cpu_features[128];   /* codec_cpu_features() names */
    char compiler[96];
    char flags[160];
    char host[64];
    char date[32];            /* ISO 8601 UTC */
    char stamp[32];           /* for file names: 2026-11-30T110402Z */
    char libraries[512];      /* "codec 0.1.0, zlib 1.2.13, ..." */
} bench_machine;

void bench_machine_get(bench_machine *m);

#endif
