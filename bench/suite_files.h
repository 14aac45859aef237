/* suite_files.h — what the suites that write their own report files
 * (cli; redis and kafka have their own copies) share: the head of their
 * JSON and writing NAME.json and NAME.md. */
#ifndef BENCH_SUITE_FILES_H
#define BENCH_SUITE_FILES_H

#include "harness.h"
#include "machine.h"
#include "payloads/json_out.h"

#include <stdio.h>

/* Opens the top-level object and writes "suite", "profile" and "machine"
 * (cpu, cores, host, date). The caller adds its keys and closes it. */
void bench_suite_json_head(json_out *j, const char *suite, const bench_profile *prof,
                           const bench_machine *m);

/* Writes dir/NAME.json (the bytes of `json`) and dir/NAME.md (what `md`
 * prints for `ctx`); dir is created if missing.
 * @return 0 or -1 (errno set). */
int bench_suite_write_files(const char *dir, const char *name, const codec_buf *json,
                            void (*md)(FILE *f, const void *ctx), const void *ctx);

#endif
