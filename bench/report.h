/* report.h — the outputs of a run: <out>/<stamp>-<host>.json and .csv
 * (every cell, machine-readable), <out>/latest/report.md (tables shaped like
 * the published ones: sizes and ratios beside speeds, each peer under codec
 * with the codec/peer ratio) and <out>/latest/<suite>.svg bar charts. */
#ifndef BENCH_REPORT_H
#define BENCH_REPORT_H

#include "harness.h"
#include "machine.h"
#include "suites.h"

typedef struct bench_run_info {
    const bench_machine *machine;
    const bench_profile *profile;
    int forks;
    const char *const *suites;   /* the suites asked for */
    int nsuites;
    const char *filter;          /* --filter, or NULL */
} bench_run_info;

/* Writes everything under `out_dir` (created if missing). Prints the paths
 * written to stderr. @return 0 or -1 (errno set). */
int bench_write_reports(const char *out_dir, const bench_plan *plan,
                        const bench_run_info *info);

/* The parts, for the tests. */
int bench_write_json(const char *path, const bench_plan *plan, const bench_run_info *info);
int bench_write_csv(const char *path, const bench_plan *plan);
int bench_write_markdown(const char *dir, const bench_plan *plan, const bench_run_info *info);

#endif
