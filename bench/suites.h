/* suites.h — the suites of BENCHMARK-METHOD.md as lists of cells.
 *
 * A cell names a driver, a spec for it and a payload. codec cells are
 * pipeline specs; whether this build can parse them is decided when the
 * cell is opened, so a suite lists the same cells in every build and cells
 * whose stages have not been built are reported "not built". */
#ifndef BENCH_SUITES_H
#define BENCH_SUITES_H

#include "harness.h"

#include <stdbool.h>

extern const char *const bench_suite_names[];
extern const size_t bench_suite_count;

typedef struct bench_plan {
    bench_cell *cells;
    size_t n, cap;
    char keyring[64];     /* temporary key ring of the crypto suite ("" = none) */
} bench_plan;

/* Adds the cells of `suite` whose id matches `filter` (NULL = all; a glob
 * such as "compression/zstd*" or a plain substring).
 * @return 0, or -1 (unknown suite, or out of memory / key ring not written). */
int bench_plan_add_suite(bench_plan *plan, const char *suite, const char *filter);

/* Removes the key ring file and frees the cells. */
void bench_plan_free(bench_plan *plan);

bool bench_suite_known(const char *suite);

#endif
