/* child.h — measurements that need fresh processes: --forks N (each cell
 * re-run in N child processes, samples merged) and the cold-start suite
 * (a new process per sample: process start, codec init, first operation). */
#ifndef BENCH_CHILD_H
#define BENCH_CHILD_H

#include "harness.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* Starts `file` (searched on PATH when `search`) with argv, its stdout on a
 * pipe whose read end is *out_fd. @return the pid, or -1 (errno set). */
pid_t bench_spawn_reading(const char *file, bool search, char **argv, int *out_fd);

/* Child side of --forks: prints cell results as one line. */
void bench_cell_serialize(FILE *f, const bench_cell *c);
/* Parent side: merges a serialized line into c (samples appended). */
int bench_cell_merge(bench_cell *c, const char *line);

/* Runs `self` with `argv` (argv[0] ignored) plus "--child-cell K" `forks`
 * times and merges the results into c. */
void bench_run_forked(bench_cell *c, size_t index, int forks, char **argv, int argc);

/* Cold start: runs "self --cold-child SPEC PAYLOAD" prof->cold_samples times. */
void bench_run_cold(bench_cell *c, const bench_profile *prof);

/* The child of a cold-start sample; `t_main` is the monotonic time at which
 * main() was entered. Prints its timings and returns the exit status. */
int bench_cold_child(int64_t t_main, const char *spec, const char *payload);

#endif
